"""Tests of ``rules.dune.opposition``: Dune's opposed tests: the opponent rolls first, and its
successes are the actor's difficulty; a failed actor gives the opponent Impulso."""

from rules.dune import opposition as dune_opposition
from tests.support.dice import Scripted


def test_opposed_tests() -> None:
    assert dune_opposition.opposed_difficulty(3, hindrances=1) == 2
    assert dune_opposition.opposed_difficulty(1, hindrances=3) == 0
    # "si la Dificultad era 4 y logras 3 éxitos, el oponente recibe 1 puntos de Impulso"
    assert dune_opposition.opponent_momentum(4, 3) == 1
    assert dune_opposition.opponent_momentum(2, 3) == 0


def test_the_opposition_rolls_first_and_sets_the_difficulty() -> None:
    opposition = dune_opposition.roll_opposition(Scripted([3, 12, 1]), 10, dice=3)
    assert opposition.test.successes == 3
    assert dune_opposition.opposition_difficulty(opposition) == 3
    assert dune_opposition.opposition_difficulty(opposition, hindrances=1) == 2
