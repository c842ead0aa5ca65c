"""Tests of ``rules.dnd5e.checks``: D&D 5e d20 tests (SRD 5.2, "Cómo jugar"): ability checks,
saving throws and attack rolls, advantage and disadvantage, modifiers, proficiency, and Heroic
Inspiration's reroll."""

import pytest

from rules.dice import Mark
from rules.dnd5e import checks
from rules.dnd5e.checks import Mode
from rules.errors import RuleError
from tests.rules.stored import stored
from tests.support.dice import Scripted

# Modificadores por característica, straight from the table.
MODIFIERS = {1: -5, 2: -4, 3: -4, 4: -3, 5: -3, 6: -2, 7: -2, 8: -1, 9: -1, 10: 0, 11: 0, 12: 1, 13: 1}
MODIFIERS |= {14: 2, 15: 2, 16: 3, 17: 3, 18: 4, 19: 4, 20: 5, 21: 5, 22: 6, 23: 6, 24: 7, 25: 7}
MODIFIERS |= {26: 8, 27: 8, 28: 9, 29: 9, 30: 10}


# Bono de competencia: "Hasta 4 +2, 5-8 +3, 9-12 +4, 13-16 +5, 17-20 +6, 21-24 +7, 25-28 +8, 29-30 +9".
BONUS = {n: 2 for n in range(5)} | {n: 3 for n in range(5, 9)} | {n: 4 for n in range(9, 13)}
BONUS |= {n: 5 for n in range(13, 17)} | {n: 6 for n in range(17, 21)} | {n: 7 for n in range(21, 25)}
BONUS |= {n: 8 for n in range(25, 29)} | {29: 9, 30: 9}


@pytest.mark.parametrize(("score", "modifier"), sorted(MODIFIERS.items()))
def test_every_ability_modifier(score: int, modifier: int) -> None:
    assert checks.ability_modifier(score) == modifier


@pytest.mark.parametrize(("level", "bonus"), sorted(BONUS.items()))
def test_every_proficiency_bonus_by_level_and_cr(level: int, bonus: int) -> None:
    assert checks.proficiency_bonus(level) == bonus


def test_tables_refuse_what_is_off_them() -> None:
    for bad in (0, 31):
        with pytest.raises(RuleError):
            checks.ability_modifier(bad)
    with pytest.raises(RuleError):
        checks.proficiency_bonus(31)


def test_named_dcs_and_the_eighteen_skills() -> None:
    assert list(checks.DCS.values()) == [5, 10, 15, 20, 25, 30]
    assert len(checks.SKILLS) == 18
    assert set(checks.SKILLS.values()) <= set(checks.ABILITIES)
    assert checks.SKILLS["sigilo"] == "destreza"
    assert checks.SKILLS["trato_con_animales"] == "sabiduria"


@pytest.mark.parametrize(
    ("advantage", "disadvantage", "mode"),
    [
        (False, False, Mode.NORMAL),
        (True, False, Mode.ADVANTAGE),
        (False, True, Mode.DISADVANTAGE),
        (True, True, Mode.NORMAL),
    ],
)
def test_advantage_and_disadvantage_cancel(advantage: bool, disadvantage: bool, mode: Mode) -> None:
    assert checks.mode(advantage, disadvantage) is mode


def test_advantage_keeps_the_higher_and_disadvantage_the_lower() -> None:
    # "si tienes Desventaja y lanzas un 18 y un 3, usa el 3 ... Si en cambio tienes Ventaja ... usa el 18"
    adv = checks.roll_test(Scripted([18, 3]), 2, Mode.ADVANTAGE, dc=15)
    dis = checks.roll_test(Scripted([18, 3]), 2, Mode.DISADVANTAGE, dc=15)
    assert (adv.natural, adv.total, adv.success) == (18, 20, True)
    assert (dis.natural, dis.total, dis.success) == (3, 5, False)
    assert [d.has(Mark.DROPPED) for d in adv.dice] == [False, True]
    assert [d.has(Mark.DROPPED) for d in dis.dice] == [True, False]
    assert len(checks.roll_test(Scripted([7]), 0).rolls) == 1


def test_proficiency_is_doubled_by_expertise_and_never_added_twice() -> None:
    assert checks.total_modifier(3, proficiency=2, proficient=True) == 5
    assert checks.total_modifier(3, proficiency=2, proficient=True, expertise=True) == 7
    assert checks.total_modifier(3, proficiency=2) == 3
    assert checks.total_modifier(3, proficiency=2, proficient=True, bonus=-1) == 4
    with pytest.raises(RuleError):
        checks.total_modifier(3, proficiency=2, expertise=True)


def test_natural_twenty_and_one_do_nothing_special_on_checks() -> None:
    assert checks.roll_test(Scripted([20]), 0, dc=25).success is False
    assert checks.roll_test(Scripted([1]), 20, dc=15).success is True


def test_inspiration_rerolls_one_chosen_die_once() -> None:
    test = checks.roll_test(Scripted([3, 18]), 0, Mode.DISADVANTAGE)
    assert test.natural == 3
    inspired = checks.use_inspiration(test, Scripted([12]), index=0)
    assert inspired.rolls == ((3, 12), (18,))
    assert inspired.natural == 12
    assert [d.value for d in inspired.dice if d.has(Mark.REROLLED)] == [3]
    with pytest.raises(RuleError):
        checks.use_inspiration(inspired, Scripted([5]), index=1)


def test_challenge_ratings_are_the_sheets_and_give_the_table_bonus() -> None:
    from typing import get_args

    from cogs.dnd5e.sheet_model import ChallengeRating

    assert get_args(ChallengeRating) == checks.CHALLENGE_RATINGS
    ratings = ("0", "1/8", "1/2", "4", "5", "30")
    bonuses = {r: checks.proficiency_bonus(checks.challenge_level(r)) for r in ratings}
    assert bonuses == {"0": 2, "1/8": 2, "1/2": 2, "4": 2, "5": 3, "30": 9}
    with pytest.raises(RuleError):
        checks.challenge_level("1/3")


def test_a_condition_makes_a_hit_critical_and_a_save_fail() -> None:
    hit = checks.D20Test(((12,),), checks.Mode.NORMAL, 5, 15, attack=True, auto_critical=True)
    assert hit.success and hit.critical
    miss = checks.D20Test(((2,),), checks.Mode.NORMAL, 5, 15, attack=True, auto_critical=True)
    assert not miss.success and not miss.critical
    failed = checks.D20Test(((19,),), checks.Mode.NORMAL, 5, 10, auto_fail=True)
    assert failed.success is False
    assert checks.roll_from_data(checks.roll_to_data(failed)).auto_fail


def test_the_chronicle_reads_an_automatic_failure_as_failed() -> None:
    from cogs.dnd5e.system import read

    failed = checks.D20Test(((19,),), checks.Mode.NORMAL, 5, 10, auto_fail=True)
    reading = read("es", {"test": checks.roll_to_data(failed)})
    assert reading.verdict == "cronica.failed"


@pytest.mark.parametrize(("cover", "bonus"), [("ninguna", 0), ("media", 2), ("tres_cuartos", 5)])
def test_cover_adds_to_dexterity_saves(cover: str, bonus: int) -> None:
    assert checks.save_cover("destreza", cover) == bonus


def test_cover_is_refused_on_other_saves_and_full_cover_is_no_target() -> None:
    assert checks.save_cover("sabiduria", "ninguna") == 0
    with pytest.raises(RuleError, match="cover_dexterity_only"):
        checks.save_cover("sabiduria", "media")
    with pytest.raises(RuleError, match="full_cover"):
        checks.save_cover("destreza", "completa")


def test_tool_and_skill_proficiency_give_advantage_and_one_bonus() -> None:
    assert checks.tool_check(True, True) == (True, Mode.ADVANTAGE)
    assert checks.tool_check(False, True) == (True, Mode.NORMAL)
    assert checks.tool_check(True, False) == (True, Mode.NORMAL)
    assert checks.tool_check(True, True, disadvantage=True) == (True, Mode.NORMAL)


def test_a_d20_test_stored_before_the_codec_still_loads() -> None:
    test = checks.roll_from_data(stored("dnd5e_d20_test"))
    assert test == checks.D20Test(
        ((11, 13), (5,)), Mode.ADVANTAGE, 5, 15, attack=True, inspired=True, auto_critical=True
    )
    assert checks.roll_from_data(checks.roll_to_data(test)) == test


def test_a_tests_faces_are_read_once_and_not_stored() -> None:
    """Its kept die, natural, total and verdict each ask for the faces: worked out once
    per test, and the remembered faces are not part of what is stored."""
    test = checks.D20Test(((4, 17), (12,)), Mode.ADVANTAGE, 3, 15)
    data = checks.roll_to_data(test)
    assert (test.natural, test.total, test.success) == (17, 20, True)
    assert test.faces is test.faces
    assert checks.roll_to_data(test) == data
    assert checks.roll_from_data(data) == test


@pytest.mark.parametrize(
    ("rolls", "the_mode", "attack", "marks"),
    [
        (((20,),), Mode.NORMAL, True, [{Mark.CRITICAL}]),
        (((1,),), Mode.NORMAL, True, [{Mark.FUMBLE}]),
        (((1,),), Mode.NORMAL, False, [set()]),
        (((7, 20), (3,)), Mode.ADVANTAGE, True, [{Mark.REROLLED}, {Mark.CRITICAL}, {Mark.DROPPED}]),
        (((5,), (1,)), Mode.DISADVANTAGE, True, [{Mark.DROPPED}, {Mark.FUMBLE}]),
        (((9,), (9,)), Mode.ADVANTAGE, False, [set(), {Mark.DROPPED}]),
    ],
)
def test_a_test_s_dice_carry_their_marks_and_its_kept_die_is_worked_out_once(
    rolls: tuple[tuple[int, ...], ...], the_mode: Mode, attack: bool, marks: list[set[Mark]]
) -> None:
    """Every d20 with its marks (rerolled, dropped, the kept one's critical or fumble); the
    die that counts is worked out once per test, however often the card asks."""
    test = checks.D20Test(rolls, the_mode, 2, 15, attack=attack)
    assert [set(d.marks) for d in test.dice] == marks
    assert "kept_index" in vars(test)
