"""Tests of ``rules.mediana.contests``: Mediana's opposed tests: each side rolls, the highest
success wins."""

import pytest

from rules.errors import RuleError
from rules.mediana import checks, contests
from tests.support.dice import Scripted


def opposed(dice: list[int], score: int) -> checks.Test:
    return checks.roll_test(Scripted(dice), score, None)


def test_a_natural_one_loses_an_opposed_test_whatever_the_total() -> None:
    """The bookworm (1 natural, score 30) against the martial artist (score 5, rolls 4)."""
    bookworm = opposed([1, 1, 8], 30)
    expert = opposed([2, 4, 6], 5)
    assert contests.contest_winners((bookworm, expert)) == (1,)


def test_a_fumble_loses_on_either_side_and_both_failing_is_no_winner() -> None:
    assert contests.contest_winners((opposed([1, 1, 1], 9), opposed([1, 1, 3], 9))) == ()


def test_three_or_more_compete_and_ties_go_to_the_gm() -> None:
    tests = (opposed([3, 5, 7], 2), opposed([3, 4, 9], 3), opposed([2, 6, 8], 1))
    assert contests.contest_winners(tests) == (0, 1, 2)
    with pytest.raises(RuleError):
        contests.contest_winners(tests[:1])


def test_the_rivals_rank_follows_its_own_state() -> None:
    rival = contests.Side(5, 0, badly_hurt=True, encumbrance=2)
    assert (rival.rank, rival.score) == ("bajo", 3)
    actor, other = contests.roll_opposed(Scripted([2, 7, 9, 2, 7, 9]), (contests.Side(5, 3), rival))
    assert (actor.total, other.total) == (15, 5)
    with pytest.raises(RuleError):
        contests.roll_opposed(Scripted([]), (rival,))
