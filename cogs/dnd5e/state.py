"""What D&D keeps at a table: the record kinds, and how abilities and skills are named."""

from __future__ import annotations

from bot.i18n import Lang, t
from rules import dnd5e

KIND = "dnd"
COMBAT_KIND = "dnd_combate"
GRANT_KIND = "dnd_inspiracion"
EXPRESSION_KIND = "dnd_tirar"
INSPIRATION = "inspiracion"


def check(name: str, value: int, low: int, high: int) -> None:
    dnd5e.check_number(name, value, low, high)


def ability_name(lang: Lang, key: str) -> str:
    return t(lang, f"dnd.ability.{key}")


def skill_name(lang: Lang, key: str) -> str:
    return t(lang, f"dnd.skill.{key}")
