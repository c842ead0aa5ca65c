"""Mediana numbers from a character sheet: a skill by name brings its attribute with it
("Espadas" is rolled with Destreza), or numbers as before, for tables without sheets.
The roll names each term: "Destreza 4 + Espadas 3 + 1o3d10 …".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord.app_commands import Choice

from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.errors import Refusal
from bot.models import SheetRow
from bot.names import closest, containing, fold
from bot.sheets import access
from cogs.mediana.sheet_model import MedianaSheet
from cogs.mediana.state import open_combat
from rules.errors import check_range
from rules.mediana import checks

NUMBER = re.compile(r"\s*-?\d{1,3}\s*")
Suggest = Callable[[discord.Interaction[Tirada], str], Coroutine[Any, Any, list[Choice[str]]]]


async def read(bot: Tirada, interaction: discord.Interaction, como: str | None) -> MedianaSheet:
    table = await current_table(interaction)
    _, sheet = await access.for_roll(bot.store, table, is_gm(table, interaction), interaction.user.id, como)
    return access.of_kind(sheet, MedianaSheet)


async def scores(
    bot: Tirada,
    interaction: discord.Interaction,
    atributo: int | None,
    habilidad: str | None,
    como: str | None,
) -> dict[str, Any]:
    """The test's attribute and skill points, and their names when the sheet gave them."""
    if typed(habilidad):
        return numbers(atributo, habilidad)
    return from_sheet(await read(bot, interaction, como), atributo, str(habilidad))


def typed(habilidad: str | None) -> bool:
    """Whether the skill was given as points (or not at all) rather than by name."""
    return habilidad is None or NUMBER.fullmatch(str(habilidad)) is not None


def numbers(atributo: int | None, habilidad: str | None) -> dict[str, Any]:
    """A test's points as typed: the attribute's, required, and the skill's. No skill is
    None, not 0: an opposed test of attribute against attribute has no skill to lack."""
    if atributo is None:
        raise Refusal("fichas.mediana.need_attribute")
    if habilidad is None:
        return {"atributo": atributo, "habilidad": None}
    points = int(str(habilidad))
    check_range("habilidad", points, 0, checks.MAX_SCORE)
    return {"atributo": atributo, "habilidad": points}


def from_sheet(sheet: MedianaSheet, atributo: int | None, habilidad: str) -> dict[str, Any]:
    """The skill named on ``sheet`` with its attribute (a typed attribute wins), both named."""
    found = closest(habilidad, [s.nombre for s in sheet.habilidades])
    if found is None:
        raise Refusal("fichas.mediana.unknown_skill", name=discord.utils.escape_markdown(habilidad[:60]))
    skill = next(s for s in sheet.habilidades if s.nombre == found)
    attribute = next(a for a in sheet.atributos if a.nombre.casefold() == skill.atributo.casefold())
    value = attribute.valor if atributo is None else atributo
    names = {"atributo": attribute.nombre if atributo is None else None, "habilidad": skill.nombre}
    return {"atributo": value, "habilidad": skill.valor, "nombres": names, "ficha": sheet.nombre}


async def actor(
    bot: Tirada,
    interaction: discord.Interaction,
    atributo: int | None,
    habilidad: str | None,
    como: str | None,
) -> dict[str, Any]:
    """The roller's side (:func:`scores`). Rolled as the GM's NPC ``como``, typed numbers
    win over its sheet, which still names the character on the card (and refuses a
    player's ``como``)."""
    found = await scores(bot, interaction, atributo, habilidad, como)
    if not como or found.get("ficha"):
        return found
    return {**found, "ficha": (await read(bot, interaction, como)).nombre}


async def attribute(
    bot: Tirada, interaction: discord.Interaction, atributo: str, como: str | None
) -> dict[str, Any]:
    """An attribute test's points: a number as typed (rolled as the GM's NPC ``como``, its
    sheet still names the character, as :func:`actor`), or an attribute by name from the
    sheet, named on the card so its armour's estorbo can follow a Destreza test."""
    if NUMBER.fullmatch(atributo):
        value = int(atributo)
        check_range("atributo", value, -checks.MAX_SCORE, checks.MAX_SCORE)
        found: dict[str, Any] = {"atributo": value, "habilidad": None}
        if not como:
            return found
        return {**found, "ficha": (await read(bot, interaction, como)).nombre}
    return attribute_from(await read(bot, interaction, como), atributo)


def attribute_from(sheet: MedianaSheet, atributo: str) -> dict[str, Any]:
    """The attribute named on ``sheet``, with its name and the sheet's."""
    found = closest(atributo, [a.nombre for a in sheet.atributos])
    if found is None:
        raise Refusal("mediana.unknown_attribute", name=discord.utils.escape_markdown(atributo[:60]))
    value = next(a.valor for a in sheet.atributos if a.nombre == found)
    return {"atributo": value, "habilidad": None, "nombres": {"atributo": found}, "ficha": sheet.nombre}


async def opponent(
    bot: Tirada,
    interaction: discord.Interaction,
    atributo: int | None,
    habilidad: str | None,
    pnj: str | None,
) -> dict[str, Any]:
    """The rival's side of an opposed test: numbers as typed, or the skill by name from
    the GM's NPC sheet ``pnj`` (whose name the side then carries, numbers or not)."""
    if not pnj:
        if not typed(habilidad):
            raise Refusal("fichas.npc_names")
        return numbers(atributo, habilidad)
    sheet = await read(bot, interaction, pnj)
    found = numbers(atributo, habilidad) if typed(habilidad) else from_sheet(sheet, atributo, str(habilidad))
    return {**found, "ficha": sheet.nombre}


async def target(
    bot: Tirada, interaction: discord.Interaction, objetivo: str
) -> tuple[SheetRow, MedianaSheet]:
    """A damage roll's target: a sheet the roller may read, as play has left it."""
    table = await current_table(interaction)
    gm = is_gm(table, interaction)
    row = await access.find(bot.store, table, gm, interaction.user.id, objetivo)
    _, found = await access.of_system(bot.store, table, row)
    return row, access.of_kind(found, MedianaSheet)


async def armour(bot: Tirada, interaction: discord.Interaction, objetivo: str) -> tuple[int, str]:
    """The absorption of the armour a damage roll's target wears ("la absorción se resta a
    la tirada de daño del enemigo"), and its name."""
    _, sheet = await target(bot, interaction, objetivo)
    return sheet.armadura.absorcion, sheet.nombre


# The attribute whose tests armour encumbers, in either language: "el estorbo hay que
# restarlo ... a todas nuestras tiradas de destreza cuando no se está en combate".
DEXTERITY = frozenset({"destreza", "dexterity"})


async def encumbrance(
    bot: Tirada, interaction: discord.Interaction, named: dict[str, Any], como: str | None
) -> int:
    """The estorbo a test loses when it was not typed: the sheet's armour's, for a test of
    the sheet's Destreza out of combat (no combat panel running at the table); else none.
    Other tests the rule lists ("coordinación o concentración") are the GM's call: typed."""
    attribute = (named.get("nombres") or {}).get("atributo")
    if attribute is None or fold(attribute) not in DEXTERITY:
        return 0
    table = await current_table(interaction)
    if await open_combat(bot, table.channel_id) is not None:
        return 0
    return (await read(bot, interaction, como)).armadura.estorbo


async def worn(bot: Tirada, interaction: discord.Interaction) -> int:
    """The estorbo of the armour on the user's active sheet ("hay que restarlo a la
    iniciativa"); none without a Mediana sheet."""
    try:
        return (await read(bot, interaction, None)).armadura.estorbo
    except Refusal:
        return 0


def skills_of(option: str, own: bool = False) -> Suggest:
    """An autocomplete of the skills, with their attribute and points, on the sheet the
    ``option`` NPC names (with ``own``, the roller's when it is empty)."""

    async def suggest(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
        sheet = await access.named_in(interaction, option, own)
        if not isinstance(sheet, MedianaSheet):
            return []
        by_name = {s.nombre: s for s in sheet.habilidades}
        return [
            Choice(name=f"{n} ({by_name[n].atributo} + {by_name[n].valor})"[:100], value=n)
            for n in containing(current, by_name)
        ]

    return suggest


skill_choices = skills_of("como", own=True)


async def attribute_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """An autocomplete of the attributes, with their points, on the sheet ``como`` names
    (the roller's when it is empty)."""
    sheet = await access.named_in(interaction, "como", True)
    if not isinstance(sheet, MedianaSheet):
        return []
    points = {a.nombre: a.valor for a in sheet.atributos}
    return [Choice(name=f"{n} ({points[n]})"[:100], value=n) for n in containing(current, points)]
