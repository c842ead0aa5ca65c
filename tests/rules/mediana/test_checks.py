"""Tests of ``rules.mediana.checks``: A Mediana test: the objective die (exploding on a 10) plus
the score, against a difficulty; criticals, fumbles, and the degrees of success."""

import math
import random
from collections import Counter

import pytest

from rules.dice import MAX_EXPLOSIONS, Mark
from rules.mediana import checks, ranks
from rules.mediana.checks import Throw
from tests.rules.mediana.support import exact_objective
from tests.rules.stored import stored
from tests.support.dice import Scripted


def test_a_natural_one_always_fails_a_skill_test() -> None:
    test = checks.roll_test(Scripted([1, 1, 9]), 30, 10)
    assert test.natural_one
    assert test.success is False
    assert test.total == 31


def test_a_natural_one_does_not_fail_an_attribute_test_by_itself() -> None:
    test = checks.roll_test(Scripted([1, 1, 9]), 30, 10, explode=False, skill_test=False)
    assert test.success is True
    assert not test.fumble


def test_an_explosion_chain_of_three() -> None:
    test = checks.roll_test(Scripted([10, 10, 2, 10, 10, 10, 3, 4, 9]), 5, 15)
    assert [t.objective for t in test.throws] == [10, 10, 4]
    assert test.total == 5 + 24
    assert [d.has(Mark.EXPLODED) for d in test.throws[0].marked] == [False, True, False]


def test_explosions_are_bounded() -> None:
    test = checks.roll_test(Scripted([10] * 300), 0, None)
    assert len(test.throws) == MAX_EXPLOSIONS + 1


def test_attribute_tests_do_not_explode() -> None:
    test = checks.roll_test(Scripted([10, 10, 2]), 3, 10, explode=False, skill_test=False)
    assert len(test.throws) == 1


def test_a_critical_at_exactly_ten_over() -> None:
    assert checks.roll_test(Scripted([5, 5, 5]), 20, 15).critical
    assert not checks.roll_test(Scripted([4, 4, 4]), 20, 15).critical


@pytest.mark.parametrize(("over", "degrees"), [(9, 0), (10, 1), (19, 1), (20, 2)])
def test_degrees_every_full_ten(over: int, degrees: int) -> None:
    assert checks.degrees(15 + over, 15) == degrees


@pytest.mark.parametrize("rank", ranks.RANKS)
def test_seeded_objective_dice_follow_the_exact_distribution(rank: str) -> None:
    n = 60_000
    rng = random.Random(2026)
    seen = Counter(checks.throw(rng, rank).objective for _ in range(n))
    for face, p in exact_objective(rank).items():
        sigma = math.sqrt(n * float(p) * (1 - float(p)))
        assert abs(seen[face] - n * float(p)) < 5 * sigma, (face, seen[face], n * float(p))


def test_only_a_10_followed_by_another_throw_exploded() -> None:
    skill = checks.roll_test(Scripted([10, 10, 10, 1, 2, 3]), 0, None)
    assert [skill.exploded(i) for i in range(len(skill.throws))] == [True, False]
    attribute = checks.roll_test(Scripted([10, 10, 10]), 0, None, **checks.roll_kind(True))
    assert not attribute.exploded(0)


def test_test_data_round_trip() -> None:
    test = checks.roll_test(Scripted([10, 10, 10, 1, 2, 3]), 4, 15)
    assert checks.roll_from_data(checks.roll_to_data(test)) == test


def test_a_test_stored_before_the_codec_still_loads() -> None:
    test = checks.roll_from_data(stored("mediana_test"))
    assert test == checks.Test((Throw((1, 10, 10), "medio"), Throw((7, 1, 4), "medio")), 8, 15)
    assert checks.roll_from_data(checks.roll_to_data(test)) == test


def test_a_throw_s_objective_die_is_picked_once_and_its_dice_carry_their_marks() -> None:
    """The objective die (its 10 exploding) marked, the other two dropped, sorted; the die is
    picked once per throw however often the verdict, total and degrees ask."""
    throw = checks.Throw((10, 3, 7), "alto")
    assert [(d.value, set(d.marks)) for d in throw.marked] == [
        (3, {Mark.DROPPED}),
        (7, {Mark.DROPPED}),
        (10, {Mark.OBJECTIVE, Mark.EXPLODED}),
    ]
    test = checks.Test((throw, checks.Throw((2, 5, 9), "alto")), 4, 20)
    assert (test.total, test.success, test.critical, test.degrees) == (23, True, False, 0)
    assert [set(d.marks) for d in test.marked(1)] == [{Mark.DROPPED}, {Mark.DROPPED}, {Mark.OBJECTIVE}]
    assert "objective" in vars(throw) and "rolled" in vars(test)
