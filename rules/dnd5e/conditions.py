"""D&D 5e conditions (SRD 5.2, "Rules Glossary"), as far as they change the rolls the bot
makes: advantage or disadvantage on attacks by and against the creature, automatic failures on
saving throws, and hits that are critical up close. Quotes are the SRD's, in English (the
Spanish rule text stops before the glossary); the names are the Spanish SRD's.

What a condition does that no roll here shows (can't see, can't act, speed 0) is the table's;
so is what needs a fact the bot does not have (whether a check needs sight, who grapples whom).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import RuleError, check_range

CONDITIONS = (
    "agotamiento",
    "apresado",
    "asustado",
    "aturdido",
    "cegado",
    "derribado",
    "ensordecido",
    "envenenado",
    "hechizado",
    "incapacitado",
    "inconsciente",
    "invisible",
    "paralizado",
    "petrificado",
    "restringido",
)
# A duration the GM gives, in rounds (a minute is 10; an hour-long effect needs no tracker).
MAX_ROUNDS = 100
# Exhaustion: "This condition is cumulative … If you have 6 levels of Exhaustion, you die";
# "When you make a D20 Test, the roll is reduced by 2 times your Exhaustion level".
EXHAUSTION = "agotamiento"
MAX_EXHAUSTION = 6
EXHAUSTION_PENALTY = 2
# "Attack rolls against the creature have Advantage" (Blinded, Paralyzed, Petrified,
# Restrained, Stunned, Unconscious); Invisible: "Attack rolls against you have Disadvantage".
AGAINST_ADVANTAGE = frozenset(
    {"cegado", "paralizado", "petrificado", "restringido", "aturdido", "inconsciente"}
)
AGAINST_DISADVANTAGE = frozenset({"invisible"})
# "Your attack rolls have Disadvantage" (Blinded, Poisoned, Prone, Restrained; Frightened
# "while the source of fear is within line of sight"); Invisible: "your attack rolls have
# Advantage".
BY_DISADVANTAGE = frozenset({"cegado", "envenenado", "derribado", "restringido", "asustado"})
BY_ADVANTAGE = frozenset({"invisible"})
# "You automatically fail Strength and Dexterity saving throws" (Paralyzed, Petrified,
# Stunned, Unconscious); Restrained: "Disadvantage on Dexterity saving throws".
FAILS_STR_DEX = frozenset({"paralizado", "petrificado", "aturdido", "inconsciente"})
DEX_SAVE_DISADVANTAGE = frozenset({"restringido"})
# "Disadvantage on ability checks" (Poisoned; Frightened, with its source in sight).
CHECK_DISADVANTAGE = frozenset({"envenenado", "asustado"})
# "Any attack roll that hits you is a Critical Hit if the attacker is within 5 feet of you."
CLOSE_CRITICAL = frozenset({"paralizado", "inconsciente"})


class Effect(StrEnum):
    ADVANTAGE = "ventaja"
    DISADVANTAGE = "desventaja"
    FAILS = "falla"
    CRITICAL = "critico"
    PENALTY = "penalizador"


@dataclass(frozen=True)
class Why:
    """One condition changing one roll: whose it is (``target`` or the roller's ``own``),
    which, what it does, and by how much (Exhaustion's penalty)."""

    whose: str
    condition: str
    effect: Effect
    value: int = 0


@dataclass(frozen=True)
class Affliction:
    """A condition on a creature of the tracker, until the start of round ``until`` (None:
    until the GM clears it)."""

    condition: str
    until: int | None = None
    level: int = 1

    def active(self, round_: int) -> bool:
        return self.until is None or round_ < self.until


def affliction(condition: str, round_: int, rounds: int | None) -> Affliction:
    """A condition set in round ``round_`` for ``rounds`` rounds: it ends as round
    ``round_ + rounds`` starts (one round: gone at the top of the next)."""
    if condition not in CONDITIONS:
        raise RuleError("dnd.condition.unknown", condition=condition)
    if rounds is None:
        return Affliction(condition)
    check_range("rondas", rounds, 1, MAX_ROUNDS)
    return Affliction(condition, round_ + rounds)


def rounds_left(condition: Affliction, round_: int) -> int | None:
    """Rounds a condition still lasts counting this one (None: until cleared)."""
    return None if condition.until is None else condition.until - round_


def _each(whose: str, conditions: Iterable[str], table: dict[Effect, frozenset[str]]) -> list[Why]:
    return [
        Why(whose, c, effect)
        for c in sorted(set(conditions))
        for effect, names in table.items()
        if c in names
    ]


def exhaustion(level: int) -> tuple[Why, ...]:
    """The penalty Exhaustion puts on every d20 test of its creature (none at level 0)."""
    check_range("agotamiento", level, 0, MAX_EXHAUSTION)
    return (Why("own", EXHAUSTION, Effect.PENALTY, -EXHAUSTION_PENALTY * level),) if level else ()


def attack(own: Iterable[str], target: Iterable[str], ranged: bool) -> tuple[Why, ...]:
    """An attack's conditions: the attacker's and the target's. Prone: "An attack roll against
    you has Advantage if the attacker is within 5 feet of you. Otherwise, that attack roll has
    Disadvantage"; within 5 feet, a Paralyzed or Unconscious target takes a Critical Hit."""
    close = not ranged
    against = {
        Effect.ADVANTAGE: AGAINST_ADVANTAGE | ({"derribado"} if close else frozenset()),
        Effect.DISADVANTAGE: AGAINST_DISADVANTAGE | (frozenset() if close else {"derribado"}),
        Effect.CRITICAL: CLOSE_CRITICAL if close else frozenset(),
    }
    by = {Effect.ADVANTAGE: BY_ADVANTAGE, Effect.DISADVANTAGE: BY_DISADVANTAGE}
    return (*_each("own", own, by), *_each("target", target, against))


def save(own: Iterable[str], ability: str) -> tuple[Why, ...]:
    """A saving throw's conditions: automatic failure of Strength and Dexterity saves, and
    a Restrained creature's disadvantage on Dexterity saves."""
    table: dict[Effect, frozenset[str]] = {}
    if ability in ("fuerza", "destreza"):
        table[Effect.FAILS] = FAILS_STR_DEX
    if ability == "destreza":
        table[Effect.DISADVANTAGE] = DEX_SAVE_DISADVANTAGE
    return tuple(_each("own", own, table))


def check(own: Iterable[str]) -> tuple[Why, ...]:
    """An ability check's conditions: Poisoned and Frightened give disadvantage."""
    return tuple(_each("own", own, {Effect.DISADVANTAGE: CHECK_DISADVANTAGE}))


def has(whys: Iterable[Why], effect: Effect) -> bool:
    return any(w.effect is effect for w in whys)
