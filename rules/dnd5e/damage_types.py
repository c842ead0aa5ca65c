"""D&D 5e damage types (SRD 5.2): immunity stops the damage, resistance halves it,
vulnerability doubles it, each once; half on a successful save first. A defence the
creature's sheet does not note, the one applying the damage chooses.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.dnd5e.hit_points import MAX_AMOUNT
from rules.errors import check_range

# SRD 5.2's damage types, by their Spanish names.
DAMAGE_TYPES = (
    "acido",
    "contundente",
    "cortante",
    "frio",
    "fuego",
    "fuerza",
    "necrotico",
    "perforante",
    "psiquico",
    "radiante",
    "relampago",
    "trueno",
    "veneno",
)


class Adjustment(StrEnum):
    """What the one applying damage chooses for the creatures it reaches: all of it, half
    (a successful save against an effect that does half on a success), or a defence the
    creature's sheet does not note."""

    FULL = "completo"
    HALF = "mitad"
    RESISTANCE = "resistencia"
    VULNERABILITY = "vulnerabilidad"
    IMMUNITY = "inmunidad"


@dataclass(frozen=True)
class Defences:
    """A creature's damage types it resists, is vulnerable to, or is immune to."""

    resistances: frozenset[str] = frozenset()
    vulnerabilities: frozenset[str] = frozenset()
    immunities: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Adjusted:
    """Damage after the adjustments: the amount taken and what changed it, in order."""

    amount: int
    why: tuple[Adjustment, ...] = ()


def adjusted(amount: int, damage_type: str | None, defences: Defences, chosen: Adjustment) -> Adjusted:
    """SRD 5.2, "Damage Resistance and Vulnerability": "Immunity … you don't take the
    damage"; "Resistance … the damage is halved against you (round down)"; "Vulnerability …
    the damage is doubled"; and "adjustments such as bonuses, penalties, or multipliers are
    applied first, Resistance second, and Vulnerability third" (halving for a successful
    save is one of the first). Each applies once ("Multiple instances … count as only one
    instance"); the sheet's need the damage's type, the chosen one does not."""
    check_range("dano", amount, 0, MAX_AMOUNT)
    typed = damage_type or ""
    if chosen is Adjustment.IMMUNITY or typed in defences.immunities:
        return Adjusted(0, (Adjustment.IMMUNITY,))
    why: list[Adjustment] = []
    if chosen is Adjustment.HALF:
        amount, why = amount // 2, [Adjustment.HALF]
    if chosen is Adjustment.RESISTANCE or typed in defences.resistances:
        amount, why = amount // 2, [*why, Adjustment.RESISTANCE]
    if chosen is Adjustment.VULNERABILITY or typed in defences.vulnerabilities:
        amount, why = amount * 2, [*why, Adjustment.VULNERABILITY]
    return Adjusted(min(amount, MAX_AMOUNT), tuple(why))
