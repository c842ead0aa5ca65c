import random

import pytest

from rules.dice import (
    MAX_DICE,
    MAX_EXPLOSIONS,
    Die,
    Mark,
    check_pool,
    explode_chain,
    roll_pool,
    sort_high,
    total,
)
from rules.errors import RuleError
from tests.support.dice import Scripted


def test_roll_pool_is_the_seeded_sequence() -> None:
    expected = random.Random(7)
    pool = roll_pool(random.Random(7), 5, 20)
    assert [d.value for d in pool] == [expected.randint(1, 20) for _ in range(5)]
    assert all(d.sides == 20 and d.kept and not d.marks for d in pool)


@pytest.mark.parametrize(
    ("count", "sides", "key"),
    [
        (0, 20, "dice.too_few"),
        (MAX_DICE + 1, 20, "dice.too_many"),
        (3, 1, "dice.bad_sides"),
        (3, 1001, "dice.bad_sides"),
    ],
)
def test_pool_limits_are_typed_refusals(count: int, sides: int, key: str) -> None:
    with pytest.raises(RuleError) as caught:
        check_pool(count, sides)
    assert caught.value.key == key


def test_limits_are_checked_before_rolling() -> None:
    with pytest.raises(RuleError):
        roll_pool(Scripted([]), 1_000_000, 1_000_000)


def test_marks_accumulate_and_decide_what_counts() -> None:
    die = Die(6, 4).mark(Mark.CRITICAL)
    assert die.has(Mark.CRITICAL) and die.kept
    assert not die.mark(Mark.DROPPED).kept
    assert not die.mark(Mark.REROLLED).kept
    assert total([Die(6, 4), Die(6, 5).mark(Mark.DROPPED), Die(6, 2)]) == 6


def test_sort_high() -> None:
    assert [d.value for d in sort_high([Die(20, 3), Die(20, 19), Die(20, 11)])] == [19, 11, 3]


def test_explosion_chains_while_the_maximum_shows() -> None:
    chain = explode_chain(Scripted([6, 6, 2]), 6)
    assert [d.value for d in chain] == [6, 6, 2]
    assert [d.has(Mark.EXPLODED) for d in chain] == [True, True, False]


def test_explosion_chain_is_bounded() -> None:
    chain = explode_chain(Scripted([6] * 100), 6)
    assert len(chain) == MAX_EXPLOSIONS + 1
