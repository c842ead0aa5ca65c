"""What Dune's dice count (the 2d20 skill test, "Chequeos de habilidad"): each d20's
successes against the target and focus, complications, and the verdict against the
difficulty.

Sections of ``../shared/reglas/dune-2d20.txt`` are quoted in the docstrings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice import Die, Mark
from rules.errors import check_range

SIDES = 20
# Amenaza may raise a difficulty past 5 ("puede gastar Amenaza para incrementar la dificultad").
MAX_RAISED_DIFFICULTY = 10
MAX_COMPLICATION_RANGE = 5


def die_successes(value: int, target: int, focus_skill: int | None = None) -> int:
    """ "Cada resultado igual o inferior a ese número objetivo es un éxito. Cada resultado
    de 1 es un éxito crítico"; with a focus, "cualquier resultado igual o inferior a su
    habilidad se considera éxito crítico"."""
    if value == 1 or (focus_skill is not None and value <= focus_skill):
        return 2
    return 1 if value <= target else 0


def is_complication(value: int, complication_range: int = 1) -> bool:
    """A 20 is a complication; each step of range adds the next number down."""
    return value >= SIDES + 1 - complication_range


@dataclass(frozen=True)
class Slot:
    """One die of the pool with its history: earlier values were rerolled away."""

    values: tuple[int, ...]
    fixed: bool = False

    @property
    def value(self) -> int:
        return self.values[-1]

    @property
    def rerolled(self) -> bool:
        return len(self.values) > 1


@dataclass(frozen=True)
class Helper:
    """An assisting character: one d20 against their own target, no bought dice."""

    user_id: int
    target: int
    focus_skill: int | None
    slot: Slot


@dataclass(frozen=True)
class Test:
    """A skill test evaluated: per-die successes, complications and the verdict."""

    dice: tuple[Die, ...]
    per_die: tuple[int, ...]
    helper_dice: tuple[Die, ...]
    helper_successes: int
    leader_successes: int
    successes: int
    complications: int
    difficulty: int
    passed: bool
    momentum: int
    bonus_momentum: int = 0


def _marked(slot: Slot, target: int, focus_skill: int | None, complication_range: int) -> list[Die]:
    history = [Die(SIDES, v, frozenset({Mark.REROLLED})) for v in slot.values[:-1]]
    marks: set[Mark] = {Mark.FIXED} if slot.fixed else set()
    successes = die_successes(slot.value, target, focus_skill)
    if successes == 2:
        marks.add(Mark.CRITICAL)
    elif successes == 1:
        marks.add(Mark.SUCCESS)
    if is_complication(slot.value, complication_range):
        marks.add(Mark.COMPLICATION)
    return [*history, Die(SIDES, slot.value, frozenset(marks))]


def evaluate(
    dice: Sequence[int | Slot],
    target: int,
    focus_skill: int | None = None,
    complication_range: int = 1,
    difficulty: int = 1,
    *,
    helpers: Sequence[Helper] = (),
    bonus_momentum: int = 0,
) -> Test:
    """Count successes and complications and give the verdict.

    Helpers' successes count only if the leader scores at least one ("siempre que
    consigas al menos un éxito por ti mismo"); everyone's complications count. Passing
    generates one Impulso per success over the difficulty; bonus Impulso is kept apart
    because it can never be saved.
    """
    check_range("dificultad", difficulty, 0, MAX_RAISED_DIFFICULTY)
    check_range("rango_complicacion", complication_range, 1, MAX_COMPLICATION_RANGE)
    slots = [d if isinstance(d, Slot) else Slot((d,)) for d in dice]
    per_die = tuple(die_successes(s.value, target, focus_skill) for s in slots)
    shown = [d for s in slots for d in _marked(s, target, focus_skill, complication_range)]
    helper_shown = [d for h in helpers for d in _marked(h.slot, h.target, h.focus_skill, complication_range)]
    leader = sum(per_die)
    helped = sum(die_successes(h.slot.value, h.target, h.focus_skill) for h in helpers)
    counted = helped if leader >= 1 else 0
    successes = leader + counted
    complications = sum(is_complication(s.value, complication_range) for s in slots) + sum(
        is_complication(h.slot.value, complication_range) for h in helpers
    )
    passed = successes >= difficulty
    return Test(
        dice=tuple(shown),
        per_die=per_die,
        helper_dice=tuple(helper_shown),
        helper_successes=counted,
        leader_successes=leader,
        successes=successes,
        complications=complications,
        difficulty=difficulty,
        passed=passed,
        momentum=successes - difficulty if passed else 0,
        bonus_momentum=bonus_momentum if passed else 0,
    )
