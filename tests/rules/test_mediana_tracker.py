"""The Mediana combat tracker as a value and the opposed tests (issue 15)."""

import pytest

from rules import mediana, odds
from rules.errors import RuleError
from rules.mediana import Combat
from tests.support.dice import Scripted


def test_join_rolls_bonus_plus_the_median_minus_encumbrance() -> None:
    combat = Combat().join(Scripted([2, 7, 9]), "u1", "Ana", 5, 1, "medio")
    assert combat.fighters[0].total == 11


def test_joining_twice_in_a_round_is_refused() -> None:
    combat = Combat().join(Scripted([2, 7, 9]), "u1", "Ana", 5, 0, "medio")
    with pytest.raises(RuleError) as refused:
        combat.join(Scripted([9, 9, 9]), "u1", "Ana", 5, 0, "medio")
    assert refused.value.key == "mediana.combat.already_joined"


def test_a_new_round_uses_the_supplied_current_rank() -> None:
    """A character who became malherido since joining rolls at bajo, not medio."""
    combat = Combat().join(Scripted([2, 7, 9]), "u1", "Ana", 0, 0, "medio")
    rolled = combat.new_round(Scripted([2, 7, 9]), 1, {"u1": "bajo"})
    assert (rolled.fighters[0].rank, rolled.fighters[0].total, rolled.round) == ("bajo", 2, 2)
    kept = combat.new_round(Scripted([2, 7, 9]), 1, {})
    assert kept.fighters[0].total == 7


def test_a_stale_new_round_is_refused() -> None:
    with pytest.raises(RuleError, match="already_moved"):
        Combat().new_round(Scripted([]), 1, {}).new_round(Scripted([]), 1, {})


def test_round_trip_reads_the_cogs_stored_shape() -> None:
    stored = {
        "combatants": [
            {"key": "u1", "name": "Ana", "bonus": 5, "encumbrance": 1, "rank": "medio", "total": 11}
        ],
        "round": 3,
        "ended": False,
    }
    combat = mediana.combat_from_data(stored)
    assert (combat.round, combat.turn, combat.step, combat.fighters[0].roll) == (3, 0, 0, None)
    assert mediana.combat_to_data(combat) == {**stored, "turn": 0, "step": 0}


def test_round_trip_keeps_the_dice_the_turn_and_the_step() -> None:
    combat = Combat().join(Scripted([10, 10, 1, 2, 3, 4]), "u1", "Ana", 0, 0, "medio")
    combat = combat.join(Scripted([1, 1, 1]), "n2", "Orco", 0, 0, "medio").next(Scripted([]), 0, {})
    assert mediana.combat_from_data(mediana.combat_to_data(combat)) == combat
    assert combat.fighters[0].roll is not None and combat.fighters[0].roll.exploded(0)


def test_next_passes_the_turn_and_after_the_last_rolls_a_new_round() -> None:
    """ "Una vez actúe el último en la iniciativa, se vuelve a tirar esta"."""
    combat = Combat().join(Scripted([5, 5, 5]), "u1", "Ana", 0, 0, "medio")
    combat = combat.join(Scripted([9, 9, 9]), "u2", "Bea", 0, 0, "medio")
    assert combat.acting is not None and combat.acting.key == "u2"
    second = combat.next(Scripted([]), 0, {})
    assert second.acting is not None and (second.acting.key, second.step) == ("u1", 1)
    third = second.next(Scripted([9, 9, 9, 1, 2, 3]), 1, {"u2": "bajo"})
    assert (third.round, third.turn, third.step) == (2, 0, 2)
    assert [(f.key, f.rank, f.total) for f in third.order] == [("u1", "medio", 9), ("u2", "bajo", 1)]
    with pytest.raises(RuleError, match="already_moved"):
        third.next(Scripted([]), 1, {})


def test_a_newcomer_does_not_take_the_turn_from_whoever_acts() -> None:
    combat = Combat().join(Scripted([5, 5, 5]), "u1", "Ana", 0, 0, "medio")
    combat = combat.join(Scripted([3, 3, 3]), "u2", "Bea", 0, 0, "medio").next(Scripted([]), 0, {})
    joined = combat.join(Scripted([9, 9, 9]), "u3", "Cai", 0, 0, "medio")
    assert joined.acting is not None and joined.acting.key == "u2"


def test_remove_and_finish() -> None:
    combat = Combat().join(Scripted([2, 7, 9]), "u1", "Ana", 0, 0, "medio").remove("u1").finish()
    assert combat.fighters == () and combat.ended
    with pytest.raises(RuleError, match="is_over"):
        combat.finish()


def opposed(dice: list[int], score: int) -> mediana.Test:
    return mediana.roll_test(Scripted(dice), score, None)


def test_a_natural_one_loses_an_opposed_test_whatever_the_total() -> None:
    """The bookworm (1 natural, score 30) against the martial artist (score 5, rolls 4)."""
    bookworm = opposed([1, 1, 8], 30)
    expert = opposed([2, 4, 6], 5)
    assert mediana.contest_winners((bookworm, expert)) == (1,)


def test_a_fumble_loses_on_either_side_and_both_failing_is_no_winner() -> None:
    assert mediana.contest_winners((opposed([1, 1, 1], 9), opposed([1, 1, 3], 9))) == ()


def test_three_or_more_compete_and_ties_go_to_the_gm() -> None:
    tests = (opposed([3, 5, 7], 2), opposed([3, 4, 9], 3), opposed([2, 6, 8], 1))
    assert mediana.contest_winners(tests) == (0, 1, 2)
    with pytest.raises(RuleError):
        mediana.contest_winners(tests[:1])


def test_only_a_10_followed_by_another_throw_exploded() -> None:
    skill = mediana.roll_test(Scripted([10, 10, 10, 1, 2, 3]), 0, None)
    assert [skill.exploded(i) for i in range(len(skill.throws))] == [True, False]
    attribute = mediana.roll_test(Scripted([10, 10, 10]), 0, None, **mediana.roll_kind(True))
    assert not attribute.exploded(0)


def test_test_data_round_trip() -> None:
    test = mediana.roll_test(Scripted([10, 10, 10, 1, 2, 3]), 4, 15)
    assert mediana.roll_from_data(mediana.roll_to_data(test)) == test


def test_odds_rank_drops_without_skill_and_not_for_attribute_tests() -> None:
    assert mediana.odds_rank("medio", 0) == "bajo"
    assert mediana.odds_rank("medio", None) == "medio"
    assert mediana.odds_rank("medio", 3, badly_hurt=True) == "bajo"


def test_the_rivals_rank_follows_its_own_state() -> None:
    rival = mediana.Side(5, 0, badly_hurt=True, encumbrance=2)
    assert (rival.rank, rival.score) == ("bajo", 3)
    actor, other = mediana.roll_opposed(Scripted([2, 7, 9, 2, 7, 9]), (mediana.Side(5, 3), rival))
    assert (actor.total, other.total) == (15, 5)
    with pytest.raises(RuleError):
        mediana.roll_opposed(Scripted([]), (rival,))


def test_a_combat_critical_doubles_the_damage_its_degrees_gave() -> None:
    """ "un arma que haga 2d6, si supera en 20 puntos la dificultad hace 4d6 de daño
    (2d6+2d6)" counts the dice; "Si además el Crítico se consigue en combate se multiplica
    el daño infligido por 2" then doubles them: every critical has a degree, so a ×2 kept
    for criticals without degrees would never apply."""
    assert mediana.effect_dice(2, 2, critical=True, in_combat=True) == (4, True)
    assert mediana.effect_dice(2, 0, critical=True, in_combat=True) == (2, True)
    assert mediana.effect_dice(2, 2, critical=True, in_combat=False) == (4, False)
    assert mediana.effect_dice(2, 1, critical=False, in_combat=True) == (3, False)


def test_odds_without_skill_use_the_dropped_rank() -> None:
    plain = odds.mediana_exact(0, 8, "medio").p_success
    dropped = odds.mediana_exact(0, 8, mediana.odds_rank("medio", 0)).p_success
    assert dropped < plain
