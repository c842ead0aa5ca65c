"""What D&D keeps at a table: the record kinds, and how abilities and skills are named."""

from __future__ import annotations

from bot.i18n import Lang, t
from bot.names import Names
from rules.dnd5e import checks
from rules.dnd5e.damage_types import DAMAGE_TYPES

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


# The SRD's skills and abilities by name in either language ("Percepción", "Perception").
SKILLS = Names(lambda skill: f"dnd.skill.{skill}", checks.SKILLS, "dnd.unknown_skill")
ABILITIES = Names(lambda ability: f"dnd.ability.{ability}", checks.ABILITIES, "dnd.unknown_ability")
# The damage types by name in either language ("fuego", "Fire", "relampago"), for a sheet's
# attack whose type is free text.
DAMAGE = Names(lambda kind: f"dnd.damage_type.{kind}", DAMAGE_TYPES, "dnd.unknown_damage_type")


def damage_type_name(lang: Lang, kind: str) -> str:
    """A damage type's name; a sheet's free text that is not one stays as written."""
    return t(lang, f"dnd.damage_type.{kind}") if kind in DAMAGE_TYPES else kind
