"""Dune numbers from a character sheet: a skill and a drive by name ("Comunicación",
"verdad", "Communicate"), or as numbers like before, for tables without sheets.

Whatever came from a sheet is named on the roll, so the card shows where the target came
from: "Comunicación 6 + Verdad 7 = 13".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord
from discord.app_commands import Choice

from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.errors import Refusal
from bot.i18n import lang_for
from bot.names import Names
from bot.sheets import access
from bot.sheets.models import DuneDrives, DuneSheet, DuneSkills
from rules import dune
from rules.errors import check_range

SKILLS = Names("fichas.dune.skill", DuneSkills.model_fields, "fichas.dune.unknown_skill")
DRIVES = Names("fichas.dune.drive", DuneDrives.model_fields, "fichas.dune.unknown_drive")
NUMBER = re.compile(r"\s*\d{1,3}\s*")


@dataclass(frozen=True)
class Scores:
    """A test's skill and drive, with their names when a sheet gave them."""

    skill: int
    drive: int
    skill_key: str | None = None
    drive_key: str | None = None
    character: str | None = None


def number(typed: str) -> int | None:
    """A score typed as a number (as before sheets), else None: a name."""
    text = str(typed)
    return int(text) if NUMBER.fullmatch(text) else None


async def scores(
    bot: Tirada, interaction: discord.Interaction, skill: str, drive: str, como: str | None
) -> Scores:
    """Numbers stay numbers; a name is read from the roller's active sheet (or, for the GM,
    the NPC ``como`` names)."""
    skill_number, drive_number = number(skill), number(drive)
    if skill_number is not None:
        check_range("habilidad", skill_number, 1, dune.MAX_SCORE)
    if drive_number is not None:
        check_range("motivacion", drive_number, 0, dune.MAX_SCORE)
    if skill_number is not None and drive_number is not None and not como:
        return Scores(skill_number, drive_number)
    table = await current_table(interaction)
    _, sheet = await access.for_roll(bot.store, table, is_gm(table, interaction), interaction.user.id, como)
    assert isinstance(sheet, DuneSheet)
    skill_key = drive_key = None
    if skill_number is None:
        skill_key = SKILLS.find(skill)
        skill_number = int(getattr(sheet.habilidades, skill_key))
    if drive_number is None:
        drive_key = DRIVES.find(drive)
        drive_number = int(getattr(sheet.motivaciones, drive_key).valor)
    return Scores(skill_number, drive_number, skill_key, drive_key, sheet.nombre)


async def _sheet(interaction: discord.Interaction[Tirada]) -> DuneSheet | None:
    bot = interaction.client
    table = await current_table(interaction)
    como = getattr(interaction.namespace, "como", None)
    gm = is_gm(table, interaction)
    try:
        _, sheet = await access.for_roll(bot.store, table, gm, interaction.user.id, como)
    except Refusal:
        return None
    return sheet if isinstance(sheet, DuneSheet) else None


async def skill_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The skills on the roller's sheet with their value: "Comunicación (6)"."""
    sheet = await _sheet(interaction)
    if sheet is None:
        return []
    lang = lang_for(interaction.locale)
    return [
        Choice(name=f"{label} ({getattr(sheet.habilidades, key)})", value=key)
        for key, label in SKILLS.suggest(lang, current)
    ]


async def drive_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The drives on the roller's sheet with their value: "Verdad (7)"."""
    sheet = await _sheet(interaction)
    if sheet is None:
        return []
    lang = lang_for(interaction.locale)
    return [
        Choice(name=f"{label} ({getattr(sheet.motivaciones, key).valor})", value=key)
        for key, label in DRIVES.suggest(lang, current)
    ]
