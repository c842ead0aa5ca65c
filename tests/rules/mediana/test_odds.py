"""Tests of ``rules.mediana.odds``: Mediana's exact odds: the objective die's distribution by
rank, explosions included."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import MAX_EXPLOSIONS
from rules.mediana import checks as mediana_checks
from rules.mediana import odds, ranks


def test_odds_without_skill_use_the_dropped_rank() -> None:
    plain = odds.mediana_exact(0, 8, "medio").p_success
    dropped = odds.mediana_exact(0, 8, ranks.odds_rank("medio", 0)).p_success
    assert dropped < plain


def brute_mediana(
    score: int, difficulty: int, rank: str, skill_test: bool
) -> tuple[Fraction, Fraction, Fraction]:
    """Enumerate the first throw; when it explodes, the rest of the chain is enumerated
    throw by throw from the objective dice of all 1000 throws (cap included)."""
    throws = list(itertools.product(range(1, 11), repeat=3))
    objective = Counter(ranks.objective_die(d, rank) for d in throws)

    def chain(depth: int) -> Counter[int]:
        out: Counter[int] = Counter()
        for o, c in objective.items():
            if o == 10 and depth < MAX_EXPLOSIONS:
                for rest, q in chain(depth + 1).items():
                    out[10 + rest] += Fraction(c, 1000) * q
            else:
                out[o] += Fraction(c, 1000)
        return out

    after = chain(1)
    success = critical = fumble = Fraction(0)
    for dice in throws:
        first = mediana_checks.Throw(dice, rank)
        p = Fraction(1, 1000)
        fumble += p * ranks.is_fumble(dice, rank)
        follow = {0: Fraction(1)} if not (skill_test and first.objective == 10) else after
        for rest, q in follow.items():
            test = mediana_checks.Test((first,), score + rest, difficulty, skill_test)
            success += p * q * bool(test.success)
            critical += p * q * test.critical
    return success, critical, fumble


@pytest.mark.parametrize(
    ("score", "difficulty", "rank", "skill_test"),
    [(10, 15, "medio", True), (5, 25, "alto", True), (12, 10, "bajo", False), (0, 30, "alto", True)],
)
def test_mediana_matches_brute_force(score: int, difficulty: int, rank: str, skill_test: bool) -> None:
    success, critical, fumble = brute_mediana(score, difficulty, rank, skill_test)
    got = odds.mediana_exact(score, difficulty, rank, skill_test)
    assert (got.p_success, got.p_critical, got.p_fumble) == (success, critical, fumble)
    assert sum(got.totals.values()) == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(-50, 50), st.integers(0, 100), st.sampled_from(ranks.RANKS), st.booleans())
def test_mediana_distributions_sum_to_one(score: int, difficulty: int, rank: str, skill_test: bool) -> None:
    got = odds.mediana_exact(score, difficulty, rank, skill_test)
    assert sum(got.totals.values()) == 1
    assert got.p_critical <= got.p_success
