"""Donjon's own settings of a table: its die ("Tipo de dado": a d20 unless the table says
otherwise) and its level, which sets the difficulty of every test.

They are kept among the table's settings (``bot.models.TableSettings`` keeps the keys it does
not know), under the names they always had there, so that every table keeps its die and its
level and no stored shape changed (docs/decisiones.md, "El nivel de Donjon").
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from bot.models import Table
from rules.donjon.difficulty import START_LEVEL


class DonjonSettings(BaseModel):
    """A table's Donjon settings, read from its settings (the other systems' keys ignored)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    donjon_sides: int = Field(20, ge=2, le=1000)
    donjon_level: int = Field(START_LEVEL, ge=0, le=100)


def donjon_settings(table: Table) -> DonjonSettings:
    """The table's Donjon settings: a new table's are the book's d20 at level 1."""
    return table.settings.of(DonjonSettings)
