"""The sheet format, version 1: one pydantic model per system, keys in Spanish like the
rules' own keys ("sigilo", "destreza"), every size bounded.

Ranges are the books' (docs/decisiones.md, "Fichas"): Dune skills and drives "entre 4 y
8"; D&D ability scores 1–30 and levels 1–20; Donjon attributes 0–6 ("entre uno y seis",
cero para monstruos) and dice counts up to ``rules.donjon.contest.MAX_POOL``; Mediana scores up to
``rules.mediana.checks.MAX_SCORE``. A number play changes (hit points, Heridas, Provisiones,
Riqueza) is in the file as its current value; the store keeps it in a ledger pool.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from bot.names import fold
from rules.dnd5e import attacks
from rules.dnd5e import checks as dnd5e_checks
from rules.donjon import contest, difficulty, sheet
from rules.dune import skill_test
from rules.errors import RuleError
from rules.mediana import checks as mediana_checks
from rules.mediana import health

VERSION: Literal[1] = 1
# The validation context of a stored sheet read back (``bot.sheets.io.validate``): the rules a
# sheet must meet when it is written, added after it was stored, do not make it unreadable.
STORED = "stored"


def written(info: ValidationInfo) -> bool:
    """Whether the sheet being validated is being written (imported, edited), not read back."""
    return not (info.context or {}).get(STORED)


NAME_LIMIT = 60
TEXT_LIMIT = 200
LIST_LIMIT = 40

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_LIMIT)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=TEXT_LIMIT)]
DuneScore = Annotated[int, Field(ge=4, le=8)]
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
Dice = Annotated[int, Field(ge=0, le=contest.MAX_POOL)]
MedianaScore = Annotated[int, Field(ge=-mediana_checks.MAX_SCORE, le=mediana_checks.MAX_SCORE)]


class Part(BaseModel):
    """Every piece of a sheet: unknown keys are refused, nothing is changed in place."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Line(Part):
    """A talent, an asset, a feature: a name and what it says."""

    nombre: Name
    texto: Text = ""


class SheetBase(Part):
    version: Literal[1] = VERSION
    nombre: Name
    # Each system's model narrows it to its own name (the file's discriminator).
    sistema: str


# -- Dune ---------------------------------------------------------------------------------


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


# -- D&D 5e -------------------------------------------------------------------------------


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


# -- Donjon -------------------------------------------------------------------------------


class DonjonAttributes(Part):
    virilidad: int = Field(ge=0, le=6)
    cerebralidad: int = Field(ge=0, le=6)
    discernimiento: int = Field(ge=0, le=6)
    celeridad: int = Field(ge=0, le=6)
    aguante: int = Field(ge=0, le=6)
    sociabilidad: int = Field(ge=0, le=6)


class DonjonSkill(Part):
    nombre: Name
    dados: Annotated[int, Field(ge=1, le=contest.MAX_POOL)]


class DonjonSaves(Part):
    """ "Hay dos Tiradas de Salvación en Donjon": contra Ilusión y Confusión (normalmente con
    Discernimiento) y contra Veneno, Parálisis y Transformación (con Aguante)."""

    ilusion: Dice = 0
    veneno: Dice = 0


class DonjonItem(Part):
    """A weapon, a piece of armour (a shield is one: "Cuero, acolchada, escudo") or another
    item. ``nd`` is its mundane Nivel de Daño, which is also its Peso ("La puntuación de
    Peso siempre es igual al Nivel de Daño mundano"); its Habilidades add to a roll that
    uses it, 1 to 4 dice unless it is magic ("sólo puede ir de 1 a 4 si el objeto no es
    mágico")."""

    nombre: Name
    tipo: Literal["arma", "arma_distancia", "armadura", "escudo", "objeto"] = "objeto"
    nd: int = Field(0, ge=sheet.MIN_DAMAGE_LEVEL, le=sheet.MAX_DAMAGE_LEVEL)
    magico: bool = False
    habilidades: list[DonjonSkill] = Field(default_factory=list, max_length=LIST_LIMIT)

    @model_validator(mode="after")
    def _mundane_skills(self) -> DonjonItem:
        if not self.magico and any(s.dados > difficulty.MAX_ITEM_SKILL for s in self.habilidades):
            raise PydanticCustomError("item_skill", "habilidades", {"limit": difficulty.MAX_ITEM_SKILL})
        return self


class DonjonSheet(SheetBase):
    sistema: Literal["donjon"] = "donjon"
    nivel: int = Field(ge=1, le=difficulty.MAX_LEVEL)
    atributos: DonjonAttributes
    habilidades: list[DonjonSkill] = Field(default_factory=list, max_length=LIST_LIMIT)
    salvaciones: DonjonSaves = DonjonSaves()
    heridas: Dice
    provisiones: Dice = 0
    riqueza: Dice = 0
    equipo: list[DonjonItem] = Field(default_factory=list, max_length=LIST_LIMIT)

    @model_validator(mode="after")
    def _within_level_plus_three(self, info: ValidationInfo) -> DonjonSheet:
        """ "no puedes tener una cantidad de dados mayor a tu Nivel + 3 en ninguna de estas
        características": Heridas, the two Tiradas de Salvación and the Habilidades (not
        Provisiones or Riqueza: Roland starts with 5 Provisiones at level 1). A rule of what
        is written (an import, an edit): a sheet stored before it was read back still loads."""
        if not written(info):
            return self
        cap = sheet.characteristic_cap(self.nivel)
        dice = {"heridas": self.heridas, **self.salvaciones.model_dump()}
        dice |= {s.nombre: s.dados for s in self.habilidades}
        over = next((name for name, n in dice.items() if n > cap), None)
        if over is not None:
            raise PydanticCustomError("level_cap", over, {"limit": f"{over} {dice[over]} > {cap}"})
        return self


# -- Mediana ------------------------------------------------------------------------------


class MedianaAttribute(Part):
    nombre: Name
    valor: MedianaScore


class MedianaSkill(Part):
    nombre: Name
    atributo: Name
    valor: Annotated[int, Field(ge=0, le=mediana_checks.MAX_SCORE)]


class MedianaHealth(Part):
    """PV only: the Físico they follow is the sheet's attribute (:func:`physique_in`)."""

    maximos: Annotated[int, Field(ge=1, le=1000)]
    actuales: Annotated[int, Field(ge=-6 * mediana_checks.MAX_SCORE, le=1000)]


# The attribute malherido and death follow ("iguales o menores a su Físico", "Físico x6 PV"),
# by its name in either language.
PHYSIQUE = frozenset({"fisico", "physique"})


def is_physique(name: str) -> bool:
    return fold(name) in PHYSIQUE


def physique_in(attributes: Sequence[MedianaAttribute]) -> int | None:
    return next((a.valor for a in attributes if is_physique(a.nombre)), None)


def physique_of(data: Mapping[str, Any]) -> int:
    """The Físico of a Mediana sheet's data as stored, unvalidated (the board and the
    ledger's bounds read it so): its attribute, which wins over the ``pv.fisico`` a sheet
    stored before the sheet kept it once may still carry."""
    for attribute in data.get("atributos") or ():
        if is_physique(str(attribute["nombre"])):
            return int(attribute["valor"])
    return int(data["pv"]["fisico"])


class Armour(Part):
    absorcion: int = Field(0, ge=0, le=mediana_checks.MAX_SCORE)
    estorbo: int = Field(0, ge=0, le=mediana_checks.MAX_SCORE)


class MedianaSheet(SheetBase):
    sistema: Literal["mediana"] = "mediana"
    atributos: list[MedianaAttribute] = Field(min_length=1, max_length=LIST_LIMIT)
    habilidades: list[MedianaSkill] = Field(default_factory=list, max_length=LIST_LIMIT)
    pv: MedianaHealth
    armadura: Armour = Armour()

    @model_validator(mode="before")
    @classmethod
    def _one_physique(cls, data: Any) -> Any:
        """A sheet written when ``pv.fisico`` repeated the Físico attribute (and could
        disagree with it): the attribute wins; a sheet without one gets it from there."""
        pv = data.get("pv") if isinstance(data, dict) else None
        if not isinstance(pv, dict) or "fisico" not in pv:
            return data
        rest = {key: value for key, value in pv.items() if key != "fisico"}
        attributes = data.get("atributos")
        if isinstance(attributes, list) and not any(
            isinstance(a, dict) and is_physique(str(a.get("nombre", ""))) for a in attributes
        ):
            attributes = [{"nombre": "Físico", "valor": pv["fisico"]}, *attributes]
        return {**data, "pv": rest, "atributos": attributes}

    @field_validator("atributos")
    @classmethod
    def _has_physique(cls, attributes: list[MedianaAttribute]) -> list[MedianaAttribute]:
        """PV need a Físico of at least 1: malherido at PV ≤ Físico, dead at −Físico × 6."""
        physique = physique_in(attributes)
        if physique is None or not 1 <= physique <= mediana_checks.MAX_SCORE:
            raise PydanticCustomError("physique", "atributos", {"limit": f"1..{mediana_checks.MAX_SCORE}"})
        return attributes

    @field_validator("pv")
    @classmethod
    def _alive_and_within(cls, pv: MedianaHealth, info: ValidationInfo) -> MedianaHealth:
        """From the maximum down to death at −Físico × 6 ("hay que llegar a Físico x6 PV")."""
        physique = physique_in(info.data.get("atributos") or ())
        if physique is None:
            return pv
        if not -physique * health.DEATH_FACTOR <= pv.actuales <= pv.maximos:
            limit = f"{-physique * health.DEATH_FACTOR}..{pv.maximos}"
            raise PydanticCustomError("health", "actuales", {"limit": limit})
        return pv

    @property
    def physique(self) -> int:
        physique = physique_in(self.atributos)
        assert physique is not None
        return physique

    @model_validator(mode="after")
    def _skills_name_attributes(self) -> MedianaSheet:
        known = {a.nombre.casefold() for a in self.atributos}
        unknown = [s.atributo for s in self.habilidades if s.atributo.casefold() not in known]
        if unknown:
            raise PydanticCustomError("skill_attribute", "atributo", {"limit": unknown[0]})
        return self


Sheet = Annotated[DuneSheet | DndSheet | DonjonSheet | MedianaSheet, Field(discriminator="sistema")]
SHEETS: dict[str, type[SheetBase]] = {
    "dune": DuneSheet,
    "dnd5e": DndSheet,
    "donjon": DonjonSheet,
    "mediana": MedianaSheet,
}


def blank(system: str, name: str) -> SheetBase:
    """A new sheet at the book's lowest values, to fill in with ``/ficha editar``."""
    data: dict[str, dict[str, object]] = {
        "dune": {
            "habilidades": dict.fromkeys(DuneSkills.model_fields, 4),
            "motivaciones": {d: {"valor": 4} for d in DuneDrives.model_fields},
        },
        "dnd5e": {
            "nivel": 1,
            "caracteristicas": dict.fromkeys(Abilities.model_fields, 10),
            "ca": 10,
            "pg": {"actuales": 1, "maximos": 1},
        },
        "donjon": {"nivel": 1, "atributos": dict.fromkeys(DonjonAttributes.model_fields, 1), "heridas": 0},
        "mediana": {
            "atributos": [{"nombre": "Físico", "valor": 1}],
            "pv": {"maximos": 1, "actuales": 1},
        },
    }
    return SHEETS[system].model_validate({"nombre": name, **data[system]})
