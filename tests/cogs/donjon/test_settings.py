"""Donjon's die and level among a table's settings (cogs/donjon/settings.py)."""

from __future__ import annotations

from pathlib import Path

from bot.models import TableSettings
from bot.store import Store
from cogs.donjon.settings import DonjonSettings, donjon_settings

CHANNEL = 5


async def test_changing_a_tables_other_settings_keeps_its_donjon_die_and_level(tmp_path: Path) -> None:
    """The table's settings keep the keys only Donjon reads: a /mesa ajustes written after
    /donjon ajustes must not forget them."""
    store = await Store.open(tmp_path / "tirada.db")
    try:
        donjon = TableSettings().model_copy(update={"donjon_sides": 12, "donjon_level": 4})
        table = await store.set_settings(CHANNEL, 9, donjon)
        await store.set_settings(CHANNEL, 9, table.settings.model_copy(update={"roll_odds": False}))
        read = await store.table(CHANNEL)
        assert read is not None and read.settings.roll_odds is False
        assert donjon_settings(read) == DonjonSettings(donjon_sides=12, donjon_level=4)
    finally:
        await store.close()


def test_a_table_that_never_set_them_plays_the_books_d20_at_level_one() -> None:
    assert TableSettings.model_validate_json("{}").of(DonjonSettings) == DonjonSettings(
        donjon_sides=20, donjon_level=1
    )
