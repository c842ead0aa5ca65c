"""Death saving throws on the D&D tracker: a button on a dying character's turn and
``/dnd muerte``. The d20 is a roll of its own (counted in the statistics and the chronicle)
and the fate it leaves is the tracker's, written in the same operation, with the hit point a
natural 20 gives (a sheet's through its pool, the ledger)."""

from __future__ import annotations

from dataclasses import asdict

import discord

from bot import embeds, render, rolls, seen
from bot.checks import is_gm, table_of
from bot.client import Tirada
from bot.delivery import send
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Change, Record, RecordUpdate, Table
from bot.rolls import load
from cogs.dnd5e.order import refresh_order
from cogs.dnd5e.state import COMBAT_KIND, KIND
from cogs.dnd5e.vitals import Target, pick, safe, saves_text, sheet_changes, targets, tracker_of
from rules.dnd5e import checks
from rules.dnd5e import tracker as dnd5e_tracker
from rules.dnd5e.checks import D20Test, Mode
from rules.dnd5e.death import DEATH_SAVE_DC, DeathSave, Fate
from rules.dnd5e.hit_points import heal
from rules.errors import RuleError

ATTEMPTS = 3


def may_roll(table: Table, interaction: discord.Interaction, target: Target) -> None:
    """A character's own player rolls it; the GM rolls for anyone (an NPC with a sheet)."""
    if is_gm(table, interaction):
        return
    if target.combatant.monster or target.combatant.user_id != interaction.user.id:
        raise Refusal("dnd.death.not_yours")


def dying(found: list[Target], typed: str) -> Target:
    """The creature ``typed`` names, refused unless it makes death saving throws now."""
    target = pick(found, typed)
    if target.hp is None:
        raise Refusal("dnd.hp.unknown")
    if target.dead:
        raise Refusal("dnd.death.is_dead")
    return target


def save_data(tracker_id: int, target: Target, saved: DeathSave) -> dict[str, object]:
    """The roll as stored: a d20 test against DC 10 (as the statistics read every D&D roll)
    and what it did to whom."""
    test = D20Test(((saved.face,),), Mode.NORMAL, 0, DEATH_SAVE_DC)
    return {
        "kind": "muerte",
        "test": checks.roll_to_data(test),
        "tracker": tracker_id,
        "target": target.member.target,
        "name": target.member.name,
        "after": asdict(saved.after),
        "regained": saved.regained,
    }


async def roll_death_save(
    interaction: discord.Interaction[Tirada], tracker_id: int, typed: str, step: int | None = None
) -> None:
    """One death saving throw for the creature ``typed`` names, once a turn; ``step``: the
    turn the pressed button was drawn for (a button of a past turn is refused)."""
    store = interaction.client.store
    for _ in range(ATTEMPTS):
        record = await load(interaction, tracker_id, COMBAT_KIND)
        tracker = tracker_of(record)
        if tracker.ended:
            raise Refusal("dnd.tracker.is_over")
        if step is not None and step != tracker.step:
            raise Refusal("dnd.death.turn_over")
        table = await table_of(interaction, record)
        target = dying(await targets(store, record.channel_id, tracker), typed)
        may_roll(table, interaction, target)
        assert target.hp is not None
        after, saved = tracker.death_save(target.member.target, target.hp, interaction.client.rng)
        changes: tuple[Change, ...] = ()
        if saved.regained:
            healed = heal(target.hp, saved.regained)
            if target.row is not None:
                changes = sheet_changes(target.row, target.hp, healed)
            else:
                after = after.hurt(target.member.target, healed, unlink=True)
        closes = RecordUpdate(record.id, record.version, dnd5e_tracker.tracker_to_data(after))
        data = save_data(record.id, target, saved)
        try:
            roll = await rolls.record(
                store, interaction, table, KIND, data, "dnd.death.save", changes, closes
            )
        except RuleError as error:
            if error.key == "roll.stale":
                seen.reread(interaction, tracker_id)
                continue
            raise
        await send(interaction, embed=save_embed(lang_for(interaction.locale), roll))
        await refresh_order(interaction, await load(interaction, tracker_id, COMBAT_KIND))
        return
    raise Refusal("error.busy")


def save_embed(lang: Lang, roll: Record) -> discord.Embed:
    """The table reads the d20, what it counted, and where the creature stands now (all
    from the stored roll: a replayed press shows what was written)."""
    name = safe(roll.data["name"])
    test = checks.roll_from_data(roll.data["test"])
    fate, regained, face = Fate(**roll.data["after"]), roll.data["regained"], test.natural
    if regained:
        verdict, colour = t(lang, "dnd.death.twenty", name=name), embeds.SUCCESS
    elif face >= DEATH_SAVE_DC:
        verdict, colour = t(lang, "dnd.death.success"), embeds.SUCCESS
    else:
        verdict = t(lang, "dnd.death.one" if face == 1 else "dnd.death.failure")
        colour = embeds.FAILURE
    lines = [verdict]
    if fate.dead:
        lines.append(t(lang, "dnd.hp.dies", name=name))
    elif fate.stable:
        lines.append(t(lang, "dnd.death.stable", name=name))
    elif not regained:
        lines.append(saves_text(lang, fate))
    embed = embeds.card(
        t(lang, "dnd.death.title", name=name), t(lang, "dnd.roll.by", user=roll.user_id), colour
    )
    embeds.field(
        embed, t(lang, "dnd.death.dice"), f"{render.dice(test.dice)} = **{test.total}**", inline=False
    )
    embeds.field(embed, t(lang, "dnd.roll.verdict"), "\n".join(lines), inline=False)
    return embed
