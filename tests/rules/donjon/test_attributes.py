"""Tests of ``rules.donjon.attributes``: Donjon's attributes: rolled by each method of the book,
or bought with points, and the swap of a point from one to another."""

import pytest

from rules.donjon import attributes
from rules.donjon.attributes import AttributeRoll
from rules.errors import RuleError
from tests.support.dice import Scripted


def test_attributes_are_medians_in_order() -> None:
    # Fiera Corazón-Grueso: 1,5,6=5  1,2,2=2  4,4,4=4  2,5,5=5  3,4,6=4  1,1,6=1
    faces = [1, 5, 6, 1, 2, 2, 4, 4, 4, 2, 5, 5, 3, 4, 6, 1, 1, 6]
    roll = attributes.roll_attributes(Scripted(faces))
    assert roll.medians == (5, 2, 4, 5, 4, 1)
    assert (roll.total, roll.may_reroll) == (21, False)
    low = attributes.roll_attributes(Scripted([1, 2, 3] * 6))
    assert (low.total, low.may_reroll) == (12, True)


def test_the_21_point_method() -> None:
    attributes.check_point_buy([2, 3, 6, 5, 3, 2])
    for scores, key in [
        ([2, 3, 6, 5, 3, 3], "donjon.points_total"),
        ([0, 3, 6, 6, 3, 3], "donjon.points_range"),
        ([7, 3, 3, 3, 3, 2], "donjon.points_range"),
        ([3, 3, 3], "donjon.points_count"),
    ]:
        with pytest.raises(RuleError) as caught:
            attributes.check_point_buy(scores)
        assert caught.value.key == key


def test_the_improved_player_swap_moves_one_point() -> None:
    """ "el jugador puede agregar un punto a un Atributo restándole un punto a otro"."""
    assert attributes.swap_point((3, 3, 3, 3, 3, 3), "virilidad", "sociabilidad") == (4, 3, 3, 3, 3, 2)
    with pytest.raises(RuleError, match="swap_range"):
        attributes.swap_point((6, 3, 3, 3, 3, 1), "virilidad", "aguante")
    with pytest.raises(RuleError, match="swap_same"):
        attributes.swap_point((3,) * 6, "aguante", "aguante")
    with pytest.raises(RuleError, match="bad_attribute"):
        attributes.swap_point((3,) * 6, "fuerza", "aguante")


@pytest.mark.parametrize(
    ("method", "offered"),
    [("estandar", False), ("mejorado", True), ("jugador_mejorado", True), ("eleccion", True)],
)
def test_which_methods_offer_the_reroll(method: str, offered: bool) -> None:
    low = AttributeRoll(((2, 2, 2),) * 6)
    assert attributes.offers_reroll(method, low) is offered
    assert not attributes.offers_reroll(method, AttributeRoll(((3, 3, 3),) * 6))
