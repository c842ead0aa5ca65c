"""Mediana's hit points: hurt, healed, rested; badly hurt and dead."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RuleError, check_range
from rules.mediana.checks import MAX_SCORE

DEATH_FACTOR = 6
# The most PV a sheet holds, and the most one hurt or heal moves.
MAX_HEALTH = 1000


@dataclass(frozen=True)
class Health:
    """A character's PV. Malherido at PV ≤ Físico, unconscious at 0, dead at −Físico × 6."""

    physique: int
    maximum: int
    current: int

    @property
    def badly_hurt(self) -> bool:
        return self.current <= self.physique

    @property
    def unconscious(self) -> bool:
        return self.current <= 0 and not self.dead

    @property
    def dead(self) -> bool:
        return self.current <= -self.physique * DEATH_FACTOR

    @property
    def state(self) -> str:
        if self.dead:
            return "muerto"
        if self.unconscious:
            return "inconsciente"
        if self.badly_hurt:
            return "malherido"
        return "bien"


def check_health(physique: int, maximum: int) -> None:
    check_range("fisico", physique, 1, MAX_SCORE)
    check_range("maximo", maximum, 1, MAX_HEALTH)


def hurt(health: Health, amount: int) -> Health:
    check_range("cantidad", amount, 1, MAX_HEALTH)
    floor = -health.physique * DEATH_FACTOR
    return Health(health.physique, health.maximum, max(health.current - amount, floor))


def heal(health: Health, amount: int) -> Health:
    check_range("cantidad", amount, 1, MAX_HEALTH)
    if health.dead:
        raise RuleError("mediana.dead")
    return Health(health.physique, health.maximum, min(health.current + amount, health.maximum))


def rest(health: Health, full_comfort: bool = False) -> Health:
    """ "Podemos recuperar 1 PV por noche ... la curación ascenderá a 2 PV por noche" with
    every comfort."""
    return heal(health, 2 if full_comfort else 1)
