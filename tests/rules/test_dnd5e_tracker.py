"""The D&D initiative tracker as a value (issue 15): join once, inspiration, turns, removal."""

import pytest

from rules import dnd5e
from rules.dnd5e import Mode, Tracker
from rules.errors import RuleError
from tests.support.dice import Scripted


def entry(key: str, face: int, modifier: int = 0, **kwargs: object) -> dnd5e.Entry:
    return dnd5e.initiative_entry(Scripted([face]), key, key.upper(), modifier, **kwargs)  # type: ignore[arg-type]


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
    assert dnd5e.tracker_from_data(dnd5e.tracker_to_data(tracker)) == tracker
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
    restored = dnd5e.tracker_from_data(old)
    assert restored.entries[0].roll.modifier == 2
    assert restored.entries[0].roll.mode is Mode.ADVANTAGE
    assert restored.entries[0].settled
