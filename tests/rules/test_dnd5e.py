"""D&D 5e (SRD 5.2) rules on exact dice (``../shared/reglas/dnd5e-srd52.txt``)."""

import random

import pytest

from rules import dnd5e
from rules.dice import Mark
from rules.dnd5e import Combatant, Mode
from rules.errors import RuleError
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
    assert dnd5e.ability_modifier(score) == modifier


@pytest.mark.parametrize(("level", "bonus"), sorted(BONUS.items()))
def test_every_proficiency_bonus_by_level_and_cr(level: int, bonus: int) -> None:
    assert dnd5e.proficiency_bonus(level) == bonus


def test_tables_refuse_what_is_off_them() -> None:
    for bad in (0, 31):
        with pytest.raises(RuleError):
            dnd5e.ability_modifier(bad)
    with pytest.raises(RuleError):
        dnd5e.proficiency_bonus(31)


def test_named_dcs_and_the_eighteen_skills() -> None:
    assert list(dnd5e.DCS.values()) == [5, 10, 15, 20, 25, 30]
    assert len(dnd5e.SKILLS) == 18
    assert set(dnd5e.SKILLS.values()) <= set(dnd5e.ABILITIES)
    assert dnd5e.SKILLS["sigilo"] == "destreza"
    assert dnd5e.SKILLS["trato_con_animales"] == "sabiduria"


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
    assert dnd5e.mode(advantage, disadvantage) is mode


def test_advantage_keeps_the_higher_and_disadvantage_the_lower() -> None:
    # "si tienes Desventaja y lanzas un 18 y un 3, usa el 3 ... Si en cambio tienes Ventaja ... usa el 18"
    adv = dnd5e.roll_test(Scripted([18, 3]), 2, Mode.ADVANTAGE, dc=15)
    dis = dnd5e.roll_test(Scripted([18, 3]), 2, Mode.DISADVANTAGE, dc=15)
    assert (adv.natural, adv.total, adv.success) == (18, 20, True)
    assert (dis.natural, dis.total, dis.success) == (3, 5, False)
    assert [d.has(Mark.DROPPED) for d in adv.dice] == [False, True]
    assert [d.has(Mark.DROPPED) for d in dis.dice] == [True, False]
    assert len(dnd5e.roll_test(Scripted([7]), 0).rolls) == 1


def test_proficiency_is_doubled_by_expertise_and_never_added_twice() -> None:
    assert dnd5e.total_modifier(3, proficiency=2, proficient=True) == 5
    assert dnd5e.total_modifier(3, proficiency=2, proficient=True, expertise=True) == 7
    assert dnd5e.total_modifier(3, proficiency=2) == 3
    assert dnd5e.total_modifier(3, proficiency=2, proficient=True, bonus=-1) == 4
    with pytest.raises(RuleError):
        dnd5e.total_modifier(3, proficiency=2, expertise=True)


def test_natural_twenty_and_one_do_nothing_special_on_checks() -> None:
    assert dnd5e.roll_test(Scripted([20]), 0, dc=25).success is False
    assert dnd5e.roll_test(Scripted([1]), 20, dc=15).success is True


def test_attacks_hit_on_a_natural_twenty_and_miss_on_a_one() -> None:
    crit = dnd5e.roll_attack(Scripted([20]), -5, 30)
    assert (crit.success, crit.critical) == (True, True)
    miss = dnd5e.roll_attack(Scripted([1]), 30, 5)
    assert (miss.success, miss.fumble) == (False, True)
    assert dnd5e.roll_attack(Scripted([10]), 5, 15).success is True


def test_cover_adds_to_the_armour_class() -> None:
    assert dnd5e.roll_attack(Scripted([10]), 5, 15, cover="media").success is False
    assert dnd5e.roll_attack(Scripted([15]), 5, 15, cover="tres_cuartos").success is True
    with pytest.raises(RuleError) as caught:
        dnd5e.roll_attack(Scripted([]), 5, 15, cover="completa")
    assert caught.value.key == "dnd.full_cover"


def test_a_critical_doubles_the_dice_not_the_modifiers() -> None:
    assert str(dnd5e.critical_tree("2d6+3")) == "4d6 + 3"
    assert str(dnd5e.critical_tree("1d8+1d6+2")) == "2d8 + 2d6 + 2"
    damage = dnd5e.roll_damage("2d6+3", Scripted([1, 2, 3, 4]), critical=True)
    assert damage.total == 1 + 2 + 3 + 4 + 3


def test_inspiration_rerolls_one_chosen_die_once() -> None:
    test = dnd5e.roll_test(Scripted([3, 18]), 0, Mode.DISADVANTAGE)
    assert test.natural == 3
    inspired = dnd5e.use_inspiration(test, Scripted([12]), index=0)
    assert inspired.rolls == ((3, 12), (18,))
    assert inspired.natural == 12
    assert [d.value for d in inspired.dice if d.has(Mark.REROLLED)] == [3]
    with pytest.raises(RuleError):
        dnd5e.use_inspiration(inspired, Scripted([5]), index=1)


def test_a_rerolled_attack_can_become_a_critical() -> None:
    test = dnd5e.roll_attack(Scripted([4]), 0, 15)
    assert test.success is False
    assert dnd5e.use_inspiration(test, Scripted([20])).critical


def test_initiative_order_is_fixed_and_ties_are_settled_by_the_table() -> None:
    fighters = [
        Combatant("a", "Aria", False, 12),
        Combatant("g", "Goblins", True, 15, count=3),
        Combatant("b", "Bram", False, 12),
    ]
    assert [c.key for c in dnd5e.order(fighters)] == ["g", "a", "b"]
    moved = dnd5e.move_up(fighters, "b")
    assert [c.key for c in dnd5e.order(moved)] == ["g", "b", "a"]
    with pytest.raises(RuleError) as caught:
        dnd5e.move_up(fighters, "a")
    assert caught.value.key == "dnd.not_tied"


def test_bounds_are_typed() -> None:
    with pytest.raises(RuleError):
        dnd5e.roll_test(random.Random(1), 0, dc=51)
    with pytest.raises(RuleError):
        dnd5e.roll_attack(random.Random(1), 31, 10)
    with pytest.raises(RuleError):
        dnd5e.roll_damage("1000d6", random.Random(1))
    with pytest.raises(RuleError):
        dnd5e.roll_damage("60d6", random.Random(1), critical=True)


def test_challenge_ratings_are_the_sheets_and_give_the_table_bonus() -> None:
    from typing import get_args

    from bot.sheets.models import ChallengeRating

    assert get_args(ChallengeRating) == dnd5e.CHALLENGE_RATINGS
    ratings = ("0", "1/8", "1/2", "4", "5", "30")
    bonuses = {r: dnd5e.proficiency_bonus(dnd5e.challenge_level(r)) for r in ratings}
    assert bonuses == {"0": 2, "1/8": 2, "1/2": 2, "4": 2, "5": 3, "30": 9}
    with pytest.raises(RuleError):
        dnd5e.challenge_level("1/3")


def test_inspiration_rerolls_one_damage_die_and_keeps_the_others() -> None:
    rolled, draws = dnd5e.roll_damage_dice("2d6+1d8+2", Scripted([3, 5, 7]))
    assert rolled.total == 17 and draws == ((6, 3), (6, 5), (8, 7))
    again, redrawn = dnd5e.reroll_damage_die("2d6+1d8+2", Scripted([1]), False, draws, 1)
    assert again.total == 13 and redrawn == ((6, 3), (6, 1), (8, 7))
    critical, doubled = dnd5e.roll_damage_dice("1d6+3", Scripted([2, 4]), critical=True)
    assert critical.total == 9 and len(doubled) == 2
    with pytest.raises(RuleError):
        dnd5e.reroll_damage_die("1d6", Scripted([1]), False, draws[:1], 3)
