"""Tests of ``rules.dnd5e.odds``: D&D 5e's exact odds: a d20 test's chance against a DC or AC, and
a damage expression's expected value."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dnd5e import checks, odds
from rules.errors import RuleError


@pytest.mark.parametrize("mode", ["normal", "ventaja", "desventaja"])
@pytest.mark.parametrize(
    ("modifier", "target", "attack"),
    [(3, 15, False), (5, 15, True), (-5, 30, True), (30, 5, True), (0, 21, False)],
)
def test_dnd_matches_brute_force(mode: str, modifier: int, target: int, attack: bool) -> None:
    count = 1 if mode == "normal" else 2
    hits = Fraction(0)
    for faces in itertools.product(range(1, 21), repeat=count):
        test = checks.D20Test(tuple((f,) for f in faces), checks.Mode(mode), modifier, target, attack)
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
