"""D&D 5e hit points: damage, healing, temporary hit points, and where damage leaves a
creature (up, unconscious at 0, dead outright); its death saving throws are ``death.py``'s.

The Spanish rule text in ``../shared/reglas`` stops before the SRD's "Damage and Healing";
the rules below are the SRD's (quoted, in English, in docs/decisiones.md), with its worked
examples as tests: 5 temporary hit points and 7 damage leave the temporary ones spent and 2
damage taken; a cleric with 12 maximum and 6 current who takes 18 dies (12 remain).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from rules.errors import check_range

# A sheet's hit points go up to 999 (cogs.dnd5e.sheet_model); a monster's too.
MAX_HP = 999
# One application of damage or healing: more than any creature's maximum twice over.
MAX_AMOUNT = 9999


class Condition(StrEnum):
    """What a creature's hit points (and death saving throws) leave it as."""

    UP = "en_pie"
    UNCONSCIOUS = "inconsciente"
    STABLE = "estable"
    DEAD = "muerto"


@dataclass(frozen=True)
class HitPoints:
    """Current (0..maximum), maximum, and temporary hit points (a separate buffer)."""

    current: int
    maximum: int
    temporary: int = 0


def hit_points(current: int, maximum: int, temporary: int = 0) -> HitPoints:
    """Checked hit points: a maximum of 1..999, current within it, temporary 0..999."""
    check_range("pg", maximum, 1, MAX_HP)
    check_range("pg", current, 0, maximum)
    check_range("pg_temporales", temporary, 0, MAX_HP)
    return HitPoints(current, maximum, temporary)


@dataclass(frozen=True)
class Harm:
    """What one application of damage did: hit points before and after, how much the
    temporary hit points absorbed, the condition it leaves, and the death saving throw
    failures it caused (damage taken at 0 hit points)."""

    before: HitPoints
    after: HitPoints
    amount: int
    absorbed: int
    condition: Condition
    death_failures: int = 0


def damage(hp: HitPoints, amount: int, *, critical: bool = False, dies_at_zero: bool = False) -> Harm:
    """Temporary hit points are "lost first, and any leftover damage carries over"; hit
    points never go below 0. Reaching 0 with damage left kills outright when what is left
    equals or exceeds the maximum, else leaves the creature unconscious; damage at 0 is a
    death saving throw failure (two from a critical hit), or death when it equals or
    exceeds the maximum. ``dies_at_zero``: a monster "dies the instant it drops to 0"."""
    check_range("dano", amount, 0, MAX_AMOUNT)
    absorbed = min(hp.temporary, amount)
    rest = amount - absorbed
    after = HitPoints(max(hp.current - rest, 0), hp.maximum, hp.temporary - absorbed)
    if after.current > 0:
        return Harm(hp, after, amount, absorbed, Condition.UP)
    if dies_at_zero or (rest > 0 and rest - hp.current >= hp.maximum):
        return Harm(hp, after, amount, absorbed, Condition.DEAD)
    failures = (2 if critical else 1) if hp.current == 0 and rest > 0 else 0
    return Harm(hp, after, amount, absorbed, Condition.UNCONSCIOUS, failures)


def heal(hp: HitPoints, amount: int) -> HitPoints:
    """Healing raises current hit points up to the maximum; it "can't restore temporary
    hit points"."""
    check_range("curacion", amount, 0, MAX_AMOUNT)
    return replace(hp, current=min(hp.current + amount, hp.maximum))


def with_temporary(hp: HitPoints, amount: int) -> HitPoints:
    """Temporary hit points "can't be added together": whoever gets more decides which to
    keep, so the amount given replaces what there was."""
    check_range("pg_temporales", amount, 0, MAX_HP)
    return replace(hp, temporary=amount)


def with_maximum(hp: HitPoints | None, maximum: int) -> HitPoints:
    """A new maximum: current hit points stay within it; a creature that had none noted
    starts at full."""
    check_range("pg_maximos", maximum, 1, MAX_HP)
    if hp is None:
        return HitPoints(maximum, maximum)
    return HitPoints(min(hp.current, maximum), maximum, hp.temporary)
