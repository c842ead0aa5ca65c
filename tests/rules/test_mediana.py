"""Mediana (1o3d10) rules on exact dice (``../shared/reglas/mediana-1o3d10.txt``)."""

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from rules import mediana
from rules.dice import Mark
from rules.errors import RuleError
from tests.support.dice import Scripted


@pytest.mark.parametrize(("rank", "die"), [("bajo", 2), ("medio", 5), ("alto", 9)])
def test_each_rank_keeps_its_die(rank: str, die: int) -> None:
    assert mediana.objective_die([9, 2, 5], rank) == die


def test_ranks_drop_and_never_pass_the_ends() -> None:
    assert mediana.effective_rank("medio", no_skill=True) == "bajo"
    assert mediana.effective_rank("medio", no_skill=True, badly_hurt=True) == "bajo"
    assert mediana.effective_rank("alto", badly_hurt=True) == "medio"
    assert mediana.shift_rank("alto", 2) == "alto"
    with pytest.raises(RuleError):
        mediana.objective_die([1, 2, 3], "maximo")


def test_a_natural_one_always_fails_a_skill_test() -> None:
    test = mediana.roll_test(Scripted([1, 1, 9]), 30, 10)
    assert test.natural_one
    assert test.success is False
    assert test.total == 31


def test_a_natural_one_does_not_fail_an_attribute_test_by_itself() -> None:
    test = mediana.roll_test(Scripted([1, 1, 9]), 30, 10, explode=False, skill_test=False)
    assert test.success is True
    assert not test.fumble


def test_triple_one_is_always_a_fumble() -> None:
    assert mediana.is_fumble([1, 1, 1], "alto")
    assert mediana.is_fumble([1, 1, 1], "bajo")


@pytest.mark.parametrize(("dice", "fumble"), [((1, 1, 5), True), ((1, 1, 6), False)])
def test_a_fumble_needs_the_next_die_up_at_five_or_less(dice: tuple[int, int, int], fumble: bool) -> None:
    assert mediana.is_fumble(dice, "medio") is fumble


def test_a_fumble_on_the_low_rank_looks_at_the_median() -> None:
    assert mediana.is_fumble([1, 5, 9], "bajo")
    assert not mediana.is_fumble([1, 6, 9], "bajo")
    assert not mediana.is_fumble([1, 5, 9], "medio")


def test_an_explosion_chain_of_three() -> None:
    test = mediana.roll_test(Scripted([10, 10, 2, 10, 10, 10, 3, 4, 9]), 5, 15)
    assert [t.objective for t in test.throws] == [10, 10, 4]
    assert test.total == 5 + 24
    assert [d.has(Mark.EXPLODED) for d in test.throws[0].marked] == [False, True, False]


def test_explosions_are_bounded() -> None:
    test = mediana.roll_test(Scripted([10] * 300), 0, None)
    assert len(test.throws) == mediana.MAX_EXPLOSIONS + 1


def test_attribute_tests_do_not_explode() -> None:
    test = mediana.roll_test(Scripted([10, 10, 2]), 3, 10, explode=False, skill_test=False)
    assert len(test.throws) == 1


def test_a_critical_at_exactly_ten_over() -> None:
    assert mediana.roll_test(Scripted([5, 5, 5]), 20, 15).critical
    assert not mediana.roll_test(Scripted([4, 4, 4]), 20, 15).critical


@pytest.mark.parametrize(("over", "degrees"), [(9, 0), (10, 1), (19, 1), (20, 2)])
def test_degrees_every_full_ten(over: int, degrees: int) -> None:
    assert mediana.degrees(15 + over, 15) == degrees


@pytest.mark.parametrize(("total", "count"), [(5, 1), (19, 1), (20, 2), (29, 2), (30, 3), (39, 3), (40, 4)])
def test_actions_from_initiative(total: int, count: int) -> None:
    assert mediana.actions(total) == count


def test_effect_dice_explode_on_six_and_accumulate() -> None:
    effect = mediana.roll_effect(Scripted([6, 6, 2, 3]), mediana.parse_effect("2d6"))
    assert [[d.value for d in c] for c in effect.chains] == [[6, 6, 2], [3]]
    assert effect.total == 17


def test_a_critical_doubles_the_damage_before_armour() -> None:
    spec = mediana.parse_effect("2d6+1")
    effect = mediana.roll_effect(Scripted([3, 4, 5]), spec, extra_dice=1, critical=True, absorption=6)
    assert effect.rolled == 13
    assert effect.total == 13 * 2 - 6
    assert mediana.roll_effect(Scripted([1]), mediana.parse_effect("1d6"), absorption=5).total == 0


def test_an_effect_roll_reads_back_as_it_was_rolled() -> None:
    spec = mediana.parse_effect("2d6+1")
    effect = mediana.roll_effect(Scripted([6, 6, 2, 3]), spec, critical=True, absorption=2)
    assert mediana.effect_from_data(mediana.effect_to_data(effect)) == effect


def test_effect_expressions() -> None:
    assert mediana.parse_effect(" 2D6 - 1 ") == mediana.EffectSpec(2, -1)
    for bad in ("2d8", "d6", "hola", "51d6"):
        with pytest.raises(RuleError):
            mediana.parse_effect(bad)


def test_hit_points() -> None:
    health = mediana.Health(physique=4, maximum=20, current=20)
    assert health.state == "bien"
    assert mediana.hurt(health, 16).state == "malherido"
    assert mediana.hurt(health, 20).state == "inconsciente"
    assert mediana.hurt(health, 43).state == "inconsciente"
    assert mediana.hurt(health, 44).state == "muerto"
    assert mediana.hurt(health, 500).current == -24
    assert mediana.rest(mediana.hurt(health, 5)).current == 16
    assert mediana.rest(mediana.hurt(health, 5), full_comfort=True).current == 17
    assert mediana.rest(health).current == 20
    with pytest.raises(RuleError):
        mediana.heal(mediana.hurt(health, 44), 1)


def exact_objective(rank: str) -> dict[int, Fraction]:
    counts = Counter(mediana.objective_die(d, rank) for d in itertools.product(range(1, 11), repeat=3))
    return {k: Fraction(v, 1000) for k, v in counts.items()}


def test_the_exact_median_distribution() -> None:
    median = exact_objective("medio")
    assert median[1] == Fraction(28, 1000)
    assert sum(median.values()) == 1
    assert median == {
        k: Fraction(1 + 3 * (k - 1) + 3 * (10 - k) + 6 * (k - 1) * (10 - k), 1000) for k in range(1, 11)
    }


@pytest.mark.parametrize("rank", mediana.RANKS)
def test_seeded_objective_dice_follow_the_exact_distribution(rank: str) -> None:
    n = 60_000
    rng = random.Random(2026)
    seen = Counter(mediana.throw(rng, rank).objective for _ in range(n))
    for face, p in exact_objective(rank).items():
        sigma = math.sqrt(n * float(p) * (1 - float(p)))
        assert abs(seen[face] - n * float(p)) < 5 * sigma, (face, seen[face], n * float(p))
