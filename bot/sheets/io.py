"""Reading a sheet a player sends and writing one back, byte for byte the same.

A file is refused whole, with its first problems named (``Problem``: a catalog key and
where), before anything is stored: not UTF-8 JSON, over ``MAX_BYTES``, an unknown version
or system, or any value outside the book's ranges. The sheet models are the systems'
(bot/systems.py ``Declaration.sheet``), and so are the files other programs write that a
system reads as its sheets (``Declaration.importers``: D&D reads a character exported from
Foundry VTT's dnd5e system), up to ``MAX_UPLOAD_BYTES``.
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, TypeAdapter, ValidationError

from bot import systems
from bot.options import typable, untypable
from bot.sheets.models import STORED, VERSION, Importer, SheetBase, Unreadable

MAX_BYTES = 64 * 1024
# What an upload may weigh: a file another program writes (a Foundry export, with item
# descriptions, effects and flags the sheet does not keep) carries more than the sheet it
# becomes.
MAX_UPLOAD_BYTES = 1024 * 1024
# How deep a file may nest lists and objects: a sheet nests three levels at most.
MAX_DEPTH = 16
# How many problems a refusal lists: the first few say what to fix without a wall of text.
SHOWN_PROBLEMS = 5

# pydantic's error types, grouped into the sentences the catalog has for them.
KINDS = {
    "missing": "missing",
    "extra_forbidden": "extra",
    "greater_than_equal": "too_small",
    "greater_than": "too_small",
    "less_than_equal": "too_big",
    "less_than": "too_big",
    "too_long": "too_long",
    "string_too_long": "too_long",
    "too_short": "too_short",
    "string_too_short": "too_short",
    "literal_error": "choice",
    # The models' own checks (each system's sheet model), each with its sentence.
    "hp_over_max": "hp_over_max",
    "damage": "damage",
    "expertise": "expertise",
    "health": "health",
    "physique": "physique",
    "skill_attribute": "skill_attribute",
    "level_cap": "level_cap",
    "item_skill": "item_skill",
    "statement": "statement",
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: ``kind`` names its sentence, ``where`` the field."""

    kind: str
    where: str = ""
    limit: Any = None


def models() -> dict[str, type[SheetBase]]:
    """Every declared system's sheet model, by the system's name (the file's ``sistema``)."""
    return {s.name: s.sheet for s in systems.every() if s.sheet is not None}


def importers() -> tuple[Importer, ...]:
    return tuple(importer for s in systems.every() for importer in s.importers)


def blank(system: str, name: str) -> SheetBase:
    """A new sheet of ``system`` at the book's lowest values, to fill in with ``/ficha editar``."""
    return models()[system].blank(name)


class Rejected(Exception):
    """The file is refused; ``problems`` are the first reasons, in the file's order."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.problems = problems[:SHOWN_PROBLEMS]


def load(raw: bytes) -> SheetBase:
    """The sheet in ``raw``, or :class:`Rejected` saying why not. Python's own limits are
    reasons too: nesting past its recursion (60,000 ``[`` fit in 64 KB) and an integer of
    more than 4,300 digits are refused like any other bad file. Only a Foundry actor may
    pass ``MAX_BYTES``."""
    if len(raw) > MAX_UPLOAD_BYTES:
        raise Rejected([Problem("too_large", limit=MAX_UPLOAD_BYTES // 1024)])
    too_large = Rejected([Problem("too_large", limit=MAX_BYTES // 1024)])
    try:
        data = decoded(raw)
    except Rejected:
        if len(raw) > MAX_BYTES:
            raise too_large from None
        raise
    importer = next((i for i in importers() if i.recognises(data)), None)
    if importer is not None:
        return imported(importer, data)
    if len(raw) > MAX_BYTES:
        raise too_large
    problems = list(untypable_texts(data))
    if problems:
        raise Rejected(problems)
    return validate(data)


def decoded(raw: bytes) -> Any:
    """The JSON in ``raw``, or :class:`Rejected` naming why it is not JSON we read."""
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Rejected([Problem("not_json")]) from None
    except RecursionError:
        raise Rejected([Problem("too_deep", limit=MAX_DEPTH)]) from None
    except ValueError:
        raise Rejected([Problem("long_number")]) from None


def imported(importer: Importer, file: dict[str, Any]) -> SheetBase:
    """The sheet another program's file becomes (a Foundry actor), its problems named by the
    file's paths. Only what is kept is checked for control characters: a description's line
    breaks are dropped."""
    try:
        data = importer.sheet_data(file)
    except Unreadable as error:
        raise Rejected([Problem(*p) for p in error.problems]) from None
    problems = list(untypable_texts(data))
    if problems:
        raise Rejected(problems)
    try:
        return validate(data)
    except Rejected as rejected:
        named = [Problem(p.kind, importer.paths.get(p.where, p.where), p.limit) for p in rejected.problems]
        raise Rejected(named) from None


def untypable_texts(data: Any, where: str = "", depth: int = 0) -> Iterator[Problem]:
    """A problem for each key or text holding a control character (``bot.options``), and
    for nesting past ``MAX_DEPTH`` (no sheet nests so deep; pydantic need not walk it)."""
    if depth > MAX_DEPTH:
        yield Problem("too_deep", limit=MAX_DEPTH)
        return
    if isinstance(data, str):
        if untypable(data):
            yield Problem("control", where)
        return
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        path = f"{where}.{key}" if where else str(key)
        if untypable(path):
            yield Problem("control", typable(path))
            continue
        yield from untypable_texts(value, path, depth + 1)


def validate(data: Any, *, stored: bool = False) -> SheetBase:
    """A sheet from decoded JSON (an import, or a ``stored`` sheet read back: the rules of
    what is written, added after it was stored, do not make it unreadable)."""
    if not isinstance(data, dict):
        raise Rejected([Problem("not_object")])
    if data.get("version") != VERSION:
        raise Rejected([Problem("version", "version", VERSION)])
    system = data.get("sistema")
    declaration = systems.declared(system) if isinstance(system, str) else None
    model = declaration.sheet if declaration is not None else None
    if model is None:
        raise Rejected([Problem("system", "sistema", ", ".join(sorted(models())))])
    try:
        return model.model_validate(data, context={STORED: True} if stored else None)
    except ValidationError as error:
        raise Rejected([problem(e) for e in error.errors()]) from None


def problem(error: Any) -> Problem:
    """One pydantic error as a :class:`Problem` (the limit it broke, when it has one)."""
    where = ".".join(str(p) for p in error["loc"])
    kind = KINDS.get(error["type"], "invalid")
    ctx = error.get("ctx") or {}
    keys = ("ge", "gt", "le", "lt", "max_length", "min_length", "limit")
    limit = next((ctx[k] for k in keys if k in ctx), None)
    if kind == "choice":
        limit = ctx.get("expected")
    return Problem(kind, where, limit)


def dump(sheet: SheetBase) -> bytes:
    """The file for ``sheet``: indented UTF-8 JSON in the models' field order, so that
    exporting what was imported gives the same bytes."""
    text = json.dumps(sheet.model_dump(mode="json"), ensure_ascii=False, indent=2)
    return (text + "\n").encode("utf-8")


def schema() -> dict[str, Any]:
    """The JSON Schema of every version-1 sheet (docs/fichas/esquema.json): one of the
    declared systems' models, told apart by ``sistema``, in the order of their names."""
    sheets: Any = functools.reduce(operator.or_, (model for _, model in sorted(models().items())))
    return TypeAdapter(Annotated[sheets, Field(discriminator="sistema")]).json_schema()
