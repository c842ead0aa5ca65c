"""Tests of ``rules.dnd5e.hit_points``: D&D 5e hit points: damage, healing, temporary hit points,
and what 0 hit points means."""

import pytest

from rules.dnd5e.hit_points import Condition, HitPoints, damage, heal, hit_points, with_temporary
from rules.errors import RuleError


def test_temporary_hit_points_absorb_damage_first() -> None:
    """The SRD's example: 5 temporary hit points and 7 damage leave 0 of them and 2 taken."""
    harm = damage(HitPoints(20, 20, 5), 7)
    assert harm.after == HitPoints(18, 20, 0)
    assert harm.absorbed == 5 and harm.condition is Condition.UP


def test_damage_that_leaves_the_maximum_kills_outright() -> None:
    """The SRD's cleric: maximum 12, at 6, takes 18; 12 remain, equal to the maximum."""
    harm = damage(HitPoints(6, 12), 18)
    assert harm.after.current == 0 and harm.condition is Condition.DEAD
    assert damage(HitPoints(6, 12), 17).condition is Condition.UNCONSCIOUS


def test_hit_points_never_go_below_zero_and_zero_is_unconscious() -> None:
    harm = damage(HitPoints(3, 12), 5)
    assert harm.after == HitPoints(0, 12) and harm.condition is Condition.UNCONSCIOUS
    assert harm.death_failures == 0


def test_damage_at_zero_is_a_death_save_failure_two_on_a_critical() -> None:
    assert damage(HitPoints(0, 12), 3).death_failures == 1
    assert damage(HitPoints(0, 12), 3, critical=True).death_failures == 2
    assert damage(HitPoints(0, 12), 12).condition is Condition.DEAD
    # Temporary hit points still absorb it: no failure.
    assert damage(HitPoints(0, 12, 5), 3).death_failures == 0


def test_a_monster_dies_at_zero() -> None:
    assert damage(HitPoints(3, 7), 3, dies_at_zero=True).condition is Condition.DEAD
    assert damage(HitPoints(3, 7), 2, dies_at_zero=True).condition is Condition.UP


def test_healing_stops_at_the_maximum_and_never_restores_temporary() -> None:
    assert heal(HitPoints(3, 10, 0), 20) == HitPoints(10, 10, 0)
    assert heal(HitPoints(0, 10, 2), 4) == HitPoints(4, 10, 2)


def test_temporary_hit_points_do_not_add_up() -> None:
    """ "If a spell grants you 12 temporary hit points when you already have 10, you can
    have 12 or 10, not 22": the amount given replaces the old one."""
    assert with_temporary(HitPoints(5, 10, 10), 12).temporary == 12


def test_bad_amounts_are_refused() -> None:
    with pytest.raises(RuleError):
        damage(HitPoints(5, 10), -1)
    with pytest.raises(RuleError):
        hit_points(11, 10)
