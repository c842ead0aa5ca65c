"""Mediana's 1o3d10: three d10, of which the rank (bajo, medio, alto) picks the
objective die; which throws are fumbles.

Quotes from ``../shared/reglas/mediana-1o3d10.txt``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import RuleError

RANKS = ("bajo", "medio", "alto")
FUMBLE_NEXT_MAX = 5


def rank_index(rank: str) -> int:
    if rank not in RANKS:
        raise RuleError("mediana.bad_rank", rank=rank)
    return RANKS.index(rank)


def shift_rank(rank: str, steps: int) -> str:
    """Move a rank up (+) or down (−); it never goes past ``alto`` or ``bajo``."""
    return RANKS[min(max(rank_index(rank) + steps, 0), len(RANKS) - 1)]


def effective_rank(base: str = "medio", no_skill: bool = False, badly_hurt: bool = False) -> str:
    """ "En aquellas habilidades donde el personaje no tenga ningún punto ... el dado objetivo
    baja un rango"; malherido, "su dado objetivo baja 1 nivel". The GM's grant or
    imposition is the base rank."""
    return shift_rank(base, -(int(no_skill) + int(badly_hurt)))


def objective_die(dice: Sequence[int], rank: str = "medio") -> int:
    """Sort the three d10 and keep one by rank: lowest, median or highest."""
    return sorted(dice)[rank_index(rank)]


def is_fumble(dice: Sequence[int], rank: str = "medio") -> bool:
    """ "Se obtiene al sacar un 1 en el dado objetivo y 5 o menos en el siguiente dado. El
    triple 1 siempre se considera pifia." The next die is the next one up in the sorted three."""
    ordered = sorted(dice)
    index = rank_index(rank)
    if ordered == [1, 1, 1]:
        return True
    if ordered[index] != 1 or index + 1 >= len(ordered):
        return False
    return ordered[index + 1] <= FUMBLE_NEXT_MAX


def odds_rank(base: str = "medio", skill: int | None = None, badly_hurt: bool = False) -> str:
    """The rank the odds must use: the roll's own drops (no skill points, malherido).
    ``skill`` None is an attribute test, which has no skill to lack."""
    return effective_rank(base, skill == 0, badly_hurt)
