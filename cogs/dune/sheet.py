"""Dune numbers from a character sheet: a skill and a drive by name ("Comunicación",
"verdad", "Communicate"), or as numbers like before, for tables without sheets.

Whatever came from a sheet is named on the roll, so the card shows where the target came
from: "Comunicación 6 + Verdad 7 = 13".
"""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

import discord
from discord.app_commands import Choice

from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.errors import Refusal
from bot.i18n import lang_for
from bot.models import Table
from bot.names import MAX_CHOICES, Names, closest, fold
from bot.sheets import access
from bot.sheets.models import NAME_LIMIT
from cogs.dune.render import safe
from cogs.dune.sheet_model import Drive, DuneDrives, DuneSheet, DuneSkills
from cogs.dune.state import Scores, crossed_pool, typed_text
from rules.dune import skill_test
from rules.errors import check_range

SKILLS = Names(lambda key: f"fichas.dune.skill.{key}", DuneSkills.model_fields, "fichas.dune.unknown_skill")
DRIVES = Names(lambda key: f"fichas.dune.drive.{key}", DuneDrives.model_fields, "fichas.dune.unknown_drive")
NUMBER = re.compile(r"\s*\d{1,3}\s*")
FOCUS_LIMIT = NAME_LIMIT


def number(typed: str) -> int | None:
    """A score typed as a number (as before sheets), else None: a name."""
    text = str(typed)
    return int(text) if NUMBER.fullmatch(text) else None


def numbers(skill: str, drive: str) -> tuple[int | None, int | None]:
    """The scores typed as numbers, checked against the book's range (None for a name)."""
    skill_number, drive_number = number(skill), number(drive)
    if skill_number is not None:
        check_range("habilidad", skill_number, 1, skill_test.MAX_SCORE)
    if drive_number is not None:
        check_range("motivacion", drive_number, 0, skill_test.MAX_SCORE)
    return skill_number, drive_number


def read(
    sheet: DuneSheet, skill: str, drive: str, focus: str | None = None, sheet_id: int | None = None
) -> Scores:
    """A skill and a drive from ``sheet``: a number typed stays that number (numbers win),
    a name is looked up on the sheet and named on the roll. A skill by name takes only a
    focus the sheet lists for it (:func:`sheet_focus`)."""
    skill_number, drive_number = numbers(skill, drive)
    skill_key = drive_key = statement = None
    drive_challenged = False
    if skill_number is None:
        skill_key = SKILLS.find(skill)
        skill_number = int(getattr(sheet.habilidades, skill_key))
    if drive_number is None:
        drive_key = DRIVES.find(drive)
        found: Drive = getattr(sheet.motivaciones, drive_key)
        if found.tachada:
            raise Refusal("dune.drive_crossed", pool=crossed_pool(drive_key))
        drive_number, statement, drive_challenged = found.valor, found.statement, found.desafiada
    named = sheet_focus(sheet, skill_key, focus) if skill_key else typed_focus(focus)
    return Scores(
        skill_number,
        drive_number,
        skill_key,
        drive_key,
        sheet.nombre,
        statement,
        named,
        sheet_id,
        drive_challenged,
    )


def typed_focus(focus: str | None) -> str | None:
    """A focus named without a sheet to check it against: "Ambas elecciones deben ser
    aprobadas por el Director", so the name is shown on the card as typed."""
    return None if focus is None else typed_text(focus, FOCUS_LIMIT)


def sheet_focus(sheet: DuneSheet, skill_key: str, focus: str | None) -> str | None:
    """ "comprueba si alguno de tus especializaciones se aplica": one of the focuses the
    sheet lists for that skill, as the sheet spells it, or a refusal naming them."""
    if focus is None:
        return None
    own = [f.nombre for f in sheet.enfoques if f.habilidad == skill_key]
    found = closest(focus, own)
    if found is None:
        listed = ", ".join(own) or "—"
        raise Refusal("dune.unknown_focus", name=safe(focus[:FOCUS_LIMIT]), focuses=safe(listed))
    return found


async def scores(
    bot: Tirada,
    interaction: discord.Interaction,
    skill: str,
    drive: str,
    como: str | None,
    table: Table | None = None,
    focus: str | None = None,
) -> Scores:
    """Numbers stay numbers; a name is read from the roller's active sheet (or, for the GM,
    the NPC ``como`` names) at ``table`` (the interaction's, unless a panel names it), and
    so is the ``focus`` that applies."""
    skill_number, drive_number = numbers(skill, drive)
    if skill_number is not None and drive_number is not None and not como:
        return Scores(skill_number, drive_number, focus=typed_focus(focus))
    table = table or await current_table(interaction)
    row, sheet = await access.for_roll(bot.store, table, is_gm(table, interaction), interaction.user.id, como)
    return read(access.of_kind(sheet, DuneSheet), skill, drive, focus, row.id)


async def opponent(
    bot: Tirada,
    interaction: discord.Interaction,
    target: int | None,
    rival_pnj: str | None,
    skill: str | None,
    drive: str | None,
) -> dict[str, Any]:
    """The opponent's target number: the one given (numbers win, as on every roll), else
    their skill plus drive, names read only from the GM's NPC ``rival_pnj`` (never from the
    roller's own sheet), with where each came from."""
    if target is not None:
        if rival_pnj:  # the typed target wins, but the NPC stays the GM's to name
            table = await current_table(interaction)
            await access.for_roll(bot.store, table, is_gm(table, interaction), interaction.user.id, rival_pnj)
        return {"target": target}
    if not skill or not drive:
        raise Refusal("dune.contra.rival_missing")
    if not rival_pnj and (number(skill) is None or number(drive) is None):
        raise Refusal("dune.contra.rival_sheet")
    rival = await scores(bot, interaction, skill, drive, rival_pnj)
    return {"target": rival.skill + rival.drive, **source(rival)}


def source(scores: Scores) -> dict[str, Any]:
    """What a sheet gave, to store beside the numbers so every card can say where they came
    from (the same keys a test's request keeps)."""
    return asdict(scores)


async def _sheet(interaction: discord.Interaction[Tirada], option: str = "como") -> DuneSheet | None:
    """The sheet a roll by name would read: the NPC ``option`` names (``como`` for the
    roller, ``rival_pnj`` for the opponent), else, for the roller only, their active one."""
    sheet = await access.named_in(interaction, option, own=option == "como")
    return sheet if isinstance(sheet, DuneSheet) else None


def _skills(interaction: discord.Interaction, sheet: DuneSheet | None, current: str) -> list[Choice[str]]:
    if sheet is None:
        return []
    lang = lang_for(interaction.locale)
    return [
        Choice(name=f"{label} ({getattr(sheet.habilidades, key)})", value=key)
        for key, label in SKILLS.suggest(lang, current)
    ]


def _drives(interaction: discord.Interaction, sheet: DuneSheet | None, current: str) -> list[Choice[str]]:
    if sheet is None:
        return []
    lang = lang_for(interaction.locale)
    return [
        Choice(name=f"{label} ({getattr(sheet.motivaciones, key).valor})", value=key)
        for key, label in DRIVES.suggest(lang, current)
    ]


async def skill_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The skills on the roller's sheet with their value: "Comunicación (6)"."""
    return _skills(interaction, await _sheet(interaction), current)


async def drive_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The drives on the roller's sheet with their value: "Verdad (7)"."""
    return _drives(interaction, await _sheet(interaction), current)


async def rival_skill_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The skills on the GM's NPC ``rival_pnj`` with their value."""
    return _skills(interaction, await _sheet(interaction, "rival_pnj"), current)


async def rival_drive_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The drives on the GM's NPC ``rival_pnj`` with their value."""
    return _drives(interaction, await _sheet(interaction, "rival_pnj"), current)


async def focus_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The focuses on the roller's sheet (or the NPC ``como`` names) for the skill already
    chosen, every focus while none is: "Diplomacia (Comunicación)"."""
    found = await _sheet(interaction)
    if found is None:
        return []
    lang = lang_for(interaction.locale)
    skill = SKILLS.resolve(str(getattr(interaction.namespace, "habilidad", "") or ""))
    folded = fold(current)
    return [
        Choice(name=f"{f.nombre} ({SKILLS.name(lang, f.habilidad)})"[:100], value=f.nombre)
        for f in found.enfoques
        if (skill is None or f.habilidad == skill) and folded in fold(f.nombre)
    ][:MAX_CHOICES]
