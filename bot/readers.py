"""Reading a stored roll after the fact: what it was, how it went, which dice it showed.

The chronicle (bot/cronica.py) and the dice statistics (bot/estadisticas.py) read rolls
of every system from the store. Each system keeps its roll in the shape its rules module
writes (``rules.dune.skill_test.to_data``, ``rules.dnd5e.checks.roll_to_data`` inside ``test``…), so they
are read back with the same module's reader; one table of readers per kind, here, keeps
every other module free of those shapes. A kind without a reader still appears, by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bot.i18n import Lang, t
from rules.dnd5e import checks as dnd5e_checks
from rules.donjon import attributes, posted
from rules.dune import skill_test
from rules.mediana import checks as mediana_checks
from rules.mediana import contests, effects

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


def _dnd_tirar(lang: Lang, data: dict[str, Any]) -> Reading:
    """``/dnd tirar`` keeps its dice and total as ``/tirar`` does; its dice are D&D's."""
    return replace(_tirar(lang, data), system="dnd5e")


def _dune(lang: Lang, data: dict[str, Any]) -> Reading:
    roll = skill_test.from_data(data)
    test = roll.test
    faces = tuple((20, v) for slot in roll.slots for v in slot.values)
    result = t(lang, "cronica.dune", successes=test.successes, difficulty=roll.difficulty)
    return Reading("dune", result, "cronica.passed" if roll.passed else "cronica.failed", faces)


def _dnd(lang: Lang, data: dict[str, Any]) -> Reading:
    test = dnd5e_checks.roll_from_data(data["test"])
    faces = tuple((20, v) for roll in test.rolls for v in roll)
    verdict = None
    if test.success is not None:
        verdict = "cronica.passed" if test.success else "cronica.failed"
    return Reading("dnd5e", str(test.total), verdict, faces)


def _mediana(lang: Lang, data: dict[str, Any]) -> Reading:
    if data.get("kind") in ("enfrentada", "competicion"):
        return _mediana_contest(data)
    test = mediana_checks.roll_from_data(data["test"])
    faces = tuple((10, v) for throw in test.throws for v in throw.dice)
    if test.difficulty is None:
        return Reading("mediana", str(test.total), None, faces)
    verdict = "cronica.passed" if test.total >= test.difficulty and not test.fumble else "cronica.failed"
    return Reading("mediana", f"{test.total} / {test.difficulty}", verdict, faces)


def _mediana_contest(data: dict[str, Any]) -> Reading:
    """An opposed test or a contest: every side's dice and total; who won, when the roller
    met one rival. A contest still open has rolled nothing: it is told by name."""
    tests = [mediana_checks.roll_from_data(entry["test"]) for entry in data["entries"]]
    if not tests:
        raise ValueError("nothing rolled yet")
    faces = tuple((10, v) for test in tests for throw in test.throws for v in throw.dice)
    verdict = None
    if data["kind"] == "enfrentada" and len(tests) == 2:
        winners = contests.contest_winners(tests)
        if len(winners) == 1:
            verdict = "cronica.won_a" if winners[0] == 0 else "cronica.won_b"
    return Reading("mediana", " / ".join(str(test.total) for test in tests), verdict, faces)


def _mediana_effect(lang: Lang, data: dict[str, Any]) -> Reading:
    effect = effects.effect_from_data(data["effect"])
    faces = tuple((die.sides, die.value) for chain in effect.chains for die in chain)
    return Reading("mediana", str(effect.total), None, faces)


def _donjon(lang: Lang, data: dict[str, Any]) -> Reading:
    roll = posted.from_data(data)
    test = roll.test
    faces = tuple((test.sides, v) for v in (*test.a, *test.b))
    winner = test.winner
    verdict = None if winner is None else ("cronica.won_a" if winner == "a" else "cronica.won_b")
    return Reading("donjon", f"{list(test.a)} / {list(test.b)}", verdict, faces)


def _donjon_attributes(lang: Lang, data: dict[str, Any]) -> Reading:
    """Six 3d6, each giving its median: every die counts, the medians are the result."""
    roll = attributes.AttributeRoll(tuple((r[0], r[1], r[2]) for r in data["rolls"]))
    faces = tuple((6, v) for dice in roll.rolls for v in dice)
    return Reading("donjon", f"{list(roll.medians)} = {roll.total}", None, faces)


READERS: dict[str, Callable[[Lang, dict[str, Any]], Reading]] = {
    "tirar": _tirar,
    "dune": _dune,
    "dnd": _dnd,
    "dnd_tirar": _dnd_tirar,
    "mediana": _mediana,
    "mediana_efecto": _mediana_effect,
    "donjon": _donjon,
    "donjon_atributos": _donjon_attributes,
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
