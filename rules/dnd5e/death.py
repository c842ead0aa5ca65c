"""D&D 5e at 0 hit points (SRD 5.2, "Dropping to 0 Hit Points"): death saving throws,
stable, dead; what damage and healing do to them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from rules.dnd5e.hit_points import Condition, Harm, HitPoints
from rules.errors import RuleError, check_range

# "Death Saving Throws": DC 10, and three of a kind decide.
DEATH_SAVE_DC = 10
DEATH_SAVES = 3


@dataclass(frozen=True)
class Fate:
    """Where a creature stands beyond its hit points: its death saving throws (counted at 0
    hit points), stable, or dead. ``saved_at``: the tracker's turn of its last death save,
    one a turn ("Whenever you start your turn with 0 Hit Points")."""

    successes: int = 0
    failures: int = 0
    stable: bool = False
    dead: bool = False
    saved_at: int | None = None


def standing(hp: HitPoints, fate: Fate, *, dies_at_zero: bool = False) -> Condition:
    """Up above 0 hit points; dead when killed (outright, by three failures, or a monster
    at 0); else stable or unconscious at 0."""
    if fate.dead or (dies_at_zero and hp.current == 0):
        return Condition.DEAD
    if hp.current > 0:
        return Condition.UP
    return Condition.STABLE if fate.stable else Condition.UNCONSCIOUS


def _failed(fate: Fate, failures: int) -> Fate:
    """More failures: "the third failure, you die"; a stable creature that takes damage
    "stops being Stable" and counts them again."""
    total = min(fate.failures + failures, DEATH_SAVES)
    return replace(fate, failures=total, stable=False, dead=total >= DEATH_SAVES)


def after_harm(fate: Fate, harm: Harm) -> Fate:
    """The fate damage leaves: dead stays dead; killed outright is dead; damage at 0 hit
    points adds its death saving throw failures; above 0 nothing is counted."""
    if fate.dead:
        return fate
    if harm.condition is Condition.DEAD:
        return Fate(fate.successes, fate.failures, dead=True, saved_at=fate.saved_at)
    if harm.after.current > 0:
        return Fate(saved_at=fate.saved_at)
    return _failed(fate, harm.death_failures) if harm.death_failures else fate


def after_healing(fate: Fate, hp: HitPoints) -> Fate:
    """Healing never brings back the dead; regaining any hit point resets the death saving
    throws ("The number of both is reset to zero when you regain any Hit Points")."""
    if fate.dead:
        raise RuleError("dnd.death.stays_dead")
    return Fate(saved_at=fate.saved_at) if hp.current > 0 else fate


@dataclass(frozen=True)
class DeathSave:
    """One death saving throw: the d20, the fate before and after, the hit points regained."""

    face: int
    before: Fate
    after: Fate
    regained: int = 0


def check_dying(fate: Fate, hp: HitPoints) -> None:
    """Refuse a death saving throw to a creature that makes none: dead, up, or stable."""
    if fate.dead:
        raise RuleError("dnd.death.is_dead")
    if hp.current > 0:
        raise RuleError("dnd.death.not_dying")
    if fate.stable:
        raise RuleError("dnd.death.is_stable")


def death_save(fate: Fate, hp: HitPoints, face: int, turn: int | None = None) -> DeathSave:
    """ "Roll 1d20. If the roll is 10 or higher, you succeed. Otherwise, you fail." A 1
    counts two failures; a 20 "you regain 1 Hit Point"; the third success leaves the
    creature Stable (both counts reset), the third failure dead. Only for a creature at 0
    hit points, neither stable nor dead."""
    check_range("d20", face, 1, 20)
    check_dying(fate, hp)
    if face == 20:
        return DeathSave(face, fate, Fate(saved_at=turn), regained=1)
    if face < DEATH_SAVE_DC:
        return DeathSave(face, fate, replace(_failed(fate, 2 if face == 1 else 1), saved_at=turn))
    if fate.successes + 1 >= DEATH_SAVES:
        return DeathSave(face, fate, Fate(stable=True, saved_at=turn))
    return DeathSave(face, fate, replace(fate, successes=fate.successes + 1, saved_at=turn))


def roll_death_save(rng: random.Random, fate: Fate, hp: HitPoints, turn: int | None = None) -> DeathSave:
    """A death saving throw: one d20, no modifier (``rules.dnd5e.death.death_save``)."""
    return death_save(fate, hp, rng.randint(1, 20), turn)
