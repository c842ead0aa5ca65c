"""Tests of ``rules.dnd5e.initiative``: D&D 5e initiative (SRD 5.2, "Iniciativa"): who is in a
combat, a group of identical monsters as its numbered members, and the order, whose ties the table
settles."""

import pytest

from rules.dnd5e import initiative
from rules.dnd5e.initiative import Combatant
from rules.errors import RuleError


def test_initiative_order_is_fixed_and_ties_are_settled_by_the_table() -> None:
    fighters = [
        Combatant("a", "Aria", False, 12),
        Combatant("g", "Goblins", True, 15, count=3),
        Combatant("b", "Bram", False, 12),
    ]
    assert [c.key for c in initiative.order(fighters)] == ["g", "a", "b"]
    moved = initiative.move_up(fighters, "b")
    assert [c.key for c in initiative.order(moved)] == ["g", "b", "a"]
    with pytest.raises(RuleError) as caught:
        initiative.move_up(fighters, "a")
    assert caught.value.key == "dnd.not_tied"
