"""Mediana's character sheet, version 1 of the sheet format (bot/sheets/models.py): the
character's own attributes and skills, scores up to ``rules.mediana.checks.MAX_SCORE``, PV
that follow Físico. Declared as Mediana's sheet model (cogs/mediana/system.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from bot.names import fold
from bot.sheets.models import LIST_LIMIT, Name, Part, SheetBase
from rules.mediana import checks as mediana_checks
from rules.mediana import health

MedianaScore = Annotated[int, Field(ge=-mediana_checks.MAX_SCORE, le=mediana_checks.MAX_SCORE)]


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
    BLANK: ClassVar[dict[str, Any]] = {
        "atributos": [{"nombre": "Físico", "valor": 1}],
        "pv": {"maximos": 1, "actuales": 1},
    }

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
