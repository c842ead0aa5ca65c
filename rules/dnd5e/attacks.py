"""D&D 5e attacks (SRD 5.2): the attack roll against an AC, and its damage roll, with a
critical hit's doubled dice and Heroic Inspiration's reroll of one damage die.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Sequence
from typing import Any

import d20.diceast as ast

from rules.dnd5e.checks import COVER, FULL_COVER, MAX_MODIFIER, MAX_TARGET, D20Test, Mode, roll_d20
from rules.errors import RuleError, check_range
from rules.expression import ExpressionRoll, check_tree, parse, roll_tree


def roll_attack(
    rng: random.Random,
    attack_bonus: int,
    armor_class: int,
    the_mode: Mode = Mode.NORMAL,
    cover: str = "ninguna",
) -> D20Test:
    """An attack roll against AC + cover. A natural 20 always hits and is a critical; a
    natural 1 always misses. Full cover: the target cannot be attacked directly."""
    check_range("bonificador", attack_bonus, -MAX_MODIFIER, MAX_MODIFIER)
    check_range("ca", armor_class, 1, MAX_TARGET)
    if cover == FULL_COVER:
        raise RuleError("dnd.full_cover")
    if cover not in COVER:
        raise RuleError("dnd.bad_cover", cover=cover)
    return D20Test(roll_d20(rng, the_mode), the_mode, attack_bonus, armor_class + COVER[cover], attack=True)


@functools.lru_cache(maxsize=1024)
def critical_tree(expression: str) -> ast.Expression:
    """A critical hit's damage: "damage dice rolled twice, modifiers once". A plain dice
    term doubles its count (``2d6+3`` becomes ``4d6+3``); a term with operations is rolled
    twice as its own group, so ``4d6kh3`` becomes ``(4d6kh3 + 4d6kh3)``, never ``8d6kh3``
    (which would keep 3 of 8).

    Doubled once per text, as :func:`rules.expression.parse` parses once (the tree is
    shared the same way: rolling reads it, nothing changes it); every attack asks, to
    refuse a bad damage before rolling, and copying the parsed tree is the cost."""
    tree = _doubled(copy.deepcopy(parse(expression)))
    check_tree(tree)
    return tree


def _doubled(node: Any) -> Any:
    """``node`` with every dice term rolled twice (in place, returning the node to put in
    its parent's slot)."""
    if isinstance(node, ast.OperatedDice):
        return ast.Parenthetical(ast.BinOp(node, "+", copy.deepcopy(node)))
    if isinstance(node, ast.Dice):
        node.num *= 2
        return node
    for index, child in enumerate(node.children):
        replacement = _doubled(child)
        if replacement is not child:
            node.set_child(index, replacement)
    return node


def roll_damage(expression: str, rng: random.Random, critical: bool = False) -> ExpressionRoll:
    tree = critical_tree(expression) if critical else parse(expression)
    return roll_tree(tree, rng, expression)


# A damage die as drawn: its size and its face, in the order the roll drew them.
Draw = tuple[int, int]


class _Recorder(random.Random):
    """Draws from ``rng`` and notes each (size and face), in order; replaying ``draws``
    gives the same faces again except the ``fresh`` one, drawn anew ("reroll any die")."""

    def __init__(self, rng: random.Random, draws: Sequence[Draw] = (), fresh: int | None = None) -> None:
        super().__init__(0)
        self.rng, self.draws, self.fresh = rng, tuple(draws), fresh
        self.noted: list[Draw] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        index = len(self.noted)
        kept = self.draws[index] if index < len(self.draws) and index != self.fresh else None
        if kept is not None and stop is None and kept[0] == start:
            value = kept[1] - 1
        else:
            value = self.rng.randrange(start, stop, step)
        self.noted.append((start if stop is None else stop - start, value + 1))
        return value


def roll_damage_dice(
    expression: str, rng: random.Random, critical: bool = False
) -> tuple[ExpressionRoll, tuple[Draw, ...]]:
    """:func:`roll_damage`, with every die it drew (for Heroic Inspiration to reroll one)."""
    recorder = _Recorder(rng)
    return roll_damage(expression, recorder, critical), tuple(recorder.noted)


def reroll_damage_die(
    expression: str, rng: random.Random, critical: bool, draws: Sequence[Draw], index: int
) -> tuple[ExpressionRoll, tuple[Draw, ...]]:
    """The same damage with one die rolled again: Heroic Inspiration "can reroll any die
    immediately after rolling it, and you must use the new roll". A die that set off more
    dice (an explosion) may now set off fewer, or more, drawn anew."""
    if not 0 <= index < len(draws):
        raise RuleError("dnd.bad_die", die=index + 1)
    recorder = _Recorder(rng, draws, index)
    return roll_damage(expression, recorder, critical), tuple(recorder.noted)
