"""Donjon dice from a character sheet: an Atributo and one of the character's invented
Habilidades by name ("sólo se puede tirar un Atributo más una Habilidad"), or a number of
dice as before, for tables without sheets. The card shows where the dice came from:
"Discernimiento 6 + Rastrear Cualquier Cosa 4 = 10 dados".
"""

from __future__ import annotations

import discord
from discord.app_commands import Choice

from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.errors import Refusal
from bot.i18n import lang_for
from bot.models import Table
from bot.names import Names, closest, containing
from bot.sheets import access
from bot.sheets.models import DonjonAttributes, DonjonSheet

ATTRIBUTES = Names("fichas.donjon.attr", DonjonAttributes.model_fields, "fichas.donjon.unknown_attribute")
# A part of a pool named by the player rather than the catalog: "nombre:Trepar Árboles".
NAMED = "nombre:"

Parts = list[tuple[str, int]]


async def read(bot: Tirada, interaction: discord.Interaction, table: Table, como: str | None) -> DonjonSheet:
    _, sheet = await access.for_roll(bot.store, table, is_gm(table, interaction), interaction.user.id, como)
    if not isinstance(sheet, DonjonSheet):  # this system's command at another system's table
        raise Refusal("fichas.wrong_system")
    return sheet


async def dice(
    bot: Tirada,
    interaction: discord.Interaction,
    table: Table,
    atributo: str | None,
    habilidad: str | None,
    como: str | None,
) -> tuple[int, Parts, str]:
    """The dice an Atributo plus a Habilidad of the sheet give, what they are made of, and
    whose sheet it is."""
    if not atributo and not habilidad:
        raise Refusal("fichas.donjon.need_dice")
    sheet = await read(bot, interaction, table, como)
    parts: Parts = []
    if atributo:
        key = ATTRIBUTES.find(atributo)
        parts.append((f"atributo.{key}", getattr(sheet.atributos, key)))
    if habilidad:
        found = closest(habilidad, [s.nombre for s in sheet.habilidades])
        if found is None:
            raise Refusal("fichas.donjon.unknown_skill", name=discord.utils.escape_markdown(habilidad[:60]))
        skill = next(s for s in sheet.habilidades if s.nombre == found)
        parts.append((NAMED + skill.nombre, skill.dados))
    return sum(v for _, v in parts), parts, sheet.nombre


async def _sheet(interaction: discord.Interaction[Tirada]) -> DonjonSheet | None:
    bot = interaction.client
    table = await current_table(interaction)
    try:
        return await read(bot, interaction, table, getattr(interaction.namespace, "como", None))
    except Refusal:
        return None


async def skill_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The Habilidades on the roller's sheet, with their dice."""
    sheet = await _sheet(interaction)
    if sheet is None:
        return []
    dice_of = {s.nombre: s.dados for s in sheet.habilidades}
    return [Choice(name=f"{n} ({dice_of[n]})"[:100], value=n) for n in containing(current, dice_of)]


async def attribute_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The Atributos, with the sheet's value when there is a sheet."""
    sheet = await _sheet(interaction)
    lang = lang_for(interaction.locale)
    return [
        Choice(name=f"{label} ({getattr(sheet.atributos, key)})" if sheet else label, value=key)
        for key, label in ATTRIBUTES.suggest(lang, current)
    ]
