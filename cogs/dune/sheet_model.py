"""Dune's character sheet, version 1 of the sheet format (bot/sheets/models.py): skills and
drives "entre 4 y 8", focuses, talents and assets. Declared as Dune's sheet model
(cogs/dune/system.py)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, model_validator
from pydantic_core import PydanticCustomError

from bot.sheets.models import LIST_LIMIT, Line, Name, Part, SheetBase, Text, written
from rules.dune import skill_test

# A skill's or a drive's score, "entre 4 y 8" (the form without a sheet offers the same).
LOWEST_SCORE, HIGHEST_SCORE = 4, 8
DuneScore = Annotated[int, Field(ge=LOWEST_SCORE, le=HIGHEST_SCORE)]


class DuneSkills(Part):
    combate: DuneScore
    comunicacion: DuneScore
    disciplina: DuneScore
    movimiento: DuneScore
    comprension: DuneScore


class Drive(Part):
    valor: DuneScore
    declaracion: Text = ""
    # Defied ("la declaración es inmediatamente tachada tras resolver el chequeo"): the drive
    # is not used again until recovered. Play changes it, so its value lives in a pool.
    tachada: bool = False
    # Defied since the adventure began: "no puedes desafiar una motivación que ya ha sido
    # desafiada y recuperada durante la misma aventura". A pool too; /dune aventura clears it.
    desafiada: bool = False

    @model_validator(mode="after")
    def _high_drives_have_a_statement(self, info: ValidationInfo) -> Drive:
        """ "cualquier motivación incrementada hasta 6 gana una frase": a drive of 6 or more
        has its statement (one below 6 has none: :attr:`statement` ignores its text). A rule
        of what is written: a sheet stored before it was read back still loads."""
        if written(info) and self.valor >= skill_test.STATEMENT_FROM and not self.declaracion:
            raise PydanticCustomError("statement", "declaracion", {"limit": skill_test.STATEMENT_FROM})
        return self

    @property
    def statement(self) -> bool:
        """Whether the drive has a statement, which Determinación needs ("No puedes gastar
        Determinación si la motivación que empleas no tiene declaración"); "por debajo de
        6, ya no tendrá frase asociada"."""
        return self.valor >= skill_test.STATEMENT_FROM and bool(self.declaracion)


class DuneDrives(Part):
    deber: Drive
    fe: Drive
    justicia: Drive
    poder: Drive
    verdad: Drive


class Focus(Part):
    habilidad: Literal["combate", "comunicacion", "disciplina", "movimiento", "comprension"]
    nombre: Name


class DuneSheet(SheetBase):
    sistema: Literal["dune"] = "dune"
    habilidades: DuneSkills
    motivaciones: DuneDrives
    enfoques: list[Focus] = Field(default_factory=list, max_length=LIST_LIMIT)
    talentos: list[Line] = Field(default_factory=list, max_length=LIST_LIMIT)
    recursos: list[Line] = Field(default_factory=list, max_length=LIST_LIMIT)
    BLANK: ClassVar[dict[str, Any]] = {
        "habilidades": dict.fromkeys(DuneSkills.model_fields, 4),
        "motivaciones": {d: {"valor": 4} for d in DuneDrives.model_fields},
    }
