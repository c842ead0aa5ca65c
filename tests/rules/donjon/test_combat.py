"""Tests of ``rules.donjon.combat``: The Donjon combat tracker: who is in, the turns their
initiative gave, the round."""

import pytest

from rules.donjon import combat as donjon_combat
from rules.donjon.combat import Combat, Seat
from rules.donjon.initiative import Combatant
from rules.errors import RuleError
from tests.rules.stored import stored
from tests.support.dice import Scripted


def player(key: str) -> Combatant:
    return Combatant(key, key.upper(), False, (), 1, int(key[1:]))


def test_a_newcomer_rolls_before_the_rafaga_and_waits_after() -> None:
    combat = Combat().join(Scripted([7, 15]), player("u1"), 2)
    assert combat.seats[0].combatant.dice == (15, 7)
    waiting = combat.next(0).join(Scripted([]), player("u2"), 3)
    assert waiting.seats[1].combatant.dice == ()


def test_re_joining_before_the_rafaga_does_not_reroll() -> None:
    combat = Combat().join(Scripted([2]), player("u1"), 1)
    with pytest.raises(RuleError) as refused:
        combat.join(Scripted([20]), player("u1"), 1)
    assert refused.value.key == "donjon.combat.already_joined"


def test_re_joining_after_the_rafaga_started_keeps_dice_and_turn() -> None:
    combat = Combat().join(Scripted([9, 4]), player("u1"), 2).join(Scripted([6]), player("u2"), 1).next(0)
    with pytest.raises(RuleError, match="already_joined"):
        combat.join(Scripted([]), player("u1"), 2)
    assert [t.key for t in combat.turns] == ["u1", "u2", "u1"]
    assert combat.step == 1 and not combat.over


def test_next_refuses_a_stale_press_and_the_end_of_the_rafaga() -> None:
    combat = Combat().join(Scripted([5]), player("u1"), 1).next(0)
    with pytest.raises(RuleError, match="already_moved"):
        combat.next(0)
    with pytest.raises(RuleError, match="rafaga_over"):
        combat.next(1)


def test_a_new_rafaga_rolls_everyone_including_the_waiting() -> None:
    combat = Combat().join(Scripted([5]), player("u1"), 1).next(0).join(Scripted([]), player("u2"), 1)
    fresh = combat.new_rafaga(Scripted([3, 11]))
    assert [s.combatant.dice for s in fresh.seats] == [(3,), (11,)]
    assert (fresh.rafaga, fresh.step) == (2, 0)


def test_removing_keeps_the_countdown_on_the_first_turn_not_played() -> None:
    combat = Combat().join(Scripted([9, 4]), player("u1"), 2).join(Scripted([6]), player("u2"), 1)
    combat = combat.next(0).next(1)
    assert combat.acting is not None and combat.acting.key == "u1"
    removed = combat.remove("u1")
    assert removed.step == 1 and removed.over


def test_round_trip_reads_the_cogs_stored_shape() -> None:
    stored = {
        "combatants": [
            {"key": "u1", "name": "Ana", "npc": False, "pool": 2, "count": 1, "user": 1, "dice": [9, 4]},
            {"key": "n5", "name": "Orcos", "npc": True, "pool": 1, "count": 3, "user": None, "dice": [6]},
        ],
        "rafaga": 2,
        "step": 1,
        "ended": False,
        "sides": 20,
    }
    combat = donjon_combat.combat_from_data(stored)
    assert donjon_combat.combat_from_data(donjon_combat.combat_to_data(combat)) == combat
    assert donjon_combat.combat_to_data(combat)["seats"][1] == {
        "combatant": {"key": "n5", "name": "Orcos", "npc": True, "dice": [6], "count": 3, "user_id": None},
        "pool": 1,
    }
    assert [t.key for t in combat.turns] == ["u1", "n5", "n5", "n5", "u1"]


def test_a_combat_stored_before_the_codec_still_loads() -> None:
    combat = donjon_combat.combat_from_data(stored("donjon_combat"))
    ana = Seat(Combatant("u1", "Ana", False, (19, 17, 2), 1, 11), 3)
    orcs = Seat(Combatant("n1", "Orco", True, (7, 2), 2, None), 2)
    assert combat == Combat((ana, orcs), rafaga=1, step=1, ended=False, sides=20)
    assert donjon_combat.combat_from_data(donjon_combat.combat_to_data(combat)) == combat


def test_a_combat_schedules_its_turns_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Who acts, whether the ráfaga is over and the card's turns each ask for the schedule;
    the remembered schedule is not part of what is stored."""
    combat = Combat().join(Scripted([9, 4]), player("u1"), 2).join(Scripted([6]), player("u2"), 1)
    data = donjon_combat.combat_to_data(combat)
    calls: list[object] = []
    schedule = donjon_combat.schedule
    monkeypatch.setattr(donjon_combat, "schedule", lambda *a: calls.append(a) or schedule(*a))
    assert combat.acting is not None and combat.acting.key == "u1"
    assert (combat.over, len(combat.turns)) == (False, 3)
    assert len(calls) == 1
    assert donjon_combat.combat_to_data(combat) == data
