"""Mediana numbers from a character sheet: a skill by name brings its attribute with it
("Espadas" is rolled with Destreza), or numbers as before, for tables without sheets.
The roll names each term: "Destreza 4 + Espadas 3 + 1o3d10 …".
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.app_commands import Choice

from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.errors import Refusal
from bot.names import closest, containing
from bot.sheets import access
from bot.sheets.models import MedianaSheet
from rules import mediana
from rules.errors import check_range

NUMBER = re.compile(r"\s*-?\d{1,3}\s*")


async def read(bot: Tirada, interaction: discord.Interaction, como: str | None) -> MedianaSheet:
    table = await current_table(interaction)
    _, sheet = await access.for_roll(bot.store, table, is_gm(table, interaction), interaction.user.id, como)
    if not isinstance(sheet, MedianaSheet):  # this system's command at another system's table
        raise Refusal("fichas.wrong_system")
    return sheet


async def scores(
    bot: Tirada,
    interaction: discord.Interaction,
    atributo: int | None,
    habilidad: str | None,
    como: str | None,
) -> dict[str, Any]:
    """The test's attribute and skill points, and their names when the sheet gave them."""
    if habilidad is None or NUMBER.fullmatch(str(habilidad)):
        points = int(str(habilidad)) if habilidad is not None else 0
        check_range("habilidad", points, 0, mediana.MAX_SCORE)
        if atributo is None:
            raise Refusal("fichas.mediana.need_attribute")
        return {"atributo": atributo, "habilidad": points}
    sheet = await read(bot, interaction, como)
    found = closest(habilidad, [s.nombre for s in sheet.habilidades])
    if found is None:
        raise Refusal("fichas.mediana.unknown_skill", name=discord.utils.escape_markdown(habilidad[:60]))
    skill = next(s for s in sheet.habilidades if s.nombre == found)
    attribute = next(a for a in sheet.atributos if a.nombre.casefold() == skill.atributo.casefold())
    value = attribute.valor if atributo is None else atributo
    names = {"atributo": attribute.nombre if atributo is None else None, "habilidad": skill.nombre}
    return {"atributo": value, "habilidad": skill.valor, "nombres": names, "ficha": sheet.nombre}


async def skill_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The skills on the roller's sheet, with their attribute and points."""
    bot = interaction.client
    try:
        sheet = await read(bot, interaction, getattr(interaction.namespace, "como", None))
    except Refusal:
        return []
    by_name = {s.nombre: s for s in sheet.habilidades}
    return [
        Choice(name=f"{n} ({by_name[n].atributo} + {by_name[n].valor})"[:100], value=n)
        for n in containing(current, by_name)
    ]
