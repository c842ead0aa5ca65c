"""Generic dice expressions (``1d20+5``, ``4d6kh3``, ``2d6ro1``, ``8d6!``) through ``d20``.

``d20`` (Avrae's engine) parses and evaluates; this module adds what a public bot needs
on top: hard limits checked on the parsed tree *before* anything is rolled, typed
refusals instead of library exceptions, and an injected ``random.Random``.

``d20`` draws from the module-level ``random``. To keep rules free of global RNG we
point that one name at a proxy that reads the generator of the current roll from a
context variable; outside :func:`roll_expression` the proxy refuses to roll at all.
This is the one reach into a library's internals that is not in ``bot/internals.py``:
``rules/`` may not import ``bot/``, and rolls must stay seeded when the rules are used alone.
``tests/rules/test_expression.py`` fails if a d20 upgrade stops drawing from that name.
"""

from __future__ import annotations

import contextvars
import functools
import random
import re
from dataclasses import dataclass

import d20
import d20.diceast as ast
import d20.expression as d20_expression
import lark

from rules.dice import (
    MAX_DICE,
    MAX_EXPRESSION_LENGTH,
    MAX_ROLLS,
    MAX_SIDES,
    MIN_SIDES,
    Die,
    Mark,
)
from rules.errors import RuleError

_current_rng: contextvars.ContextVar[random.Random] = contextvars.ContextVar("tirada_rng")


class _InjectedRandom:
    """Stands in for the ``random`` module inside ``d20.expression``."""

    def randrange(self, *args: int) -> int:
        try:
            rng = _current_rng.get()
        except LookupError:
            raise RuntimeError("d20 rolled outside rules.expression.roll_expression") from None
        return rng.randrange(*args)


# The proxy has the one function d20 calls, not the whole module's type: the ignore says so.
d20_expression.random = _InjectedRandom()  # type: ignore[assignment]

# "8d6!" is the common way to write "explode on the maximum"; d20 spells it "8d6e6".
_BANG = re.compile(r"(\d*)d(\d+)!")


@dataclass(frozen=True)
class ExpressionRoll:
    """A rolled expression: the normalized text, the total and the result tree.

    ``tree`` is d20's result tree (every die knows whether it was kept, dropped,
    rerolled or exploded); ``dice`` flattens it into our own value type.
    """

    expression: str
    total: int
    tree: d20.Expression
    crit: d20.CritType

    @functools.cached_property
    def dice(self) -> tuple[Die, ...]:
        """Flattened on first use: most callers only render the tree."""
        return tuple(flatten(self.tree))


def normalize(text: str) -> str:
    text = text.strip()
    if not text:
        raise RuleError("expr.empty")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise RuleError("expr.too_long", length=len(text), max=MAX_EXPRESSION_LENGTH)
    return _BANG.sub(lambda m: f"{m[1]}d{m[2]}e{m[2]}", text.lower())


def parse(text: str) -> ast.Expression:
    """Parse and check the limits on the tree; nothing is rolled yet."""
    try:
        return _checked(normalize(text))
    except (d20.RollSyntaxError, lark.exceptions.LarkError):
        raise RuleError("expr.syntax", expression=text.strip()[:MAX_EXPRESSION_LENGTH]) from None


@functools.lru_cache(maxsize=4096)
def _checked(normalized: str) -> ast.Expression:
    """Tables repeat the same few expressions: parse and check each once (refusals are
    exceptions, which the cache never keeps)."""
    tree = _ROLLER.parse(normalized)
    check_tree(tree)
    return tree


def check_tree(node: ast.Node) -> None:
    total_dice = 0
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Dice):
            if not isinstance(current.size, int):  # d20's only other size is "%"
                raise RuleError("dice.percentile")
            if current.num > MAX_DICE:
                raise RuleError("dice.too_many", count=current.num, max=MAX_DICE)
            if not MIN_SIDES <= current.size <= MAX_SIDES:
                raise RuleError("dice.bad_sides", sides=current.size, min=MIN_SIDES, max=MAX_SIDES)
            total_dice += current.num
        stack.extend(current.children)
    if total_dice > MAX_ROLLS:
        raise RuleError("expr.too_many_rolls", max=MAX_ROLLS)


_ROLLER = d20.Roller(d20.RollContext(max_rolls=MAX_ROLLS))


def roll_expression(
    text: str, rng: random.Random, advantage: d20.AdvType = d20.AdvType.NONE
) -> ExpressionRoll:
    """Roll a generic expression with ``rng``, or raise a :class:`RuleError`."""
    return roll_tree(parse(text), rng, text, advantage)


def roll_tree(
    tree: ast.Expression, rng: random.Random, text: str, advantage: d20.AdvType = d20.AdvType.NONE
) -> ExpressionRoll:
    """Roll a parsed, checked tree (``text`` is what the player wrote, for refusals)."""
    token = _current_rng.set(rng)
    try:
        result = _ROLLER.roll(tree, advantage=advantage)
        value = result.total
    except d20.TooManyRolls:
        raise RuleError("expr.too_many_rolls", max=MAX_ROLLS) from None
    except (d20.RollValueError, ZeroDivisionError, OverflowError, ValueError):
        raise RuleError("expr.value", expression=text.strip()) from None
    finally:
        _current_rng.reset(token)
    return ExpressionRoll(str(result.ast), value, result.expr, result.crit)


def flatten(node: d20_expression.Number) -> list[Die]:
    """Every die of a d20 result tree, in order, as our :class:`Die` with its marks."""
    if isinstance(node, d20_expression.Die):
        return die_values(node)
    children = node.values if isinstance(node, d20_expression.Set) else node.children
    found: list[Die] = []
    for child in children:
        found.extend(flatten(child))
    return found


def die_values(die: d20_expression.Die) -> list[Die]:
    """A d20 ``Die`` holds every value it showed: earlier ones were rerolled away."""
    values = die.values
    out: list[Die] = []
    for index, literal in enumerate(values):
        marks: set[Mark] = set()
        if literal.exploded:
            marks.add(Mark.EXPLODED)
        if not literal.kept:
            marks.add(Mark.REROLLED if index < len(values) - 1 else Mark.DROPPED)
        out.append(Die(int(die.size), int(literal.number), frozenset(marks)))
    if not die.kept:
        out[-1] = out[-1].mark(Mark.DROPPED)
    return out
