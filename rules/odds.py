"""Exact odds for every system: what a player wants to know before deciding to roll.

Every figure is exact. Each question has two entry points: ``*_exact`` gives
``fractions.Fraction`` (what the tests compare with brute force), ``*_distribution`` gives
floats (what the bot shows). Each system's odds are in its package (``rules.dune.odds``…);
this module holds what they share.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from typing import TypeVar

from rules.errors import RuleError

# Every odds type holds either exact fractions or floats, never a mix.
N = TypeVar("N", Fraction, float)
MAX_POOL = 40


def check_pool(name: str, count: int) -> None:
    if not 0 <= count <= MAX_POOL:
        raise RuleError("odds.pool_size", name=name, count=count, max=MAX_POOL)


def floats(values: Mapping[int, Fraction]) -> dict[int, float]:
    return {k: float(p) for k, p in values.items()}


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for (x, p), (y, q) in itertools.product(a.items(), b.items()):
        out[x + y] += p * q
    return dict(out)
