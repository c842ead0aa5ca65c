"""Loading a roll for its buttons (bot/rolls.py)."""

from __future__ import annotations

import asyncio
from dataclasses import fields, replace
from types import SimpleNamespace
from typing import cast

import discord

from bot import rolls
from bot.models import Record, Table, TableSettings
from cogs.donjon.components import roll_card
from tests.support.harness import Harness
from tests.support.payloads import ADMIN, CHANNEL_ID, GM


async def test_a_roll_drawn_outside_the_task_that_loaded_it_keeps_its_tables_odds_setting(
    harness: Harness,
) -> None:
    """The table's setting travels with the loaded roll, not with the task that loaded it."""
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    await harness.slash("mesa ajustes", user=GM, probabilidades=False)
    harness.script(15, 4)
    await harness.slash("donjon prueba", dados=1, contra=1)
    assert harness.bot is not None
    [posted] = await harness.bot.store.records(CHANNEL_ID, "donjon")
    # Loaded on behalf of an interaction (its reads are kept on it: bot.seen).
    interaction = cast(discord.Interaction, SimpleNamespace(extras={}, client=harness.bot, channel_id=None))
    record = await asyncio.create_task(rolls.load(interaction, posted.id, "donjon"))
    assert "Probabilidad" not in str(roll_card("es", record)[0].to_dict())
    assert "Resultado" in str(roll_card("es", record)[0].to_dict())


def test_a_record_already_showing_its_tables_odds_setting_is_not_copied() -> None:
    """Every roll is loaded before it is drawn: at a table that shows the odds (the
    default, as a record reads) the record read is the record drawn."""
    record = Record(1, CHANNEL_ID, 7, "tirar", {"total": 3})
    shown = Table(CHANNEL_ID, 5)
    hidden = Table(CHANNEL_ID, 5, settings=TableSettings(roll_odds=False))
    assert rolls.with_odds(record, shown) is record
    assert rolls.with_odds(record, hidden) == replace(record, shows_odds=False)
    assert rolls.with_odds(replace(record, shows_odds=False), shown) == record


def test_a_posted_roll_keeps_every_field_but_its_message() -> None:
    """``posted_at`` builds the record field by field: every field ``Record`` has (one added
    later included) must come through as ``replace`` would carry it."""
    values: dict[str, object] = {}
    for number, field in enumerate(fields(Record), start=1):
        default = field.default
        values[field.name] = (
            (not default) if isinstance(default, bool) else {"n": number} if field.name == "data" else number
        )
    record = Record(**values)  # type: ignore[arg-type]
    assert rolls.posted_at(record, 999) == replace(record, message_id=999)
