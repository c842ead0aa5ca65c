"""Every text option of every command, on both backends, holding the worst a client can
send (NUL, control characters, a lone surrogate, 6,000 characters, right-to-left marks,
mentions, Markdown): each gets one answer, never "something failed", never a ping.

The tree is walked, so a command added later is fuzzed too. Each command runs at a table
of its own system where the player has a sheet and the GM an NPC, so the texts reach the
code past "wrong system" and "no sheet". The strings each option gets come from a seeded
generator: the same run every time, a few seconds a backend.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import charts
from tests.support.harness import Harness, Reply, Upload
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER, text_channel

DOCS = Path(__file__).resolve().parent.parent / "docs" / "fichas"
# Each system's table: the harness's own channel for Dune, three more for the others.
TABLES = {"dune": CHANNEL_ID, "donjon": CHANNEL_ID + 10, "dnd5e": CHANNEL_ID + 11, "mediana": CHANNEL_ID + 12}
# The first word of a command that belongs to one system; the rest run at the Dune table.
SYSTEM_OF = {"dune": "dune", "donjon": "donjon", "dnd": "dnd5e", "mediana": "mediana"}
HOSTILE = [
    "\x00",
    "Lía\x00Brezo",
    "\x1b[31mrojo",
    "línea\r\nsiguiente",
    "\x7f\x85",
    "\ud800",
    "\u202eolleh",
    "\u200fمرحبا\u200f",
    "@everyone",
    "@here <@&1> <@930000000000000003>",
    "**negrita** __s__ ~~t~~ ||spoiler|| `code` > cita",
    "<script>alert(1)</script>",
    "x" * 6000,
    "🎲" * 2000,
    "9" * 5000,
    "[" * 6000,
    "{bono}" * 300,
    "",
    " ",
    "1d20+{",
]
TRIES = 3
# A harmless value for a required text option that is not the one being fuzzed.
PLAIN = {"expresion": "1d6", "campo": "nombre", "ficha": "Otra", "sube": "virilidad", "baja": "aguante"}


def leaves(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu,
) -> list[app_commands.Command]:
    """The slash commands under ``command`` (a context menu has no text options)."""
    if isinstance(command, app_commands.Group):
        return [leaf for sub in command.commands for leaf in leaves(sub)]
    return [command] if isinstance(command, app_commands.Command) else []


def plain(param: app_commands.Parameter, h: Harness) -> Any:
    """A valid value for an option that is not the one being fuzzed."""
    if param.choices:
        return param.choices[0].value
    kind = param.type
    if kind is discord.AppCommandOptionType.string:
        return PLAIN.get(param.display_name, "1")
    if kind is discord.AppCommandOptionType.integer:
        return max(1, int(param.min_value or 1))
    if kind is discord.AppCommandOptionType.boolean:
        return False
    if kind is discord.AppCommandOptionType.user:
        return PLAYER
    if kind is discord.AppCommandOptionType.channel:
        return h.channels[1]
    return Upload("f.json", b"{}")


@pytest.fixture
def no_charts() -> Iterator[None]:
    """Charts are drawn in their own tests; here they would only cost time."""

    async def stub(*args: object) -> bytes:
        return b"\x89PNG"

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(charts, "bar_chart", stub)
        yield


@pytest.fixture
async def tables(db_target: Path | str, no_charts: None) -> AsyncIterator[Harness]:
    """Four tables, one per system, each with a GM, the player's sheet and an NPC."""
    h = Harness(db_target)
    h.channels += [text_channel(c, s) for s, c in TABLES.items() if c != CHANNEL_ID]
    await h.start()
    for system, channel_id in TABLES.items():
        await h.table_for(system, channel_id=channel_id)
        sheet = Upload(f"{system}.json", (DOCS / f"{system}.json").read_bytes())
        await h.slash("ficha importar", archivo=sheet, channel_id=channel_id)
        await h.slash("ficha crear", user=GM, nombre="Otra", pnj=True, channel_id=channel_id)
    yield h
    await h.close()


def answered_safely(reply: Reply) -> list[str]:
    """What is wrong with ``reply``: unanswered, the generic error, a mention parsed."""
    wrong = [] if reply.callbacks else ["no answer"]
    text = str(reply.calls)
    if "Algo ha fallado" in text or "Something failed" in text:
        wrong.append("generic error: " + reply.text[:200])
    for call in reply.calls:
        payload = call.payload if isinstance(call.payload, dict) else {}
        body = payload.get("data", payload) if call.path.endswith("/callback") else payload
        mentions = body.get("allowed_mentions", {}) if isinstance(body, dict) else {}
        if isinstance(body, dict) and body.get("content") and mentions.get("parse") != []:
            wrong.append("mentions parsed: " + str(body)[:200])
    return wrong


async def test_every_text_option_of_every_command_takes_hostile_text(tables: Harness) -> None:
    h = tables
    assert h.bot is not None
    rng = random.Random(28)
    commands = sorted(
        (leaf for c in h.bot.tree.get_commands(type=discord.AppCommandType.chat_input) for leaf in leaves(c)),
        key=lambda c: c.qualified_name,
    )
    failures = []
    for command in commands:
        texts = [p for p in command.parameters if p.type is discord.AppCommandOptionType.string]
        channel_id = TABLES.get(SYSTEM_OF.get(command.qualified_name.split()[0], "dune"), CHANNEL_ID)
        for fuzzed in texts:
            for text in rng.sample(HOSTILE, TRIES):
                options = {p.display_name: plain(p, h) for p in command.parameters if p.required}
                options[fuzzed.display_name] = text
                user = rng.choice([GM, PLAYER])
                reply = await h.slash(command.qualified_name, user=user, channel_id=channel_id, **options)
                for wrong in answered_safely(reply):
                    failures.append(f"/{command.qualified_name} {fuzzed.display_name}={text[:20]!r}: {wrong}")
    assert not failures, "\n".join(failures)


async def test_every_autocomplete_takes_hostile_text(tables: Harness) -> None:
    """What is being typed reaches the store's lookups too: always some answer (maybe no
    choices), never an error left unanswered."""
    h = tables
    assert h.bot is not None
    rng = random.Random(28)
    commands = sorted(
        (leaf for c in h.bot.tree.get_commands(type=discord.AppCommandType.chat_input) for leaf in leaves(c)),
        key=lambda c: c.qualified_name,
    )
    for command in commands:
        channel_id = TABLES.get(SYSTEM_OF.get(command.qualified_name.split()[0], "dune"), CHANNEL_ID)
        for param in command.parameters:
            if not param.autocomplete:
                continue
            for text in rng.sample(HOSTILE, TRIES):
                user = rng.choice([GM, PLAYER])
                choices = await h.autocomplete(
                    command.qualified_name, param.display_name, text, user=user, channel_id=channel_id
                )
                assert len(choices) <= 25, (command.qualified_name, param.display_name, text[:20])


@pytest.mark.parametrize("text", ["Bram\x00", "\x1b", "\ud800"])
async def test_a_form_field_with_a_control_character_is_refused_naming_it(tables: Harness, text: str) -> None:
    """A form's text is typed too: refused before the form acts, naming its field."""
    channel_id = TABLES["dnd5e"]
    panel = (await tables.slash("dnd iniciativa panel", channel_id=channel_id)).message
    join = next(c for c in panel.custom_ids if c.startswith("dnd:ini:unirme:"))
    opened = await tables.click(panel, join, user=OTHER)
    fields = {"nombre": text, "modificador": ["1"]}
    reply = await tables.submit(opened.modal_id, fields, user=OTHER, message=tables.current(panel))
    assert reply.ephemeral and "«Nombre del personaje» lleva un carácter de control" in reply.text, reply.text
    assert answered_safely(reply) == []
    assert "Bram" not in str(tables.current(panel).data)
