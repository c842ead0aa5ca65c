"""Tests of ``rules.mediana.combat``: The Mediana combat tracker: initiative, the actions it
gives, turns and rounds."""

import pytest

from rules.errors import RuleError
from rules.mediana import checks
from rules.mediana import combat as mediana_combat
from rules.mediana.checks import Throw
from rules.mediana.combat import Combat, Fighter
from tests.rules.stored import stored
from tests.support.dice import Scripted


@pytest.mark.parametrize(("total", "count"), [(5, 1), (19, 1), (20, 2), (29, 2), (30, 3), (39, 3), (40, 4)])
def test_actions_from_initiative(total: int, count: int) -> None:
    assert mediana_combat.actions(total) == count


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
    combat = mediana_combat.combat_from_data(stored)
    assert (combat.round, combat.turn, combat.step, combat.fighters[0].roll) == (3, 0, 0, None)
    assert mediana_combat.combat_to_data(combat) == {
        "fighters": [{**stored["combatants"][0], "roll": None}],
        "round": 3,
        "ended": False,
        "turn": 0,
        "step": 0,
    }


def test_round_trip_keeps_the_dice_the_turn_and_the_step() -> None:
    combat = Combat().join(Scripted([10, 10, 1, 2, 3, 4]), "u1", "Ana", 0, 0, "medio")
    combat = combat.join(Scripted([1, 1, 1]), "n2", "Orco", 0, 0, "medio").next(Scripted([]), 0, {})
    assert mediana_combat.combat_from_data(mediana_combat.combat_to_data(combat)) == combat
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


def test_a_combat_stored_before_the_codec_still_loads() -> None:
    combat = mediana_combat.combat_from_data(stored("mediana_combat"))
    ana = checks.Test((Throw((2, 10, 10), "medio"), Throw((4, 6, 2), "medio")), 4, None)
    wolf = checks.Test(
        (Throw((9, 2, 10), "alto"), Throw((1, 10, 4), "alto"), Throw((8, 9, 7), "alto")), 3, None
    )
    fighters = (Fighter("u1", "Ana", 5, 1, "medio", 18, ana), Fighter("n1", "Lobo", 3, 0, "alto", 32, wolf))
    assert combat == Combat(fighters, round=1, ended=False, turn=0, step=0)
    assert mediana_combat.combat_from_data(mediana_combat.combat_to_data(combat)) == combat
