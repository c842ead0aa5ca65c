"""``bot.render``'s costs: what a card's dice text does once rather than for every die or
every card (its looks are pinned in tests/rules/test_expression.py and the cards' tests)."""

from __future__ import annotations

import random

import pytest

from bot import render
from rules.dice import Die, Mark
from rules.expression import roll_expression


def test_a_set_of_marks_is_written_once() -> None:
    render.symbols.cache_clear()
    marks = frozenset({Mark.EXPLODED, Mark.CRITICAL})
    texts = [render.die(Die(6, 6, marks)) for _ in range(3)]
    assert texts == ["**6**💥✨"] * 3
    assert render.symbols.cache_info().misses == 1


def test_every_card_shares_one_stringifier(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[object] = []
    original = render.MarkStringifier.__init__

    def counting(self: render.MarkStringifier) -> None:
        built.append(self)
        original(self)

    monkeypatch.setattr(render.MarkStringifier, "__init__", counting)
    roll = roll_expression("(1d6,1d8)kh1+2d20kh1", random.Random(4))
    first = render.expression(roll.tree)
    assert render.expression(roll.tree) == first
    assert built == []
    # The dropped element's strike does not leak into the next card.
    assert render.expression(roll_expression("1d4", random.Random(1)).tree).startswith("1d4 (**")
