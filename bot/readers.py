"""Reading a stored roll after the fact: what it was, how it went, which dice it showed.

The chronicle (bot/cronica.py) and the dice statistics (bot/estadisticas.py) read rolls
of every system from the store. Each system keeps its roll in the shape its rules module
writes (``rules.dune.to_data``, ``rules.dnd5e.roll_to_data`` inside ``test``…), so they
are read back with the same module's reader; one table of readers per kind, here, keeps
every other module free of those shapes. A kind without a reader still appears, by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import Lang, t
from rules import dnd5e, donjon, dune, mediana

# A die as statistics count it: its size and the face it showed.
Face = tuple[int, int]


@dataclass(frozen=True)
class Reading:
    """A roll as the chronicle tells it: its system, its result, its verdict key (or none),
    and every die it showed."""

    system: str
    result: str
    verdict: str | None
    dice: tuple[Face, ...]


def _tirar(lang: Lang, data: dict[str, Any]) -> Reading:
    total = data.get("total")
    result = f"{data['expresion']} = {total}" if total is not None else str(data["expresion"])
    return Reading("tirar", result, None, tuple((s, v) for s, v in data.get("dados", ())))


def _dune(lang: Lang, data: dict[str, Any]) -> Reading:
    roll = dune.from_data(data)
    test = roll.test
    faces = tuple((20, v) for slot in roll.slots for v in slot.values)
    result = t(lang, "cronica.dune", successes=test.successes, difficulty=roll.difficulty)
    return Reading("dune", result, "cronica.passed" if roll.passed else "cronica.failed", faces)


def _dnd(lang: Lang, data: dict[str, Any]) -> Reading:
    test = dnd5e.roll_from_data(data["test"])
    faces = tuple((20, v) for roll in test.rolls for v in roll)
    verdict = None
    if test.target is not None:
        verdict = "cronica.passed" if test.total >= test.target else "cronica.failed"
    return Reading("dnd5e", str(test.total), verdict, faces)


def _mediana(lang: Lang, data: dict[str, Any]) -> Reading:
    test = mediana.roll_from_data(data["test"])
    faces = tuple((10, v) for throw in test.throws for v in throw.dice)
    if test.difficulty is None:
        return Reading("mediana", str(test.total), None, faces)
    verdict = "cronica.passed" if test.total >= test.difficulty and not test.fumble else "cronica.failed"
    return Reading("mediana", f"{test.total} / {test.difficulty}", verdict, faces)


def _donjon(lang: Lang, data: dict[str, Any]) -> Reading:
    roll = donjon.from_data(data)
    test = roll.test
    faces = tuple((test.sides, v) for v in (*test.a, *test.b))
    winner = test.winner
    verdict = None if winner is None else ("cronica.won_a" if winner == "a" else "cronica.won_b")
    return Reading("donjon", f"{list(test.a)} / {list(test.b)}", verdict, faces)


READERS: dict[str, Callable[[Lang, dict[str, Any]], Reading]] = {
    "tirar": _tirar,
    "dune": _dune,
    "dnd": _dnd,
    "mediana": _mediana,
    "donjon": _donjon,
}


def read(lang: Lang, kind: str, data: dict[str, Any]) -> Reading | None:
    """The roll read back, or None for a kind without a reader or a shape its reader no
    longer knows (a roll stored by an older version): it is then told by name only."""
    reader = READERS.get(kind)
    if reader is None:
        return None
    try:
        return reader(lang, data)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def faces(kind: str, data: dict[str, Any]) -> tuple[str, tuple[Face, ...]]:
    """A new roll's system and dice, for the statistics (nothing for a kind without dice)."""
    reading = read("es", kind, data)
    return (reading.system, reading.dice) if reading is not None else (kind, ())
