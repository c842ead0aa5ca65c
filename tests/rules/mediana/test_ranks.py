"""Tests of ``rules.mediana.ranks``: Mediana's 1o3d10: three d10, of which the rank (bajo, medio,
alto) picks the objective die; which throws are fumbles."""

from fractions import Fraction

import pytest

from rules.errors import RuleError
from rules.mediana import ranks
from tests.rules.mediana.support import exact_objective


@pytest.mark.parametrize(("rank", "die"), [("bajo", 2), ("medio", 5), ("alto", 9)])
def test_each_rank_keeps_its_die(rank: str, die: int) -> None:
    assert ranks.objective_die([9, 2, 5], rank) == die


def test_ranks_drop_and_never_pass_the_ends() -> None:
    assert ranks.effective_rank("medio", no_skill=True) == "bajo"
    assert ranks.effective_rank("medio", no_skill=True, badly_hurt=True) == "bajo"
    assert ranks.effective_rank("alto", badly_hurt=True) == "medio"
    assert ranks.shift_rank("alto", 2) == "alto"
    with pytest.raises(RuleError):
        ranks.objective_die([1, 2, 3], "maximo")


def test_triple_one_is_always_a_fumble() -> None:
    assert ranks.is_fumble([1, 1, 1], "alto")
    assert ranks.is_fumble([1, 1, 1], "bajo")


@pytest.mark.parametrize(("dice", "fumble"), [((1, 1, 5), True), ((1, 1, 6), False)])
def test_a_fumble_needs_the_next_die_up_at_five_or_less(dice: tuple[int, int, int], fumble: bool) -> None:
    assert ranks.is_fumble(dice, "medio") is fumble


def test_a_fumble_on_the_low_rank_looks_at_the_median() -> None:
    assert ranks.is_fumble([1, 5, 9], "bajo")
    assert not ranks.is_fumble([1, 6, 9], "bajo")
    assert not ranks.is_fumble([1, 5, 9], "medio")


def test_the_exact_median_distribution() -> None:
    median = exact_objective("medio")
    assert median[1] == Fraction(28, 1000)
    assert sum(median.values()) == 1
    assert median == {
        k: Fraction(1 + 3 * (k - 1) + 3 * (10 - k) + 6 * (k - 1) * (10 - k), 1000) for k in range(1, 11)
    }


def test_odds_rank_drops_without_skill_and_not_for_attribute_tests() -> None:
    assert ranks.odds_rank("medio", 0) == "bajo"
    assert ranks.odds_rank("medio", None) == "medio"
    assert ranks.odds_rank("medio", 3, badly_hurt=True) == "bajo"
