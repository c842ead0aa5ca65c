"""Tests of ``rules.dune.odds``: Dune's exact odds: a test's chance to pass, its successes and
complications."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dune import odds
from rules.dune import successes as dune_successes


def test_assisted_odds_count_the_helpers_dice() -> None:
    alone = odds.dune_exact(10, 2, difficulty=2).p_pass
    assert odds.dune_assisted_pass(10, 2, ()) == odds.dune_exact(10, 2).p_pass
    helped = odds.dune_assisted_pass(10, 2, ((10, None),), difficulty=2)
    # The leader scores exactly 1 (2 · 9/20 · 10/20 = 9/20) and the helper at least 1 (1/2).
    assert helped == alone + Fraction(9, 40)


def brute_dune(target: int, dice: int, focus: int | None, rng: int, difficulty: int, ones: int) -> tuple:
    rolled = dice - ones
    passes, complication = Fraction(0), Fraction(0)
    successes: Counter[int] = Counter()
    for values in itertools.product(range(1, 21), repeat=rolled):
        test = dune_successes.evaluate([1] * ones + list(values), target, focus, rng, difficulty)
        weight = Fraction(1, 20**rolled)
        successes[test.successes] += weight
        passes += weight * test.passed
        complication += weight * (sum(dune_successes.is_complication(v, rng) for v in values) > 0)
    return passes, dict(successes), complication


@pytest.mark.parametrize(
    ("target", "dice", "focus", "rng", "difficulty", "ones"),
    [
        (12, 2, None, 1, 1, 0),
        (8, 3, 5, 2, 2, 0),
        (20, 2, None, 5, 0, 0),
        (10, 3, None, 1, 3, 1),
        (15, 1, 4, 3, 1, 0),
    ],
)
def test_dune_matches_brute_force(
    target: int, dice: int, focus: int | None, rng: int, difficulty: int, ones: int
) -> None:
    passes, successes, complication = brute_dune(target, dice, focus, rng, difficulty, ones)
    got = odds.dune_exact(target, dice, focus, rng, difficulty, ones)
    assert got.p_pass == passes
    assert dict(got.successes) == successes
    assert got.p_complication == complication
    assert sum(got.momentum.values()) == 1
    assert got.momentum.get(0, 0) == 1 - passes + successes.get(difficulty, 0)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 5),
    st.integers(1, 5),
    st.integers(0, 5),
    st.none() | st.integers(1, 20),
)
def test_dune_distributions_sum_to_one(
    target: int, dice: int, rng: int, difficulty: int, focus: int | None
) -> None:
    got = odds.dune_exact(target, dice, focus, rng, difficulty)
    assert sum(got.successes.values()) == 1
    assert sum(got.momentum.values()) == 1
