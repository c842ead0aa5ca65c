"""Tests of ``rules.donjon.odds``: Donjon's exact odds. The whole table runs the dynamic programme
of small matrix products of ``rules.donjon.matrix`` (in float64, or exactly modulo a few primes put
back together at the end); the chance to win alone is counted in plain Python."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import odds
from rules.donjon import contest, matrix
from rules.donjon import odds as donjon_odds
from rules.errors import RuleError


def outcome(a: tuple[int, ...], b: tuple[int, ...], sides: int) -> tuple[str, int]:
    result = contest.compare(a, b, sides)
    return (result.winner or "tie", result.tied_pairs if result.winner is None else result.successes)


def first_comparison(n: int, m: int, sides: int) -> dict[tuple[str, int], Fraction]:
    """Every roll of both pools, compared with ``rules.donjon.contest.compare``."""
    counts = Counter(
        outcome(a, b, sides)
        for a in itertools.product(range(1, sides + 1), repeat=n)
        for b in itertools.product(range(1, sides + 1), repeat=m)
    )
    return {k: Fraction(v, sides ** (n + m)) for k, v in counts.items()}


def with_extension(
    first: dict[tuple[str, int], Fraction], sides: int
) -> tuple[dict[tuple[str, int], Fraction], Fraction]:
    """Settle full ties by enumerating the added pair of dice, round after round."""
    pairs = list(itertools.product(range(1, sides + 1), repeat=2))
    tied_round = Fraction(sum(x == y for x, y in pairs), len(pairs))
    a_round = Fraction(sum(x > y for x, y in pairs), len(pairs))
    out = {k: v for k, v in first.items() if k[0] != "tie"}
    tail = Fraction(0)
    for (kind, pairs_tied), mass in first.items():
        if kind != "tie":
            continue
        for rounds in range(donjon_odds.TIE_ROUNDS + 1):
            won = mass * tied_round**rounds * a_round
            for side in ("a", "b"):
                key = (side, pairs_tied + rounds + 1)
                out[key] = out.get(key, Fraction(0)) + won
        tail += mass * tied_round ** (donjon_odds.TIE_ROUNDS + 1)
    return out, tail


@pytest.mark.parametrize("sides", [2, 3, 6])
@pytest.mark.parametrize(("n", "m"), [(0, 0), (0, 2), (1, 0), (1, 1), (2, 1), (1, 3), (2, 2), (3, 2), (3, 3)])
def test_donjon_matches_brute_force_exactly(n: int, m: int, sides: int) -> None:
    if sides ** (n + m) > 50_000:
        pytest.skip("too many rolls to enumerate")
    expected, tail = with_extension(first_comparison(n, m, sides), sides)
    got = donjon_odds.donjon_exact(n, m, sides)
    assert dict(got.outcomes) == expected
    assert got.tail == tail
    assert sum(got.outcomes.values()) + got.tail == 1


# Every case icepool's enumeration of both multisets finishes within a few seconds.
ICEPOOL_CASES = [
    (1, 1, 6),
    (2, 3, 6),
    (3, 3, 6),
    (4, 2, 6),
    (4, 4, 6),
    (5, 3, 6),
    (3, 2, 10),
    (1, 1, 20),
    (2, 1, 20),
    (2, 2, 20),
]


@pytest.mark.parametrize(("n", "m", "sides"), ICEPOOL_CASES)
def test_donjon_first_comparison_matches_icepool(n: int, m: int, sides: int) -> None:
    def compared(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[str, int]:
        return outcome(a, b, sides)

    reference = icepool.map(compared, icepool.d(sides).pool(n).expand(), icepool.d(sides).pool(m).expand())
    denominator = reference.denominator()
    expected = {k: Fraction(v, denominator) for k, v in reference.items()}
    got = donjon_odds.donjon_exact(n, m, sides)
    full_tie = sum((p for (kind, _), p in expected.items() if kind == "tie"), start=Fraction(0))
    assert got.full_tie == full_tie
    extended, _ = with_extension(expected, sides)
    assert dict(got.outcomes) == extended


def test_donjon_floats_agree_with_fractions_at_forty_dice() -> None:
    exact = donjon_odds.donjon_exact(40, 37, 20)
    fast = donjon_odds.donjon_distribution(40, 37, 20)
    for key, p in exact.outcomes.items():
        assert fast.outcomes[key] == pytest.approx(float(p), rel=1e-9, abs=1e-300)
    assert sum(exact.outcomes.values()) + exact.tail == 1


def test_donjon_limits() -> None:
    with pytest.raises(RuleError):
        donjon_odds.donjon_distribution(41, 3)
    with pytest.raises(RuleError):
        donjon_odds.donjon_distribution(3, 3, sides=1)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.sampled_from([2, 4, 6, 10, 20]))
def test_donjon_distributions_sum_to_exactly_one(n: int, m: int, sides: int) -> None:
    got = donjon_odds.donjon_exact(n, m, sides)
    assert sum(got.outcomes.values()) + got.tail == 1


def test_the_exact_donjon_primes_are_primes_that_suffice() -> None:
    """Exact Donjon counts are taken modulo these: each must be a prime small enough for
    float64 products to stay exact, and together they must exceed the largest count."""
    assert len(set(matrix.PRIMES)) == len(matrix.PRIMES)
    for p in matrix.PRIMES:
        assert p < 2**22 and all(p % d for d in range(2, math.isqrt(p) + 1))
    assert math.prod(matrix.PRIMES) > 100 ** (2 * odds.MAX_POOL)


def donjon_win_exact(n: int, m: int, sides: int) -> Fraction:
    """``donjon_win`` as an exact fraction: its own counts (``_win_counts``) in integers and
    its closed form of the tie rounds, the reference the tests hold it to (the product
    wants the float alone)."""
    won, full_tie = donjon_odds._win_counts(n, m, sides, 1)
    total = sides ** (n + m)
    return donjon_odds._with_tie_rounds(Fraction(won, total), Fraction(full_tie, total), sides, Fraction(1))


WIN_CASES = [(0, 0, 20), (0, 3, 20), (3, 0, 20), (1, 2, 20), (5, 4, 20), (7, 7, 2), (6, 6, 100), (40, 37, 20)]


@pytest.mark.parametrize(("n", "m", "sides"), WIN_CASES)
def test_donjon_win_is_the_distributions_chance_to_win(n: int, m: int, sides: int) -> None:
    """The odds line's one figure, counted without the successes, is exactly the table's."""
    assert donjon_win_exact(n, m, sides) == donjon_odds.donjon_exact(n, m, sides).win("a")
    fast = donjon_odds.donjon_distribution(n, m, sides).win("a")
    assert donjon_odds.donjon_win(n, m, sides) == pytest.approx(fast, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize(("n", "m", "sides"), [(2, 2, 6), (3, 2, 6), (1, 3, 3), (2, 2, 2)])
def test_donjon_win_matches_brute_force(n: int, m: int, sides: int) -> None:
    expected, _ = with_extension(first_comparison(n, m, sides), sides)
    won = sum((p for (side, _), p in expected.items() if side == "a"), start=Fraction(0))
    assert donjon_win_exact(n, m, sides) == won


def test_donjon_win_limits() -> None:
    with pytest.raises(RuleError):
        donjon_odds.donjon_win(41, 3)
    with pytest.raises(RuleError):
        donjon_odds.donjon_win(3, 3, sides=101)
