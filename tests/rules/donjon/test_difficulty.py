"""Tests of ``rules.donjon.difficulty``: What the GM rolls in Donjon: the dice of a difficulty
(Tabla 4-2) at the Donjon's level, of damage and of an NPC, banked dice added to a pool, and
provisions (Tabla 3-3)."""

import random

import pytest

from rules.donjon import contest
from rules.donjon import difficulty as donjon_difficulty
from rules.errors import RuleError


@pytest.mark.parametrize(
    ("difficulty", "level", "dice"),
    [
        ("facil", 0, 0),
        ("media", 1, 4),
        ("media", 10, 13),
        ("dificil", 2, 8),
        ("muy_dificil", 0, 9),
        ("desquiciada", 3, 15),
    ],
)
def test_unopposed_difficulty_dice(difficulty: str, level: int, dice: int) -> None:
    assert donjon_difficulty.difficulty_dice(difficulty, level) == dice


def test_damage_dice_are_level_severity_and_banked_successes() -> None:
    # "el DJ tira 7 dados (el Nivel del donjon, 2, más 3 por daño Medio, más los 2 dados de bonificación)"
    assert donjon_difficulty.damage_dice(2, gm_bonus=2) == 7
    assert donjon_difficulty.damage_dice(2, "dificil") == 8


def test_provisions_table() -> None:
    assert donjon_difficulty.provisions_dice(0, item_skill=2) == 5  # la ganzúa de Azar
    assert donjon_difficulty.provisions_dice(2) == 5  # la botella de Zoe
    assert donjon_difficulty.provisions_dice(4, item_skill=2) == 7  # Valor y Habilidad no se suman
    assert donjon_difficulty.provisions_dice(1, unusual=True) == 7
    with pytest.raises(RuleError):
        donjon_difficulty.provisions_dice(0, item_skill=5)


def test_pools_are_bounded() -> None:
    with pytest.raises(RuleError):
        contest.roll_contest(random.Random(1), 101, 1)
    with pytest.raises(RuleError):
        contest.roll_contest(random.Random(1), 1, 1, sides=1)
    with pytest.raises(RuleError):
        donjon_difficulty.difficulty_dice("imposible", 1)


def test_npc_damage_pool_is_attribute_and_skill_plus_banked() -> None:
    """ "el DJ tira ya sea el Atributo y Habilidad apropiados del PNJ oponente o el Nivel"."""
    assert donjon_difficulty.npc_damage_dice(4, 2, 2) == 8
    assert donjon_difficulty.npc_damage_dice(3) == 3
    with pytest.raises(RuleError):
        donjon_difficulty.npc_damage_dice(-1)


def test_banked_dice_join_a_pool_and_leave_the_bank() -> None:
    assert donjon_difficulty.with_banked(5, 2, 3) == (7, -2)
    assert donjon_difficulty.with_banked(5, 0, 0) == (5, 0)
    with pytest.raises(RuleError) as refused:
        donjon_difficulty.with_banked(5, 4, 3)
    assert refused.value.params == {"use": 4, "banked": 3}
