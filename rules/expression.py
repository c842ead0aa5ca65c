"""Generic dice expressions (``1d20+5``, ``4d6kh3``, ``2d6ro1``, ``8d6!``) through ``d20``.

``d20`` (Avrae's engine) parses and evaluates; this module adds what a public bot needs
on top: hard limits checked on the parsed tree *before* anything is rolled, typed
refusals instead of library exceptions, and an injected ``random.Random``.

``d20`` draws from the module-level ``random``. To keep rules free of global RNG that one
name points, for the length of one roll, at the roll's own generator (a lock keeps rolls
on several threads apart); between rolls it points at a stand-in that refuses to roll.
Swapping once per roll rather than looking the generator up for every die keeps d20's
inner loop exactly as fast as the published library's.
This is the one reach into a library's internals that is not in ``bot/internals.py``:
``rules/`` may not import ``bot/``, and rolls must stay seeded when the rules are used alone.
``tests/rules/test_expression.py`` fails if a d20 upgrade stops drawing from that name.
"""

from __future__ import annotations

import functools
import random
import re
import threading
from dataclasses import dataclass
from typing import Any, cast

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

# Enum members named once: on Python 3.11 every ``EnumClass.MEMBER`` goes through
# ``EnumType.__getattr__``'s slow attribute path (~10× a plain name), and these are asked
# for every roll and every die.
_NO_ADVANTAGE = d20.AdvType.NONE
_NO_CRIT = d20.CritType.NONE
_CRITS = {1: d20.CritType.FAIL, 20: d20.CritType.CRIT}
_REROLLED = Mark.REROLLED
_DROPPED_MARK = Mark.DROPPED
_DROPPED = frozenset({Mark.DROPPED})
_FIXED_DROPPED = frozenset({Mark.FIXED, Mark.DROPPED})
# d20's result nodes by class (see _flatten_into).
_D20_DIE = d20_expression.Die
_D20_SETS = frozenset({d20_expression.Set, d20_expression.Dice})
_D20_NODES = frozenset(
    {
        d20_expression.Expression,
        d20_expression.Literal,
        d20_expression.UnOp,
        d20_expression.BinOp,
        d20_expression.Parenthetical,
        d20_expression.Set,
        d20_expression.Dice,
        d20_expression.Die,
    }
)


class _NoGlobalRandom:
    """Stands in for the ``random`` module inside ``d20.expression`` between rolls."""

    def randrange(self, *args: int) -> int:
        raise RuntimeError("d20 rolled outside rules.expression.roll_expression")


_REFUSE = _NoGlobalRandom()
_ROLLING = threading.Lock()
# The stand-ins have the one function d20 calls, not the whole module's type: hence the
# three ignores on this name, here and in roll_tree.
d20_expression.random = _REFUSE  # type: ignore[assignment]

# "8d6!" is the common way to write "explode on the maximum"; d20 spells it "8d6e6". A "!"
# followed by "=" is d20's "!=".
_BANG = re.compile(r"(\d*)d(\d+)!(?!=)")
# d20's annotation token (grammar.lark's ANNOTATION): the player's own words, left as written.
_ANNOTATION = re.compile(r"(\[.*?\])")


@dataclass(frozen=True)
class ExpressionRoll:
    """A rolled expression: the normalized text, the total and the result tree.

    ``tree`` is d20's result tree (every die knows whether it was kept, dropped,
    rerolled or exploded); ``dice`` flattens it into our own value type.
    """

    expression: str
    total: int
    tree: d20.Expression

    @functools.cached_property
    def dice(self) -> tuple[Die, ...]:
        """Flattened on first use: most callers only render the tree."""
        return tuple(flatten(self.tree))

    @property
    def faces(self) -> list[list[int]]:
        """The faces the dice showed, for the statistics, ``[sides, face]`` each as a roll's
        data keeps them: a value ``mi``/``ma`` forced (:data:`Mark.FIXED` among
        :attr:`dice`) was not rolled; the face it replaced was. Read from the tree without
        making a :class:`Die` of every value (a roll stores these and renders the tree:
        nothing asks for their marks; three times the cost)."""
        found: list[list[int]] = []
        _faces_into(self.tree, found)
        return found

    @functools.cached_property
    def crit(self) -> d20.CritType:
        """d20's rule, worked out on first use (only ``/tirar`` asks): a natural 20 or 1
        when the leftmost dice keep exactly one d20."""
        left: d20_expression.Number = self.tree
        while left.children:
            left = left.children[0]
        if type(left) is not d20_expression.Dice or left.size != 20 or len(left.keptset) != 1:
            return _NO_CRIT
        return _CRITS.get(left.total, _NO_CRIT)


def normalize(text: str) -> str:
    """The text d20 reads: lower case (``1D20``) and ``!`` as ``e`` + the sides, outside
    annotations only: what is inside ``[…]`` is the player's, kept as written."""
    text = text.strip()
    if not text:
        raise RuleError("expr.empty")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise RuleError("expr.too_long", length=len(text), max=MAX_EXPRESSION_LENGTH)
    parts = _ANNOTATION.split(text)
    return "".join(part if index % 2 else _dice_text(part) for index, part in enumerate(parts))


def _dice_text(text: str) -> str:
    return _BANG.sub(lambda m: f"{m[1]}d{m[2]}e{m[2]}", text.lower())


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> ast.Expression:
    """Parse and check the limits on the tree; nothing is rolled yet.

    Tables repeat the same few expressions: each text is parsed and checked once (the
    cache is bounded, and never keeps a refusal: those are exceptions). The cache is ours,
    keyed on the exact text: d20's own drops the spaces from its key, so ``1d6 [a b]``
    would come back as whichever of it and ``1d6 [ab]`` was parsed first.
    """
    try:
        # d20's parser carries its transformer: what comes out is d20's tree, not lark's.
        tree = cast(ast.Expression, ast.parser.parse(normalize(text), start="expr"))
    except (d20.RollSyntaxError, lark.exceptions.LarkError):
        raise RuleError("expr.syntax", expression=text.strip()[:MAX_EXPRESSION_LENGTH]) from None
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


class _Roller(d20.Roller):
    """d20's roller with each set of dice built in one pass: the same draws from the same
    generator in the same order (``randrange(sides) + 1`` per die, as ``d20.Die`` does),
    without the three constructor hops d20 makes for every die. Limits were checked on
    the tree; the roll count is still charged, for the whole set at once."""

    def _eval_dice(self, node: ast.Dice) -> d20_expression.Dice:
        context, sides = self.context, node.size
        if not isinstance(sides, int):  # d20's only other size, "%", is refused by check_tree
            raise RuleError("dice.percentile")
        context.count_roll(node.num)
        draw = d20_expression.random.randrange
        die, literal = d20_expression.Die, d20_expression.Literal
        values = [die(sides, [literal(draw(sides) + 1)], context) for _ in range(node.num)]
        return d20_expression.Dice(node.num, sides, values, context=context)

    # d20 annotates its own with a type variable bound to nothing it takes: hence the ignore.
    def _eval_operatedset(self, node: ast.OperatedSet) -> d20_expression.Set:  # type: ignore[override]
        """d20's, with ``k`` selecting once: d20's ``keep`` selects anew for every value it
        keeps (a sort and three sets each), though dropping a value it did not select
        leaves the selection as it was (the highest or lowest *n* of the rest are the same
        values, ties in the same order; a comparison selects each value alone)."""
        target = cast(d20_expression.Set, self._eval(node.value))
        for op in node.operations:
            the_op = d20_expression.SetOperator.from_ast(op)
            if the_op.op == "k":
                chosen = the_op.select(target)
                for value in target.keptset:
                    if value not in chosen:
                        value.drop()
            elif the_op.op in _IN_ORDER:
                _IN_ORDER[the_op.op](the_op, cast(d20_expression.Dice, target))
            else:
                the_op.operate(target)
            target.operations.append(the_op)
        return target


def _selected(op: d20_expression.SetOperator, target: d20_expression.Dice) -> list[Any]:
    """The values ``op`` selects, in the dice's own order. d20 walks its selection as a
    Python set, whose order follows the objects' addresses: rerolling several dice, the
    generator's draws went to them in another order from one roll to the next, and
    one seed gave other faces (``6d6rr<4``: 21 different rolls of one seed in 200)."""
    chosen = op.select(target)
    return [value for value in target.keptset if value in chosen]


def _reroll(op: d20_expression.SetOperator, target: d20_expression.Dice) -> None:
    """``rr``: every selected die rolled again until none is selected (d20's, in order)."""
    again = _selected(op, target)
    while again:
        for die in again:
            die.reroll()
        again = _selected(op, target)


def _reroll_once(op: d20_expression.SetOperator, target: d20_expression.Dice) -> None:
    """``ro``: every selected die rolled again once (d20's, in order)."""
    for die in _selected(op, target):
        die.reroll()


# The operations that hand draws to dice already there, in the order d20 walks its selection
# in (``e`` draws for the new dice it adds, in the order they are added; ``ra`` selects one
# die; ``mi``, ``ma`` and ``p`` draw nothing: d20's own are exact).
_IN_ORDER = {"rr": _reroll, "ro": _reroll_once}


_ROLLER = _Roller(d20.RollContext(max_rolls=MAX_ROLLS))


@functools.lru_cache(maxsize=4096)
def _text(tree: ast.Node) -> str:
    """A parsed tree's normalized text, written once per tree (the parse cache keeps the
    same tree for the same text)."""
    return str(tree)


def roll_expression(
    text: str, rng: random.Random, advantage: d20.AdvType = d20.AdvType.NONE
) -> ExpressionRoll:
    """Roll a generic expression with ``rng``, or raise a :class:`RuleError`."""
    return roll_tree(parse(text), rng, text, advantage)


def roll_tree(
    tree: ast.Expression, rng: random.Random, text: str, advantage: d20.AdvType = d20.AdvType.NONE
) -> ExpressionRoll:
    """Roll a parsed, checked tree (``text`` is what the player wrote, for refusals)."""
    if advantage is not _NO_ADVANTAGE:
        tree = d20.utils.ast_adv_copy(tree, advantage)
    with _ROLLING:
        d20_expression.random = rng  # type: ignore[assignment]
        try:
            _ROLLER.context.reset()
            result: d20.Expression = _ROLLER._eval(tree)
            value = int(result.total)
        except d20.TooManyRolls:
            raise RuleError("expr.too_many_rolls", max=MAX_ROLLS) from None
        except (d20.RollValueError, ZeroDivisionError, OverflowError, ValueError):
            raise RuleError("expr.value", expression=text.strip()) from None
        finally:
            d20_expression.random = _REFUSE  # type: ignore[assignment]
    return ExpressionRoll(_text(tree) if advantage is _NO_ADVANTAGE else str(tree), value, result)


def flatten(node: d20_expression.Number, dropped: bool = False) -> list[Die]:
    """Every die of a d20 result tree, in order, as our :class:`Die` with its marks.
    ``dropped``: the node is inside an element a ``k``/``p`` dropped (``(1d6,1d8)kh1``
    drops a whole ``1d6``), so none of its dice count."""
    found: list[Die] = []
    _flatten_into(node, dropped, found)
    return found


def _flatten_into(node: d20_expression.Number, dropped: bool, found: list[Die]) -> None:
    """:func:`flatten` into one list. Nodes are told apart by their exact class: d20's
    nodes are ``abc.ABC``s, whose ``isinstance`` goes through ``ABCMeta`` for every node
    (d20 1.1 has no subclass of its own node classes; an unknown one falls back on it)."""
    kind = type(node)
    if kind is _D20_DIE or (kind not in _D20_NODES and isinstance(node, d20_expression.Die)):
        found.extend(die_values(cast(d20_expression.Die, node), dropped))
        return
    dropped = dropped or not node.kept
    is_set = kind in _D20_SETS or (kind not in _D20_NODES and isinstance(node, d20_expression.Set))
    for child in cast(d20_expression.Set, node).values if is_set else node.children:
        _flatten_into(child, dropped, found)


def _faces_into(node: d20_expression.Number, found: list[list[int]]) -> None:
    """:func:`_flatten_into`'s walk, keeping of each value the face rolled: a value that
    ``mi``/``ma`` forced (more than one value in its literal) was rolled as its first."""
    kind = type(node)
    if kind is _D20_DIE or (kind not in _D20_NODES and isinstance(node, d20_expression.Die)):
        sides = int(cast(d20_expression.Die, node).size)
        for literal in cast(d20_expression.Die, node).values:
            shown = literal.values
            found.append([sides, int(shown[0] if len(shown) > 1 else literal.number)])
        return
    is_set = kind in _D20_SETS or (kind not in _D20_NODES and isinstance(node, d20_expression.Set))
    for child in cast(d20_expression.Set, node).values if is_set else node.children:
        _faces_into(child, found)


def die_values(die: d20_expression.Die, dropped: bool = False) -> list[Die]:
    """A d20 ``Die`` holds every value it showed: earlier ones were rerolled away. A value
    ``mi``/``ma`` forced shows its history: the face rolled, which no longer counts, then
    each value put in its place (:data:`Mark.FIXED`; ``mi2mi3`` forces twice), the last
    counting. ``dropped``: inside a dropped element, so every value is dropped; a die its
    own dice dropped (``kh1``) drops its last value only."""
    values = die.values
    sides = int(die.size)
    last = len(values) - 1
    last_dropped = dropped or not die.kept
    out: list[Die] = []
    for index, literal in enumerate(values):
        fixed = len(literal.values) > 1
        if fixed:
            rolled, *replaced = literal.values[:-1]
            out.append(Die(sides, int(rolled), _DROPPED))
            out.extend(Die(sides, int(v), _FIXED_DROPPED) for v in replaced)
        away = None if literal.kept else (_REROLLED if index < last else _DROPPED_MARK)
        marked = dropped or (last_dropped and index == last)
        out.append(Die(sides, int(literal.number), _marks(literal.exploded, away, fixed, marked)))
    return out


@functools.cache
def _marks(exploded: bool, away: Mark | None, fixed: bool, dropped: bool) -> frozenset[Mark]:
    """One value's marks, one set per combination (24 at most: the cache cannot grow past
    them), instead of a set built and frozen for every die of every roll."""
    marks = {
        mark for mark, has in ((Mark.EXPLODED, exploded), (Mark.FIXED, fixed), (Mark.DROPPED, dropped)) if has
    }
    if away is not None:
        marks.add(away)
    return frozenset(marks)
