"""The sheet format, version 1: what every system's sheet model shares (bot/systems.py
``Declaration.sheet``: each system declares its own, next to its sheet, in
``cogs/<system>/sheet_model.py``), keys in Spanish like the rules' own keys ("sigilo",
"destreza"), every size bounded.

Ranges are the books' (docs/decisiones.md, "Fichas"). A number play changes (hit points,
Heridas, Provisiones, Riqueza) is in the file as its current value; the store keeps it in a
ledger pool. A file another program writes (a Foundry VTT actor) is read by the importers a
system declares (:class:`Importer`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationInfo

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
    # A new sheet at the book's lowest values, the name aside (``/ficha crear``).
    BLANK: ClassVar[Mapping[str, Any]] = {}

    @classmethod
    def blank(cls, name: str) -> Self:
        """A new sheet at the book's lowest values, to fill in with ``/ficha editar``."""
        return cls.model_validate({"nombre": name, **cls.BLANK})


Problem = tuple[str, str, Any]  # a catalog kind, the path in the file, the limit broken


class Unreadable(Exception):
    """A file an importer cannot read whole: ``problems`` say where, in the file's order."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.problems = problems


@dataclass(frozen=True)
class Importer:
    """A file another program writes, read as one of a system's sheets. ``recognises`` tells
    its decoded JSON from a Tirada sheet; ``sheet_data`` turns it into a sheet's data (or
    raises :class:`Unreadable`); ``paths`` names the sheet's fields by the file's own paths,
    so that a problem of the converted sheet points into the file. Such a file may weigh
    more than a sheet (``bot.sheets.io.MAX_UPLOAD_BYTES``)."""

    recognises: Callable[[Any], bool]
    sheet_data: Callable[[dict[str, Any]], dict[str, Any]]
    paths: Mapping[str, str]
