"""D&D 5e's exact odds: a d20 test's chance against a DC or AC, and a damage
expression's expected value.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic

import d20.diceast as ast

from rules.dnd5e import attacks, checks
from rules.errors import RuleError, check_range
from rules.expression import parse
from rules.odds import N, floats


@dataclass(frozen=True)
class DndOdds(Generic[N]):
    p_success: N | None
    p_critical: N
    p_fumble: N
    totals: Mapping[int, N]
    damage_hit: N | None = None
    damage_critical: N | None = None

    @property
    def expected_damage(self) -> N | None:
        """Per attack: a normal hit's damage when it hits without a 20, a critical's on a 20."""
        if self.damage_hit is None or self.p_success is None or self.damage_critical is None:
            return None
        return (self.p_success - self.p_critical) * self.damage_hit + self.p_critical * self.damage_critical


def _kept_d20(mode: checks.Mode) -> dict[int, Fraction]:
    faces = range(1, 21)
    if mode is checks.Mode.NORMAL:
        return {f: Fraction(1, 20) for f in faces}
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for x, y in itertools.product(faces, faces):
        out[max(x, y) if mode is checks.Mode.ADVANTAGE else min(x, y)] += Fraction(1, 400)
    return dict(out)


def _float_or_none(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


@functools.lru_cache(maxsize=2048)
def dnd_distribution(
    modifier: int,
    target: int | None = None,
    mode: str = "normal",
    attack: bool = False,
    damage: str | None = None,
) -> DndOdds[float]:
    """:func:`dnd_exact` in floats."""
    odds = dnd_exact(modifier, target, mode, attack, damage)
    return DndOdds(
        _float_or_none(odds.p_success),
        float(odds.p_critical),
        float(odds.p_fumble),
        floats(odds.totals),
        _float_or_none(odds.damage_hit),
        _float_or_none(odds.damage_critical),
    )


@functools.lru_cache(maxsize=2048)
def dnd_exact(
    modifier: int,
    target: int | None = None,
    mode: str = "normal",
    attack: bool = False,
    damage: str | None = None,
) -> DndOdds[Fraction]:
    """A d20 test: the totals, P(success) against a DC (or an AC for attacks, where a 20
    always hits and is a critical and a 1 always misses), and an attack's expected damage."""
    check_range("modificador", modifier, -checks.MAX_MODIFIER, checks.MAX_MODIFIER)
    kept = _kept_d20(checks.Mode(mode))
    totals = {face + modifier: p for face, p in kept.items()}
    p_success = None
    if target is not None:
        check_range("objetivo", target, 1, checks.MAX_TARGET)
        if attack:
            p_success = sum(
                (p for f, p in kept.items() if f == 20 or (f != 1 and f + modifier >= target)),
                start=Fraction(0),
            )
        else:
            p_success = sum((p for f, p in kept.items() if f + modifier >= target), start=Fraction(0))
    p_critical = kept[20] if attack else Fraction(0)
    p_fumble = kept[1] if attack else Fraction(0)
    hit = critical = None
    if damage is not None:
        try:
            hit, critical = expected_value(parse(damage)), expected_value(attacks.critical_tree(damage))
        except ZeroDivisionError:
            raise RuleError("expr.value", expression=damage.strip()) from None
    return DndOdds(p_success, p_critical, p_fumble, dict(sorted(totals.items())), hit, critical)


def expected_value(node: Any) -> Fraction:
    """The exact mean of a damage expression made of dice, numbers, + and −, and products
    or quotients by a number. Anything else (keep, reroll, explode...) is refused: its mean
    is not the sum of its parts."""
    if isinstance(node, ast.Expression | ast.Parenthetical):
        return expected_value(node.value if isinstance(node, ast.Parenthetical) else node.roll)
    if isinstance(node, ast.AnnotatedNumber):
        return expected_value(node.value)
    if isinstance(node, ast.Literal):
        return Fraction(node.value)
    if isinstance(node, ast.Dice):
        return Fraction(node.num * (int(node.size) + 1), 2)
    if isinstance(node, ast.UnOp):
        inner = expected_value(node.value)
        return -inner if node.op == "-" else inner
    if isinstance(node, ast.BinOp) and node.op in ("+", "-"):
        left, right = expected_value(node.left), expected_value(node.right)
        return left + right if node.op == "+" else left - right
    if isinstance(node, ast.BinOp) and node.op in ("*", "/") and isinstance(node.right, ast.Literal):
        factor = Fraction(node.right.value)
        left = expected_value(node.left)
        return left * factor if node.op == "*" else left / factor
    raise RuleError("odds.unsupported_expression")
