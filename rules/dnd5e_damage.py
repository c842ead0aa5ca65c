"""D&D 5e hit points: damage, healing, temporary hit points, and what 0 hit points means.

The Spanish rule text in ``../shared/reglas`` stops before the SRD's "Damage and Healing";
the rules below are the SRD's (quoted, in English, in docs/decisiones.md), with its worked
examples as tests: 5 temporary hit points and 7 damage leave the temporary ones spent and 2
damage taken; a cleric with 12 maximum and 6 current who takes 18 dies (12 remain).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from rules.errors import RuleError, check_range

# A sheet's hit points go up to 999 (bot.sheets.models); a monster's too.
MAX_HP = 999
# One application of damage or healing: more than any creature's maximum twice over.
MAX_AMOUNT = 9999


# "Death Saving Throws": DC 10, and three of a kind decide.
DEATH_SAVE_DC = 10
DEATH_SAVES = 3


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


# -- damage types -------------------------------------------------------------------------------

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


# -- death --------------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Member:
    """One creature of a tracker's combatant, as damage addresses it: "Goblin 2" is
    ``m7.2``. ``hp`` is the tracker's own (a monster without a sheet), else None."""

    target: str
    name: str
    index: int
    hp: HitPoints | None


def members_of(key: str, name: str, count: int, hps: tuple[HitPoints, ...]) -> tuple[Member, ...]:
    """A group's members are numbered from 1 ("Goblin 1", "Goblin 2"), each with its own
    hit points; a lone creature keeps its key and name."""
    if count == 1:
        return (Member(key, name, 0, hps[0] if hps else None),)
    return tuple(
        Member(f"{key}.{n + 1}", f"{name} {n + 1}", n, hps[n] if hps else None) for n in range(count)
    )


def with_maximum(hp: HitPoints | None, maximum: int) -> HitPoints:
    """A new maximum: current hit points stay within it; a creature that had none noted
    starts at full."""
    check_range("pg_maximos", maximum, 1, MAX_HP)
    if hp is None:
        return HitPoints(maximum, maximum)
    return HitPoints(min(hp.current, maximum), maximum, hp.temporary)
