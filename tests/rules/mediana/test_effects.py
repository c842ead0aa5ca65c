"""Tests of ``rules.mediana.effects``: Mediana's effect rolls: d6s, one more for each degree of
success and for a critical."""

import pytest

from rules.dice import Die, Mark
from rules.errors import RuleError
from rules.mediana import effects
from rules.mediana.effects import Effect
from tests.rules.stored import stored
from tests.support.dice import Scripted


def test_effect_dice_explode_on_six_and_accumulate() -> None:
    effect = effects.roll_effect(Scripted([6, 6, 2, 3]), effects.parse_effect("2d6"))
    assert [[d.value for d in c] for c in effect.chains] == [[6, 6, 2], [3]]
    assert effect.total == 17


def test_a_critical_doubles_the_damage_before_armour() -> None:
    spec = effects.parse_effect("2d6+1")
    effect = effects.roll_effect(Scripted([3, 4, 5]), spec, extra_dice=1, critical=True, absorption=6)
    assert effect.rolled == 13
    assert effect.total == 13 * 2 - 6
    assert effects.roll_effect(Scripted([1]), effects.parse_effect("1d6"), absorption=5).total == 0


def test_an_effect_roll_reads_back_as_it_was_rolled() -> None:
    spec = effects.parse_effect("2d6+1")
    effect = effects.roll_effect(Scripted([6, 6, 2, 3]), spec, critical=True, absorption=2)
    assert effects.effect_from_data(effects.effect_to_data(effect)) == effect


def test_effect_expressions() -> None:
    assert effects.parse_effect(" 2D6 - 1 ") == effects.EffectSpec(2, -1)
    for bad in ("2d8", "d6", "hola", "51d6"):
        with pytest.raises(RuleError):
            effects.parse_effect(bad)


def test_a_combat_critical_doubles_the_damage_its_degrees_gave() -> None:
    """ "un arma que haga 2d6, si supera en 20 puntos la dificultad hace 4d6 de daño
    (2d6+2d6)" counts the dice; "Si además el Crítico se consigue en combate se multiplica
    el daño infligido por 2" then doubles them: every critical has a degree, so a ×2 kept
    for criticals without degrees would never apply."""
    assert effects.effect_dice(2, 2, critical=True, in_combat=True) == (4, True)
    assert effects.effect_dice(2, 0, critical=True, in_combat=True) == (2, True)
    assert effects.effect_dice(2, 2, critical=True, in_combat=False) == (4, False)
    assert effects.effect_dice(2, 1, critical=False, in_combat=True) == (3, False)


def test_an_effect_stored_before_the_codec_still_loads() -> None:
    effect = effects.effect_from_data(stored("mediana_effect"))
    exploded = Die(6, 6, frozenset({Mark.EXPLODED}))
    assert effect == Effect(((Die(6, 3),), (Die(6, 5),), (exploded, Die(6, 2))), 1, True, 2)
    assert effects.effect_from_data(effects.effect_to_data(effect)) == effect
