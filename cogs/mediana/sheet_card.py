"""A Mediana character sheet at a glance: attributes, hit points, physique and armour,
skills with the attribute each is rolled with."""

from __future__ import annotations

from bot.i18n import Lang, t
from bot.panel import listed, safe
from bot.sheets.models import SheetBase
from bot.systems import SheetField
from cogs.mediana.sheet_model import MedianaSheet


def sheet_fields(lang: Lang, sheet: SheetBase) -> list[SheetField]:
    assert isinstance(sheet, MedianaSheet)
    pv = sheet.pv
    summary = t(
        lang,
        "fichas.mediana.summary",
        hp=pv.actuales,
        max=pv.maximos,
        physique=sheet.physique,
        absorption=sheet.armadura.absorcion,
        encumbrance=sheet.armadura.estorbo,
    )
    skills = [f"{safe(s.nombre)} ({safe(s.atributo)}) **{s.valor}**" for s in sheet.habilidades]
    return [
        SheetField(
            t(lang, "fichas.mediana.attributes"),
            listed(lang, [f"{safe(a.nombre)} **{a.valor}**" for a in sheet.atributos]),
        ),
        SheetField(t(lang, "fichas.mediana.state"), summary),
        SheetField(t(lang, "fichas.mediana.skills"), listed(lang, skills), inline=False),
    ]
