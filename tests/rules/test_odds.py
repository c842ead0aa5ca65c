"""Exact odds checked against independent computations: brute-force enumeration with
the rules modules, and icepool for the Donjon compare. Every figure equal as a fraction."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import dnd5e, donjon, dune, mediana, odds
from rules.errors import RuleError


def outcome(a: tuple[int, ...], b: tuple[int, ...], sides: int) -> tuple[str, int]:
    result = donjon.compare(a, b, sides)
    return (result.winner or "tie", result.tied_pairs if result.winner is None else result.successes)


def first_comparison(n: int, m: int, sides: int) -> dict[tuple[str, int], Fraction]:
    """Every roll of both pools, compared with ``rules.donjon.compare``."""
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
        for rounds in range(odds.TIE_ROUNDS + 1):
            won = mass * tied_round**rounds * a_round
            for side in ("a", "b"):
                key = (side, pairs_tied + rounds + 1)
                out[key] = out.get(key, Fraction(0)) + won
        tail += mass * tied_round ** (odds.TIE_ROUNDS + 1)
    return out, tail


@pytest.mark.parametrize("sides", [2, 3, 6])
@pytest.mark.parametrize(("n", "m"), [(0, 0), (0, 2), (1, 0), (1, 1), (2, 1), (1, 3), (2, 2), (3, 2), (3, 3)])
def test_donjon_matches_brute_force_exactly(n: int, m: int, sides: int) -> None:
    if sides ** (n + m) > 50_000:
        pytest.skip("too many rolls to enumerate")
    expected, tail = with_extension(first_comparison(n, m, sides), sides)
    got = odds.donjon_exact(n, m, sides)
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
    got = odds.donjon_exact(n, m, sides)
    full_tie = sum((p for (kind, _), p in expected.items() if kind == "tie"), start=Fraction(0))
    assert got.full_tie == full_tie
    extended, _ = with_extension(expected, sides)
    assert dict(got.outcomes) == extended


def test_donjon_floats_agree_with_fractions_at_forty_dice() -> None:
    exact = odds.donjon_exact(40, 37, 20)
    fast = odds.donjon_distribution(40, 37, 20)
    for key, p in exact.outcomes.items():
        assert fast.outcomes[key] == pytest.approx(float(p), rel=1e-9, abs=1e-300)
    assert sum(exact.outcomes.values()) + exact.tail == 1


def test_donjon_limits() -> None:
    with pytest.raises(RuleError):
        odds.donjon_distribution(41, 3)
    with pytest.raises(RuleError):
        odds.donjon_distribution(3, 3, sides=1)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.sampled_from([2, 4, 6, 10, 20]))
def test_donjon_distributions_sum_to_exactly_one(n: int, m: int, sides: int) -> None:
    got = odds.donjon_exact(n, m, sides)
    assert sum(got.outcomes.values()) + got.tail == 1


def brute_dune(target: int, dice: int, focus: int | None, rng: int, difficulty: int, ones: int) -> tuple:
    rolled = dice - ones
    passes, complication = Fraction(0), Fraction(0)
    successes: Counter[int] = Counter()
    for values in itertools.product(range(1, 21), repeat=rolled):
        test = dune.evaluate([1] * ones + list(values), target, focus, rng, difficulty)
        weight = Fraction(1, 20**rolled)
        successes[test.successes] += weight
        passes += weight * test.passed
        complication += weight * (sum(dune.is_complication(v, rng) for v in values) > 0)
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


@pytest.mark.parametrize("mode", ["normal", "ventaja", "desventaja"])
@pytest.mark.parametrize(
    ("modifier", "target", "attack"),
    [(3, 15, False), (5, 15, True), (-5, 30, True), (30, 5, True), (0, 21, False)],
)
def test_dnd_matches_brute_force(mode: str, modifier: int, target: int, attack: bool) -> None:
    count = 1 if mode == "normal" else 2
    hits = Fraction(0)
    for faces in itertools.product(range(1, 21), repeat=count):
        test = dnd5e.D20Test(tuple((f,) for f in faces), dnd5e.Mode(mode), modifier, target, attack)
        hits += Fraction(test.success, 20**count)
    got = odds.dnd_exact(modifier, target, mode, attack)
    assert got.p_success == hits
    assert sum(got.totals.values()) == 1


def test_dnd_expected_damage() -> None:
    got = odds.dnd_exact(5, 15, "normal", True, "2d6+3")
    assert got.damage_hit == 10
    assert got.damage_critical == 17
    assert got.expected_damage == (got.p_success - Fraction(1, 20)) * 10 + Fraction(1, 20) * 17
    with pytest.raises(RuleError):
        odds.dnd_distribution(5, 15, "normal", True, "4d6kh3")


def test_damage_divided_by_zero_is_a_typed_refusal() -> None:
    with pytest.raises(RuleError) as caught:
        odds.dnd_distribution(5, 15, "normal", True, "1d6/0")
    assert caught.value.key == "expr.value"
    assert caught.value.params == {"expression": "1d6/0"}


def test_the_exact_donjon_primes_are_primes_that_suffice() -> None:
    """Exact Donjon counts are taken modulo these: each must be a prime small enough for
    float64 products to stay exact, and together they must exceed the largest count."""
    assert len(set(odds.PRIMES)) == len(odds.PRIMES)
    for p in odds.PRIMES:
        assert p < 2**22 and all(p % d for d in range(2, math.isqrt(p) + 1))
    assert math.prod(odds.PRIMES) > 100 ** (2 * odds.MAX_POOL)


def brute_mediana(
    score: int, difficulty: int, rank: str, skill_test: bool
) -> tuple[Fraction, Fraction, Fraction]:
    """Enumerate the first throw; when it explodes, the rest of the chain is enumerated
    throw by throw from the objective dice of all 1000 throws (cap included)."""
    throws = list(itertools.product(range(1, 11), repeat=3))
    objective = Counter(mediana.objective_die(d, rank) for d in throws)

    def chain(depth: int) -> Counter[int]:
        out: Counter[int] = Counter()
        for o, c in objective.items():
            if o == 10 and depth < mediana.MAX_EXPLOSIONS:
                for rest, q in chain(depth + 1).items():
                    out[10 + rest] += Fraction(c, 1000) * q
            else:
                out[o] += Fraction(c, 1000)
        return out

    after = chain(1)
    success = critical = fumble = Fraction(0)
    for dice in throws:
        first = mediana.Throw(dice, rank)
        p = Fraction(1, 1000)
        fumble += p * mediana.is_fumble(dice, rank)
        follow = {0: Fraction(1)} if not (skill_test and first.objective == 10) else after
        for rest, q in follow.items():
            test = mediana.Test((first,), score + rest, difficulty, skill_test)
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


@settings(max_examples=30, deadline=None)
@given(
    st.integers(-30, 30),
    st.none() | st.integers(1, 50),
    st.sampled_from(["normal", "ventaja", "desventaja"]),
    st.booleans(),
)
def test_dnd_distributions_sum_to_one(modifier: int, target: int | None, mode: str, attack: bool) -> None:
    got = odds.dnd_exact(modifier, target, mode, attack)
    assert sum(got.totals.values()) == 1
    assert got.p_success is None or 0 <= got.p_success <= 1


@settings(max_examples=30, deadline=None)
@given(st.integers(-50, 50), st.integers(0, 100), st.sampled_from(mediana.RANKS), st.booleans())
def test_mediana_distributions_sum_to_one(score: int, difficulty: int, rank: str, skill_test: bool) -> None:
    got = odds.mediana_exact(score, difficulty, rank, skill_test)
    assert sum(got.totals.values()) == 1
    assert got.p_critical <= got.p_success
