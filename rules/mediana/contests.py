"""Mediana's opposed tests: each side rolls; the highest total among those that did not
fail outright wins, and a tie is the GM's to accept or reroll."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import RuleError, check_range
from rules.mediana.checks import MAX_SCORE, Test, fails_outright, roll_test
from rules.mediana.ranks import effective_rank


def contest_winners(tests: Sequence[Test]) -> tuple[int, ...]:
    """ "Las tiradas enfrentadas se usan cuando dos o más personajes compiten": the indexes
    of the highest total among those that did not fail outright. Several indexes are a tie
    for the GM to accept or reroll; none means every side failed outright."""
    if len(tests) < 2:
        raise RuleError("mediana.contest_too_small")
    standing = [i for i, t in enumerate(tests) if not fails_outright(t)]
    if not standing:
        return ()
    best = max(tests[i].total for i in standing)
    return tuple(i for i in standing if tests[i].total == best)


@dataclass(frozen=True)
class Side:
    """One character in an opposed test, with the state its rank follows: its own skill
    points (None when it rolls its attribute alone, which has no skill to lack),
    malherido (from its PV sheet when it has one), the GM's base rank, and the armour's
    encumbrance when the test needs coordination."""

    attribute: int
    skill: int | None
    base_rank: str = "medio"
    badly_hurt: bool = False
    encumbrance: int = 0

    @property
    def rank(self) -> str:
        return effective_rank(self.base_rank, self.skill == 0, self.badly_hurt)

    @property
    def score(self) -> int:
        return self.attribute + (self.skill or 0) - self.encumbrance


MAX_CONTESTANTS = 10


def roll_opposed(rng: random.Random, sides: Sequence[Side]) -> tuple[Test, ...]:
    """Every side rolls its own test (exploding, natural 1 and fumble apply: it is a skill
    test); :func:`contest_winners` reads the result."""
    check_range("participantes", len(sides), 2, MAX_CONTESTANTS)
    for side in sides:
        check_range("atributo", side.attribute, -MAX_SCORE, MAX_SCORE)
        if side.skill is not None:
            check_range("habilidad", side.skill, 0, MAX_SCORE)
        check_range("estorbo", side.encumbrance, 0, MAX_SCORE)
    return tuple(roll_test(rng, side.score, None, side.rank) for side in sides)
