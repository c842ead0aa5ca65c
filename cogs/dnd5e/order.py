"""The D&D tracker's order as the table reads it: who acts, the order, and what the table
already heard of each combatant's fate (dead, stable, its death saving throws) and its
conditions."""

from __future__ import annotations

import discord

from bot import embeds
from bot.client import Tirada
from bot.i18n import Lang, lang_for, t
from bot.models import Record
from cogs.dnd5e.board import condition_name
from cogs.dnd5e.vitals import saves_text, tracker_of
from rules.dnd5e import conditions
from rules.dnd5e.initiative import Combatant
from rules.dnd5e.tracker import Tracker


def tracker_embed(lang: Lang, tracker: Tracker) -> discord.Embed:
    acting = tracker.acting
    if tracker.ended:
        head = t(lang, "dnd.tracker.ended")
    elif acting is None:
        head = t(lang, "dnd.tracker.waiting")
    else:
        name = discord.utils.escape_markdown(acting.name)
        head = t(lang, "dnd.tracker.acts", name=name, round=tracker.round)
    embed = embeds.card(t(lang, "dnd.tracker.title", round=tracker.round), head)
    lines = []
    for c in tracker.order:
        marker = "▶️ " if acting is not None and c.key == acting.key else ""
        name = discord.utils.escape_markdown(c.name)
        label = t(lang, "dnd.hp.group", name=name, n=c.count) if c.count > 1 else name
        tag = " " + t(lang, "dnd.tracker.monster") if c.monster else ""
        fates = fate_tags(lang, tracker, c)
        lines.append(f"{marker}**{c.initiative}** · {label}{tag}{fates}{condition_tags(lang, tracker, c)}")
    embeds.field(embed, t(lang, "dnd.tracker.order"), "\n".join(lines) or "—", inline=False)
    return embed


def condition_tags(lang: Lang, tracker: Tracker, combatant: Combatant) -> str:
    """Each member's conditions with the rounds left: " · Aturdido (1 ronda)", or for a
    group " · Goblin 2: Derribado"."""
    tags = []
    for member in combatant.members:
        text = conditions_text(lang, tracker, member.target)
        if text:
            name = discord.utils.escape_markdown(member.name)
            tags.append(text if combatant.count == 1 else f"{name}: {text}")
    return "".join(f" · {tag}" for tag in tags)


def fate_tags(lang: Lang, tracker: Tracker, combatant: Combatant) -> str:
    """What the table already heard of a combatant's fate: dead (a group counts its dead),
    stable, or its death saving throws so far."""
    fates = [tracker.fate(m.target) for m in combatant.members]
    if combatant.count > 1:
        dead = sum(f.dead for f in fates)
        return " · " + t(lang, "dnd.tracker.dead_members", n=dead) if dead else ""
    fate = fates[0]
    if fate.dead:
        return " · " + t(lang, "dnd.tracker.dead")
    if fate.stable:
        return " · " + t(lang, "dnd.tracker.stable")
    if fate.successes or fate.failures:
        return " · " + saves_text(lang, fate)
    return ""


def conditions_text(lang: Lang, tracker: Tracker, target: str) -> str:
    """ "Aturdido (1 ronda), Derribado": a creature's conditions with the rounds left."""
    parts = []
    for a in tracker.conditions(target):
        name = condition_name(lang, a)
        left = conditions.rounds_left(a, tracker.round)
        parts.append(name if left is None else t(lang, "dnd.condition.lasting", condition=name, n=left))
    return ", ".join(parts)


async def refresh_order(
    interaction: discord.Interaction[Tirada], record: Record, changed: bool = True
) -> None:
    """Redraw the posted panel's order after a creature's fate ``changed`` (its buttons
    stay); hit points alone are not on it, so a change of them edits nothing."""
    if record.message_id is None or not changed:
        return
    lang = lang_for(interaction.locale)
    channel = interaction.client.get_partial_messageable(record.channel_id, guild_id=interaction.guild_id)
    await channel.get_partial_message(record.message_id).edit(embed=tracker_embed(lang, tracker_of(record)))
