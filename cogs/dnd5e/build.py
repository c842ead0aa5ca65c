"""From a command's options to a roll's stored data: the rules decide and roll, and the data
keeps the options too, so *Repetir* can roll the same thing again for whoever presses.

A stored roll holds its d20 test (``rules.dnd5e.checks.roll_to_data``), the parts its modifier
is made of (each a ``part``/``value`` pair, zeros left out), and what the card should say
about the roll: that advantage and disadvantage cancelled, that tool and skill proficiency
gave advantage, how much cover raised an AC.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot import render
from rules.dnd5e import attacks, checks
from rules.dnd5e.checks import D20Test
from rules.dnd5e.conditions import Effect
from rules.expression import ExpressionRoll

Options = dict[str, Any]
# The conditions that change a roll, as ``cogs.dnd5e.afflictions`` finds them: each a
# ``name`` (whose), ``condition`` and ``effect`` (a ``rules.dnd5e.conditions.Effect``).
Whys = list[dict[str, Any]]
Builder = Callable[[random.Random, Options, Whys], dict[str, Any]]


def part(name: str, value: int, **extra: Any) -> dict[str, Any]:
    return {"part": name, "value": value, **extra}


def modifier_parts(options: Options, ability: str | None, proficiency: int, expertise: bool) -> list[Any]:
    """What the modifier is made of, zeros left out: "+6 = Destreza +3, competencia +3"."""
    ability_part = (
        part("caracteristica", options["modificador"], ability=ability)
        if ability
        else part("modificador", options["modificador"])
    )
    parts = [
        ability_part,
        part("pericia" if expertise else "competencia", proficiency * (2 if expertise else 1)),
        part("bonificacion", options.get("bonificacion", 0)),
    ]
    return [p for p in parts if p["value"]]


def level(options: Options) -> int:
    """The level (or challenge rating) the proficiency bonus is read at: 1 when not given
    (rolls stored before the option could be left empty kept 1)."""
    return 1 if options["nivel"] is None else int(options["nivel"])


def cancelled(advantage: bool, disadvantage: bool) -> bool:
    """Whether advantage and disadvantage met and cancelled: "la tirada no tiene ninguna"."""
    return advantage and disadvantage


def test_data(test: D20Test, parts: list[Any], whys: Whys, **notes: Any) -> dict[str, Any]:
    """The stored roll; ``condiciones``: the conditions that changed it, for the card."""
    return {"test": checks.roll_to_data(test), "parts": parts, "condiciones": whys, **notes}


def by_conditions(whys: Whys, effect: Effect) -> bool:
    return any(w["effect"] == effect.value for w in whys)


def penalised(test: D20Test, parts: list[Any], whys: Whys) -> D20Test:
    """Exhaustion's penalty on the roll ("the roll is reduced by 2 times your Exhaustion
    level"), added to the modifier and to its parts."""
    penalty = sum(w["value"] for w in whys if w["effect"] == Effect.PENALTY.value)
    if penalty:
        parts.append(part("agotamiento", penalty))
    return replace(test, modifier=test.modifier + penalty)


def advantage(options: Options, whys: Whys) -> tuple[bool, bool]:
    """Advantage and disadvantage from the options and the conditions together (they still
    cancel: "la tirada no tiene ninguna de ellas")."""
    return (
        options["ventaja"] or by_conditions(whys, Effect.ADVANTAGE),
        options["desventaja"] or by_conditions(whys, Effect.DISADVANTAGE),
    )


def check(rng: random.Random, options: Options, whys: Whys) -> dict[str, Any]:
    """An ability check. With a tool: proficiency from either, once, and advantage when
    both ("Si también tienes Competencia en la habilidad … también tienes Ventaja")."""
    skill = options["habilidad"]
    ability = options["caracteristica"] or (checks.SKILLS[skill] if skill else None)
    tool = options.get("herramienta", False)
    ventaja, desventaja = advantage(options, whys)
    proficient, the_mode = checks.tool_check(options["competencia"], tool, ventaja, desventaja)
    proficiency = checks.proficiency_bonus(level(options))
    modifier = checks.total_modifier(
        options["modificador"], proficiency, proficient, options["pericia"], options["bonificacion"]
    )
    parts = modifier_parts(options, ability, proficiency if proficient else 0, options["pericia"])
    test = penalised(checks.roll_test(rng, modifier, the_mode, options["cd"]), parts, whys)
    tool_advantage = options["competencia"] and tool
    return {
        "what": {"ability": ability, "skill": skill},
        **test_data(
            test,
            parts,
            whys,
            cancelled=cancelled(ventaja or tool_advantage, desventaja),
            tool_advantage=tool_advantage,
        ),
    }


def save(rng: random.Random, options: Options, whys: Whys) -> dict[str, Any]:
    """A saving throw; cover adds to Dexterity saves only (``rules.dnd5e.checks.save_cover``); a
    condition may fail it whatever the die."""
    ability = options["caracteristica"]
    cover = options.get("cobertura") or "ninguna"
    bonus = checks.save_cover(ability, cover)
    proficiency = checks.proficiency_bonus(level(options))
    modifier = checks.total_modifier(
        options["modificador"], proficiency, options["competencia"], False, options["bonificacion"]
    )
    ventaja, desventaja = advantage(options, whys)
    test = checks.roll_test(rng, modifier + bonus, checks.mode(ventaja, desventaja), options["cd"])
    parts = modifier_parts(options, ability, proficiency if options["competencia"] else 0, False)
    if bonus:
        parts.append(part("cobertura", bonus, cover=cover))
    test = replace(penalised(test, parts, whys), auto_fail=by_conditions(whys, Effect.FAILS))
    return {
        "what": {"ability": ability},
        **test_data(test, parts, whys, cancelled=cancelled(ventaja, desventaja)),
    }


def attack(rng: random.Random, options: Options, whys: Whys) -> dict[str, Any]:
    """To hit against AC (+ cover) and, on a hit, the damage (doubled dice on a 20, or on
    any hit a condition makes critical)."""
    damage = options["dano"]
    if damage is not None:
        attacks.critical_tree(damage)  # refuse a bad damage expression before rolling anything
    cover = options.get("cobertura") or "ninguna"
    ventaja, desventaja = advantage(options, whys)
    test = attacks.roll_attack(
        rng, options["bonificador"], options["ca"], checks.mode(ventaja, desventaja), cover
    )
    parts = list(options.get("partes") or [])
    test = replace(penalised(test, parts, whys), auto_critical=by_conditions(whys, Effect.CRITICAL))
    return {
        "what": {"weapon": options.get("arma"), "type": options.get("tipo")},
        **test_data(test, parts, whys, cancelled=cancelled(ventaja, desventaja)),
        "cover": cover,
        "ac": options["ca"],
        "damage": damage,
        "damage_roll": damage_for(rng, damage, test),
    }


def damage_for(rng: random.Random, expression: str | None, test: D20Test) -> dict[str, Any] | None:
    """Damage is rolled only on a hit, with doubled dice on a critical."""
    if not expression or not test.success:
        return None
    damage, draws = attacks.roll_damage_dice(expression, rng, critical=test.critical)
    return damage_data(damage, draws)


def damage_data(damage: ExpressionRoll, draws: tuple[attacks.Draw, ...]) -> dict[str, Any]:
    """A damage roll as stored: its rendering, total, and each die drawn (size and face)."""
    return {"text": render.expression(damage.tree), "total": damage.total, "draws": [list(d) for d in draws]}


BUILDERS: dict[str, Builder] = {"prueba": check, "salvacion": save, "ataque": attack}
