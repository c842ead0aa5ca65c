"""Mediana's effect rolls: d6s, one more for each degree of success and for a critical."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from rules.codec import Codec
from rules.dice import Die, Mark, explode_chain
from rules.errors import RuleError, check_range
from rules.mediana.checks import MAX_SCORE

EFFECT_SIDES = 6
MAX_EFFECT_DICE = 50
_EFFECT = re.compile(r"^\s*(\d{1,3})\s*d\s*6\s*(?:([+-])\s*(\d{1,3}))?\s*$", re.IGNORECASE)


def effect_dice(base: int, degrees_won: int, critical: bool, in_combat: bool) -> tuple[int, bool]:
    """The effect roll after a test: (d6 to roll, whether the total doubles).

    *Grados de crítico* adds "1d6 extra de efecto" per 10 points over the difficulty (its
    example, "hace 4d6 de daño (2d6+2d6)", counts the dice), and *Críticos* then says "Si
    además el Crítico se consigue en combate se multiplica el daño infligido por 2". Both
    apply: a critical is 10 or more over, so it always has a degree, and a ×2 kept for
    criticals without degrees would never apply (docs/decisiones.md)."""
    check_range("dados", base, 1, MAX_EFFECT_DICE)
    check_range("grados", degrees_won, 0, MAX_EFFECT_DICE)
    check_range("dados", base + degrees_won, 1, MAX_EFFECT_DICE)
    return base + degrees_won, critical and in_combat


@dataclass(frozen=True)
class EffectSpec:
    dice: int
    bonus: int = 0


def parse_effect(text: str) -> EffectSpec:
    """Effect dice as ``NdS`` with an optional bonus, in d6 (the text's effect die)."""
    match = _EFFECT.match(text)
    if not match:
        raise RuleError("mediana.bad_effect", text=text.strip()[:40])
    dice = int(match[1])
    bonus = int(match[3] or 0) * (-1 if match[2] == "-" else 1)
    check_range("dados", dice, 1, MAX_EFFECT_DICE)
    return EffectSpec(dice, bonus)


@dataclass(frozen=True)
class Effect:
    """Damage, healing, turns...: exploding d6s, the degrees' extra dice, the critical's
    doubling and armour's absorption, in that order."""

    chains: tuple[tuple[Die, ...], ...]
    bonus: int
    critical: bool
    absorption: int

    @property
    def rolled(self) -> int:
        return sum(d.value for chain in self.chains for d in chain) + self.bonus

    @property
    def total(self) -> int:
        doubled = self.rolled * (2 if self.critical else 1)
        return max(doubled - self.absorption, 0)


def roll_effect(
    rng: random.Random, spec: EffectSpec, *, extra_dice: int = 0, critical: bool = False, absorption: int = 0
) -> Effect:
    """Each d6 explodes on a 6 ("los seises son acumulativos"); every degree adds a d6; a
    critical in combat doubles the damage; absorption is subtracted, never below 0."""
    check_range("grados", extra_dice, 0, MAX_EFFECT_DICE)
    check_range("absorcion", absorption, 0, MAX_SCORE)
    count = spec.dice + extra_dice
    check_range("dados", count, 1, MAX_EFFECT_DICE)
    chains = tuple(explode_chain(rng, EFFECT_SIDES) for _ in range(count))
    return Effect(chains, spec.bonus, critical, absorption)


def _before_codec(data: dict[str, Any]) -> Effect | None:
    """An effect stored before the codec kept each chain's faces only: in a chain every
    die but the last exploded."""
    if any(isinstance(face, dict) for chain in data["chains"] for face in chain):
        return None
    chains = tuple(
        tuple(
            Die(EFFECT_SIDES, v, frozenset({Mark.EXPLODED}) if i < len(faces) - 1 else frozenset())
            for i, v in enumerate(faces)
        )
        for faces in data["chains"]
    )
    return Effect(chains, data["bonus"], data["critical"], data["absorption"])


EFFECTS = Codec(Effect, _before_codec)
effect_to_data = EFFECTS.to_data
effect_from_data = EFFECTS.from_data
