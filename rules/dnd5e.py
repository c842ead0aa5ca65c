"""D&D 5e (SRD 5.2, "Cómo jugar"): d20 tests, attacks and criticals, heroic inspiration,
initiative. Quotes from ``shared/reglas/dnd5e-srd52.txt``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import d20.diceast as ast

from rules.dice import Die, Mark
from rules.errors import RuleError
from rules.expression import ExpressionRoll, check_tree, parse, roll_tree

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
INSPIRATION_CAP = 1


class Mode(StrEnum):
    NORMAL = "normal"
    ADVANTAGE = "ventaja"
    DISADVANTAGE = "desventaja"


def mode(advantage: bool, disadvantage: bool) -> Mode:
    """ "Si las circunstancias causan que una tirada tenga tanto Ventaja como Desventaja, la
    tirada no tiene ninguna de ellas". Several sources of one kind still mean two d20."""
    if advantage == disadvantage:
        return Mode.NORMAL
    return Mode.ADVANTAGE if advantage else Mode.DISADVANTAGE


def ability_modifier(score: int) -> int:
    """Modificadores por característica: 1 → −5, 10–11 → +0, 30 → +10."""
    if not 1 <= score <= 30:
        raise RuleError("dnd.bad_score", score=score)
    return (score - 10) // 2


def proficiency_bonus(level_or_cr: int) -> int:
    """Bono de competencia by level or CR: up to 4 → +2, then +1 every four, 29–30 → +9."""
    if not 0 <= level_or_cr <= 30:
        raise RuleError("dnd.bad_level", level=level_or_cr)
    return 2 + max(level_or_cr - 1, 0) // 4


def check_number(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise RuleError("dnd.out_of_range", name=name, value=value, min=low, max=high)


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

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(r[-1] for r in self.rolls)

    @property
    def kept_index(self) -> int:
        faces = self.faces
        if self.mode is Mode.ADVANTAGE:
            return max(range(len(faces)), key=lambda i: (faces[i], -i))
        if self.mode is Mode.DISADVANTAGE:
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
        """Only attack rolls: natural 20/1 have no automatic effect on checks or saves."""
        return self.attack and self.natural == 20

    @property
    def fumble(self) -> bool:
        return self.attack and self.natural == 1

    @property
    def success(self) -> bool | None:
        if self.target is None:
            return None
        if self.critical:
            return True
        if self.fumble:
            return False
        return self.total >= self.target

    @property
    def dice(self) -> tuple[Die, ...]:
        """Every d20 with its marks: the one that counts, the one dropped, the rerolled."""
        shown: list[Die] = []
        for index, history in enumerate(self.rolls):
            shown += [Die(20, v, frozenset({Mark.REROLLED})) for v in history[:-1]]
            marks: set[Mark] = set() if index == self.kept_index else {Mark.DROPPED}
            if self.critical and index == self.kept_index:
                marks.add(Mark.CRITICAL)
            if self.fumble and index == self.kept_index:
                marks.add(Mark.FUMBLE)
            shown.append(Die(20, history[-1], frozenset(marks)))
        return tuple(shown)


def total_modifier(
    modifier: int, proficiency: int = 0, proficient: bool = False, expertise: bool = False, bonus: int = 0
) -> int:
    """Ability modifier + proficiency (doubled by expertise, "solo puede ser multiplicado
    una vez", and never added twice) + circumstantial bonus."""
    check_number("modificador", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    check_number("bonificacion", bonus, -MAX_MODIFIER, MAX_MODIFIER)
    if expertise and not proficient:
        raise RuleError("dnd.expertise_needs_proficiency")
    return modifier + (proficiency * (2 if expertise else 1) if proficient else 0) + bonus


def roll_d20(rng: random.Random, the_mode: Mode) -> tuple[tuple[int, ...], ...]:
    count = 1 if the_mode is Mode.NORMAL else 2
    return tuple((rng.randint(1, 20),) for _ in range(count))


def roll_test(
    rng: random.Random, modifier: int, the_mode: Mode = Mode.NORMAL, dc: int | None = None
) -> D20Test:
    if dc is not None:
        check_number("cd", dc, 1, MAX_TARGET)
    return D20Test(roll_d20(rng, the_mode), the_mode, modifier, dc)


def roll_attack(
    rng: random.Random,
    attack_bonus: int,
    armor_class: int,
    the_mode: Mode = Mode.NORMAL,
    cover: str = "ninguna",
) -> D20Test:
    """An attack roll against AC + cover. A natural 20 always hits and is a critical; a
    natural 1 always misses. Full cover: the target cannot be attacked directly."""
    check_number("bonificador", attack_bonus, -MAX_MODIFIER, MAX_MODIFIER)
    check_number("ca", armor_class, 1, MAX_TARGET)
    if cover == FULL_COVER:
        raise RuleError("dnd.full_cover")
    if cover not in COVER:
        raise RuleError("dnd.bad_cover", cover=cover)
    return D20Test(roll_d20(rng, the_mode), the_mode, attack_bonus, armor_class + COVER[cover], attack=True)


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


# -- damage ---------------------------------------------------------------------------------


def critical_tree(expression: str) -> ast.Expression:
    """A critical hit's damage: "damage dice rolled twice, modifiers once" — every dice term
    doubles its count and nothing else changes (``2d6+3`` becomes ``4d6+3``)."""
    tree = copy.deepcopy(parse(expression))
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Dice):
            node.num *= 2
        stack.extend(node.children)
    check_tree(tree)
    return tree


def roll_damage(expression: str, rng: random.Random, critical: bool = False) -> ExpressionRoll:
    tree = critical_tree(expression) if critical else parse(expression)
    return roll_tree(tree, rng, expression)


# -- initiative --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    """One character, or a group of identical monsters sharing one roll."""

    key: str
    name: str
    monster: bool
    initiative: int
    count: int = 1
    user_id: int | None = None


def order(combatants: Sequence[Combatant]) -> tuple[Combatant, ...]:
    """Highest initiative first. Ties keep the order the table gave them (the list's own
    order): the GM and players settle ties by reordering, never the dice."""
    return tuple(sorted(combatants, key=lambda c: -c.initiative))


def move_up(combatants: Sequence[Combatant], key: str) -> tuple[Combatant, ...]:
    """Swap a combatant with the one just ahead of it, which must share its initiative."""
    ordered = list(order(combatants))
    index = next((i for i, c in enumerate(ordered) if c.key == key), None)
    if index is None:
        raise RuleError("dnd.unknown_combatant")
    if index == 0 or ordered[index - 1].initiative != ordered[index].initiative:
        raise RuleError("dnd.not_tied")
    ordered[index - 1], ordered[index] = ordered[index], ordered[index - 1]
    return tuple(ordered)
