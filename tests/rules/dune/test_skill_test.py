"""Tests of ``rules.dune.skill_test``: A Dune skill test as a value (:class:`DuneRoll`): what was
rolled, and its life afterwards: Determinación's reroll, complications bought off, a success at a
price. Every action returns a new roll, so the store can write it with the pool changes in one
transaction."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import Mark
from rules.dune import pools, skill_test, successes
from rules.dune.pools import Pools
from rules.dune.skill_test import DuneRoll
from rules.dune.successes import Helper, Slot
from rules.errors import RuleError
from tests.rules.dune.support import roll_of
from tests.rules.stored import stored
from tests.support.dice import Scripted


def test_determination_before_the_roll_fixes_a_die_at_one() -> None:
    roll = skill_test.roll_test(random.Random(1), 10, dice=3, automatic_ones=1)
    assert roll.slots[0] == Slot((1,), fixed=True)
    assert len(roll.slots) == 3
    assert roll.test.per_die[0] == 2
    assert Mark.FIXED in roll.test.dice[0].marks
    expected = random.Random(1)
    assert [s.value for s in roll.slots[1:]] == [expected.randint(1, 20), expected.randint(1, 20)]


def test_each_complication_is_bought_off_once() -> None:
    roll = roll_of([20, 20], target=10, difficulty=0)
    roll = skill_test.ignore_complication(skill_test.ignore_complication(roll))
    assert roll.complications == 0
    with pytest.raises(RuleError) as caught:
        skill_test.ignore_complication(roll)
    assert caught.value.key == "dune.no_complication"


def test_determination_after_the_roll_rerolls_the_dice_the_player_chooses() -> None:
    """ "Repetir tirada: Después de lanzar, repite la tirada de cualquier número de d20 en tu
    reserva" and "siempre puedes decidir NO repetir un dado": the chosen dice only, once;
    the others (a 1 kept for its two successes) and the helpers' dice stay."""
    roll = roll_of([1, 15, 17], helpers=(successes.Helper(7, 9, None, Slot((12,))),))
    rerolled = skill_test.reroll(roll, Scripted([4, 20]), (1, 2))
    assert [s.values for s in rerolled.slots] == [(1,), (15, 4), (17, 20)]
    assert rerolled.helpers == roll.helpers
    assert not rerolled.rerollable
    with pytest.raises(RuleError) as caught:
        skill_test.reroll(rerolled, Scripted([5]), (0,))
    assert caught.value.key == "dune.determination_once"
    shown = rerolled.test.dice
    assert sum(Mark.REROLLED in d.marks for d in shown) == 2
    assert rerolled.test.successes == 3


@pytest.mark.parametrize("dice", [(), (3,), (-1,), (0, 0)])
def test_a_reroll_names_each_die_once_and_at_least_one(dice: tuple[int, ...]) -> None:
    with pytest.raises(RuleError) as caught:
        skill_test.reroll(roll_of([15, 16, 17]), Scripted([1]), dice)
    assert caught.value.key == "dune.reroll_dice"


def test_a_fixed_one_takes_the_tests_determination() -> None:
    roll = skill_test.roll_test(random.Random(1), 10, dice=2, automatic_ones=1)
    assert not roll.rerollable
    with pytest.raises(RuleError) as caught:
        skill_test.reroll(roll, random.Random(1), (0,))
    assert caught.value.key == "dune.determination_once"


def test_bounds_are_typed_refusals() -> None:
    for kwargs in ({"dice": 6}, {"automatic_ones": 3, "dice": 2}, {"difficulty": 11}, {"bonus": 11}):
        with pytest.raises(RuleError):
            skill_test.roll_test(random.Random(1), 10, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RuleError):
        skill_test.roll_test(random.Random(1), 41)


@given(
    st.lists(st.integers(1, 20), min_size=1, max_size=5),
    st.integers(1, 40),
    st.integers(0, 5),
    st.integers(1, 5),
    st.none() | st.integers(1, 20),
)
def test_storage_round_trips(
    values: list[int], target: int, difficulty: int, rng: int, focus: int | None
) -> None:
    roll = roll_of(values, target=target, difficulty=difficulty, complication_range=rng, focus_skill=focus)
    assert skill_test.from_data(skill_test.to_data(roll)) == roll
    test = roll.test
    assert test.momentum == (test.successes - difficulty if test.passed else 0)


def test_the_gm_pays_an_npcs_dice_with_threat_and_npcs_have_no_determination() -> None:
    assert pools.roll_cost(3, "impulso", 6, npc=True) == Pools(threat=-6)
    with pytest.raises(RuleError, match="npc_determination"):
        pools.roll_cost(0, "impulso", 0, npc=True, determination=True)
    with pytest.raises(RuleError, match="npc_determination"):
        skill_test.roll_test(random.Random(1), 10, npc=True, automatic_ones=1)


def test_the_gm_chooses_how_many_complications_a_price_adds() -> None:
    failed = roll_of([15, 16], target=10, difficulty=1)
    assert skill_test.success_at_price(failed).complications == 1
    priced = skill_test.success_at_price(failed, 3)
    assert priced.complications == 3 and priced.passed
    assert skill_test.from_data(skill_test.to_data(priced)) == priced
    old = skill_test.to_data(skill_test.success_at_price(failed))
    del old["price_complications"]
    assert skill_test.from_data(old).complications == 1


def test_one_determination_point_per_test() -> None:
    """ "un punto ... para ganar uno de los siguientes beneficios": one point, one benefit."""
    fresh = roll_of([15, 16])
    skill_test.check_determination(fresh)
    rerolled = skill_test.reroll(fresh, Scripted([3, 4]), (0, 1))
    with pytest.raises(RuleError) as refused:
        skill_test.check_determination(rerolled)
    assert refused.value.key == "dune.determination_once"
    fixed = skill_test.roll_test(Scripted([12]), 10, automatic_ones=1)
    with pytest.raises(RuleError, match="determination_once"):
        skill_test.check_determination(fixed)
    with pytest.raises(RuleError, match="npc_determination"):
        skill_test.check_determination(roll_of([15, 16], npc=True))
    with pytest.raises(RuleError):
        skill_test.roll_test(random.Random(1), 10, dice=3, automatic_ones=2)


def test_a_roll_stored_before_the_codec_still_loads() -> None:
    roll = skill_test.from_data(stored("dune_roll"))
    assert roll == DuneRoll(
        target=12,
        focus_skill=4,
        complication_range=1,
        difficulty=2,
        slots=(Slot((3,)), Slot((14,)), Slot((19, 2))),
        helpers=(Helper(12, 10, None, Slot((3,))),),
        bonus=1,
        spends=("info", "tarea"),
        from_roll=1,
        bonus_spent=1,
        task_id=3,
        asset_quality=1,
        extra={"motivo": "Huir"},
    )
    data = skill_test.to_data(roll)
    assert skill_test.from_data(data) == roll
    assert (data["task_id"], data["slots"][2]) == (3, {"values": [19, 2], "fixed": False})


def test_a_roll_is_evaluated_once_and_stored_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card asks a roll for its verdict a dozen times: the dice are counted once, and
    the remembered count is not part of what is stored."""
    roll = roll_of([1, 20, 5], difficulty=2)
    data = skill_test.to_data(roll)
    counted: list[object] = []
    evaluate = skill_test.evaluate
    monkeypatch.setattr(skill_test, "evaluate", lambda *a, **k: counted.append(a) or evaluate(*a, **k))
    assert (roll.passed, roll.momentum_left, roll.complications, roll.test.successes) == (True, 1, 1, 3)
    assert len(counted) == 1
    assert skill_test.to_data(roll) == data
    assert skill_test.from_data(data) == roll
