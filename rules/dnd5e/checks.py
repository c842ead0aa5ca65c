"""D&D 5e d20 tests (SRD 5.2, "Cómo jugar"): ability checks, saving throws and attack
rolls, advantage and disadvantage, modifiers, proficiency, and Heroic Inspiration's reroll.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.codec import Codec
from rules.dice import Die, Mark
from rules.errors import RuleError, check_range

ABILITIES = ("fuerza", "destreza", "constitucion", "inteligencia", "sabiduria", "carisma")
# Tabla de Habilidades: each skill and the ability it most often uses.
SKILLS = {
    "acrobacias": "destreza",
    "atletismo": "fuerza",
    "conocimiento_arcano": "inteligencia",
    "engano": "carisma",
    "historia": "inteligencia",
    "interpretacion": "carisma",
    "intimidacion": "carisma",
    "investigacion": "inteligencia",
    "juego_de_manos": "destreza",
    "medicina": "sabiduria",
    "naturaleza": "inteligencia",
    "percepcion": "sabiduria",
    "perspicacia": "sabiduria",
    "persuasion": "carisma",
    "religion": "inteligencia",
    "sigilo": "destreza",
    "supervivencia": "sabiduria",
    "trato_con_animales": "sabiduria",
}
# Clase de Dificultad: "Muy fácil 5 ... Casi imposible 30".
DCS = {"muy_facil": 5, "facil": 10, "media": 15, "dificil": 20, "muy_dificil": 25, "casi_imposible": 30}
# Cobertura: +2 (media), +5 (tres cuartos); completa: "No puede ser un objetivo directo".
COVER = {"ninguna": 0, "media": 2, "tres_cuartos": 5}
FULL_COVER = "completa"
MAX_MODIFIER = 30
MAX_TARGET = 50
# The proficiency table's last level (and challenge rating).
MAX_LEVEL = 30
# Challenge ratings as stat blocks write them: "0", "1/8", "1/4", "1/2", then "1" to "30".
CHALLENGE_RATINGS = ("0", "1/8", "1/4", "1/2", *(str(n) for n in range(1, MAX_LEVEL + 1)))
INSPIRATION_CAP = 1


class Mode(StrEnum):
    NORMAL = "normal"
    ADVANTAGE = "ventaja"
    DISADVANTAGE = "desventaja"


# Named once: on Python 3.11 each ``Mode.X`` and ``Mark.X`` is a lookup through
# ``EnumType.__getattr__``'s slow path, and a card asks a test's verdict and dice many times.
_ADVANTAGE = Mode.ADVANTAGE
_DISADVANTAGE = Mode.DISADVANTAGE
_NO_MARKS: frozenset[Mark] = frozenset()
_REROLLED = frozenset({Mark.REROLLED})
_DROPPED = frozenset({Mark.DROPPED})
_CRITICAL = frozenset({Mark.CRITICAL})
_FUMBLE = frozenset({Mark.FUMBLE})


def mode(advantage: bool, disadvantage: bool) -> Mode:
    """ "Si las circunstancias causan que una tirada tenga tanto Ventaja como Desventaja, la
    tirada no tiene ninguna de ellas". Several sources of one kind still mean two d20."""
    if advantage == disadvantage:
        return Mode.NORMAL
    return Mode.ADVANTAGE if advantage else Mode.DISADVANTAGE


def ability_modifier(score: int) -> int:
    """Modificadores por característica: 1 → −5, 10–11 → +0, 30 → +10 (a sheet's scores)."""
    check_range("puntuacion", score, 1, 30)
    return (score - 10) // 2


def proficiency_bonus(level_or_cr: int) -> int:
    """Bono de competencia by level or CR: up to 4 → +2, then +1 every four, 29–30 → +9."""
    if not 0 <= level_or_cr <= MAX_LEVEL:
        raise RuleError("dnd.bad_level", level=level_or_cr)
    return 2 + max(level_or_cr - 1, 0) // 4


def challenge_level(rating: str) -> int:
    """A challenge rating as the proficiency table reads it: the fractions are below 1,
    where the bonus is +2 as for CR 0 and 1."""
    if rating not in CHALLENGE_RATINGS:
        raise RuleError("dnd.bad_challenge", rating=rating)
    return int(rating) if "/" not in rating else 0


@dataclass(frozen=True)
class D20Test:
    """A d20 test: the d20s (two with advantage or disadvantage), the one that counts,
    the modifiers, and the target (a DC, or an AC for attacks) when given.

    ``rolls`` holds each d20's history; a die rerolled by inspiration keeps its old value.
    """

    rolls: tuple[tuple[int, ...], ...]
    mode: Mode
    modifier: int
    target: int | None = None
    attack: bool = False
    inspired: bool = False
    # A condition decides: a hit is a critical (a Paralyzed target up close), or the test
    # fails whatever the die (a Stunned creature's Dexterity save).
    auto_critical: bool = False
    auto_fail: bool = False

    @functools.cached_property
    def faces(self) -> tuple[int, ...]:
        """The d20s as they show now, once per test: its kept die, natural, total and
        verdict each ask."""
        return tuple(r[-1] for r in self.rolls)

    @functools.cached_property
    def kept_index(self) -> int:
        """Worked out once per test, as :attr:`faces`: the verdict asks for it four times
        over, and a card asks for the verdict, the total and the dice."""
        faces = self.faces
        if self.mode is _ADVANTAGE:
            return max(range(len(faces)), key=lambda i: (faces[i], -i))
        if self.mode is _DISADVANTAGE:
            return min(range(len(faces)), key=lambda i: (faces[i], i))
        return 0

    @property
    def natural(self) -> int:
        return self.faces[self.kept_index]

    @property
    def total(self) -> int:
        return self.natural + self.modifier

    @property
    def critical(self) -> bool:
        """Only attack rolls: natural 20/1 have no automatic effect on checks or saves. A
        condition can make any hit a critical one."""
        if not self.attack or self.auto_fail:
            return False
        if self.natural == 20:
            return True
        return (
            self.auto_critical and not self.fumble and self.target is not None and self.total >= self.target
        )

    @property
    def fumble(self) -> bool:
        return self.attack and self.natural == 1

    @property
    def success(self) -> bool | None:
        if self.target is None:
            return None
        if self.auto_fail:
            return False
        if self.critical:
            return True
        if self.fumble:
            return False
        return self.total >= self.target

    @property
    def dice(self) -> tuple[Die, ...]:
        """Every d20 with its marks: the one that counts, the one dropped, the rerolled.
        (The marks' sets are named once: each ``Mark.X`` is a slow lookup on Python 3.11.)"""
        kept = self.kept_index
        counted = _CRITICAL if self.critical else _FUMBLE if self.fumble else _NO_MARKS
        shown: list[Die] = []
        for index, history in enumerate(self.rolls):
            shown += [Die(20, v, _REROLLED) for v in history[:-1]]
            shown.append(Die(20, history[-1], counted if index == kept else _DROPPED))
        return tuple(shown)


def total_modifier(
    modifier: int, proficiency: int = 0, proficient: bool = False, expertise: bool = False, bonus: int = 0
) -> int:
    """Ability modifier + proficiency (doubled by expertise, "solo puede ser multiplicado
    una vez", and never added twice) + circumstantial bonus."""
    check_range("modificador", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    check_range("bonificacion", bonus, -MAX_MODIFIER, MAX_MODIFIER)
    if expertise and not proficient:
        raise RuleError("dnd.expertise_needs_proficiency")
    return modifier + (proficiency * (2 if expertise else 1) if proficient else 0) + bonus


def save_cover(ability: str, cover: str) -> int:
    """Cover's bonus to a saving throw: "Bonificador de +2 a la CA y a las tiradas de
    salvación de Destreza" (+5 for three quarters), so only Dexterity saves get it; full
    cover means the target "No puede ser un objetivo directo"."""
    if ability not in ABILITIES:
        raise RuleError("dnd.bad_ability", ability=ability)
    if cover == FULL_COVER:
        raise RuleError("dnd.full_cover")
    if cover not in COVER:
        raise RuleError("dnd.bad_cover", cover=cover)
    if COVER[cover] and ability != "destreza":
        raise RuleError("dnd.cover_dexterity_only")
    return COVER[cover]


def tool_check(
    skill_proficient: bool, tool_proficient: bool, advantage: bool = False, disadvantage: bool = False
) -> tuple[bool, Mode]:
    """A check with a tool: "Si también tienes Competencia en la habilidad que se usa en esa
    prueba, también tienes Ventaja". Returns whether proficiency is added (once, from
    either) and the check's mode, where that advantage still cancels with disadvantage."""
    both = skill_proficient and tool_proficient
    return skill_proficient or tool_proficient, mode(advantage or both, disadvantage)


def roll_d20(rng: random.Random, the_mode: Mode) -> tuple[tuple[int, ...], ...]:
    count = 1 if the_mode is Mode.NORMAL else 2
    return tuple((rng.randint(1, 20),) for _ in range(count))


def roll_test(
    rng: random.Random, modifier: int, the_mode: Mode = Mode.NORMAL, dc: int | None = None
) -> D20Test:
    if dc is not None:
        check_range("cd", dc, 1, MAX_TARGET)
    return D20Test(roll_d20(rng, the_mode), the_mode, modifier, dc)


def use_inspiration(test: D20Test, rng: random.Random, index: int = 0) -> D20Test:
    """Heroic inspiration rerolls one d20 — with advantage or disadvantage "solo puedes
    volver a lanzar o reemplazar un dado, no ambos. Tú eliges cuál"."""
    if test.inspired:
        raise RuleError("dnd.already_inspired")
    if not 0 <= index < len(test.rolls):
        raise RuleError("dnd.bad_die", die=index + 1)
    rolls = list(test.rolls)
    rolls[index] = (*rolls[index], rng.randint(1, 20))
    return replace(test, rolls=tuple(rolls), inspired=True)


# A d20 test as stored: its fields by name. One stored before the codec left out
# ``auto_critical`` and ``auto_fail`` when False, their defaults: it reads as it is.
D20_TESTS = Codec(D20Test)
roll_to_data = D20_TESTS.to_data
roll_from_data = D20_TESTS.from_data
