"""Tests of ``rules.donjon.sheet``: the numbers of a character sheet the book fixes."""

import pytest

from rules.donjon import sheet


@pytest.mark.parametrize(("level", "cap"), [(1, 4), (5, 8), (30, 33)])
def test_no_characteristic_holds_more_dice_than_the_level_plus_three(level: int, cap: int) -> None:
    """ "no puedes tener una cantidad de dados mayor a tu Nivel + 3"; "el máximo para un
    personaje inicial es de 4 dados"."""
    assert sheet.characteristic_cap(level) == cap


@pytest.mark.parametrize(("weight", "virility", "penalty"), [(2, 4, 0), (4, 4, 0), (6, 4, 2)])
def test_a_weight_over_virility_costs_the_difference(weight: int, virility: int, penalty: int) -> None:
    assert sheet.weight_penalty(weight, virility) == penalty


@pytest.mark.parametrize(("weight", "virility", "both_hands"), [(3, 4, False), (4, 4, True), (5, 4, True)])
def test_one_hand_needs_more_virility_than_the_weight(weight: int, virility: int, both_hands: bool) -> None:
    """ "debe tener una puntuación de Virilidad mayor al Peso ... para poder utilizarla con una mano"."""
    assert sheet.two_handed(weight, virility) is both_hands
