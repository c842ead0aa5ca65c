"""Mediana's exact odds: the objective die's distribution by rank, explosions included."""

from __future__ import annotations

import functools
import itertools
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic

from rules.dice import MAX_EXPLOSIONS
from rules.errors import check_range
from rules.mediana import checks, ranks
from rules.odds import N, floats


@dataclass(frozen=True)
class MedianaOdds(Generic[N]):
    p_success: N
    p_critical: N
    p_fumble: N
    totals: Mapping[int, N]


@functools.lru_cache(maxsize=8)
def _throws(rank: str) -> tuple[tuple[int, bool, Fraction], ...]:
    """Every first throw of 1o3d10 at a rank: its objective die, whether it is a fumble,
    and its probability (1/1000 each, grouped)."""
    grouped: Counter[tuple[int, bool]] = Counter()
    for dice in itertools.product(range(1, 11), repeat=3):
        grouped[ranks.objective_die(dice, rank), ranks.is_fumble(dice, rank)] += 1
    return tuple((o, f, Fraction(c, 1000)) for (o, f), c in sorted(grouped.items()))


@functools.lru_cache(maxsize=8)
def _objective(rank: str) -> dict[int, Fraction]:
    objective: defaultdict[int, Fraction] = defaultdict(Fraction)
    for o, _, p in _throws(rank):
        objective[o] += p
    return dict(objective)


@functools.lru_cache(maxsize=8)
def _after_first(rank: str) -> dict[int, Fraction]:
    """The sum of the objective dice thrown after a first throw that exploded.

    ``rules.mediana.checks.roll_test`` throws at most ``MAX_EXPLOSIONS + 1`` times: the last one
    allowed no longer explodes. Built from that last throw back to the second.
    """
    objective = _objective(rank)
    p_ten = objective.get(checks.SIDES, Fraction(0))
    chain = dict(objective)
    for _ in range(MAX_EXPLOSIONS - 1):
        step = defaultdict(Fraction, {o: p for o, p in objective.items() if o != checks.SIDES})
        for x, q in chain.items():
            step[checks.SIDES + x] += p_ten * q
        chain = dict(step)
    return chain


@functools.lru_cache(maxsize=2048)
def mediana_distribution(
    score: int, difficulty: int, rank: str = "medio", skill_test: bool = True
) -> MedianaOdds[float]:
    """:func:`mediana_exact` in floats."""
    odds = mediana_exact(score, difficulty, rank, skill_test)
    return MedianaOdds(
        float(odds.p_success), float(odds.p_critical), float(odds.p_fumble), floats(odds.totals)
    )


@functools.lru_cache(maxsize=2048)
def mediana_exact(
    score: int, difficulty: int, rank: str = "medio", skill_test: bool = True
) -> MedianaOdds[Fraction]:
    """P(success), P(critical) and P(fumble) of Atributo (+ Habilidad) + 1o3d10 against a
    difficulty, explosions included exactly (they stop at the rules' cap)."""
    check_range("puntuacion", score, -checks.MAX_SCORE, checks.MAX_SCORE)
    check_range("dificultad", difficulty, 0, checks.MAX_DIFFICULTY)
    rest = _after_first(rank)
    p_success = p_critical = p_fumble = Fraction(0)
    totals: defaultdict[int, Fraction] = defaultdict(Fraction)
    for objective, fumble, p in _throws(rank):
        if fumble:
            p_fumble += p
        follow = {objective: Fraction(1)}
        if skill_test and objective == checks.SIDES:
            follow = {checks.SIDES + k: q for k, q in rest.items()}
        for rolled, q in follow.items():
            total = score + rolled
            totals[total] += p * q
            failed = fumble or (skill_test and objective == 1)
            if not failed and total >= difficulty:
                p_success += p * q
                if total - difficulty >= checks.CRITICAL_MARGIN:
                    p_critical += p * q
    return MedianaOdds(p_success, p_critical, p_fumble, dict(sorted(totals.items())))
