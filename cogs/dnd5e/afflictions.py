"""Conditions on the D&D tracker's creatures: the GM sets and clears them (with a duration in
rounds), and a roll made by or against a creature of the open combat finds the ones that
change it (``rules.dnd5e.conditions``), for the builder to apply and the card to name.

Whose a roll is: a player's, their character on the tracker; the GM's with ``como:``, the
creature linked to that NPC sheet. A creature at 0 hit points is Unconscious without the GM
saying so ("Your Hit Points drop to 0 … you have the Unconscious condition")."""

from __future__ import annotations

from bot.i18n import Lang, t
from bot.models import Table
from bot.store import Store
from cogs.dnd5e.build import Options, Whys
from cogs.dnd5e.joining import player_key
from cogs.dnd5e.vitals import Target, open_tracker, safe, targets, tracker_of
from rules.dnd5e import conditions
from rules.dnd5e.conditions import Why
from rules.dnd5e.hit_points import Condition
from rules.dnd5e.tracker import Tracker


def conditions_of(tracker: Tracker, target: Target) -> list[str]:
    """The GM's conditions on a creature this round, and Unconscious at 0 hit points."""
    names = [a.condition for a in tracker.conditions(target.member.target)]
    if target.condition() in (Condition.UNCONSCIOUS, Condition.STABLE) and "inconsciente" not in names:
        names.append("inconsciente")
    return names


def own_creature(found: list[Target], user_id: int, gm: bool, sheet_id: int | None) -> Target | None:
    """The creature a roll is made as: the GM's NPC sheet's, else the player's character."""
    if gm:
        return next((x for x in found if sheet_id is not None and x.combatant.sheet_id == sheet_id), None)
    return next((x for x in found if x.combatant.key == player_key(user_id)), None)


def named(whys: tuple[Why, ...], own: Target | None, aimed: str | None) -> Whys:
    """The conditions as the roll stores them: whose (by name), which, what they do."""
    names = {"own": own.member.name if own else "", "target": aimed or ""}
    return [
        {"name": names[w.whose], "condition": w.condition, "effect": w.effect.value, "value": w.value}
        for w in whys
    ]


async def roll_whys(store: Store, table: Table, kind: str, options: Options, user_id: int, gm: bool) -> Whys:
    """The conditions of the open combat that change this roll (none without a combat)."""
    record = await open_tracker(store, table.channel_id)
    if record is None:
        return []
    tracker = tracker_of(record)
    found = await targets(store, table.channel_id, tracker)
    own = own_creature(found, user_id, gm, options.get("ficha_id"))
    mine = conditions_of(tracker, own) if own else []
    tired = conditions.exhaustion(tracker.exhaustion(own.member.target)) if own else ()
    if kind == "prueba":
        return named((*conditions.check(mine), *tired), own, None)
    if kind == "salvacion":
        return named((*conditions.save(mine, options["caracteristica"]), *tired), own, None)
    aimed = options.get("objetivo") or {}
    on_it = aimed.get("tracker") == record.id
    target = next((x for x in found if on_it and x.member.target == aimed["target"]), None)
    theirs = conditions_of(tracker, target) if target else []
    whys = conditions.attack(mine, theirs, options.get("a_distancia", False))
    return named((*whys, *tired), own, aimed.get("name"))


def why_lines(lang: Lang, whys: Whys) -> list[str]:
    """ "Ventaja: Goblin 2 · Derribado.": each condition that changed the roll, on the card."""
    return [
        t(
            lang,
            f"dnd.condition.why.{w['effect']}",
            name=safe(w["name"]),
            condition=t(lang, f"dnd.condition.{w['condition']}"),
            value=f"{w.get('value', 0):+d}",
        )
        for w in whys
    ]
