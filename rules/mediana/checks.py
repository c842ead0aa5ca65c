"""A Mediana test: the objective die (exploding on a 10) plus the score, against a
difficulty; criticals, fumbles, and the degrees of success.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from rules.codec import Codec
from rules.dice import MAX_EXPLOSIONS, Die, Mark
from rules.errors import check_range
from rules.mediana.ranks import is_fumble, objective_die, rank_index

SIDES = 10
CRITICAL_MARGIN = 10
DEGREE_STEP = 10
MAX_SCORE = 50
MAX_DIFFICULTY = 100


# A die's marks, named once (see ``Throw.marked``).
_OBJECTIVE = frozenset({Mark.OBJECTIVE})
_OBJECTIVE_TEN = frozenset({Mark.OBJECTIVE, Mark.EXPLODED})
_DROPPED = frozenset({Mark.DROPPED})
_EXPLODED = frozenset({Mark.EXPLODED})


def degrees(total: int, difficulty: int) -> int:
    """ "Cada 10 puntos que superemos la dificultad nos otorgará 1d6 extra de efecto"."""
    return max(total - difficulty, 0) // DEGREE_STEP


@dataclass(frozen=True)
class Throw:
    """One 1o3d10: the three dice and the rank that picks the objective die."""

    dice: tuple[int, int, int]
    rank: str

    @functools.cached_property
    def objective(self) -> int:
        """Picked once per throw: a card asks for it through the total, the verdict, the
        critical and the degrees, each a sort."""
        return objective_die(self.dice, self.rank)

    @property
    def marked(self) -> tuple[Die, ...]:
        """The three dice sorted, the objective one marked (and 💥 on a 10), the others
        dropped. (The marks' sets are named once: each ``Mark.X`` is a slow lookup on
        Python 3.11.)"""
        keep = rank_index(self.rank)
        return tuple(
            Die(
                SIDES,
                value,
                (_OBJECTIVE_TEN if value == SIDES else _OBJECTIVE) if index == keep else _DROPPED,
            )
            for index, value in enumerate(sorted(self.dice))
        )


def throw(rng: random.Random, rank: str) -> Throw:
    rank_index(rank)
    return Throw((rng.randint(1, SIDES), rng.randint(1, SIDES), rng.randint(1, SIDES)), rank)


@dataclass(frozen=True)
class Test:
    """A test: the chain of throws (more than one when the objective die exploded), the
    score added, and the verdict against the difficulty."""

    throws: tuple[Throw, ...]
    score: int
    difficulty: int | None
    skill_test: bool = True

    @property
    def first(self) -> Throw:
        return self.throws[0]

    @functools.cached_property
    def rolled(self) -> int:
        """Added up once per test (its total is asked by the verdict, the critical, the
        degrees and the card)."""
        return sum(t.objective for t in self.throws)

    @property
    def total(self) -> int:
        return self.score + self.rolled

    @property
    def natural_one(self) -> bool:
        return self.first.objective == 1

    @property
    def fumble(self) -> bool:
        return is_fumble(self.first.dice, self.first.rank)

    @property
    def success(self) -> bool | None:
        """ "Un 1 natural ... siempre es fallo en tiradas de habilidad"; a fumble always fails."""
        if self.difficulty is None:
            return None
        if self.fumble or (self.skill_test and self.natural_one):
            return False
        return self.total >= self.difficulty

    @property
    def critical(self) -> bool:
        """ "Se consigue un Crítico si el resultado final supera en 10 o más a la dificultad"."""
        return (
            bool(self.success)
            and self.difficulty is not None
            and self.total - self.difficulty >= CRITICAL_MARGIN
        )

    @property
    def degrees(self) -> int:
        if not self.success or self.difficulty is None:
            return 0
        return degrees(self.total, self.difficulty)

    def exploded(self, index: int) -> bool:
        """Whether throw ``index``'s objective 10 exploded (another throw follows it): the
        only 10s to mark 💥 — an attribute test's 10 never explodes."""
        return index < len(self.throws) - 1

    def marked(self, index: int) -> tuple[Die, ...]:
        """Throw ``index``'s dice as shown: 💥 only on an objective 10 that exploded."""
        dice = self.throws[index].marked
        if self.exploded(index):
            return dice
        return tuple(Die(d.sides, d.value, d.marks - _EXPLODED) for d in dice)


def roll_test(
    rng: random.Random,
    score: int,
    difficulty: int | None,
    rank: str = "medio",
    *,
    explode: bool = True,
    skill_test: bool = True,
) -> Test:
    """Roll 1o3d10 + ``score``. In skill and opposed tests a 10 on the objective die
    explodes: "se suma el resultado y se vuelve a tirar 1o3d10", at the same rank, for as
    long as it shows 10 (bounded)."""
    check_range("puntuacion", score, -MAX_SCORE, MAX_SCORE)
    if difficulty is not None:
        check_range("dificultad", difficulty, 0, MAX_DIFFICULTY)
    throws = [throw(rng, rank)]
    while explode and throws[-1].objective == SIDES and len(throws) <= MAX_EXPLOSIONS:
        throws.append(throw(rng, rank))
    return Test(tuple(throws), score, difficulty, skill_test)


def fails_outright(test: Test) -> bool:
    """ "Un 1 natural ... siempre es fallo en tiradas de habilidad", and a fumble always
    fails: in an opposed test too (the bookworm against the martial artist is one)."""
    return test.fumble or (test.skill_test and test.natural_one)


def _before_codec(data: dict[str, Any]) -> Test | None:
    """A test stored before the codec kept each throw as ``[dice, rank]``."""
    if data["throws"] and isinstance(data["throws"][0], dict):
        return None
    throws = tuple(Throw((d[0], d[1], d[2]), rank) for d, rank in data["throws"])
    return Test(throws, data["score"], data["difficulty"], data["skill_test"])


TESTS = Codec(Test, _before_codec)
roll_to_data = TESTS.to_data
roll_from_data = TESTS.from_data


def roll_kind(attribute_test: bool) -> dict[str, bool]:
    """How a test rolls: an attribute test neither explodes ("En tiradas de habilidad y
    enfrentadas ... éste explota") nor fails on a natural 1; pass as keywords to
    :func:`roll_test` and to the odds."""
    return {"explode": not attribute_test, "skill_test": not attribute_test}
