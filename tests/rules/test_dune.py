"""Dune 2d20 rules, pinned on exact dice (``../shared/reglas/dune-2d20.txt``)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import dune
from rules.dice import Mark
from rules.dune import DuneRoll, Slot, evaluate
from rules.errors import RuleError
from tests.support.dice import Scripted


def roll_of(values: list[int], target: int = 10, **kwargs: object) -> DuneRoll:
    fields = {"focus_skill": None, "complication_range": 1, "difficulty": 1} | kwargs
    return DuneRoll(target=target, slots=tuple(Slot((v,)) for v in values), **fields)  # type: ignore[arg-type]


def test_each_die_at_or_under_the_target_is_a_success() -> None:
    test = evaluate([10, 11], target=10)
    assert test.per_die == (1, 0)
    assert (test.successes, test.passed, test.momentum) == (1, True, 0)


def test_a_one_is_a_critical_worth_two() -> None:
    test = evaluate([1, 15], target=10, difficulty=2)
    assert test.per_die == (2, 0)
    assert test.passed
    assert Mark.CRITICAL in test.dice[0].marks


def test_with_a_focus_every_die_at_or_under_the_skill_is_critical() -> None:
    test = evaluate([5, 6, 9], target=12, focus_skill=5)
    assert test.per_die == (2, 1, 1)
    assert evaluate([1], target=12, focus_skill=5).per_die == (2,)


def test_a_twenty_is_a_complication_even_when_it_succeeds() -> None:
    test = evaluate([20, 3], target=20)
    assert test.per_die == (1, 1)
    assert test.complications == 1
    assert {Mark.SUCCESS, Mark.COMPLICATION} <= test.dice[0].marks


def test_complication_range_five_covers_sixteen_to_twenty() -> None:
    test = evaluate([15, 16, 18, 20], target=10, complication_range=5)
    assert test.complications == 3
    with pytest.raises(RuleError) as caught:
        evaluate([1], target=10, complication_range=6)
    assert caught.value.key == "error.out_of_range"


def test_difficulty_zero_always_passes_and_every_success_is_momentum() -> None:
    test = evaluate([19, 20], target=10, difficulty=0)
    assert (test.passed, test.momentum) == (True, 0)
    assert evaluate([3, 4], target=10, difficulty=0).momentum == 2


def test_five_criticals() -> None:
    test = evaluate([1, 1, 1, 1, 1], target=10, difficulty=3)
    assert (test.successes, test.momentum) == (10, 7)


def test_failing_generates_no_momentum() -> None:
    test = evaluate([5, 15], target=10, difficulty=2, bonus_momentum=2)
    assert (test.passed, test.momentum, test.bonus_momentum) == (False, 0, 0)


def test_helpers_count_only_if_the_leader_succeeds_but_their_complications_always_do() -> None:
    helper_ok = dune.Helper(1, 10, None, Slot((4,)))
    helper_20 = dune.Helper(2, 10, None, Slot((20,)))
    with_leader = evaluate([3, 15], target=10, difficulty=2, helpers=[helper_ok, helper_20])
    assert (with_leader.successes, with_leader.helper_successes, with_leader.complications) == (2, 1, 1)
    without = evaluate([13, 15], target=10, difficulty=1, helpers=[helper_ok, helper_20])
    assert (without.successes, without.passed, without.complications) == (0, False, 1)


@pytest.mark.parametrize(("bought", "cost"), [(0, 0), (1, 1), (2, 3), (3, 6)])
def test_the_cost_of_bought_dice(bought: int, cost: int) -> None:
    assert dune.buy_cost(bought) == cost


def test_buying_a_fourth_die_is_refused() -> None:
    with pytest.raises(RuleError):
        dune.buy_cost(4)


@pytest.mark.parametrize(
    ("payment", "available", "split"),
    [
        ("impulso", 0, (6, 0)),
        ("amenaza", 6, (0, 6)),
        ("mixto", 4, (4, 2)),
        ("mixto", 9, (6, 0)),
        ("mixto", 0, (0, 6)),
    ],
)
def test_paying_for_dice(payment: str, available: int, split: tuple[int, int]) -> None:
    assert dune.split_payment(6, payment, available) == split


def test_determination_before_the_roll_fixes_a_die_at_one() -> None:
    roll = dune.roll_test(random.Random(1), 10, dice=3, automatic_ones=1)
    assert roll.slots[0] == Slot((1,), fixed=True)
    assert len(roll.slots) == 3
    assert roll.test.per_die[0] == 2
    assert Mark.FIXED in roll.test.dice[0].marks
    expected = random.Random(1)
    assert [s.value for s in roll.slots[1:]] == [expected.randint(1, 20), expected.randint(1, 20)]


def test_spending_takes_bonus_then_the_roll_then_the_group() -> None:
    roll = roll_of([1, 1], target=10, difficulty=1, bonus=1)
    assert (roll.momentum_left, roll.bonus_left) == (3, 1)
    roll, from_group = dune.spend(roll, "rasgo")
    assert (from_group, roll.bonus_left, roll.momentum_left) == (0, 0, 2)
    roll, from_group = dune.spend(roll, "recurso")
    assert (from_group, roll.momentum_left) == (0, 0)
    roll, from_group = dune.spend(roll, "info")
    assert from_group == 1
    assert roll.spends == ("rasgo", "recurso", "info")


def test_saving_moves_what_is_left_but_never_the_bonus() -> None:
    roll = roll_of([1, 1], target=10, difficulty=1, bonus=2)
    closed, saved = dune.save(roll)
    assert saved == 3
    assert closed.closed
    assert (closed.momentum_left, closed.bonus_left) == (0, 0)
    with pytest.raises(RuleError) as caught:
        dune.save(closed)
    assert caught.value.key == "dune.closed"


def test_a_failed_roll_cannot_spend_or_save() -> None:
    roll = roll_of([15, 16], target=10)
    for action in (lambda: dune.spend(roll, "info"), lambda: dune.save(roll)):
        with pytest.raises(RuleError) as caught:
            action()
        assert caught.value.key == "dune.not_passed"


def test_success_at_a_price_passes_with_a_complication_and_no_momentum() -> None:
    roll = dune.success_at_price(roll_of([15, 16], target=10))
    assert roll.passed
    assert roll.complications == 1
    assert roll.momentum_left == 0
    with pytest.raises(RuleError):
        dune.spend(roll, "info")
    with pytest.raises(RuleError):
        dune.success_at_price(roll_of([3, 16], target=10))


def test_each_complication_is_bought_off_once() -> None:
    roll = roll_of([20, 20], target=10, difficulty=0)
    roll = dune.ignore_complication(dune.ignore_complication(roll))
    assert roll.complications == 0
    with pytest.raises(RuleError) as caught:
        dune.ignore_complication(roll)
    assert caught.value.key == "dune.no_complication"


def test_determination_after_the_roll_rerolls_the_dice_the_player_chooses() -> None:
    """ "Repetir tirada: Después de lanzar, repite la tirada de cualquier número de d20 en tu
    reserva" and "siempre puedes decidir NO repetir un dado": the chosen dice only, once;
    the others (a 1 kept for its two successes) and the helpers' dice stay."""
    roll = roll_of([1, 15, 17], helpers=(dune.Helper(7, 9, None, Slot((12,))),))
    rerolled = dune.reroll(roll, Scripted([4, 20]), (1, 2))
    assert [s.values for s in rerolled.slots] == [(1,), (15, 4), (17, 20)]
    assert rerolled.helpers == roll.helpers
    assert not rerolled.rerollable
    with pytest.raises(RuleError) as caught:
        dune.reroll(rerolled, Scripted([5]), (0,))
    assert caught.value.key == "dune.determination_once"
    shown = rerolled.test.dice
    assert sum(Mark.REROLLED in d.marks for d in shown) == 2
    assert rerolled.test.successes == 3


@pytest.mark.parametrize("dice", [(), (3,), (-1,), (0, 0)])
def test_a_reroll_names_each_die_once_and_at_least_one(dice: tuple[int, ...]) -> None:
    with pytest.raises(RuleError) as caught:
        dune.reroll(roll_of([15, 16, 17]), Scripted([1]), dice)
    assert caught.value.key == "dune.reroll_dice"


def test_a_fixed_one_takes_the_tests_determination() -> None:
    roll = dune.roll_test(random.Random(1), 10, dice=2, automatic_ones=1)
    assert not roll.rerollable
    with pytest.raises(RuleError) as caught:
        dune.reroll(roll, random.Random(1), (0,))
    assert caught.value.key == "dune.determination_once"


def test_rerolling_after_spending_is_refused() -> None:
    roll, _ = dune.spend(roll_of([1, 2], target=10), "info")
    assert not roll.rerollable
    with pytest.raises(RuleError) as caught:
        dune.reroll(roll, random.Random(1), (0,))
    assert caught.value.key == "dune.reroll_too_late"


def test_npc_momentum_becomes_one_threat_and_cannot_be_saved() -> None:
    roll = roll_of([1, 2], target=10, npc=True)
    with pytest.raises(RuleError):
        dune.save(roll)
    assert dune.npc_to_threat(roll).closed
    with pytest.raises(RuleError) as caught:
        dune.npc_to_threat(roll_of([5, 15], target=10, npc=True))
    assert caught.value.key == "dune.nothing_left"


def test_opposed_tests() -> None:
    assert dune.opposed_difficulty(3, hindrances=1) == 2
    assert dune.opposed_difficulty(1, hindrances=3) == 0
    # "si la Dificultad era 4 y logras 3 éxitos, el oponente recibe 1 puntos de Impulso"
    assert dune.opponent_momentum(4, 3) == 1
    assert dune.opponent_momentum(2, 3) == 0


def test_extended_task_points() -> None:
    roll = roll_of([1, 20], target=10, difficulty=1, task_id=1, asset_quality=1)
    assert dune.task_points(roll) == 2 + 1 - 1
    pushed, _ = dune.spend(roll, "tarea")
    assert dune.task_points(pushed) == 3
    assert dune.task_points(dune.ignore_complication(pushed)) == 4
    assert dune.task_points(roll_of([15, 16], target=10, task_id=1)) == 0
    with pytest.raises(RuleError):
        dune.spend(roll_of([1, 2]), "tarea")


def test_bounds_are_typed_refusals() -> None:
    for kwargs in ({"dice": 6}, {"automatic_ones": 3, "dice": 2}, {"difficulty": 11}, {"bonus": 11}):
        with pytest.raises(RuleError):
            dune.roll_test(random.Random(1), 10, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RuleError):
        dune.roll_test(random.Random(1), 41)


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
    assert dune.from_data(dune.to_data(roll)) == roll
    test = roll.test
    assert test.momentum == (test.successes - difficulty if test.passed else 0)


def test_six_criticals_with_a_helper() -> None:
    helper = dune.Helper(1, 10, None, Slot((1,)))
    test = evaluate([1, 1, 1, 1, 1], target=10, difficulty=5, helpers=[helper])
    assert (test.successes, test.momentum) == (12, 7)
