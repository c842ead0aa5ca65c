"""Tests of ``rules.dune.pools``: The table's pools in Dune: Impulso, Amenaza and Determinación,
what buying dice and the GM's spends cost, and what an adventure's start and a scene's end do to
them."""

import pytest

from rules.dune import pools
from rules.dune.pools import Pools
from rules.errors import RuleError


@pytest.mark.parametrize(("bought", "cost"), [(0, 0), (1, 1), (2, 3), (3, 6)])
def test_the_cost_of_bought_dice(bought: int, cost: int) -> None:
    assert pools.buy_cost(bought) == cost


def test_buying_a_fourth_die_is_refused() -> None:
    with pytest.raises(RuleError):
        pools.buy_cost(4)


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
    assert pools.split_payment(6, payment, available) == split


def test_a_player_pays_bought_dice_with_momentum_then_threat() -> None:
    assert pools.roll_cost(2, "mixto", 1) == Pools(momentum=-1, threat=2)
    assert pools.roll_cost(1, "impulso", 0, determination=True) == Pools(momentum=-1, determination=-1)


def test_waiting_raises_are_used_up_and_capped() -> None:
    assert pools.raised_difficulty(2, 1) == (3, Pools(raised_difficulty=-1))
    assert pools.raised_difficulty(9, 4) == (10, Pools(raised_difficulty=-4))


def test_threat_spends() -> None:
    assert pools.threat_spend("dificultad") == Pools(threat=-2, raised_difficulty=1)
    assert pools.threat_spend("casa_rival") == Pools(threat=-1)
    with pytest.raises(RuleError):
        pools.threat_spend("nada")


def test_adventure_start_and_scene_end() -> None:
    assert pools.adventure_start(4) == (8, 1)
    assert pools.scene_end() == Pools(momentum=-1)
