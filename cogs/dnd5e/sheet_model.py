"""D&D 5e's character sheet, version 1 of the sheet format (bot/sheets/models.py): ability
scores 1–30, levels 1–20, hit points up to 999, the SRD's skills and damage types. Declared as
D&D's sheet model (cogs/dnd5e/system.py), with the Foundry VTT import (cogs/dnd5e/foundry.py)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator
from pydantic_core import PydanticCustomError

from bot.sheets.models import LIST_LIMIT, TEXT_LIMIT, Line, Name, Part, SheetBase
from rules.dnd5e import attacks
from rules.dnd5e import checks as dnd5e_checks
from rules.errors import RuleError

Ability = Literal["fuerza", "destreza", "constitucion", "inteligencia", "sabiduria", "carisma"]
# The SRD's skills, as rules.dnd5e.checks.SKILLS names them (a test pins that they are the same).
Skill = Literal[
    "acrobacias",
    "atletismo",
    "conocimiento_arcano",
    "engano",
    "historia",
    "interpretacion",
    "intimidacion",
    "investigacion",
    "juego_de_manos",
    "medicina",
    "naturaleza",
    "percepcion",
    "perspicacia",
    "persuasion",
    "religion",
    "sigilo",
    "supervivencia",
    "trato_con_animales",
]
HitPoints = Annotated[int, Field(ge=0, le=999)]


class Abilities(Part):
    fuerza: int = Field(ge=1, le=30)
    destreza: int = Field(ge=1, le=30)
    constitucion: int = Field(ge=1, le=30)
    inteligencia: int = Field(ge=1, le=30)
    sabiduria: int = Field(ge=1, le=30)
    carisma: int = Field(ge=1, le=30)


class DndHitPoints(Part):
    actuales: HitPoints
    maximos: Annotated[int, Field(ge=1, le=999)]
    temporales: HitPoints = 0

    @model_validator(mode="after")
    def _within_maximum(self) -> DndHitPoints:
        if self.actuales > self.maximos:
            raise PydanticCustomError("hp_over_max", "actuales > maximos", {"limit": self.maximos})
        return self


class Attack(Part):
    nombre: Name
    caracteristica: Ability | None = None
    bonificacion: int = Field(0, ge=-dnd5e_checks.MAX_MODIFIER, le=dnd5e_checks.MAX_MODIFIER)
    competente: bool = True
    dano: Annotated[str, StringConstraints(strip_whitespace=True, max_length=TEXT_LIMIT)] = ""
    tipo: Annotated[str, StringConstraints(strip_whitespace=True, max_length=30)] = ""

    @model_validator(mode="after")
    def _damage_parses(self) -> Attack:
        if self.dano:
            try:
                attacks.critical_tree(self.dano)
            except RuleError as error:
                raise PydanticCustomError("damage", "dano", {"limit": self.dano}) from error
        return self


# A monster's challenge rating as its stat block writes it (rules.dnd5e.checks.CHALLENGE_RATINGS,
# a test pins that they are the same).
ChallengeRating = Literal[
    "0",
    "1/8",
    "1/4",
    "1/2",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "11",
    "12",
    "13",
    "14",
    "15",
    "16",
    "17",
    "18",
    "19",
    "20",
    "21",
    "22",
    "23",
    "24",
    "25",
    "26",
    "27",
    "28",
    "29",
    "30",
]


# SRD 5.2's damage types (rules.dnd5e.damage_types.DAMAGE_TYPES, a test pins that they are the same).
DamageType = Literal[
    "acido",
    "contundente",
    "cortante",
    "frio",
    "fuego",
    "fuerza",
    "necrotico",
    "perforante",
    "psiquico",
    "radiante",
    "relampago",
    "trueno",
    "veneno",
]
DamageTypes = Annotated[list[DamageType], Field(max_length=13)]


class DndSheet(SheetBase):
    sistema: Literal["dnd5e"] = "dnd5e"
    nivel: int = Field(ge=1, le=20)
    # An NPC's challenge rating: when given, its proficiency bonus comes from it, not the level.
    vd: ChallengeRating | None = None
    caracteristicas: Abilities
    competencias: list[Skill] = Field(default_factory=list, max_length=len(dnd5e_checks.SKILLS))
    pericias: list[Skill] = Field(default_factory=list, max_length=len(dnd5e_checks.SKILLS))
    salvaciones: list[Ability] = Field(default_factory=list, max_length=6)
    ca: int = Field(ge=1, le=dnd5e_checks.MAX_TARGET)
    pg: DndHitPoints
    velocidad: int = Field(9, ge=0, le=100)
    # The damage types its damage is halved by, doubled by, or none of it taken (SRD 5.2).
    resistencias: DamageTypes = Field(default_factory=list)
    vulnerabilidades: DamageTypes = Field(default_factory=list)
    inmunidades: DamageTypes = Field(default_factory=list)
    ataques: list[Attack] = Field(default_factory=list, max_length=LIST_LIMIT)
    rasgos: list[Line] = Field(default_factory=list, max_length=LIST_LIMIT)
    BLANK: ClassVar[dict[str, Any]] = {
        "nivel": 1,
        "caracteristicas": dict.fromkeys(Abilities.model_fields, 10),
        "ca": 10,
        "pg": {"actuales": 1, "maximos": 1},
    }

    @field_validator("vd", mode="before")
    @classmethod
    def _rating_as_written(cls, value: object) -> object:
        """ "VD 5" typed in /ficha editar arrives as the number 5: the ratings are words."""
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @property
    def proficiency(self) -> int:
        """The proficiency bonus: by challenge rating when the sheet has one, else by level."""
        if self.vd is not None:
            return dnd5e_checks.proficiency_bonus(dnd5e_checks.challenge_level(self.vd))
        return dnd5e_checks.proficiency_bonus(self.nivel)

    @property
    def proficiency_level(self) -> int:
        """The level (or challenge rating, fractions as 0) the proficiency table reads."""
        return self.nivel if self.vd is None else dnd5e_checks.challenge_level(self.vd)

    @model_validator(mode="after")
    def _expertise_needs_proficiency(self) -> DndSheet:
        """ "Pericia" doubles a proficiency the character has (SRD: Expertise)."""
        missing = [s for s in self.pericias if s not in self.competencias]
        if missing:
            raise PydanticCustomError("expertise", "pericias", {"limit": ", ".join(missing)})
        return self
