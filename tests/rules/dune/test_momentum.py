"""Tests of ``rules.dune.momentum``: Impulso from a passed Dune test: spent on its uses ("Gastar
Impulso"), saved to the group pool, or, for an NPC, turned into Amenaza."""

import random

import pytest

from rules.dune import momentum, skill_test
from rules.errors import RuleError
from tests.rules.dune.support import roll_of


def test_spending_takes_bonus_then_the_roll_then_the_group() -> None:
    roll = roll_of([1, 1], target=10, difficulty=1, bonus=1)
    assert (roll.momentum_left, roll.bonus_left) == (3, 1)
    roll, from_group = momentum.spend(roll, "rasgo")
    assert (from_group, roll.bonus_left, roll.momentum_left) == (0, 0, 2)
    roll, from_group = momentum.spend(roll, "recurso")
    assert (from_group, roll.momentum_left) == (0, 0)
    roll, from_group = momentum.spend(roll, "info")
    assert from_group == 1
    assert roll.spends == ("rasgo", "recurso", "info")


def test_saving_moves_what_is_left_but_never_the_bonus() -> None:
    roll = roll_of([1, 1], target=10, difficulty=1, bonus=2)
    closed, saved = momentum.save(roll)
    assert saved == 3
    assert closed.closed
    assert (closed.momentum_left, closed.bonus_left) == (0, 0)
    with pytest.raises(RuleError) as caught:
        momentum.save(closed)
    assert caught.value.key == "dune.closed"


def test_a_failed_roll_cannot_spend_or_save() -> None:
    roll = roll_of([15, 16], target=10)
    for action in (lambda: momentum.spend(roll, "info"), lambda: momentum.save(roll)):
        with pytest.raises(RuleError) as caught:
            action()
        assert caught.value.key == "dune.not_passed"


def test_success_at_a_price_passes_with_a_complication_and_no_momentum() -> None:
    roll = skill_test.success_at_price(roll_of([15, 16], target=10))
    assert roll.passed
    assert roll.complications == 1
    assert roll.momentum_left == 0
    with pytest.raises(RuleError):
        momentum.spend(roll, "info")
    with pytest.raises(RuleError):
        skill_test.success_at_price(roll_of([3, 16], target=10))


def test_rerolling_after_spending_is_refused() -> None:
    roll, _ = momentum.spend(roll_of([1, 2], target=10), "info")
    assert not roll.rerollable
    with pytest.raises(RuleError) as caught:
        skill_test.reroll(roll, random.Random(1), (0,))
    assert caught.value.key == "dune.reroll_too_late"


def test_npc_momentum_becomes_one_threat_and_cannot_be_saved() -> None:
    roll = roll_of([1, 2], target=10, npc=True)
    with pytest.raises(RuleError):
        momentum.save(roll)
    assert momentum.npc_to_threat(roll).closed
    with pytest.raises(RuleError) as caught:
        momentum.npc_to_threat(roll_of([5, 15], target=10, npc=True))
    assert caught.value.key == "dune.nothing_left"


def test_each_momentum_use_once_per_test_except_per_point_uses() -> None:
    """ "cada uso de Impulso ... solo puede ser usado una vez en un mismo chequeo"."""
    roll = roll_of([1, 1, 1], target=10, difficulty=1)
    roll, _ = momentum.spend(roll, "rasgo")
    with pytest.raises(RuleError) as refused:
        momentum.spend(roll, "rasgo")
    assert refused.value.key == "dune.spend_once"
    roll, _ = momentum.spend(roll, "recurso")
    with pytest.raises(RuleError, match="spend_once"):
        momentum.spend(roll, "recurso")
    roll, _ = momentum.spend(roll, "info")
    roll, _ = momentum.spend(roll, "info")
    assert roll.spends == ("rasgo", "recurso", "info", "info")
