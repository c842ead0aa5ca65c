"""A Donjon character sheet at a glance: Atributos, level and what the character carries
(Heridas, Provisiones, Riqueza), Habilidades and saves with their dice, equipment."""

from __future__ import annotations

from bot.i18n import Lang, t
from bot.panel import listed, safe
from bot.sheets.models import SheetBase
from bot.systems import SheetField
from cogs.donjon.sheet_model import DonjonSheet


def sheet_fields(lang: Lang, sheet: SheetBase) -> list[SheetField]:
    assert isinstance(sheet, DonjonSheet)
    attributes = [
        f"{t(lang, f'fichas.donjon.attr.{k}')} **{v}**" for k, v in sheet.atributos.model_dump().items()
    ]
    summary = t(
        lang,
        "fichas.donjon.summary",
        level=sheet.nivel,
        wounds=sheet.heridas,
        provisions=sheet.provisiones,
        wealth=sheet.riqueza,
    )
    skills = [t(lang, "fichas.dice", name=safe(s.nombre), n=s.dados) for s in sheet.habilidades]
    saves = [
        t(lang, "fichas.dice", name=t(lang, f"fichas.donjon.save.{key}"), n=n) for key, n in sheet.salvaciones
    ]
    items = [t(lang, "fichas.donjon.item", name=safe(i.nombre), nd=i.nd) for i in sheet.equipo]
    return [
        SheetField(t(lang, "fichas.donjon.attributes"), "\n".join(attributes)),
        SheetField(t(lang, "fichas.donjon.state"), summary),
        SheetField(t(lang, "fichas.donjon.skills"), listed(lang, skills + saves), inline=False),
        SheetField(t(lang, "fichas.donjon.equipment"), listed(lang, items), inline=False),
    ]
