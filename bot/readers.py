"""Reading a stored roll after the fact: what it was, how it went, which dice it showed.

The chronicle (bot/cronica.py) and the dice statistics (bot/estadisticas.py) read rolls
of every system from the store. Each system keeps its roll in the shape its rules module
writes, so each system's declaration (bot/systems.py, ``readers``) reads its own kinds
back; ``/tirar``'s expressions, which belong to no system, are read here. A kind without a
reader still appears, by name.
"""

from __future__ import annotations

from typing import Any

from bot import systems
from bot.i18n import Lang
from bot.systems import Dice, Face, Reader, Reading


def asked_option(data: dict[str, Any], name: str) -> Any:
    """The option ``name`` a stored roll was asked with: under its ``options`` (what
    *Repetir* asks again, ``bot.repeat``), else at the top of its data, where a roll
    stored before every roll kept its options had it (``/tirar``'s, ``/dnd tirar``'s)."""
    options = data.get("options")
    return options[name] if isinstance(options, dict) and name in options else data.get(name)


def expression(lang: Lang, data: dict[str, Any]) -> Reading:
    """A dice expression's roll (``/tirar``, and the systems' own expressions): its dice and
    total."""
    asked = asked_option(data, "expresion")
    if asked is None:  # no expression kept: a shape this reader does not know (``read``)
        raise KeyError("expresion")
    total = data.get("total")
    result = f"{asked} = {total}" if total is not None else str(asked)
    return Reading("tirar", result, None, expression_dice(data))


def expression_dice(data: dict[str, Any]) -> tuple[Face, ...]:
    """An expression roll's dice alone: :func:`expression`'s, and a new roll's for the
    statistics."""
    return tuple((s, v) for s, v in data.get("dados", ()))


READERS: dict[str, Reader] = {"tirar": expression}
# ``/tirar``'s dice alone (``Declaration.dice``), for a new roll's statistics.
DICE: dict[str, tuple[str, Dice]] = {"tirar": ("tirar", expression_dice)}


def read(lang: Lang, kind: str, data: dict[str, Any]) -> Reading | None:
    """The roll read back, or None for a kind without a reader or a shape its reader no
    longer knows (a roll stored by an older version): it is then told by name only."""
    reader = READERS.get(kind) or systems.reader(kind)
    if reader is None:
        return None
    try:
        return reader(lang, data)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def faces(kind: str, data: dict[str, Any]) -> tuple[str, tuple[Face, ...]]:
    """A stored roll's system and dice, for the statistics, as its reader reads them (a
    shape of any age: a secret roll revealed long after); nothing for a kind without dice."""
    reading = read("es", kind, data)
    return (reading.system, reading.dice) if reading is not None else (kind, ())


def new_faces(kind: str, data: dict[str, Any]) -> tuple[str, tuple[Face, ...]]:
    """:func:`faces` of a roll just written, by its kind's dice alone where its system
    declares them (``Declaration.dice``: today's shape, not decoded); data they cannot read
    is read whole, so the statistics count what the reader would."""
    declared = DICE.get(kind) or systems.dice(kind)
    if declared is None:
        return faces(kind, data)
    system, dice = declared
    try:
        return system, dice(data)
    except (KeyError, TypeError, ValueError, IndexError):
        return faces(kind, data)
