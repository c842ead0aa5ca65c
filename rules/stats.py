"""Are these dice fair? Pearson's chi-square test of observed faces against the exact
distribution, with its p-value from the regularized incomplete gamma function.

Every die Tirada rolls, in every system, is one throw of a fair die: the systems' rules
(keep the highest, explode, pick the objective die) act on faces already thrown, and a
reroll is a new throw. So each face of a d``s`` has probability exactly ``1/s``, and that
is the distribution each size is tested against (rules/odds.py computes what the rules
make of those faces; the faces themselves need nothing from it).

The p-value needs ``Q(k/2, x/2)``, the upper regularized gamma function: a series below
``a + 1`` and a continued fraction above it (Numerical Recipes §6.2), each to 1e-12, in
pure Python. scipy would give the same number for a 40 MB dependency.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.errors import RuleError

# Pearson's approximation wants about five expected throws per face before it is trusted.
MIN_EXPECTED = 5
# Below this p the dice are said to stray from what is expected.
ALPHA = 0.01
_EPSILON = 1e-12
_ITERATIONS = 10_000


@dataclass(frozen=True)
class Fairness:
    """One die size's test: how many throws, the statistic, its p-value, and whether there
    were enough throws to judge at all."""

    sides: int
    throws: int
    statistic: float
    p: float
    enough: bool

    @property
    def fair(self) -> bool:
        return not self.enough or self.p >= ALPHA


def uniform(sides: int) -> dict[int, Fraction]:
    """The exact distribution of one fair die's faces."""
    if sides < 1:
        raise RuleError("dice.bad_sides", sides=sides, min=1, max=sides)
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def observed(sides: int, counts: Mapping[int, int]) -> list[int]:
    """Counts for every face 1..sides in order (a face never seen counts 0)."""
    return [counts.get(face, 0) for face in range(1, sides + 1)]


def chi_square(counts: Sequence[int], expected: Sequence[float]) -> tuple[float, float]:
    """Pearson's statistic and its p-value with ``len(counts) - 1`` degrees of freedom."""
    statistic = sum((o - e) ** 2 / e for o, e in zip(counts, expected, strict=True) if e > 0)
    return statistic, upper_gamma(len(counts) - 1, statistic)


def test(sides: int, counts: Mapping[int, int]) -> Fairness:
    """The fairness test of a d``sides`` from its face counts."""
    faces = observed(sides, counts)
    throws = sum(faces)
    expected = [float(p) * throws for p in uniform(sides).values()]
    if throws == 0:
        return Fairness(sides, 0, 0.0, 1.0, False)
    statistic, p = chi_square(faces, expected)
    return Fairness(sides, throws, statistic, p, throws >= MIN_EXPECTED * sides)


def upper_gamma(degrees: int, statistic: float) -> float:
    """``P(X >= statistic)`` for X chi-square with ``degrees`` degrees of freedom, i.e.
    ``Q(degrees/2, statistic/2)``."""
    if degrees <= 0:
        return 1.0
    a, x = degrees / 2, statistic / 2
    if x <= 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def _lower_series(a: float, x: float) -> float:
    """``P(a, x)`` by its series, which converges fast for ``x < a + 1``."""
    term = total = 1.0 / a
    denominator = a
    for _ in range(_ITERATIONS):
        denominator += 1
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """``Q(a, x)`` by Lentz's continued fraction, for ``x >= a + 1``."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPSILON:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h
