"""Donjon's test: two pools of dice compared die by die ("Cómo se juega"), ties rolled
again, and the successes of the winner.

Sections of ``../shared/reglas/donjon.txt`` are quoted in the docstrings.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from rules.dice import Die, Mark, check_sides, sort_high
from rules.errors import RuleError

Side = Literal["a", "b"]
DEFAULT_SIDES = 20
MAX_POOL = 100
# The "Tipo de dado" dial: from a coin to a d100.
MIN_SIDES = 2
MAX_SIDES = 100
# "Si de nuevo resulta en un empate, repite la acción hasta que haya un vencedor": with
# d2 a round ties half the time, so a thousand rounds end it with certainty in practice.
MAX_TIE_ROUNDS = 1000


def check_pool_size(name: str, count: int) -> None:
    if not 0 <= count <= MAX_POOL:
        raise RuleError("donjon.pool_size", name=name, count=count, max=MAX_POOL)


@dataclass(frozen=True)
class Comparison:
    """Two pools compared once: each die marked, the winner and its successes.

    ``winner`` is None when every die was tied pair by pair: a full tie.
    """

    a: tuple[Die, ...]
    b: tuple[Die, ...]
    winner: Side | None
    successes: int
    tied_pairs: int


def _sorted(values: Sequence[int], sides: int) -> list[Die]:
    return list(sort_high(Die(sides, v) for v in values))


def compare(a: Sequence[int], b: Sequence[int], sides: int = DEFAULT_SIDES) -> Comparison:
    """ "Cada jugador identifica el dado con el número mayor. El jugador con la tirada baja
    pierde, y todos los dados del ganador que sean mayores que el dado mayor del perdedor
    se denominan éxitos. Si ambos jugadores tienen el mismo número en el dado más alto, esos
    dados se separan y se busca el próximo número más alto ... El ganador considera todos
    los dados empatados como éxitos, además de los éxitos normales."

    A side that runs out of dice while the other has some left loses, and every remaining
    die of the other side is a success (nothing of the loser's is left to beat).
    """
    pool_a, pool_b = _sorted(a, sides), _sorted(b, sides)
    ties = 0
    while ties < len(pool_a) and ties < len(pool_b) and pool_a[ties].value == pool_b[ties].value:
        ties += 1
    rest_a, rest_b = pool_a[ties:], pool_b[ties:]
    if not rest_a and not rest_b:
        return Comparison(_tied(pool_a), _tied(pool_b), None, 0, ties)
    winner: Side = "a" if not rest_b or (rest_a and rest_a[0].value > rest_b[0].value) else "b"
    win_rest, lose_rest = (rest_a, rest_b) if winner == "a" else (rest_b, rest_a)
    bar = lose_rest[0].value if lose_rest else 0
    counted = [d.mark(Mark.SUCCESS) if d.value > bar else d for d in win_rest]
    successes = ties + sum(d.has(Mark.SUCCESS) for d in counted)
    tied_winner = [d.mark(Mark.TIED, Mark.SUCCESS) for d in (pool_a if winner == "a" else pool_b)[:ties]]
    tied_loser = [d.mark(Mark.TIED) for d in (pool_b if winner == "a" else pool_a)[:ties]]
    win_dice, lose_dice = (*tied_winner, *counted), (*tied_loser, *lose_rest)
    a_dice, b_dice = (win_dice, lose_dice) if winner == "a" else (lose_dice, win_dice)
    return Comparison(tuple(a_dice), tuple(b_dice), winner, successes, ties)


def _tied(pool: list[Die]) -> tuple[Die, ...]:
    return tuple(d.mark(Mark.TIED) for d in pool)


@dataclass(frozen=True)
class Contest:
    """A test played out: the first comparison, then one added die a side per full tie.

    Each extension round compares only the two new dice; every tied pair before it stays
    set aside and counts for the eventual winner, together with the winning new die.
    """

    a: tuple[int, ...]
    b: tuple[int, ...]
    sides: int = DEFAULT_SIDES
    extra: tuple[tuple[int, int], ...] = ()

    @functools.cached_property
    def first(self) -> Comparison:
        """Compared once per contest: its winner, successes and card each ask for it."""
        return compare(self.a, self.b, self.sides)

    @property
    def winner(self) -> Side | None:
        if self.first.winner is not None:
            return self.first.winner
        for x, y in self.extra:
            if x != y:
                return "a" if x > y else "b"
        return None

    @property
    def successes(self) -> int:
        first = self.first
        if first.winner is not None:
            return first.successes
        return first.tied_pairs + sum(1 for x, y in self.extra if x == y) + (self.winner is not None)


def roll_contest(rng: random.Random, a: int, b: int, sides: int = DEFAULT_SIDES) -> Contest:
    """Roll two pools and settle any full tie by adding one die a side until decided."""
    check_pool_size("a", a)
    check_pool_size("b", b)
    check_sides(sides)
    test = Contest(_roll(rng, a, sides), _roll(rng, b, sides), sides)
    return settle(rng, test)


def settle(rng: random.Random, test: Contest) -> Contest:
    """``test`` with one die a side added while it stays a full tie: the same contest when
    it has a winner already (its comparison, made to know, is kept with it)."""
    while test.winner is None and len(test.extra) < MAX_TIE_ROUNDS:
        test = replace(test, extra=(*test.extra, (rng.randint(1, test.sides), rng.randint(1, test.sides))))
    return test


def _roll(rng: random.Random, count: int, sides: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, sides) for _ in range(count))
