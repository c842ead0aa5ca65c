"""Who joins the D&D tracker and where their hit points and AC come from: a player's
active sheet, the GM's NPC sheet (``como``), or a group of monsters with ``pg`` and ``ca``
given on the spot; and the creature an attack names with ``objetivo``."""

from __future__ import annotations

from typing import Any

import discord
from discord.app_commands import Choice

from bot.checks import current_table
from bot.client import Tirada
from bot.errors import Refusal
from bot.models import Table
from bot.names import MAX_CHOICES, fold
from bot.sheets import access
from cogs.dnd5e import sheet
from cogs.dnd5e.sheet_model import DndSheet
from cogs.dnd5e.state import NAME_LIMIT
from cogs.dnd5e.vitals import linked_sheet, open_tracker, pick, safe, targets, tracker_of
from rules.dnd5e import checks, tracker
from rules.dnd5e.checks import Mode


def player_key(user_id: int) -> str:
    """A player's place on the tracker: one per player, so joining twice is refused."""
    return f"u{user_id}"


def clean(name: str) -> str:
    return " ".join(name.split())[:NAME_LIMIT]


async def player_entry(
    interaction: discord.Interaction[Tirada],
    table: Table,
    modifier: int | None,
    name: str | None,
    the_mode: Mode,
) -> tracker.Entry:
    """A player's initiative, linked to their active D&D sheet when they have one (its
    hit points and AC are then the tracker's). Without a modifier, the sheet's Dexterity
    and name."""
    bot = interaction.client
    linked = await linked_sheet(bot.store, table, interaction.user.id)
    if modifier is None:
        modifier, name = sheet.initiative(await sheet.read(bot, interaction, table, None))
    user = interaction.user
    return tracker.initiative_entry(
        bot.rng,
        player_key(user.id),
        clean(name or "") or clean(user.display_name),
        modifier,
        the_mode,
        user_id=user.id,
        sheet_id=linked[0].id if linked else None,
    )


async def monster_entry(
    interaction: discord.Interaction[Tirada],
    table: Table,
    options: dict[str, Any],
) -> tracker.Entry:
    """The GM's monsters: ``como`` an NPC sheet (one creature, its numbers), else a group
    of ``cantidad`` with ``pg`` each and ``ca``, when given."""
    name, modifier, sheet_id = options["nombre"], options["modificador"], None
    if options["como"]:
        if options["cantidad"] != 1 or options["pg"] is not None or options["ca"] is not None:
            raise Refusal("dnd.hp.npc_sheet_alone")
        row, read = await access.for_roll(
            interaction.client.store, table, True, interaction.user.id, options["como"]
        )
        sheet_modifier, sheet_name = sheet.initiative(access.of_kind(read, DndSheet))
        modifier = sheet_modifier if modifier is None else modifier
        name, sheet_id = name or sheet_name, row.id
    if not clean(name or ""):
        raise Refusal("dnd.tracker.no_name")
    if modifier is None:
        raise Refusal("dnd.hp.need_modifier")
    return tracker.initiative_entry(
        interaction.client.rng,
        f"m{interaction.id}",
        clean(name or ""),
        modifier,
        checks.mode(False, options["sorprendidos"]),
        monster=True,
        count=options["cantidad"],
        sheet_id=sheet_id,
        ac=options["ca"],
        hp=options["pg"],
    )


async def aimed(
    interaction: discord.Interaction[Tirada], table: Table, typed: str, ac: int | None
) -> dict[str, Any]:
    """``objetivo``: a creature of the open tracker, whose AC the attack is against unless
    ``ca`` says otherwise. A monster's AC stays hidden on the card."""
    record = await open_tracker(interaction.client.store, table.channel_id)
    if record is None:
        raise Refusal("dnd.tracker.none")
    target = pick(await targets(interaction.client.store, table.channel_id, tracker_of(record)), typed)
    if target.dead:
        raise Refusal("dnd.hp.already_dead")
    if ac is None and target.ac is None:
        raise Refusal("dnd.hp.no_ac", name=safe(target.member.name))
    return {
        "tracker": record.id,
        "target": target.member.target,
        "name": target.member.name,
        "ca": ac if ac is not None else target.ac,
        "hidden": target.combatant.monster and ac is None,
    }


async def combatant_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The open tracker's combatants, for ``subir`` and ``quitar``."""
    try:
        table = await current_table(interaction, getattr(interaction.namespace, "mesa", None))
    except Refusal:
        return []
    record = await open_tracker(interaction.client.store, table.channel_id)
    if record is None:
        return []
    return [
        Choice(name=f"{c.name} ({c.initiative})"[:100], value=c.key)
        for c in tracker_of(record).order
        if fold(current) in fold(c.name)
    ][:MAX_CHOICES]


async def target_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The open tracker's creatures still standing, for ``/dnd ataque objetivo``: names
    only (their numbers are the GM's)."""
    try:
        table = await current_table(interaction)
    except Refusal:
        return []
    record = await open_tracker(interaction.client.store, table.channel_id)
    if record is None:
        return []
    found = await targets(interaction.client.store, table.channel_id, tracker_of(record))
    return [
        Choice(name=x.member.name[:100], value=x.member.target)
        for x in found
        if not x.dead and fold(current) in fold(x.member.name)
    ][:MAX_CHOICES]
