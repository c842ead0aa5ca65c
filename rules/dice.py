"""Dice and pools with their marks: the vocabulary every system shares.

A die is a value type that remembers what the rules did to it (kept, dropped,
exploded, rerolled, a critical, a complication...). Systems build their results from
these; the bot renders the marks. Hard limits live here so that no system can ask for
a pool the bot cannot afford to roll.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import RuleError

MAX_DICE = 100
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_EXPRESSION_LENGTH = 200
# Every die rolled by one expression, explosions and rerolls included.
MAX_ROLLS = 1000
# How many times one die may chain an explosion before the chain stops.
MAX_EXPLOSIONS = 20


class Mark(StrEnum):
    """What the rules did to a die. A die may carry several."""

    DROPPED = "dropped"
    EXPLODED = "exploded"
    REROLLED = "rerolled"
    CRITICAL = "critical"
    COMPLICATION = "complication"
    SUCCESS = "success"
    TIED = "tied"
    FUMBLE = "fumble"
    OBJECTIVE = "objective"
    FIXED = "fixed"


# The marks that make a die not count.
NOT_KEPT = frozenset({Mark.DROPPED, Mark.REROLLED})


@dataclass(frozen=True, slots=True)
class Die:
    """One die as rolled, with its marks."""

    sides: int
    value: int
    marks: frozenset[Mark] = frozenset()

    @property
    def kept(self) -> bool:
        """A die counts unless it was dropped or replaced by a reroll (one set test: on
        Python 3.11 each ``Mark.X`` is a lookup through ``EnumType.__getattr__``'s slow
        path, and every card asks every die)."""
        return self.marks.isdisjoint(NOT_KEPT)

    def mark(self, *marks: Mark) -> Die:
        """The same die with ``marks`` added (built directly: ``dataclasses.replace`` costs
        as much again, and rolls mark every die they keep or drop)."""
        return Die(self.sides, self.value, self.marks.union(marks))

    def has(self, mark: Mark) -> bool:
        return mark in self.marks


Pool = tuple[Die, ...]


def check_pool(count: int, sides: int) -> None:
    """Refuse a pool outside the hard limits before a single die is rolled."""
    if count < 1:
        raise RuleError("dice.too_few", count=count)
    if count > MAX_DICE:
        raise RuleError("dice.too_many", count=count, max=MAX_DICE)
    check_sides(sides)


def check_sides(sides: int) -> None:
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise RuleError("dice.bad_sides", sides=sides, min=MIN_SIDES, max=MAX_SIDES)


def roll_die(rng: random.Random, sides: int) -> Die:
    return Die(sides, rng.randint(1, sides))


def roll_pool(rng: random.Random, count: int, sides: int) -> Pool:
    """Roll ``count`` dice of ``sides`` sides, within the limits."""
    check_pool(count, sides)
    return tuple(roll_die(rng, sides) for _ in range(count))


def total(dice: Iterable[Die]) -> int:
    """The sum of the dice that count."""
    return sum(d.value for d in dice if d.kept)


def sort_high(dice: Iterable[Die]) -> Pool:
    return tuple(sorted(dice, key=lambda d: d.value, reverse=True))


def explode_chain(rng: random.Random, sides: int, first: Die | None = None) -> Pool:
    """A die that explodes on its maximum, rolled again while it shows the maximum.

    Returns every die of the chain; all but the last carry ``EXPLODED``. The chain is
    bounded by ``MAX_EXPLOSIONS`` so a seeded run of maximums cannot run forever.
    """
    die = first if first is not None else roll_die(rng, sides)
    chain: list[Die] = []
    while die.value == sides and len(chain) < MAX_EXPLOSIONS:
        chain.append(die.mark(Mark.EXPLODED))
        die = roll_die(rng, sides)
    chain.append(die)
    return tuple(chain)
