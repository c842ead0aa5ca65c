"""A character exported from Foundry VTT's dnd5e system, read as a Tirada D&D sheet.

Foundry's export (an actor's *Export Data*) keeps what the player entered and derives the
rest each time it loads, so neither is in the file: the level (the sum of the class items'
``system.levels``), the proficiency bonus (from that level), the ability modifiers, the
maximum hit points when ``system.attributes.hp.max`` is null (each class's HitPoints
advancement, plus the Constitution modifier per level) and the armour class from the armour
worn. They are recomputed here as the system's data model does (foundryvtt/dnd5e,
``module/data/actor/character.mjs``, ``templates/attributes.mjs``,
``documents/advancement/hit-points.mjs``, ``data/item/weapon.mjs``).

Foundry's keys are English (``str``, ``ste``, ``slashing``) and map to the sheet's Spanish
ones through the tables below; names (the actor's, its items') stay as written, in
whatever language the world was played (docs/decisiones.md, D&D 5e, "Fichas de Foundry").
A file this module cannot read whole raises :class:`Unreadable` with its first problems,
each naming the Foundry path at fault; ``bot.sheets.io`` turns them into the refusal. D&D
declares it as an importer of its sheets (:data:`FOUNDRY`, cogs/dnd5e/system.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from bot.sheets.models import Importer, Problem, Unreadable
from rules.dnd5e import checks

# Items (classes, weapons, features, spells, gear) an actor may hold; a level-20 caster
# with a full spellbook stays well under it.
MAX_ITEMS = 500

ABILITIES = {
    "str": "fuerza",
    "dex": "destreza",
    "con": "constitucion",
    "int": "inteligencia",
    "wis": "sabiduria",
    "cha": "carisma",
}
# CONFIG.DND5E.skills: Foundry's three-letter keys, the SRD's skills.
SKILLS = {
    "acr": "acrobacias",
    "ani": "trato_con_animales",
    "arc": "conocimiento_arcano",
    "ath": "atletismo",
    "dec": "engano",
    "his": "historia",
    "ins": "perspicacia",
    "itm": "intimidacion",
    "inv": "investigacion",
    "med": "medicina",
    "nat": "naturaleza",
    "prc": "percepcion",
    "prf": "interpretacion",
    "per": "persuasion",
    "rel": "religion",
    "slt": "juego_de_manos",
    "ste": "sigilo",
    "sur": "supervivencia",
}
# CONFIG.DND5E.damageTypes, named as SRD 5.2 in Spanish names them (cogs.dnd5e.sheet_model).
DAMAGE_TYPES = {
    "acid": "acido",
    "slashing": "cortante",
    "bludgeoning": "contundente",
    "cold": "frio",
    "fire": "fuego",
    "force": "fuerza",
    "lightning": "relampago",
    "necrotic": "necrotico",
    "piercing": "perforante",
    "poison": "veneno",
    "psychic": "psiquico",
    "radiant": "radiante",
    "thunder": "trueno",
}
# system.skills.*.value: none, half (Jack of All Trades), proficient, expertise.
PROFICIENCY_LEVELS = (0, 0.5, 1, 2)
# The armour class formulas Foundry offers (CONFIG.DND5E.armorClasses) that need no items:
# a base and the abilities added to it.
UNARMOURED: dict[str, tuple[int, tuple[str, ...]]] = {
    "unarmoredMonk": (10, ("dex", "wis")),
    "unarmoredBarb": (10, ("dex", "con")),
    "mage": (13, ("dex",)),
    "draconic": (13, ("dex",)),
}
# How much Dexterity each armour lets through when the item does not say (armor.dex null).
DEX_CAP = {"light": None, "medium": 2, "heavy": 0}
FEET_TO_METRES = 0.3  # the SRD in Spanish: 30 feet are 9 metres

# The sheet's fields a problem of the converted sheet names, as Foundry's paths.
PATHS = {
    "nombre": "name",
    "nivel": "items.system.levels",
    "ca": "system.attributes.ac",
    "pg.actuales": "system.attributes.hp.value",
    "pg.maximos": "system.attributes.hp.max",
    "pg.temporales": "system.attributes.hp.temp",
    "velocidad": "system.attributes.movement.walk",
} | {f"caracteristicas.{es}": f"system.abilities.{en}.value" for en, es in ABILITIES.items()}


def is_actor(data: Any) -> bool:
    """Whether decoded JSON is a Foundry actor rather than a Tirada sheet: Foundry nests
    the game data under ``system`` and has no ``sistema``."""
    return isinstance(data, dict) and "sistema" not in data and isinstance(data.get("system"), dict)


def sheet_data(actor: dict[str, Any]) -> dict[str, Any]:
    """The Tirada sheet (as JSON data, to validate) for a Foundry dnd5e character."""
    problems = list(_actor_problems(actor))
    if problems:
        raise Unreadable(problems)
    system = actor["system"]
    scores = {key: system["abilities"][key]["value"] for key in ABILITIES}
    mods = {key: checks.ability_modifier(score) for key, score in scores.items()}
    classes = [item for item in actor.get("items") or [] if item.get("type") == "class"]
    level = sum(item["system"]["levels"] for item in classes)
    skills = _skills(system.get("skills") or {})
    return {
        "version": 1,
        "nombre": actor.get("name"),
        "sistema": "dnd5e",
        "nivel": level,
        "caracteristicas": {ABILITIES[key]: score for key, score in scores.items()},
        "competencias": skills[1] + skills[2],
        "pericias": skills[2],
        "salvaciones": [ABILITIES[k] for k in ABILITIES if system["abilities"][k].get("proficient") == 1],
        "ca": armour_class(system["attributes"].get("ac") or {}, actor.get("items") or [], mods),
        "pg": hit_points(system["attributes"]["hp"], classes, mods["con"]),
        "velocidad": speed(system["attributes"].get("movement") or {}),
        **_traits(system.get("traits") or {}),
        "ataques": [attack(item, mods, checks.proficiency_bonus(level)) for item in _weapons(actor)],
        "rasgos": _features(actor, skills[0.5]),
    }


# -- what the file must hold --------------------------------------------------------------


def _actor_problems(actor: dict[str, Any]) -> Iterator[Problem]:
    """Each thing the conversion needs and the file lacks, with the first one first."""
    stats: dict[str, Any] = actor["_stats"] if isinstance(actor.get("_stats"), dict) else {}
    if stats.get("systemId") not in (None, "dnd5e"):
        yield ("foundry_system", "_stats.systemId", stats.get("systemId"))
        return
    if actor.get("type") != "character":
        yield ("foundry_type", "type", actor.get("type"))
        return
    items = actor.get("items")
    if not isinstance(items, list) or len(items) > MAX_ITEMS:
        yield ("foundry_items", "items", MAX_ITEMS)
        return
    for i, item in enumerate(items):
        if not (isinstance(item, dict) and isinstance(item.get("system"), dict)):
            yield ("invalid", f"items.{i}", None)
            return
    system = actor["system"]
    attributes = system.get("attributes")
    if not isinstance(attributes, dict):
        yield ("missing", "system.attributes", None)
        return
    for name in ("skills", "traits"):
        if not isinstance(system.get(name) or {}, dict):
            yield ("invalid", f"system.{name}", None)
            return
    for name in ("hp", "ac", "movement"):
        if not isinstance(attributes.get(name) or {}, dict):
            yield ("invalid", f"system.attributes.{name}", None)
            return
    yield from _ability_problems(system.get("abilities"))
    yield from _skill_problems(system.get("skills"))
    yield from _hp_problems(attributes.get("hp"))
    yield from _ac_problems(attributes.get("ac"))
    yield from _speed_problems(attributes.get("movement"))
    yield from _class_problems(items)
    yield from _armour_problems(items)
    yield from _weapon_problems(items)
    yield from _trait_problems(system.get("traits"))


def _ability_problems(abilities: Any) -> Iterator[Problem]:
    if not isinstance(abilities, dict):
        yield ("missing", "system.abilities", None)
        return
    for key in ABILITIES:
        where = f"system.abilities.{key}.value"
        value = (abilities.get(key) or {}).get("value") if isinstance(abilities.get(key), dict) else None
        yield from _integer(value, where, 1, 30)


def _skill_problems(skills: Any) -> Iterator[Problem]:
    if not isinstance(skills, dict):
        return
    for key, skill in skills.items():
        if key not in SKILLS:
            yield ("foundry_skill", f"system.skills.{key}", ", ".join(SKILLS))
        elif not isinstance(skill, dict) or skill.get("value", 0) not in PROFICIENCY_LEVELS:
            yield ("choice", f"system.skills.{key}.value", "0, 0.5, 1, 2")


def _hp_problems(hp: Any) -> Iterator[Problem]:
    if not isinstance(hp, dict):
        yield ("missing", "system.attributes.hp", None)
        return
    for field in ("value", "max", "temp"):
        if hp.get(field) is not None:
            yield from _integer(hp[field], f"system.attributes.hp.{field}", 0, 999)
    bonuses = hp.get("bonuses") or {}
    if not isinstance(bonuses, dict):
        yield ("invalid", "system.attributes.hp.bonuses", None)
        return
    for field in ("level", "overall"):
        bonus = bonuses.get(field)
        if bonus not in (None, "") and _number(bonus) is None:
            yield ("foundry_formula", f"system.attributes.hp.bonuses.{field}", bonus)


def _ac_problems(ac: Any) -> Iterator[Problem]:
    """An armour class Foundry computes by a formula of the player's is not read."""
    if ac is None:
        return
    calc = ac.get("calc") if isinstance(ac, dict) else None
    if calc not in (None, "", "default", "flat", "natural", *UNARMOURED):
        yield ("foundry_ac", "system.attributes.ac.calc", calc)
    elif calc in ("flat", "natural"):
        yield from _integer(ac.get("flat"), "system.attributes.ac.flat", 1, checks.MAX_TARGET)


def _speed_problems(movement: Any) -> Iterator[Problem]:
    walk = movement.get("walk") if isinstance(movement, dict) else None
    finite = isinstance(walk, (int, float)) and math.isfinite(walk)
    if walk is not None and not (finite and 0 <= walk <= 1000):
        yield ("invalid", "system.attributes.movement.walk", None)


def _class_problems(items: list[dict[str, Any]]) -> Iterator[Problem]:
    """Each class a level of 1 to 20 and a hit die; the character, 20 levels at most."""
    classes = [(i, item) for i, item in enumerate(items) if item.get("type") == "class"]
    if not classes:
        yield ("foundry_no_class", "items", None)
    for i, item in classes:
        yield from _integer(item["system"].get("levels"), f"items.{i}.system.levels", 1, 20)
        if hit_die(item) is None:
            yield ("missing", f"items.{i}.system.hd.denomination", None)
        advancement = item["system"].get("advancement")
        if advancement is not None and not _all_dicts(advancement):
            yield ("invalid", f"items.{i}.system.advancement", None)
    levels = [item["system"].get("levels") for _, item in classes]
    if all(_whole(n) for n in levels) and sum(levels) > 20:
        yield ("too_big", "items.system.levels", 20)


def _armour_problems(items: list[dict[str, Any]]) -> Iterator[Problem]:
    """Armour and shields worn need a whole armour value (and Dexterity cap, if any)."""
    for i, item in enumerate(items):
        if item.get("type") == "equipment" and item["system"].get("equipped") and _armour_kind(item):
            armour = item["system"].get("armor")
            if not isinstance(armour, dict):
                yield ("invalid", f"items.{i}.system.armor", None)
                continue
            yield from _integer(armour.get("value"), f"items.{i}.system.armor.value", 0, checks.MAX_TARGET)
            if armour.get("dex") is not None:
                yield from _integer(armour["dex"], f"items.{i}.system.armor.dex", 0, 10)


def _weapon_problems(items: list[dict[str, Any]]) -> Iterator[Problem]:
    """A weapon's bonuses must be numbers and its damage a formula of dice and numbers
    (``@mod`` and ``@prof`` are read; other roll data is the Foundry world's)."""
    for i, item in enumerate(items):
        if item.get("type") != "weapon":
            continue
        for field in ("attackBonus", "magicalBonus"):
            bonus = item["system"].get(field)
            if bonus not in (None, "") and _number(bonus) is None:
                yield ("foundry_formula", f"items.{i}.system.{field}", bonus)
        damage = item["system"].get("damage")
        if not isinstance(damage, dict) or not _damage_shape(damage):
            yield ("invalid", f"items.{i}.system.damage", None)
        elif _damage_formula(item["system"], 0, 0) is None:
            yield ("foundry_formula", f"items.{i}.system.damage", item.get("name"))
        shapes: tuple[tuple[str, type | tuple[type, ...]], ...] = (
            ("type", dict),
            ("properties", (dict, list)),
        )
        for field, shape in shapes:
            if not isinstance(item["system"].get(field) or {}, shape):
                yield ("invalid", f"items.{i}.system.{field}", None)


def _damage_shape(damage: dict[str, Any]) -> bool:
    """4.x: ``base`` an object whose ``types`` is a list; 3.x: ``parts`` a list of lists."""
    if isinstance(damage.get("base"), dict):
        return isinstance(damage["base"].get("types") or [], list)
    parts = damage.get("parts") or []
    return isinstance(parts, list) and all(isinstance(part, list) for part in parts)


def _all_dicts(values: Any) -> bool:
    return isinstance(values, list) and all(isinstance(value, dict) for value in values)


def _trait_problems(traits: Any) -> Iterator[Problem]:
    for key in ("dr", "dv", "di"):
        trait = traits.get(key) if isinstance(traits, dict) else None
        if trait is None:
            continue
        values = (trait.get("value") or []) if isinstance(trait, dict) else None
        if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
            yield ("invalid", f"system.traits.{key}", None)


def _integer(value: Any, where: str, low: int, high: int) -> Iterator[Problem]:
    if not _whole(value):
        yield ("missing" if value is None else "invalid", where, None)
    elif value < low:
        yield ("too_small", where, low)
    elif value > high:
        yield ("too_big", where, high)


def _whole(value: Any) -> bool:
    """An integer that is not a bool (JSON's true is Python's 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _number(text: Any) -> int | None:
    """A bonus Foundry keeps as a formula, when the formula is a whole number."""
    if _whole(text):
        return int(text)
    if isinstance(text, str) and re.fullmatch(r"\s*[+-]?\s*\d+\s*", text):
        return int(text.replace(" ", ""))
    return None


# -- what Foundry derives -----------------------------------------------------------------


def _skills(skills: dict[str, Any]) -> dict[float, list[str]]:
    """The SRD skills at each proficiency level Foundry records, in the sheet's order."""
    found: dict[float, list[str]] = {level: [] for level in PROFICIENCY_LEVELS}
    for key, name in sorted(SKILLS.items(), key=lambda pair: pair[1]):
        found[(skills.get(key) or {}).get("value", 0)].append(name)
    return found


def hit_die(item: dict[str, Any]) -> int | None:
    """A class's hit die faces: ``system.hd.denomination`` ("d10"), or before dnd5e 3.0
    ``system.hitDice``."""
    system = item["system"]
    hd = system.get("hd")
    text = (hd.get("denomination") if isinstance(hd, dict) else None) or system.get("hitDice")
    found = re.fullmatch(r"d(\d{1,3})", str(text or ""))
    return int(found[1]) if found else None


def class_hit_points(item: dict[str, Any], con: int) -> int:
    """What one class gives to the maximum (HitPointsAdvancement.getAdjustedTotal): each
    level's recorded value ("max", "avg" or the number rolled) plus the Constitution
    modifier, at least 1; a level with nothing recorded takes the average, the SRD's fixed
    value (docs/decisiones.md)."""
    faces = hit_die(item) or 0
    advancement = item["system"].get("advancement") or []
    found = next((a.get("value") for a in advancement if a.get("type") == "HitPoints"), None)
    recorded: dict[str, Any] = found if isinstance(found, dict) else {}
    levels = range(1, item["system"]["levels"] + 1)
    return sum(max(_gained(recorded.get(str(level)), faces) + con, 1) for level in levels)


def _gained(value: Any, faces: int) -> int:
    """One level's hit points as the advancement records them (before Constitution)."""
    if value == "max":
        return faces
    return int(value) if _whole(value) else faces // 2 + 1


def hit_points(hp: dict[str, Any], classes: list[dict[str, Any]], con: int) -> dict[str, int]:
    """Current, maximum and temporary hit points. A null maximum is derived from the
    classes and the per-level and overall bonuses; a null current is the maximum (a
    character arrives rested) and a current above it is cut to it, as Foundry shows it."""
    maximum = hp.get("max")
    if maximum is None:
        level = sum(item["system"]["levels"] for item in classes)
        bonuses = hp.get("bonuses") or {}
        maximum = sum(class_hit_points(item, con) for item in classes)
        maximum += (_number(bonuses.get("level")) or 0) * level + (_number(bonuses.get("overall")) or 0)
    current = maximum if hp.get("value") is None else min(hp["value"], maximum)
    return {"actuales": current, "maximos": maximum, "temporales": hp.get("temp") or 0}


def armour_class(ac: dict[str, Any], items: list[dict[str, Any]], mods: dict[str, int]) -> int:
    """Foundry's armour class: a flat or natural value as entered, an unarmoured formula,
    or (the default) the armour worn plus the Dexterity it lets through and a shield."""
    calc = ac.get("calc") or "default"
    if calc in ("flat", "natural"):
        return int(ac["flat"])
    if calc in UNARMOURED:
        base, abilities = UNARMOURED[calc]
        return base + sum(mods[a] for a in abilities)
    worn = [
        (i["system"], _armour_kind(i))
        for i in items
        if i.get("type") == "equipment" and i["system"].get("equipped")
    ]
    shields = sum(system["armor"]["value"] for system, kind in worn if kind == "shield")
    armour = next(((system, kind) for system, kind in worn if kind in DEX_CAP), None)
    if armour is None:
        return 10 + mods["dex"] + shields
    system, kind = armour
    cap = DEX_CAP[str(kind)] if system["armor"].get("dex") is None else system["armor"]["dex"]
    dex = mods["dex"] if cap is None else min(mods["dex"], cap)
    return int(system["armor"]["value"]) + dex + shields


def _armour_kind(item: dict[str, Any]) -> str | None:
    """light, medium, heavy or shield: the armour an equipment item is, if it is one."""
    kind = item["system"].get("type")
    value = kind.get("value") if isinstance(kind, dict) else None
    return value if value in (*DEX_CAP, "shield") else None


def speed(movement: dict[str, Any]) -> int:
    """Walking speed in metres (the sheet's unit): feet become metres as the SRD in
    Spanish writes them (30 feet, 9 m); none given is the usual 9 m."""
    walk = movement.get("walk")
    if not isinstance(walk, (int, float)):
        return 9
    return round(walk) if movement.get("units") == "m" else round(walk * FEET_TO_METRES)


def _traits(traits: dict[str, Any]) -> dict[str, list[str]]:
    """Resistances, vulnerabilities and immunities by their Spanish names; a type the SRD
    does not have (a world's own) is left out, as the sheet could not roll it."""
    fields = {"dr": "resistencias", "dv": "vulnerabilidades", "di": "inmunidades"}
    return {
        name: sorted(
            {DAMAGE_TYPES[t] for t in ((traits.get(key) or {}).get("value") or []) if t in DAMAGE_TYPES}
        )
        for key, name in fields.items()
    }


# -- weapons and features -----------------------------------------------------------------


def _weapons(actor: dict[str, Any]) -> list[dict[str, Any]]:
    return [item for item in actor.get("items") or [] if item.get("type") == "weapon"]


def attack_ability(system: dict[str, Any], mods: dict[str, int]) -> str:
    """The ability a weapon attacks with: the one the item names (dnd5e before 4.0), else
    the SRD's: Dexterity for a ranged weapon, the better of Strength and Dexterity for a
    finesse one, Strength otherwise."""
    named = system.get("ability")
    if isinstance(named, str) and named in ABILITIES:
        return named
    kind = str((system.get("type") or {}).get("value") or "")
    if kind.endswith("R"):
        return "dex"
    if "fin" in (system.get("properties") or ()):
        return "dex" if mods["dex"] > mods["str"] else "str"
    return "str"


def attack(item: dict[str, Any], mods: dict[str, int], proficiency: int) -> dict[str, Any]:
    """A weapon as the sheet's attack: its ability, its own bonus (``attackBonus`` and the
    magical bonus), proficiency (a null ``proficient`` is Foundry's "automatic", taken as
    proficient) and its damage with the ability modifier written in."""
    system = item.get("system") or {}
    ability = attack_ability(system, mods)
    magic = _number(system.get("magicalBonus")) or 0
    formula = _damage_formula(system, mods[ability] + magic, proficiency) or ""
    return {
        "nombre": item.get("name"),
        "caracteristica": ABILITIES[ability],
        "bonificacion": (_number(system.get("attackBonus")) or 0) + magic,
        "competente": system.get("proficient") != 0,
        "dano": formula,
        "tipo": next((DAMAGE_TYPES[t] for t in _damage_types(system) if t in DAMAGE_TYPES), ""),
    }


def _damage_formula(system: dict[str, Any], modifier: int, proficiency: int) -> str | None:
    """The damage as a plain expression, or None if it holds what cannot be rolled here.
    dnd5e 4.0 and later: ``damage.base`` (number, die, bonus), to which Foundry adds the
    attack's modifier; before: ``damage.parts``, formulas naming ``@mod``."""
    damage = system["damage"]
    if isinstance(damage.get("base"), dict):
        base = damage["base"]
        number, faces = base.get("number"), base.get("denomination")
        dice = f"{number}d{faces}" if number and faces else ""
        parts = [dice, str(modifier), str(base.get("bonus") or "")]
    else:
        parts = [str(part[0]) for part in damage.get("parts") or [] if isinstance(part, list) and part]
    formula = " + ".join(p for p in parts if p.strip() and p.strip() != "0")
    formula = formula.replace("@mod", str(modifier)).replace("@prof", str(proficiency))
    if "@" in formula:
        return None
    return re.sub(r"\+\s*-", "-", formula).replace(" ", "")


def _damage_types(system: dict[str, Any]) -> list[str]:
    damage = system["damage"]
    if isinstance(damage.get("base"), dict):
        return [str(t) for t in damage["base"].get("types") or []]
    return [str(part[1]) for part in damage.get("parts") or [] if isinstance(part, list) and len(part) > 1]


def _features(actor: dict[str, Any], half: list[str]) -> list[dict[str, str]]:
    """The features (``feat`` items) by name; half proficiency, which the sheet cannot
    hold, is kept as a feature naming its skills (docs/decisiones.md)."""
    features = [
        {"nombre": item.get("name"), "texto": ""}
        for item in actor.get("items") or []
        if item.get("type") == "feat"
    ]
    if half:
        features.append({"nombre": "Competencia a medias", "texto": ", ".join(half)})
    return features


# What D&D declares (bot/systems.py ``Declaration.importers``): an actor, read as its sheet.
FOUNDRY = Importer(is_actor, sheet_data, PATHS)
