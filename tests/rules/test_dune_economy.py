"""Dune's economy and the mechanics of issues 15 and 16 as rule values."""

import random
from fractions import Fraction

import pytest

from rules import dune, odds
from rules.dune import DuneRoll, Pools, Slot
from rules.errors import RuleError
from tests.support.dice import Scripted


def roll_of(values: list[int], target: int = 10, **kwargs: object) -> DuneRoll:
    fields = {"focus_skill": None, "complication_range": 1, "difficulty": 1} | kwargs
    return DuneRoll(target=target, slots=tuple(Slot((v,)) for v in values), **fields)  # type: ignore[arg-type]


def test_a_player_pays_bought_dice_with_momentum_then_threat() -> None:
    assert dune.roll_cost(2, "mixto", 1) == Pools(momentum=-1, threat=2)
    assert dune.roll_cost(1, "impulso", 0, determination=True) == Pools(momentum=-1, determination=-1)


def test_the_gm_pays_an_npcs_dice_with_threat_and_npcs_have_no_determination() -> None:
    assert dune.roll_cost(3, "impulso", 6, npc=True) == Pools(threat=-6)
    with pytest.raises(RuleError, match="npc_determination"):
        dune.roll_cost(0, "impulso", 0, npc=True, determination=True)
    with pytest.raises(RuleError, match="npc_determination"):
        dune.roll_test(random.Random(1), 10, npc=True, automatic_ones=1)


def test_waiting_raises_are_used_up_and_capped() -> None:
    assert dune.raised_difficulty(2, 1) == (3, Pools(raised_difficulty=-1))
    assert dune.raised_difficulty(9, 4) == (10, Pools(raised_difficulty=-4))


def test_threat_spends() -> None:
    assert dune.threat_spend("dificultad") == Pools(threat=-2, raised_difficulty=1)
    assert dune.threat_spend("casa_rival") == Pools(threat=-1)
    with pytest.raises(RuleError):
        dune.threat_spend("nada")


def test_adventure_start_and_scene_end() -> None:
    assert dune.adventure_start(4) == (8, 1)
    assert dune.scene_end() == Pools(momentum=-1)


def test_each_momentum_use_once_per_test_except_per_point_uses() -> None:
    """ "cada uso de Impulso ... solo puede ser usado una vez en un mismo chequeo"."""
    roll = roll_of([1, 1, 1], target=10, difficulty=1)
    roll, _ = dune.spend(roll, "rasgo")
    with pytest.raises(RuleError) as refused:
        dune.spend(roll, "rasgo")
    assert refused.value.key == "dune.spend_once"
    roll, _ = dune.spend(roll, "recurso")
    with pytest.raises(RuleError, match="spend_once"):
        dune.spend(roll, "recurso")
    roll, _ = dune.spend(roll, "info")
    roll, _ = dune.spend(roll, "info")
    assert roll.spends == ("rasgo", "recurso", "info", "info")


def test_the_gm_chooses_how_many_complications_a_price_adds() -> None:
    failed = roll_of([15, 16], target=10, difficulty=1)
    assert dune.success_at_price(failed).complications == 1
    priced = dune.success_at_price(failed, 3)
    assert priced.complications == 3 and priced.passed
    assert dune.from_data(dune.to_data(priced)) == priced
    old = dune.to_data(dune.success_at_price(failed))
    del old["price_complications"]
    assert dune.from_data(old).complications == 1


def test_one_determination_point_per_test() -> None:
    """ "un punto ... para ganar uno de los siguientes beneficios": one point, one benefit."""
    fresh = roll_of([15, 16])
    dune.check_determination(fresh)
    rerolled = dune.reroll(fresh, Scripted([3, 4]), (0, 1))
    with pytest.raises(RuleError) as refused:
        dune.check_determination(rerolled)
    assert refused.value.key == "dune.determination_once"
    fixed = dune.roll_test(Scripted([12]), 10, automatic_ones=1)
    with pytest.raises(RuleError, match="determination_once"):
        dune.check_determination(fixed)
    with pytest.raises(RuleError, match="npc_determination"):
        dune.check_determination(roll_of([15, 16], npc=True))
    with pytest.raises(RuleError):
        dune.roll_test(random.Random(1), 10, dice=3, automatic_ones=2)


def test_the_opposition_rolls_first_and_sets_the_difficulty() -> None:
    opposition = dune.roll_opposition(Scripted([3, 12, 1]), 10, dice=3)
    assert opposition.test.successes == 3
    assert dune.opposition_difficulty(opposition) == 3
    assert dune.opposition_difficulty(opposition, hindrances=1) == 2


def test_a_failed_test_and_its_complications_feed_an_opposing_track() -> None:
    assert dune.opposing_task_points(roll_of([15, 20])) == 3
    assert dune.opposing_task_points(roll_of([1, 20])) == 1
    assert dune.opposing_task_points(roll_of([1, 2])) == 0
    assert dune.opposing_task_points(dune.success_at_price(roll_of([15, 16]), 2)) == 2


def test_assisted_odds_count_the_helpers_dice() -> None:
    alone = odds.dune_exact(10, 2, difficulty=2).p_pass
    assert odds.dune_assisted_pass(10, 2, ()) == odds.dune_exact(10, 2).p_pass
    helped = odds.dune_assisted_pass(10, 2, ((10, None),), difficulty=2)
    # The leader scores exactly 1 (2 · 9/20 · 10/20 = 9/20) and the helper at least 1 (1/2).
    assert helped == alone + Fraction(9, 40)


def test_a_success_at_a_price_counts_as_passed_for_goal_and_looming_tasks() -> None:
    """One reading for both kinds of task (#26): "el personaje que falla un chequeo de
    habilidad aún logra su objetivo ... pero debe sufrir también una o más complicaciones",
    and the text calls it "un chequeo superado de esta forma". A goal gets its 2 points less
    each complication standing; a looming problem gets no failure, only the complications."""
    priced = dune.success_at_price(roll_of([15, 16]), 1)
    assert dune.task_points(priced) == 1
    assert dune.opposing_task_points(priced) == 1
    with_asset = dune.success_at_price(roll_of([15, 16], asset_quality=1), 1)
    assert dune.task_points(with_asset) == 2
    assert dune.task_points(dune.success_at_price(roll_of([15, 16]), 3)) == 0
    assert dune.task_points(roll_of([15, 16])) == 0


def test_a_trait_is_created_changed_or_removed_with_its_count() -> None:
    """ "crear un rasgo completamente nuevo, cambiar uno que exista o eliminarlo", and
    "humo denso 2, donde el número indica que el rasgo cuenta como dos rasgos" (#26)."""
    scene = {"humo denso": 2, "de noche": 1}
    assert dune.edit_trait(scene, "Tormenta", 1) == {"Tormenta": 1}
    assert dune.edit_trait(scene, "Humo denso", 3) == {"humo denso": 3}
    assert dune.edit_trait(scene, "humo denso", 0) == {"humo denso": 0}
    assert dune.edit_trait(scene, "humo", 1, before="HUMO DENSO") == {"humo denso": 0, "humo": 1}
    assert dune.edit_trait(scene, "", 0, before="de noche") == {"de noche": 0}
    for args, key in [
        (("nieve", 0), "dune.trait.unknown"),
        (("nieve", 1, "granizo"), "dune.trait.unknown"),
        (("humo denso", 2), "dune.trait.unchanged"),
    ]:
        with pytest.raises(RuleError) as caught:
            dune.edit_trait(scene, *args)  # type: ignore[arg-type]
        assert caught.value.key == key
    with pytest.raises(RuleError):
        dune.edit_trait(scene, "nieve", 6)
