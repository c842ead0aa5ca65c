"""A D&D character sheet at a glance: ability scores with their modifiers, the combat
numbers, proficiencies and attacks."""

from __future__ import annotations

from bot.i18n import Lang, t
from bot.panel import listed, safe
from bot.sheets.models import SheetBase
from bot.systems import SheetField
from cogs.dnd5e.sheet_model import DndSheet
from rules.dnd5e import checks


def combat_summary(lang: Lang, sheet: DndSheet) -> str:
    """Level (or challenge rating for a creature), proficiency, AC, hit points and speed."""
    pg = sheet.pg
    return t(
        lang,
        "fichas.dnd.summary" if sheet.vd is None else "fichas.dnd.summary_cr",
        level=sheet.nivel if sheet.vd is None else sheet.vd,
        proficiency=sheet.proficiency,
        ac=sheet.ca,
        hp=pg.actuales,
        max=pg.maximos,
        temp=pg.temporales,
        speed=sheet.velocidad,
    )


def sheet_fields(lang: Lang, sheet: SheetBase) -> list[SheetField]:
    assert isinstance(sheet, DndSheet)
    scores = [
        f"{t(lang, f'dnd.ability.{k}')} **{v}** ({checks.ability_modifier(v):+d})"
        for k, v in sheet.caracteristicas.model_dump().items()
    ]
    skills = [t(lang, f"dnd.skill.{s}") + (" ★" if s in sheet.pericias else "") for s in sheet.competencias]
    saves = [t(lang, f"dnd.ability.{a}") for a in sheet.salvaciones]
    attacks = [f"{safe(a.nombre)}: {safe(a.dano) or '—'} {safe(a.tipo)}".strip() for a in sheet.ataques]
    return [
        SheetField(t(lang, "fichas.dnd.abilities"), "\n".join(scores)),
        SheetField(t(lang, "fichas.dnd.combat"), combat_summary(lang, sheet)),
        SheetField(t(lang, "fichas.dnd.skills"), listed(lang, skills)),
        SheetField(t(lang, "fichas.dnd.saves"), listed(lang, saves)),
        SheetField(t(lang, "fichas.dnd.attacks"), listed(lang, attacks), inline=False),
    ]
