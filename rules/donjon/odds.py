"""Donjon's exact odds. The whole table of (winner, successes) runs a dynamic programme of
small matrix products (``rules.donjon.matrix``, numpy, imported when the first table is asked
for); the chance to win alone, what a card's odds line shows, needs no successes and is
counted in plain Python (``donjon_win``), so the cards never load numpy.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from rules.errors import RuleError
from rules.odds import N, check_pool

TIE_ROUNDS = 40


@dataclass(frozen=True)
class DonjonOdds(Generic[N]):
    """P(winner, successes) for pools of ``n`` ("a") and ``m`` ("b") dice.

    Full ties are settled by one added die a side, repeated; ``tail`` is the exact mass of
    the games still tied after ``TIE_ROUNDS`` extra rounds, which the table leaves out.
    """

    outcomes: Mapping[tuple[str, int], N]
    tail: N
    full_tie: N

    def win(self, side: str) -> N:
        return sum((p for (s, _), p in self.outcomes.items() if s == side), start=0 * self.tail)

    def successes(self, side: str) -> dict[int, N]:
        return {k: p for (s, k), p in sorted(self.outcomes.items()) if s == side}

    def expected(self, side: str) -> N:
        return sum((k * p for (s, k), p in self.outcomes.items() if s == side), start=0 * self.tail)


def _donjon_odds(n: int, m: int, sides: int, counts: tuple[list[N], list[N], N], one: N) -> DonjonOdds[N]:
    """Outcomes from counts already divided by ``sides**(n+m)``, with the full-tie rounds."""
    a, b, full_tie = counts
    outcomes: dict[tuple[str, int], N] = {}
    for side, values in (("a", a), ("b", b)):
        for k, p in enumerate(values):
            if p:
                outcomes[side, k] = p
    tail = full_tie
    if full_tie:
        stay = one / sides
        win = (one - stay) / 2
        for rounds in range(TIE_ROUNDS + 1):
            mass = full_tie * stay**rounds * win
            for side in ("a", "b"):
                key = (side, n + rounds + 1)
                outcomes[key] = outcomes.get(key, 0 * one) + mass
        tail = full_tie * stay ** (TIE_ROUNDS + 1)
    return DonjonOdds(outcomes, tail, full_tie)


def _check_donjon(n: int, m: int, sides: int) -> None:
    check_pool("a", n)
    check_pool("b", m)
    if not 2 <= sides <= 100:
        raise RuleError("odds.sides", sides=sides)


@functools.lru_cache(maxsize=512)
def donjon_distribution(n: int, m: int, sides: int = 20) -> DonjonOdds[float]:
    """The distribution of (winner, successes) under ``rules.donjon.contest.compare`` with the
    full-tie extension (one added die a side per round; ties keep counting), in floats:
    the same counts as :func:`donjon_exact`, computed in float64."""
    from rules.donjon import matrix

    _check_donjon(n, m, sides)
    total = float(sides) ** (n + m)
    a, b, tie = matrix.counts(n, m, sides, None)
    counts = ([float(x) / total for x in a[0]], [float(x) / total for x in b[0]], float(tie[0]) / total)
    return _donjon_odds(n, m, sides, counts, 1.0)


@functools.lru_cache(maxsize=512)
def donjon_exact(n: int, m: int, sides: int = 20) -> DonjonOdds[Fraction]:
    """:func:`donjon_distribution` as exact fractions."""
    from rules.donjon import matrix

    _check_donjon(n, m, sides)
    total = sides ** (n + m)
    a, b, tie = matrix.exact_counts(n, m, sides)
    counts = ([Fraction(x, total) for x in a], [Fraction(x, total) for x in b], Fraction(tie, total))
    return _donjon_odds(n, m, sides, counts, Fraction(1))


# Counts are Python integers (exact) or floats (fast, and the largest, 100**80, fits).
Count = TypeVar("Count", int, float)


def _win_counts(n: int, m: int, sides: int, one: Count) -> tuple[Count, Count]:
    """The labelled rolls in which A wins the first comparison, and those of a full tie.

    The faces are scanned from the highest down, as ``rules.donjon.matrix.counts`` does, but
    only the tied states are kept (``tied[t]``: both pools have t dice placed, in equal
    numbers on every face so far): the first face where one pool has more dice than the
    other decides the winner, whatever the faces below hold, so the dice still to place go
    anywhere below it ((v-1)**r ways for r dice) and nothing more is followed. A's i dice on
    face v beat B's j < i there; summed over j by a running total of B's ways, that is
    O(sides · n · m) steps, where the whole table needs matrix products.
    """
    top = max(n, m)
    binom = [[one * math.comb(r, k) for k in range(r + 1)] for r in range(top + 1)]
    tied = [one] + [0 * one] * min(n, m)
    won = 0 * one
    for v in range(sides, 0, -1):
        below = [(one * (v - 1)) ** r for r in range(top + 1)]
        after = [0 * one] * len(tied)
        for t, ways in enumerate(tied):
            if not ways:
                continue
            left_a, left_b = n - t, m - t
            # A's ways with i dice on v and its others below it; B's with at most j there.
            on_v_a = list(map(operator.mul, binom[left_a], reversed(below[: left_a + 1])))
            at_most_b = list(
                itertools.accumulate(map(operator.mul, binom[left_b], reversed(below[: left_b + 1])))
            )
            at_most_b += [at_most_b[-1]] * (left_a - left_b)
            won += ways * sum(map(operator.mul, on_v_a[1:], at_most_b))
            for i, pairs in enumerate(map(operator.mul, binom[left_a], binom[left_b]), start=t):
                after[i] += ways * pairs
        tied = after
    return won, tied[n] if n == m else 0 * one


def _with_tie_rounds(won: N, full_tie: N, sides: int, one: N) -> N:
    """A full tie is won by each side half the time, over the same ``TIE_ROUNDS`` extra rounds
    as the whole table (the games still tied after them are its ``tail``, left out)."""
    return won + full_tie * (one - (one / sides) ** (TIE_ROUNDS + 1)) / 2


@functools.lru_cache(maxsize=512)
def donjon_win(n: int, m: int, sides: int = 20) -> float:
    """``donjon_distribution(n, m, sides).win("a")``, the chance that A wins, without numpy."""
    _check_donjon(n, m, sides)
    won, full_tie = _win_counts(n, m, sides, 1.0)
    total = float(sides) ** (n + m)
    return _with_tie_rounds(won / total, full_tie / total, sides, 1.0)
