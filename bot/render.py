"""Dice as text: one look for every mark, in every system.

Kept dice are bold, dropped and rerolled-away dice struck through, and each special
mark adds its symbol. The d20 stringifier renders a whole expression tree the same way
(the separate-stringifier design of avrae/d20).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import d20
import d20.expression as d20_expression

from rules.dice import NOT_KEPT, Die, Mark
from rules.expression import die_values

SYMBOLS: dict[Mark, str] = {
    Mark.SUCCESS: "✓",
    Mark.EXPLODED: "💥",
    Mark.REROLLED: "↺",
    Mark.CRITICAL: "✨",
    Mark.COMPLICATION: "⚠️",
    Mark.FUMBLE: "☠️",
    Mark.TIED: "⚖️",
    Mark.FIXED: "📌",
}


def die(d: Die) -> str:
    """A die with its marks' symbols (most dice have none: nothing to look up)."""
    marks = d.marks
    if not marks:
        return f"**{d.value}**"
    return (f"**{d.value}**" if marks.isdisjoint(NOT_KEPT) else f"~~{d.value}~~") + symbols(marks)


@functools.cache
def symbols(marks: frozenset[Mark]) -> str:
    """The symbols of a set of marks, in :data:`SYMBOLS`' order: written once per set (there
    are at most 2¹⁰, and a few in play), not looked up mark by mark for every die."""
    return "".join(symbol for mark, symbol in SYMBOLS.items() if mark in marks)


def dice(ds: Iterable[Die]) -> str:
    return " ".join(die(d) for d in ds) or "—"


class MarkStringifier(d20.SimpleStringifier):
    """``1d20 (**8**) + 5``: d20's tree with our marks on every die. Inside an element a
    ``k``/``p`` dropped (the ``1d6`` of ``(1d6,1d8)kh1``) every die and number is struck,
    so the bold dice are always the ones the total counts."""

    def __init__(self) -> None:
        super().__init__()
        self._dropped = False

    def _stringify(self, node: d20_expression.Number) -> str:
        """By exact class, as d20's own dispatch is (its nodes are ``abc.ABC``s: an
        ``isinstance`` goes through ``ABCMeta`` for every node)."""
        if node.kept or self._dropped or type(node) is d20_expression.Die:
            return super()._stringify(node)
        self._dropped = True
        try:
            return super()._stringify(node)
        finally:
            self._dropped = False

    def _str_die(self, node: d20_expression.Die) -> str:
        return ", ".join(die(d) for d in die_values(node, self._dropped))

    def _str_literal(self, node: d20_expression.Literal) -> str:
        text = super()._str_literal(node)
        return f"~~{text}~~" if self._dropped else text

    def _str_expression(self, node: d20_expression.Expression) -> str:
        return self._stringify(node.roll)


# One stringifier for every card: building one binds its eight handlers, and its only
# state (inside a dropped element) is restored as each node is left, so rendering on the
# event loop's one thread never sees another's.
_STRINGIFIER = MarkStringifier()


def expression(tree: d20.Expression) -> str:
    return _STRINGIFIER.stringify(tree)
