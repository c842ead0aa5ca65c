"""Loading a roll for its buttons (bot/rolls.py)."""

from __future__ import annotations

import asyncio
from dataclasses import fields, replace
from types import SimpleNamespace
from typing import cast

import discord
import pytest

from bot import rolls
from bot.models import Record, Table, TableSettings
from cogs.donjon.components import roll_card
from rules.donjon import posted
from rules.mediana import checks
from tests.support.harness import Harness
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, PLAYER


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


@pytest.mark.parametrize(
    ("system", "command", "options", "decoder"),
    [
        ("donjon", "donjon prueba", {"dados": 2, "contra": 2}, (posted, "from_data")),
        (
            "mediana",
            "mediana tirada",
            {"atributo": 5, "habilidad": 4, "dificultad": 12},
            (checks, "roll_from_data"),
        ),
    ],
)
async def test_a_published_roll_s_card_is_drawn_from_the_roll_thrown_and_a_replay_s_from_its_record(
    harness: Harness,
    monkeypatch: pytest.MonkeyPatch,
    system: str,
    command: str,
    options: dict[str, int],
    decoder: tuple[object, str],
) -> None:
    """``publish``'s ``fresh``: a new roll's card is drawn from the value just thrown, its
    record not decoded again; a replay's from the record the first delivery wrote (the
    dice thrown again for it shown nowhere)."""
    await harness.table_for(system)
    module, name = decoder
    decode = getattr(module, name)

    def refused(data: object) -> object:
        raise AssertionError("a new roll's card decoded its own record")

    monkeypatch.setattr(module, name, refused)
    data = harness._command_data(command.split(), options)
    harness.script(3, 9, 2, 7, 4, 1)
    first = await harness.dispatch(
        2, data, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID, interaction_id=88
    )
    monkeypatch.setattr(module, name, decode)
    harness.script(6, 5, 1, 2, 4, 3)
    replayed = await harness.dispatch(
        2, data, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID, interaction_id=88
    )
    assert "Algo ha fallado" not in first.text and first.text
    assert replayed.text == first.text
