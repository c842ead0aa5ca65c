"""Tests of ``rules.dnd5e.tracker``: The D&D 5e initiative tracker: a combat's order, turns and
rounds, and what happens to each creature in it (hit points, death saving throws, conditions), as
one stored value."""

import pytest

from rules.dnd5e import conditions
from rules.dnd5e import tracker as dnd5e_tracker
from rules.dnd5e.checks import D20Test, Mode
from rules.dnd5e.conditions import Affliction
from rules.dnd5e.death import Fate
from rules.dnd5e.hit_points import HitPoints
from rules.dnd5e.initiative import Combatant
from rules.dnd5e.tracker import Tracker
from rules.errors import RuleError
from tests.rules.dnd5e.support import effects
from tests.rules.stored import stored
from tests.support.dice import Scripted


def test_conditions_last_their_rounds_on_the_tracker() -> None:
    entry = dnd5e_tracker.initiative_entry(Scripted([5]), "m1", "Orco", 0, monster=True, count=2, hp=9)
    tracker = dnd5e_tracker.Tracker().join(entry).start()
    tracker = tracker.afflict("m1.2", "aturdido", 1).afflict("m1.2", "derribado", None)
    assert [a.condition for a in tracker.conditions("m1.2")] == ["aturdido", "derribado"]
    assert tracker.conditions("m1.1") == ()
    again = dnd5e_tracker.tracker_from_data(dnd5e_tracker.tracker_to_data(tracker))
    assert again.conditions("m1.2") == tracker.conditions("m1.2")
    next_round = again.next(0)
    assert [a.condition for a in next_round.conditions("m1.2")] == ["derribado"]
    cleared = next_round.relieve("m1.2", "derribado")
    assert cleared.conditions("m1.2") == () and cleared.afflictions == ()
    with pytest.raises(RuleError):
        cleared.relieve("m1.2", "derribado")
    with pytest.raises(RuleError):
        tracker.afflict("m1.2", "dormido", None)
    with pytest.raises(RuleError):
        tracker.afflict("m9", "aturdido", None)
    assert tracker.remove("m1").afflictions == ()


def test_exhaustion_adds_up_to_six_levels_and_the_sixth_kills() -> None:
    entry = dnd5e_tracker.initiative_entry(Scripted([5]), "u1", "Lía", 0, user_id=1)
    tracker = dnd5e_tracker.Tracker().join(entry)
    for _ in range(5):
        tracker = tracker.afflict("u1", "agotamiento", None)
    assert tracker.exhaustion("u1") == 5 and not tracker.fate("u1").dead
    assert effects(conditions.exhaustion(5)) == {("own", "agotamiento", "penalizador")}
    assert conditions.exhaustion(5)[0].value == -10
    rested = tracker.relieve("u1", "agotamiento")
    assert rested.exhaustion("u1") == 4
    again = dnd5e_tracker.tracker_from_data(dnd5e_tracker.tracker_to_data(rested))
    assert again.exhaustion("u1") == 4
    dead = tracker.afflict("u1", "agotamiento", None)
    assert dead.exhaustion("u1") == 6 and dead.fate("u1").dead


def group(count: int = 3, hp: int | None = 7) -> Tracker:
    entry = dnd5e_tracker.initiative_entry(
        Scripted([10]), "m1", "Goblin", 0, monster=True, count=count, hp=hp, ac=15
    )
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
    again = dnd5e_tracker.tracker_from_data(dnd5e_tracker.tracker_to_data(tracker))
    assert again == tracker
    old = {
        "combatants": [{"key": "m1", "name": "Goblin", "monster": True, "initiative": 12, "count": 2}],
        "started": False,
        "round": 1,
        "turn": 0,
        "step": 0,
        "ended": False,
    }
    read = dnd5e_tracker.tracker_from_data(old)
    combatant = read.order[0]
    assert combatant.hp == () and combatant.ac is None and combatant.sheet_id is None
    assert read.applied == () and [m.name for m in combatant.members] == ["Goblin 1", "Goblin 2"]


def test_a_tracker_keeps_each_creatures_fate_through_its_data() -> None:
    tracker = dnd5e_tracker.Tracker().join(
        dnd5e_tracker.initiative_entry(Scripted([5]), "u1", "Lía", 0, user_id=1)
    )
    tracker = tracker.with_fate("u1", Fate(successes=1, failures=2, saved_at=3))
    again = dnd5e_tracker.tracker_from_data(dnd5e_tracker.tracker_to_data(tracker))
    assert again.fate("u1") == Fate(successes=1, failures=2, saved_at=3)
    assert again.fate("m9") == Fate()
    assert (
        dnd5e_tracker.tracker_from_data(dnd5e_tracker.tracker_to_data(again.with_fate("u1", Fate()))).fates
        == ()
    )


def entry(key: str, face: int, modifier: int = 0, **kwargs: object) -> dnd5e_tracker.Entry:
    return dnd5e_tracker.initiative_entry(Scripted([face]), key, key.upper(), modifier, **kwargs)  # type: ignore[arg-type]


def fight(*faces: int) -> Tracker:
    tracker = Tracker()
    for index, face in enumerate(faces):
        tracker = tracker.join(entry(f"c{index}", face))
    return tracker.start()


def test_join_orders_by_initiative() -> None:
    tracker = Tracker().join(entry("a", 5, 2)).join(entry("b", 12))
    assert [c.key for c in tracker.order] == ["b", "a"]
    assert tracker.order[1].initiative == 7


def test_a_second_join_is_refused_mid_combat() -> None:
    """ "El orden de Iniciativa permanece invariable de una ronda a otra": no re-roll."""
    tracker = fight(15, 10)
    with pytest.raises(RuleError) as refused:
        tracker.join(entry("c1", 20))
    assert refused.value.key == "dnd.tracker.already_joined"


def test_a_second_join_is_refused_before_the_start() -> None:
    with pytest.raises(RuleError, match="already_joined"):
        Tracker().join(entry("a", 3)).join(entry("a", 19))


def test_next_wraps_into_a_new_round() -> None:
    tracker = fight(15, 10)
    tracker = tracker.next(0).next(1)
    assert (tracker.turn, tracker.round, tracker.step) == (0, 2, 2)


def test_a_stale_next_is_refused() -> None:
    tracker = fight(15, 10).next(0)
    with pytest.raises(RuleError, match="already_moved"):
        tracker.next(0)


def test_removing_the_last_acting_combatant_starts_the_next_round() -> None:
    tracker = fight(15, 10, 5).next(0).next(1)
    assert tracker.acting is not None and tracker.acting.key == "c2"
    removed = tracker.remove("c2")
    assert (removed.turn, removed.round) == (0, 2)
    assert removed.acting is not None and removed.acting.key == "c0"


def test_removing_someone_ahead_keeps_the_marker_on_the_acting_one() -> None:
    tracker = fight(15, 10, 5).next(0)
    removed = tracker.remove("c0")
    assert removed.acting is not None and removed.acting.key == "c1"
    assert removed.round == 1


def test_a_newcomer_mid_combat_keeps_the_marker() -> None:
    tracker = fight(15, 10).next(0)
    joined = tracker.join(entry("new", 20))
    assert joined.acting is not None and joined.acting.key == "c1"
    assert joined.order[0].key == "new"


def test_inspiration_rerolls_the_initiative_before_the_start() -> None:
    tracker = Tracker().join(entry("a", 3, 2)).join(entry("b", 10))
    inspired = tracker.inspire("a", Scripted([18]))
    assert [c.key for c in inspired.order] == ["a", "b"]
    assert inspired.order[0].initiative == 20
    with pytest.raises(RuleError, match="already_inspired"):
        inspired.inspire("a", Scripted([1]))


def test_inspiration_on_initiative_is_refused_once_settled() -> None:
    with pytest.raises(RuleError, match="inspiration_too_late"):
        fight(3, 10).inspire("c0", Scripted([18]))


def test_round_trip_and_the_cogs_old_data() -> None:
    tracker = fight(15, 10).next(0)
    assert dnd5e_tracker.tracker_from_data(dnd5e_tracker.tracker_to_data(tracker)) == tracker
    old = {
        "combatants": [
            {
                "key": "u1",
                "name": "Ana",
                "monster": False,
                "initiative": 17,
                "count": 1,
                "user": 1,
                "rolls": [4, 15],
                "mode": "ventaja",
            },
        ],
        "started": True,
        "round": 1,
        "turn": 0,
        "step": 0,
        "ended": False,
    }
    restored = dnd5e_tracker.tracker_from_data(old)
    assert restored.entries[0].roll.modifier == 2
    assert restored.entries[0].roll.mode is Mode.ADVANTAGE
    assert restored.entries[0].settled


def test_a_tracker_stored_before_the_codec_still_loads() -> None:
    tracker = dnd5e_tracker.tracker_from_data(stored("dnd5e_tracker"))
    goblins, ana = tracker.entries
    hps = (HitPoints(0, 7), HitPoints(7, 7))
    assert goblins.combatant == Combatant("m2", "Goblin", True, 20, 2, None, None, 13, hps)
    assert (goblins.roll, goblins.settled) == (D20Test(((3,), (18,)), Mode.ADVANTAGE, 2), True)
    assert ana.combatant == Combatant("u1", "Ana", False, 7, 1, 11, 5)
    assert ana.roll == D20Test(((2, 4),), Mode.NORMAL, 3, inspired=True)
    assert (tracker.started, tracker.round, tracker.turn, tracker.step) == (True, 1, 1, 1)
    assert (tracker.ended, tracker.applied) == (False, ("r9:m2.1",))
    assert tracker.fates == (("m2.1", Fate(1, 0, False, False, 0)),)
    assert tracker.afflictions == (("m2.2", (Affliction("envenenado", 4), Affliction("agotamiento"))),)
    assert dnd5e_tracker.tracker_from_data(dnd5e_tracker.tracker_to_data(tracker)) == tracker
