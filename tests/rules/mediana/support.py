"""Helpers the tests of ``rules.mediana`` share."""

import itertools
from collections import Counter
from fractions import Fraction

from rules.mediana import ranks


def exact_objective(rank: str) -> dict[int, Fraction]:
    counts = Counter(ranks.objective_die(d, rank) for d in itertools.product(range(1, 11), repeat=3))
    return {k: Fraction(v, 1000) for k, v in counts.items()}
