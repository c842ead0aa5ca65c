"""Dune's exact odds: a test's chance to pass, its successes and complications."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic

from rules.dune import skill_test
from rules.dune import successes as dune_successes
from rules.errors import check_range
from rules.odds import N, convolve, floats


@dataclass(frozen=True)
class DuneOdds(Generic[N]):
    p_pass: N
    successes: Mapping[int, N]
    momentum: Mapping[int, N]
    p_complication: N

    @property
    def expected_momentum(self) -> N:
        return sum((k * p for k, p in self.momentum.items()), start=0 * self.p_pass)


@functools.lru_cache(maxsize=2048)
def dune_distribution(
    target: int,
    dice: int = 2,
    focus_skill: int | None = None,
    complication_range: int = 1,
    difficulty: int = 1,
    automatic_ones: int = 0,
) -> DuneOdds[float]:
    """:func:`dune_exact` in floats."""
    odds = dune_exact(target, dice, focus_skill, complication_range, difficulty, automatic_ones)
    return DuneOdds(
        float(odds.p_pass), floats(odds.successes), floats(odds.momentum), float(odds.p_complication)
    )


@functools.lru_cache(maxsize=2048)
def dune_exact(
    target: int,
    dice: int = 2,
    focus_skill: int | None = None,
    complication_range: int = 1,
    difficulty: int = 1,
    automatic_ones: int = 0,
) -> DuneOdds[Fraction]:
    """A skill test's odds: P(pass), successes, Impulso generated and P(≥1 complication).
    Dice fixed at 1 by Determinación score 2 and never complicate."""
    check_range("objetivo", target, 1, 2 * skill_test.MAX_SCORE)
    check_range("dados", dice, 1, skill_test.MAX_DICE)
    check_range("determinacion", automatic_ones, 0, dice)
    check_range("rango_complicacion", complication_range, 1, dune_successes.MAX_COMPLICATION_RANGE)
    check_range("dificultad", difficulty, 0, dune_successes.MAX_RAISED_DIFFICULTY)
    face = Fraction(1, dune_successes.SIDES)
    one_die: defaultdict[int, Fraction] = defaultdict(Fraction)
    for value in range(1, dune_successes.SIDES + 1):
        one_die[dune_successes.die_successes(value, target, focus_skill)] += face
    successes: dict[int, Fraction] = {2 * automatic_ones: Fraction(1)}
    for _ in range(dice - automatic_ones):
        successes = convolve(successes, one_die)
    p_pass = sum((p for k, p in successes.items() if k >= difficulty), start=Fraction(0))
    momentum: defaultdict[int, Fraction] = defaultdict(Fraction)
    for k, p in successes.items():
        momentum[k - difficulty if k >= difficulty else 0] += p
    clean = Fraction(dune_successes.SIDES - complication_range, dune_successes.SIDES) ** (
        dice - automatic_ones
    )
    return DuneOdds(p_pass, dict(sorted(successes.items())), dict(sorted(momentum.items())), 1 - clean)


def dune_assisted_pass(
    target: int,
    dice: int,
    helpers: tuple[tuple[int, int | None], ...],
    focus_skill: int | None = None,
    difficulty: int = 1,
    automatic_ones: int = 0,
) -> Fraction:
    """P(pass) of an assisted test: each helper's one d20 (``(target, focus)``) counts only
    if the leader scores a success ("siempre que consigas al menos un éxito por ti mismo")."""
    check_range("ayudantes", len(helpers), 0, skill_test.MAX_HELPERS)
    leader = dune_exact(target, dice, focus_skill, 1, 0, automatic_ones).successes
    help_: dict[int, Fraction] = {0: Fraction(1)}
    for helper_target, helper_focus in helpers:
        die: defaultdict[int, Fraction] = defaultdict(Fraction)
        for value in range(1, dune_successes.SIDES + 1):
            die[dune_successes.die_successes(value, helper_target, helper_focus)] += Fraction(
                1, dune_successes.SIDES
            )
        help_ = convolve(help_, die)
    total = Fraction(0)
    for own, p in leader.items():
        for helped, q in help_.items():
            if own + (helped if own >= 1 else 0) >= difficulty:
                total += Fraction(p) * q
    return total
