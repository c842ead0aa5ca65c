"""Tests of ``rules.dune.successes``: What Dune's dice count (the 2d20 skill test, "Chequeos de
habilidad"): each d20's successes against the target and focus, complications, and the verdict
against the difficulty."""

import pytest

from rules.dice import Mark
from rules.dune import successes
from rules.dune.successes import Slot, evaluate
from rules.errors import RuleError


def test_each_die_at_or_under_the_target_is_a_success() -> None:
    test = evaluate([10, 11], target=10)
    assert test.per_die == (1, 0)
    assert (test.successes, test.passed, test.momentum) == (1, True, 0)


def test_a_one_is_a_critical_worth_two() -> None:
    test = evaluate([1, 15], target=10, difficulty=2)
    assert test.per_die == (2, 0)
    assert test.passed
    assert Mark.CRITICAL in test.dice[0].marks


def test_with_a_focus_every_die_at_or_under_the_skill_is_critical() -> None:
    test = evaluate([5, 6, 9], target=12, focus_skill=5)
    assert test.per_die == (2, 1, 1)
    assert evaluate([1], target=12, focus_skill=5).per_die == (2,)


def test_a_twenty_is_a_complication_even_when_it_succeeds() -> None:
    test = evaluate([20, 3], target=20)
    assert test.per_die == (1, 1)
    assert test.complications == 1
    assert {Mark.SUCCESS, Mark.COMPLICATION} <= test.dice[0].marks


def test_complication_range_five_covers_sixteen_to_twenty() -> None:
    test = evaluate([15, 16, 18, 20], target=10, complication_range=5)
    assert test.complications == 3
    with pytest.raises(RuleError) as caught:
        evaluate([1], target=10, complication_range=6)
    assert caught.value.key == "error.out_of_range"


def test_difficulty_zero_always_passes_and_every_success_is_momentum() -> None:
    test = evaluate([19, 20], target=10, difficulty=0)
    assert (test.passed, test.momentum) == (True, 0)
    assert evaluate([3, 4], target=10, difficulty=0).momentum == 2


def test_five_criticals() -> None:
    test = evaluate([1, 1, 1, 1, 1], target=10, difficulty=3)
    assert (test.successes, test.momentum) == (10, 7)


def test_failing_generates_no_momentum() -> None:
    test = evaluate([5, 15], target=10, difficulty=2, bonus_momentum=2)
    assert (test.passed, test.momentum, test.bonus_momentum) == (False, 0, 0)


def test_helpers_count_only_if_the_leader_succeeds_but_their_complications_always_do() -> None:
    helper_ok = successes.Helper(1, 10, None, Slot((4,)))
    helper_20 = successes.Helper(2, 10, None, Slot((20,)))
    with_leader = evaluate([3, 15], target=10, difficulty=2, helpers=[helper_ok, helper_20])
    assert (with_leader.successes, with_leader.helper_successes, with_leader.complications) == (2, 1, 1)
    without = evaluate([13, 15], target=10, difficulty=1, helpers=[helper_ok, helper_20])
    assert (without.successes, without.passed, without.complications) == (0, False, 1)


def test_six_criticals_with_a_helper() -> None:
    helper = successes.Helper(1, 10, None, Slot((1,)))
    test = evaluate([1, 1, 1, 1, 1], target=10, difficulty=5, helpers=[helper])
    assert (test.successes, test.momentum) == (12, 7)
