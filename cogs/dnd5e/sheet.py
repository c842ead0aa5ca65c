"""D&D numbers from a character sheet: a check, a save, an attack or initiative by name.

The sheet gives what the player typed before (the ability modifier, proficiency and
expertise, the level, the attack bonus and damage), and the roll keeps those numbers in its
options, so *Repetir* repeats the same roll and the card shows where each came from
("+9 = Destreza +3, pericia +6").
"""

from __future__ import annotations

import discord
from discord.app_commands import Choice

from bot.checks import is_gm
from bot.client import Tirada
from bot.errors import Refusal
from bot.models import Table
from bot.names import closest, containing
from bot.sheets import access
from cogs.dnd5e.build import Options, part
from cogs.dnd5e.sheet_model import Attack, DndSheet
from cogs.dnd5e.state import DAMAGE
from rules.dnd5e import checks


async def read(bot: Tirada, interaction: discord.Interaction, table: Table, como: str | None) -> DndSheet:
    """The roller's active sheet, or the GM's NPC ``como`` names."""
    return (await read_row(bot, interaction, table, como))[1]


async def read_row(
    bot: Tirada, interaction: discord.Interaction, table: Table, como: str | None
) -> tuple[int, DndSheet]:
    """:func:`read` with the sheet's id: a roll made as an NPC is that creature's on the
    tracker (its conditions change the roll)."""
    row, sheet = await access.for_roll(bot.store, table, is_gm(table, interaction), interaction.user.id, como)
    return row.id, access.of_kind(sheet, DndSheet)


def modifier(sheet: DndSheet, ability: str) -> int:
    return checks.ability_modifier(getattr(sheet.caracteristicas, ability))


def typed_or(options: Options, key: str, from_sheet: int) -> int:
    """A number typed in the command wins over the sheet's, as in every other roll."""
    typed = options[key]
    return from_sheet if typed is None else typed


def check(sheet: DndSheet, options: Options) -> Options:
    """A check's numbers: the ability (the skill's, unless one is named), proficiency and
    expertise in the skill, the level; a typed modifier or level wins over the sheet."""
    skill = options["habilidad"]
    ability = options["caracteristica"] or (checks.SKILLS[skill] if skill else None)
    if ability is None and options["modificador"] is None:
        raise Refusal("fichas.dnd.need_ability")
    return options | {
        "caracteristica": ability,
        "modificador": typed_or(options, "modificador", modifier(sheet, ability) if ability else 0),
        "competencia": options["competencia"] or skill in sheet.competencias,
        "pericia": options["pericia"] or skill in sheet.pericias,
        "nivel": typed_or(options, "nivel", sheet.proficiency_level),
        "ficha": sheet.nombre,
    }


def save(sheet: DndSheet, options: Options) -> Options:
    ability = options["caracteristica"]
    return options | {
        "modificador": typed_or(options, "modificador", modifier(sheet, ability)),
        "competencia": options["competencia"] or ability in sheet.salvaciones,
        "nivel": typed_or(options, "nivel", sheet.proficiency_level),
        "ficha": sheet.nombre,
    }


def weapon(sheet: DndSheet, typed: str) -> Attack:
    found = closest(typed, [a.nombre for a in sheet.ataques])
    if found is None:
        raise Refusal("fichas.dnd.unknown_attack", name=discord.utils.escape_markdown(typed[:60]))
    return next(a for a in sheet.ataques if a.nombre == found)


def attack(sheet: DndSheet, typed: str, options: Options) -> Options:
    """An attack's bonus from the sheet (ability + proficiency + the weapon's own bonus) and
    its damage expression, unless the command gave them."""
    chosen = weapon(sheet, typed)
    proficiency = sheet.proficiency if chosen.competente else 0
    parts = [
        part("caracteristica", modifier(sheet, chosen.caracteristica), ability=chosen.caracteristica)
        if chosen.caracteristica
        else part("bonificacion", 0),
        part("competencia", proficiency),
        part("bonificacion", chosen.bonificacion),
    ]
    parts = [p for p in parts if p["value"]]
    bonus = sum(p["value"] for p in parts)
    return options | {
        "bonificador": options["bonificador"] if options["bonificador"] is not None else bonus,
        "dano": options["dano"] or chosen.dano or None,
        "partes": parts if options["bonificador"] is None else [],
        "arma": chosen.nombre,
        "tipo": options.get("tipo") or DAMAGE.resolve(chosen.tipo) or chosen.tipo or None,
        "ficha": sheet.nombre,
    }


def initiative(sheet: DndSheet) -> tuple[int, str]:
    """Initiative is a Dexterity check: the sheet's Dexterity modifier, and its name."""
    return modifier(sheet, "destreza"), sheet.nombre


async def weapons(
    bot: Tirada, interaction: discord.Interaction, table: Table, typed: str
) -> list[Choice[str]]:
    """Autocomplete: the attacks on the sheet the roll would read (none without one)."""
    try:
        sheet = await read(bot, interaction, table, interaction.namespace.como)
    except Refusal:
        return []
    return [Choice(name=n, value=n) for n in containing(typed, [a.nombre for a in sheet.ataques])]
