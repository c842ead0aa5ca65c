"""Donjon's character sheet, version 1 of the sheet format (bot/sheets/models.py): attributes
0–6 ("entre uno y seis", cero para monstruos), dice counts up to ``rules.donjon.contest.MAX_POOL``,
the character's invented Habilidades and equipment. Declared as Donjon's sheet model
(cogs/donjon/system.py)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, model_validator
from pydantic_core import PydanticCustomError

from bot.sheets.models import LIST_LIMIT, Name, Part, SheetBase, written
from rules.donjon import contest, difficulty, sheet

Dice = Annotated[int, Field(ge=0, le=contest.MAX_POOL)]


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
    BLANK: ClassVar[dict[str, Any]] = {
        "nivel": 1,
        "atributos": dict.fromkeys(DonjonAttributes.model_fields, 1),
        "heridas": 0,
    }

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
