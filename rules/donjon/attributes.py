"""Donjon's attributes: rolled by each method of the book, or bought with points, and
the swap of a point from one to another.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import RuleError

ATTRIBUTES = ("virilidad", "cerebralidad", "discernimiento", "celeridad", "aguante", "sociabilidad")
ATTRIBUTE_POINTS = 21
IMPROVED_THRESHOLD = 15


@dataclass(frozen=True)
class AttributeRoll:
    rolls: tuple[tuple[int, int, int], ...]
    arranged: bool = False

    @property
    def medians(self) -> tuple[int, ...]:
        return tuple(int(statistics.median(r)) for r in self.rolls)

    @property
    def total(self) -> int:
        return sum(self.medians)

    @property
    def may_reroll(self) -> bool:
        """Estándar Mejorado: "Si los puntajes de un personaje suman 15 o menos, el jugador
        puede tirar todos los dados nuevamente"."""
        return self.total <= IMPROVED_THRESHOLD


def roll_attributes(rng: random.Random, arranged: bool = False) -> AttributeRoll:
    """The median of 3d6 six times: in order (Estándar) or to arrange (Tiradas a Elección)."""
    rolls = tuple((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)) for _ in ATTRIBUTES)
    return AttributeRoll(rolls, arranged)


# The dial's methods that roll: the reroll of "Estándar Mejorado" is also part of "A Elección
# del Jugador Mejorado" ("Similar al método Estándar Mejorado") and of "Tiradas a Elección"
# ("anota las medianas como en el método Estándar Mejorado").
ROLLED_METHODS = ("estandar", "mejorado", "jugador_mejorado", "eleccion")
REROLL_METHODS = frozenset({"mejorado", "jugador_mejorado", "eleccion"})
MIN_ATTRIBUTE = 1
MAX_ATTRIBUTE = 6


def offers_reroll(method: str, roll: AttributeRoll) -> bool:
    """Whether the player may roll all the dice again (a total of 15 or less)."""
    if method not in ROLLED_METHODS:
        raise RuleError("donjon.bad_method", method=method)
    return method in REROLL_METHODS and roll.may_reroll


def swap_point(scores: Sequence[int], plus: str, minus: str) -> tuple[int, ...]:
    """A Elección del Jugador Mejorado: "el jugador puede agregar un punto a un Atributo
    restándole un punto a otro". Scores stay within 1–6, the range a median of 3d6 gives
    and the one "A Elección del Jugador" allows."""
    if plus not in ATTRIBUTES or minus not in ATTRIBUTES:
        raise RuleError("donjon.bad_attribute", attribute=plus if plus not in ATTRIBUTES else minus)
    if plus == minus:
        raise RuleError("donjon.swap_same")
    swapped = list(scores)
    swapped[ATTRIBUTES.index(plus)] += 1
    swapped[ATTRIBUTES.index(minus)] -= 1
    for name, score in zip(ATTRIBUTES, swapped, strict=True):
        if not MIN_ATTRIBUTE <= score <= MAX_ATTRIBUTE:
            raise RuleError("donjon.swap_range", attribute=name, score=score)
    return tuple(swapped)


def check_point_buy(scores: Sequence[int]) -> None:
    """A Elección del Jugador: 21 points, no Atributo under 1 or over 6."""
    if len(scores) != len(ATTRIBUTES):
        raise RuleError("donjon.points_count", count=len(scores))
    for name, score in zip(ATTRIBUTES, scores, strict=True):
        if not 1 <= score <= 6:
            raise RuleError("donjon.points_range", attribute=name, score=score)
    if sum(scores) != ATTRIBUTE_POINTS:
        raise RuleError("donjon.points_total", total=sum(scores), points=ATTRIBUTE_POINTS)
