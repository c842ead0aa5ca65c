"""D&D hit points (issue 18): temporary ones first, never below 0 nor above the maximum,
instant death and unconsciousness, and a tracker's monsters with one set per member."""

import pytest

from rules import dnd5e
from rules.dnd5e import Tracker
from rules.dnd5e_damage import Condition, HitPoints, damage, heal, hit_points, with_temporary
from rules.errors import RuleError
from tests.support.dice import Scripted


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


def group(count: int = 3, hp: int | None = 7) -> Tracker:
    entry = dnd5e.initiative_entry(Scripted([10]), "m1", "Goblin", 0, monster=True, count=count, hp=hp, ac=15)
    return Tracker().join(entry)


def test_each_member_of_a_group_has_its_own_hit_points() -> None:
    tracker = group()
    combatant = tracker.order[0]
    assert [m.name for m in combatant.members] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert [m.target for m in combatant.members] == ["m1.1", "m1.2", "m1.3"]
    hurt = tracker.hurt("m1.2", HitPoints(2, 7), "roll:m1.2")
    assert [m.hp for m in hurt.order[0].members] == [HitPoints(7, 7), HitPoints(2, 7), HitPoints(7, 7)]
    assert hurt.order[0].ac == 15


def test_the_same_damage_reaches_a_creature_once() -> None:
    hurt = group().hurt("m1.2", HitPoints(2, 7), "9:m1.2")
    with pytest.raises(RuleError) as refused:
        hurt.hurt("m1.2", HitPoints(0, 7), "9:m1.2")
    assert refused.value.key == "dnd.hp.already_applied"
    # The same roll on another creature (an area spell) is another application.
    assert hurt.hurt("m1.3", HitPoints(5, 7), "9:m1.3").order[0].members[2].hp == HitPoints(5, 7)


def test_a_lone_creature_keeps_its_name_and_unknown_hit_points() -> None:
    (member,) = group(1, None).order[0].members
    assert member.name == "Goblin" and member.target == "m1" and member.hp is None


def test_hit_points_survive_the_round_trip_and_old_trackers_still_read() -> None:
    tracker = group().hurt("m1.1", HitPoints(1, 7, 3), "5:m1.1")
    again = dnd5e.tracker_from_data(dnd5e.tracker_to_data(tracker))
    assert again == tracker
    old = {
        "combatants": [{"key": "m1", "name": "Goblin", "monster": True, "initiative": 12, "count": 2}],
        "started": False,
        "round": 1,
        "turn": 0,
        "step": 0,
        "ended": False,
    }
    read = dnd5e.tracker_from_data(old)
    combatant = read.order[0]
    assert combatant.hp == () and combatant.ac is None and combatant.sheet_id is None
    assert read.applied == () and [m.name for m in combatant.members] == ["Goblin 1", "Goblin 2"]
