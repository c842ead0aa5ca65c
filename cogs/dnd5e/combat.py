"""The D&D initiative tracker (a ``rules.dnd5e.tracker.Tracker``): its embed, buttons and form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot import embeds
from bot.checks import (
    is_gm,
    table_of,
)
from bot.client import Tirada
from bot.delivery import send, update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Change, Record, Table
from bot.panel import chosen, labelled, number_or_none, number_select, radio, worded
from bot.rolls import Decide, Decision, act, load
from bot.ui import Modal, StepButton
from cogs.dnd5e.damage import vitals_button
from cogs.dnd5e.death import roll_death_save
from cogs.dnd5e.joining import player_entry, player_key
from cogs.dnd5e.order import tracker_embed
from cogs.dnd5e.state import COMBAT_KIND, INSPIRATION, NAME_LIMIT
from cogs.dnd5e.vitals import open_tracker, targets, tracker_of
from rules.dnd5e import checks
from rules.dnd5e import tracker as dnd5e_tracker
from rules.dnd5e.tracker import Tracker

# -- initiative tracker ---------------------------------------------------------------------------


def changed(reason: str, change: Callable[[Tracker], Tracker], *costs: Change) -> Decide:
    """A decision that applies ``change`` to the stored tracker (with what it costs)."""

    def decide(record: Record) -> Decision:
        return Decision(dnd5e_tracker.tracker_to_data(change(tracker_of(record))), costs, reason)

    return decide


def tracker_view(lang: Lang, record: Record) -> discord.ui.View | None:
    tracker = tracker_of(record)
    if tracker.ended:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TrackerButton.draw(record.id, "unirme", 0, t(lang, "dnd.button.unirme")))
    if not tracker.started:
        view.add_item(
            TrackerButton.draw(
                record.id, "empezar", 0, t(lang, "dnd.button.empezar"), discord.ButtonStyle.primary
            )
        )
    elif tracker.entries:
        view.add_item(
            TrackerButton.draw(
                record.id,
                "siguiente",
                tracker.step,
                t(lang, "dnd.button.siguiente"),
                discord.ButtonStyle.primary,
            )
        )
    view.add_item(vitals_button(lang, record.id))
    view.add_item(
        TrackerButton.draw(
            record.id, "terminar", 0, t(lang, "dnd.button.terminar"), discord.ButtonStyle.danger
        )
    )
    return view


def panel(lang: Lang, record: Record) -> dict[str, Any]:
    """The panel's embed and buttons, as message arguments."""
    return {"embed": tracker_embed(lang, tracker_of(record)), "view": tracker_view(lang, record)}


def inspiration_view(lang: Lang, record: Record, key: str, holds: bool) -> discord.ui.View | None:
    """Heroic Inspiration on one's own initiative roll, right after rolling it: one button
    per d20 it could reroll (only shown to the one who joined, who holds inspiration)."""
    entry = tracker_of(record).entry(key)
    if not holds or entry.settled or entry.roll.inspired:
        return None
    faces = entry.roll.faces
    label = "dnd.button.inspiration_die" if len(faces) > 1 else "dnd.button.inspiration"
    view = discord.ui.View(timeout=None)
    for index, face in enumerate(faces):
        view.add_item(
            TrackerButton.draw(
                record.id, f"insp{index}", 0, t(lang, label, value=face), discord.ButtonStyle.primary
            )
        )
    return view


async def holds_inspiration(bot: Tirada, record: Record, user_id: int) -> bool:
    return await bot.store.pool(record.channel_id, INSPIRATION, user_id) > 0


async def tracker_or_refuse(bot: Tirada, table: Table) -> Record:
    record = await open_tracker(bot.store, table.channel_id)
    if record is None:
        raise Refusal("dnd.tracker.none")
    return record


async def show_tracker(
    interaction: discord.Interaction[Tirada], record: Record, view: discord.ui.View | None = None
) -> None:
    """Answer privately (with the joiner's inspiration buttons, if any) and bring the
    channel's one posted panel up to date."""
    lang = lang_for(interaction.locale)
    kwargs: dict[str, Any] = {"view": view} if view is not None else {}
    await send(interaction, embed=tracker_embed(lang, tracker_of(record)), ephemeral=True, **kwargs)
    await refresh_panel(interaction, record)


async def refresh_panel(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """Bring the channel's posted panel up to date after a change made elsewhere."""
    if record.message_id is None:
        return
    lang = lang_for(interaction.locale)
    channel = interaction.client.get_partial_messageable(record.channel_id, guild_id=interaction.guild_id)
    await channel.get_partial_message(record.message_id).edit(**panel(lang, record))


class TrackerButton(
    StepButton,
    template=r"dnd:ini:(?P<action>unirme|empezar|siguiente|terminar|muerte|insp[01]):(?P<record>[0-9]{1,18}):(?P<step>[0-9]{1,6})",
):
    prefix = "dnd:ini"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, COMBAT_KIND)
        tracker = tracker_of(record)
        if tracker.ended:
            raise Refusal("dnd.tracker.is_over")
        if self.action == "unirme":
            if any(e.combatant.key == player_key(interaction.user.id) for e in tracker.entries):
                raise Refusal("dnd.tracker.already_joined")
            await interaction.response.send_modal(JoinModal(self.record_id, lang))
            return
        if self.action.startswith("insp"):
            await self.inspire(interaction, int(self.action[-1]))
            return
        if self.action == "muerte":
            acting = tracker.acting
            if acting is None or self.step != tracker.step:
                raise Refusal("dnd.death.turn_over")
            await roll_death_save(interaction, self.record_id, acting.key, self.step)
            return
        gm = is_gm(await table_of(interaction, record), interaction)
        if self.action in ("empezar", "terminar") and not gm:
            raise Refusal("error.not_gm")
        acting = tracker.acting
        if self.action == "siguiente" and not (gm or (acting and acting.user_id == interaction.user.id)):
            raise Refusal("dnd.tracker.not_your_turn")
        decide = {
            "empezar": changed("dnd.tracker.start", Tracker.start),
            "terminar": changed("dnd.tracker.end", Tracker.finish),
            "siguiente": changed("dnd.tracker.next", lambda tr: tr.next(self.step)),
        }[self.action]
        record, _ = await act(bot.store, interaction, self.record_id, COMBAT_KIND, decide)
        await update(interaction, **panel(lang, record))
        if self.action == "siguiente":
            await announce_turn(interaction, record, lang)

    async def inspire(self, interaction: discord.Interaction[Tirada], index: int) -> None:
        """Reroll one d20 of one's own initiative: the tracker changes and the inspiration
        is spent in one operation, or neither; the answer says it was spent."""
        bot = interaction.client
        lang = lang_for(interaction.locale)
        key = player_key(interaction.user.id)
        spend = Change(INSPIRATION, -1, owner_id=interaction.user.id, cap=checks.INSPIRATION_CAP)
        decide = changed("dnd.inspiration.initiative", lambda tr: tr.inspire(key, bot.rng, index), spend)
        record, _ = await act(bot.store, interaction, self.record_id, COMBAT_KIND, decide)
        spent = t(lang, "dnd.roll.inspired", user=interaction.user.id)
        await update(interaction, content=spent, embed=tracker_embed(lang, tracker_of(record)), view=None)
        await refresh_panel(interaction, record)


async def announce_turn(interaction: discord.Interaction[Tirada], record: Record, lang: Lang) -> None:
    """Tell the table whose turn it is, pinging the player whose character acts; a dying
    one gets the button for its death saving throw ("Whenever you start your turn with 0
    Hit Points, you must make a Death Saving Throw")."""
    tracker = tracker_of(record)
    current = tracker.acting
    if current is None:
        return
    name = discord.utils.escape_markdown(current.name)
    text = t(lang, "dnd.tracker.your_turn", name=name, round=tracker.round)
    mentions = discord.AllowedMentions(users=[discord.Object(current.user_id)] if current.user_id else False)
    content = f"<@{current.user_id}>" if current.user_id else discord.utils.MISSING
    found = await targets(interaction.client.store, record.channel_id, tracker)
    view = discord.ui.View(timeout=None)
    if any(x.combatant.key == current.key and x.dying for x in found):
        text += "\n" + t(lang, "dnd.death.your_turn", name=name)
        label = t(lang, "dnd.button.death_save")
        view.add_item(
            TrackerButton.draw(record.id, "muerte", tracker.step, label, discord.ButtonStyle.danger)
        )
    await interaction.followup.send(
        content=content, embed=embeds.card(text), view=view, allowed_mentions=mentions
    )


def joined(entry: dnd5e_tracker.Entry) -> Decide:
    """Join once; a second roll is refused (the order "permanece invariable")."""
    return changed("dnd.tracker.join", lambda tr: tr.join(entry))


# The initiative modifiers the join form offers (after the sheet's): "un chequeo de Destreza",
# whose modifier runs from -5 to +10 (scores 1 to 30), with room above for a bonus on top
# (a proficiency bonus is +2 to +6); past +18 it is typed (``modificador:``, -30 to 30).
JOIN_MODIFIERS = range(-5, 19)


class JoinModal(Modal):
    """The name, the modifier (picked, or the sheet's) and advantage or surprise (picked),
    then the same join as ``/dnd iniciativa unirme``."""

    def __init__(self, combat_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "dnd.join.title"), custom_id=f"dnd:unirme-modal:{combat_id}")
        self.combat_id = combat_id
        self.name: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "dnd.join.name"), custom_id="nombre", max_length=NAME_LIMIT
        )
        self.add_item(self.name)
        # The worded answer: the active sheet's Dexterity (the command without ``modificador``).
        sheet = worded(t(lang, "dnd.join.from_sheet"))
        self.modifier = number_select("modificador", JOIN_MODIFIERS, sheet, label=lambda n: f"{n:+d}")
        self.add_item(labelled(t(lang, "dnd.join.modifier"), self.modifier))
        modes = [(mode.value, t(lang, f"dnd.join.mode.{mode.value}")) for mode in checks.Mode]
        self.mode = radio(modes, checks.Mode.NORMAL, "modo")
        self.add_item(labelled(t(lang, "dnd.join.mode"), self.mode))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        the_mode = checks.Mode(chosen(self.mode.value, {mode.value for mode in checks.Mode}))
        modifier = number_or_none(self.modifier)
        table = await table_of(interaction, await load(interaction, self.combat_id, COMBAT_KIND))
        entry = await player_entry(interaction, table, modifier, self.name.value, the_mode)
        key = entry.combatant.key
        record, _ = await act(bot.store, interaction, self.combat_id, COMBAT_KIND, joined(entry))
        await update(interaction, **panel(lang, record))
        view = inspiration_view(lang, record, key, await holds_inspiration(bot, record, interaction.user.id))
        if view is not None:
            total = tracker_of(record).entry(key).combatant.initiative
            text = t(lang, "dnd.tracker.inspiration_offer", total=total)
            await interaction.followup.send(embed=embeds.card(text), view=view, ephemeral=True)
