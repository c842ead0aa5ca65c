"""Rolls anywhere: every command, used in a DM and in a server without Tirada (the user's
own install), is either allowed or refused in the user's language, never a crash."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from tests.support.harness import Harness, Reply
from tests.support.payloads import PLAYER, interaction_payload
from tests.test_permissions import CASES, Case, refused

ANYWHERE = {"tirar", "probabilidad", "guardada", "estadisticas"}
PLACES = {"dm": {"guild": False}, "server-without-tirada": {"user_install": True}}
# A DM's partial channel that discord.py cannot build (no type, or a type it does not know):
# ``interaction.channel_id`` is then empty.
UNBUILT = {"untyped": {"id": "777"}, "unknown-type": {"id": "777", "type": 99}}


def test_the_commands_declare_where_they_work(harness: Harness) -> None:
    synced = {c["name"]: c for c in harness.discord.commands}
    for name, command in synced.items():
        if name in ANYWHERE:
            assert command["integration_types"] == [0, 1], name
            assert command["contexts"] == [0, 1, 2], name
        else:
            assert command["integration_types"] == [0], name
            assert command["contexts"] == [0], name
    assert set(synced) > ANYWHERE


@pytest.mark.parametrize("case", CASES, ids=[f"{c.command}-{i}" for i, c in enumerate(CASES)])
@pytest.mark.parametrize("place", PLACES)
async def test_every_command_anywhere_is_allowed_or_clearly_refused(
    harness: Harness, case: Case, place: str
) -> None:
    options = {k: v for k, v in case.options.items() if v != "gm"}
    reply = await harness.slash(case.command, user=PLAYER, **PLACES[place], **options)
    assert reply.callbacks, f"/{case.command} went unanswered"
    text = reply.text
    assert "Algo ha fallado" not in text, text
    needs_server = t("es", "error.needs_server")
    if case.command.split()[0] in ANYWHERE:
        assert needs_server not in text
    else:
        assert refused(reply) and text == needs_server


@pytest.mark.parametrize("place", PLACES)
async def test_a_roll_anywhere_and_its_repeat_button(harness: Harness, place: str) -> None:
    harness.script(4, 5)
    reply = await harness.slash("tirar", expresion="1d20+1", locale="en-US", **PLACES[place])
    assert not refused(reply) and reply.embed["fields"][1]["value"] == "**5**"
    guild = place != "dm"
    again = await harness.dispatch(
        3,
        {"custom_id": reply.message.custom_ids[0], "component_type": 2},
        user=PLAYER,
        locale="en-US",
        channel_id=reply.message.channel_id,
        message=reply.message,
        guild=guild,
        user_install=True,
    )
    assert not refused(again) and again.embed["fields"][1]["value"] == "**6**"


async def test_needing_a_table_is_said_in_english_too(harness: Harness) -> None:
    reply = await harness.slash("mesa estado", guild=False, locale="en-US")
    assert reply.ephemeral and "This command works in a server with Tirada" in reply.text
    stats = await harness.slash("estadisticas", de="mesa", user_install=True, locale="en-US")
    assert "A table's statistics work in a server with Tirada" in stats.text
    shared = await harness.slash("guardada crear", guild=False, nombre="x", expresion="1d6", compartida=True)
    assert "funcionan en un servidor con Tirada" in shared.text
    own = await harness.slash("guardada crear", guild=False, nombre="x", expresion="1d6")
    assert not refused(own)
    harness.script(3)
    rolled = await harness.slash("guardada tirar", guild=False, nombre="x")
    assert rolled.embed["title"] == "x — 🎲 1d6"


async def in_an_unbuilt_dm(harness: Harness, command: str, channel: str, **options: Any) -> Reply:
    data = harness._command_data(command.split(), options)
    payload = interaction_payload(2, data, user=PLAYER, locale="es-ES", channel_id=777, guild=False)
    return await harness.feed(payload | {"context": 2, "channel": UNBUILT[channel]})


ANYWHERE_CASES = [c for c in CASES if c.command.split()[0] in ANYWHERE]


@pytest.mark.parametrize("case", ANYWHERE_CASES, ids=[c.command for c in ANYWHERE_CASES])
@pytest.mark.parametrize("channel", UNBUILT)
async def test_every_command_anywhere_in_a_dm_whose_channel_discordpy_cannot_build(
    harness: Harness, case: Case, channel: str
) -> None:
    reply = await in_an_unbuilt_dm(harness, case.command, channel, **case.options)
    assert reply.callbacks, f"/{case.command} went unanswered"
    assert "Algo ha fallado" not in reply.text, reply.text


@pytest.mark.parametrize("channel", UNBUILT)
async def test_a_roll_in_a_dm_whose_channel_discordpy_cannot_build_is_refused_clearly(
    harness: Harness, channel: str
) -> None:
    """Every roll hangs on its channel (its record, its *Repetir*): without one, a clear
    refusal, for /tirar and for a saved expression; the user's statistics need none."""
    no_channel = t("es", "error.no_channel")
    tirar = await in_an_unbuilt_dm(harness, "tirar", channel, expresion="1d20")
    assert refused(tirar) and tirar.text == no_channel
    await harness.slash("guardada crear", guild=False, nombre="x", expresion="1d6")
    saved = await in_an_unbuilt_dm(harness, "guardada tirar", channel, nombre="x")
    assert refused(saved) and saved.text == no_channel
    stats = await in_an_unbuilt_dm(harness, "estadisticas", channel)
    assert not refused(stats)
