"""Dune's opposed tests: the opponent rolls first, and its successes are the actor's
difficulty; a failed actor gives the opponent Impulso.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.dune.skill_test import BASE_DICE, DuneRoll, HelperSpec, roll_test
from rules.dune.successes import MAX_RAISED_DIFFICULTY
from rules.errors import check_range


def opposed_difficulty(opponent_successes: int, hindrances: int = 0) -> int:
    """The opponent's successes, less 1 per factor hindering them, are the difficulty."""
    check_range("obstaculos", hindrances, 0, MAX_RAISED_DIFFICULTY)
    return min(max(opponent_successes - hindrances, 0), MAX_RAISED_DIFFICULTY)


def opponent_momentum(difficulty: int, successes: int) -> int:
    """ "Si fallas, el personaje que se opone genera 1 punto de Impulso por cada éxito que
    te ha faltado"."""
    return max(difficulty - successes, 0)


def roll_opposition(
    rng: random.Random,
    target: int,
    *,
    dice: int = BASE_DICE,
    focus_skill: int | None = None,
    complication_range: int = 1,
    helpers: Sequence[HelperSpec] = (),
) -> DuneRoll:
    """ "el personaje que se opone lanza primero para definir la Dificultad": the opponent's
    test, rolled before the actor chooses bought dice, payment or Determinación. It has no
    difficulty of its own (0): only its successes matter."""
    return roll_test(
        rng,
        target,
        dice=dice,
        focus_skill=focus_skill,
        complication_range=complication_range,
        difficulty=0,
        npc=True,
        helpers=helpers,
    )


def opposition_difficulty(opposition: DuneRoll, hindrances: int = 0) -> int:
    """The difficulty the actor then faces: the opposition's successes (helpers included)."""
    return opposed_difficulty(opposition.test.successes, hindrances)
