"""Tests of ``rules.dnd5e.attacks``: D&D 5e attacks (SRD 5.2): the attack roll against an AC, and
its damage roll, with a critical hit's doubled dice and Heroic Inspiration's reroll of one damage
die."""

import random

import pytest

from rules.dnd5e import attacks, checks
from rules.dnd5e.checks import Mode
from rules.errors import RuleError
from tests.support.dice import Scripted


def test_attacks_hit_on_a_natural_twenty_and_miss_on_a_one() -> None:
    crit = attacks.roll_attack(Scripted([20]), -5, 30)
    assert (crit.success, crit.critical) == (True, True)
    miss = attacks.roll_attack(Scripted([1]), 30, 5)
    assert (miss.success, miss.fumble) == (False, True)
    assert attacks.roll_attack(Scripted([10]), 5, 15).success is True


def test_cover_adds_to_the_armour_class() -> None:
    assert attacks.roll_attack(Scripted([10]), 5, 15, cover="media").success is False
    assert attacks.roll_attack(Scripted([15]), 5, 15, cover="tres_cuartos").success is True
    with pytest.raises(RuleError) as caught:
        attacks.roll_attack(Scripted([]), 5, 15, cover="completa")
    assert caught.value.key == "dnd.full_cover"


def test_a_critical_doubles_the_dice_not_the_modifiers() -> None:
    assert str(attacks.critical_tree("2d6+3")) == "4d6 + 3"
    assert str(attacks.critical_tree("1d8+1d6+2")) == "2d8 + 2d6 + 2"
    damage = attacks.roll_damage("2d6+3", Scripted([1, 2, 3, 4]), critical=True)
    assert damage.total == 1 + 2 + 3 + 4 + 3


def test_a_rerolled_attack_can_become_a_critical() -> None:
    test = attacks.roll_attack(Scripted([4]), 0, 15)
    assert test.success is False
    assert checks.use_inspiration(test, Scripted([20])).critical


def test_bounds_are_typed() -> None:
    with pytest.raises(RuleError):
        checks.roll_test(random.Random(1), 0, dc=51)
    with pytest.raises(RuleError):
        attacks.roll_attack(random.Random(1), 31, 10)
    with pytest.raises(RuleError):
        attacks.roll_damage("1000d6", random.Random(1))
    with pytest.raises(RuleError):
        attacks.roll_damage("60d6", random.Random(1), critical=True)


def test_inspiration_rerolls_one_damage_die_and_keeps_the_others() -> None:
    rolled, draws = attacks.roll_damage_dice("2d6+1d8+2", Scripted([3, 5, 7]))
    assert rolled.total == 17 and draws == ((6, 3), (6, 5), (8, 7))
    again, redrawn = attacks.reroll_damage_die("2d6+1d8+2", Scripted([1]), False, draws, 1)
    assert again.total == 13 and redrawn == ((6, 3), (6, 1), (8, 7))
    critical, doubled = attacks.roll_damage_dice("1d6+3", Scripted([2, 4]), critical=True)
    assert critical.total == 9 and len(doubled) == 2
    with pytest.raises(RuleError):
        attacks.reroll_damage_die("1d6", Scripted([1]), False, draws[:1], 3)


def test_a_critical_rolls_a_keep_highest_group_twice() -> None:
    """ "4d6kh3" on a critical is two groups of 4d6kh3, each keeping 3: not 8d6kh3."""
    assert str(attacks.critical_tree("4d6kh3+2")) == "(4d6kh3 + 4d6kh3) + 2"
    damage = attacks.roll_damage("4d6kh3", Scripted([6, 6, 6, 1, 5, 5, 5, 1]), critical=True)
    assert damage.total == 33


def test_plain_dice_still_double_their_count() -> None:
    assert str(attacks.critical_tree("1d8+1d6+2")) == "2d8 + 2d6 + 2"


def test_a_d20_test_serialises_itself_in_the_cogs_shape() -> None:
    test = checks.use_inspiration(
        attacks.roll_attack(Scripted([4, 17]), 5, 15, Mode.ADVANTAGE), Scripted([20]), 0
    )
    data = checks.roll_to_data(test)
    stored_before_the_codec = {
        "rolls": [[4, 20], [17]],
        "mode": "ventaja",
        "modifier": 5,
        "target": 15,
        "attack": True,
        "inspired": True,
    }
    assert data == {**stored_before_the_codec, "auto_critical": False, "auto_fail": False}
    assert checks.roll_from_data(data) == test
    assert checks.roll_from_data(stored_before_the_codec) == test


def test_a_damage_is_doubled_once_per_text() -> None:
    """Every attack doubles its damage to refuse a bad one before rolling: the doubled tree
    is kept by text, as the parsed one is, and rolling it leaves it as it was."""
    tree = attacks.critical_tree("2d6kh1+3")
    assert attacks.critical_tree("2d6kh1+3") is tree
    attacks.roll_damage("2d6kh1+3", Scripted([6, 2, 5, 1]), critical=True)
    assert str(attacks.critical_tree("2d6kh1+3")) == "(2d6kh1 + 2d6kh1) + 3"
