"""Conditions (issue 27): what each changes in an attack, a save and a check, how long it
lasts on the tracker, and a hit a condition makes critical or a save it fails."""

import pytest

from rules import dnd5e
from rules import dnd5e_conditions as conditions
from rules.dnd5e_conditions import Why
from rules.errors import RuleError
from tests.support.dice import Scripted


def effects(whys: tuple[Why, ...]) -> set[tuple[str, str, str]]:
    return {(w.whose, w.condition, w.effect.value) for w in whys}


def test_attacks_against_and_by_a_creature() -> None:
    assert effects(conditions.attack([], ["aturdido"], ranged=False)) == {("target", "aturdido", "ventaja")}
    assert effects(conditions.attack(["envenenado"], ["invisible"], ranged=True)) == {
        ("own", "envenenado", "desventaja"),
        ("target", "invisible", "desventaja"),
    }
    assert effects(conditions.attack(["invisible"], [], ranged=False)) == {("own", "invisible", "ventaja")}


def test_prone_is_advantage_up_close_and_disadvantage_from_afar() -> None:
    assert effects(conditions.attack([], ["derribado"], ranged=False)) == {("target", "derribado", "ventaja")}
    assert effects(conditions.attack([], ["derribado"], ranged=True)) == {
        ("target", "derribado", "desventaja")
    }


def test_a_paralyzed_target_takes_a_critical_only_up_close() -> None:
    close = effects(conditions.attack([], ["paralizado"], ranged=False))
    assert close == {("target", "paralizado", "ventaja"), ("target", "paralizado", "critico")}
    assert effects(conditions.attack([], ["paralizado"], ranged=True)) == {
        ("target", "paralizado", "ventaja")
    }


def test_saves_fail_or_have_disadvantage_by_ability() -> None:
    assert effects(conditions.save(["aturdido"], "destreza")) == {("own", "aturdido", "falla")}
    assert effects(conditions.save(["aturdido"], "sabiduria")) == set()
    assert effects(conditions.save(["restringido"], "destreza")) == {("own", "restringido", "desventaja")}
    assert effects(conditions.check(["envenenado", "cegado"])) == {("own", "envenenado", "desventaja")}


def test_a_condition_makes_a_hit_critical_and_a_save_fail() -> None:
    hit = dnd5e.D20Test(((12,),), dnd5e.Mode.NORMAL, 5, 15, attack=True, auto_critical=True)
    assert hit.success and hit.critical
    miss = dnd5e.D20Test(((2,),), dnd5e.Mode.NORMAL, 5, 15, attack=True, auto_critical=True)
    assert not miss.success and not miss.critical
    failed = dnd5e.D20Test(((19,),), dnd5e.Mode.NORMAL, 5, 10, auto_fail=True)
    assert failed.success is False
    assert dnd5e.roll_from_data(dnd5e.roll_to_data(failed)).auto_fail


def test_conditions_last_their_rounds_on_the_tracker() -> None:
    entry = dnd5e.initiative_entry(Scripted([5]), "m1", "Orco", 0, monster=True, count=2, hp=9)
    tracker = dnd5e.Tracker().join(entry).start()
    tracker = tracker.afflict("m1.2", "aturdido", 1).afflict("m1.2", "derribado", None)
    assert [a.condition for a in tracker.conditions("m1.2")] == ["aturdido", "derribado"]
    assert tracker.conditions("m1.1") == ()
    again = dnd5e.tracker_from_data(dnd5e.tracker_to_data(tracker))
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


def test_the_chronicle_reads_an_automatic_failure_as_failed() -> None:
    from cogs.dnd5e.system import read

    failed = dnd5e.D20Test(((19,),), dnd5e.Mode.NORMAL, 5, 10, auto_fail=True)
    reading = read("es", {"test": dnd5e.roll_to_data(failed)})
    assert reading.verdict == "cronica.failed"


def test_exhaustion_adds_up_to_six_levels_and_the_sixth_kills() -> None:
    entry = dnd5e.initiative_entry(Scripted([5]), "u1", "Lía", 0, user_id=1)
    tracker = dnd5e.Tracker().join(entry)
    for _ in range(5):
        tracker = tracker.afflict("u1", "agotamiento", None)
    assert tracker.exhaustion("u1") == 5 and not tracker.fate("u1").dead
    assert effects(conditions.exhaustion(5)) == {("own", "agotamiento", "penalizador")}
    assert conditions.exhaustion(5)[0].value == -10
    rested = tracker.relieve("u1", "agotamiento")
    assert rested.exhaustion("u1") == 4
    again = dnd5e.tracker_from_data(dnd5e.tracker_to_data(rested))
    assert again.exhaustion("u1") == 4
    dead = tracker.afflict("u1", "agotamiento", None)
    assert dead.exhaustion("u1") == 6 and dead.fate("u1").dead
