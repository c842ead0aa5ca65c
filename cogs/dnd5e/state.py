"""What D&D keeps at a table: the record kinds, and how a d20 test is stored and named."""

from __future__ import annotations

from typing import Any

from bot.i18n import Lang, t
from rules import dnd5e
from rules.dnd5e import D20Test, Mode

KIND = "dnd"
COMBAT_KIND = "dnd_combate"
GRANT_KIND = "dnd_inspiracion"
EXPRESSION_KIND = "dnd_tirar"
INSPIRATION = "inspiracion"
MAX_COMBATANTS = 25


def check(name: str, value: int, low: int, high: int) -> None:
    dnd5e.check_number(name, value, low, high)


def ability_name(lang: Lang, key: str) -> str:
    return t(lang, f"dnd.ability.{key}")


def skill_name(lang: Lang, key: str) -> str:
    return t(lang, f"dnd.skill.{key}")


# -- rendering -------------------------------------------------------------------------------


def test_from(data: dict[str, Any]) -> D20Test:
    return D20Test(
        tuple(tuple(r) for r in data["rolls"]),
        Mode(data["mode"]),
        data["modifier"],
        data["target"],
        data["attack"],
        data["inspired"],
    )


def test_data(test: D20Test) -> dict[str, Any]:
    return {
        "rolls": [list(r) for r in test.rolls],
        "mode": test.mode.value,
        "modifier": test.modifier,
        "target": test.target,
        "attack": test.attack,
        "inspired": test.inspired,
    }
