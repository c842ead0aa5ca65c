"""What D&D keeps at a table: the record kinds, and how abilities and skills are named."""

from __future__ import annotations

from bot.i18n import Lang, t

KIND = "dnd"
COMBAT_KIND = "dnd_combate"
GRANT_KIND = "dnd_inspiracion"
EXPRESSION_KIND = "dnd_tirar"
INSPIRATION = "inspiracion"
# A combatant's name in the initiative order: long enough for "Goblin jefe 2", short in a list.
NAME_LIMIT = 40


def ability_name(lang: Lang, key: str) -> str:
    return t(lang, f"dnd.ability.{key}")


def skill_name(lang: Lang, key: str) -> str:
    return t(lang, f"dnd.skill.{key}")
