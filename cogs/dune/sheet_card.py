"""A Dune character sheet at a glance: skills, drives with their statements, focuses,
talents and assets."""

from __future__ import annotations

from bot.i18n import Lang, t
from bot.panel import listed, safe
from bot.sheets.models import SheetBase
from bot.systems import SheetField
from cogs.dune.sheet_model import DuneSheet


def drive_line(lang: Lang, key: str, value: int, statement: str, crossed: bool) -> str:
    """A drive, its value and its statement; a crossed-out statement says so."""
    line = f"{t(lang, f'fichas.dune.drive.{key}')} **{value}**"
    if crossed:
        return f"{line} — {t(lang, 'fichas.dune.crossed', statement=safe(statement))}"
    return f"{line} — {safe(statement)}" if statement else line


def sheet_fields(lang: Lang, sheet: SheetBase) -> list[SheetField]:
    assert isinstance(sheet, DuneSheet)
    skills = sheet.habilidades.model_dump()
    drives = [drive_line(lang, k, d.valor, d.declaracion, d.tachada) for k, d in sheet.motivaciones]
    focuses = [f"{t(lang, f'fichas.dune.skill.{f.habilidad}')}: {safe(f.nombre)}" for f in sheet.enfoques]
    return [
        SheetField(
            t(lang, "fichas.dune.skills"),
            "\n".join(f"{t(lang, f'fichas.dune.skill.{k}')} **{v}**" for k, v in skills.items()),
        ),
        SheetField(t(lang, "fichas.dune.drives"), "\n".join(drives), inline=False),
        SheetField(t(lang, "fichas.dune.focuses"), listed(lang, focuses), inline=False),
        SheetField(t(lang, "fichas.dune.talents"), listed(lang, [safe(x.nombre) for x in sheet.talentos])),
        SheetField(t(lang, "fichas.dune.assets"), listed(lang, [safe(x.nombre) for x in sheet.recursos])),
    ]
