"""The Ley de los Éxitos panel: its buttons, menu and form (DynamicItems whose custom_id
carries the roll id, so the panel survives restarts) and the decisions they apply."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import discord

from bot import embeds, repeat
from bot.checks import is_gm, table_of
from bot.client import Tirada
from bot.delivery import send, update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Change, Record
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Guarded, Modal, selected
from cogs.donjon.render import narration_embed, roll_embed
from cogs.donjon.state import GM, KIND, bank_change
from rules.donjon import law as donjon_law
from rules.donjon import posted
from rules.donjon.law import Law


def roll_view(lang: Lang, record: Record) -> discord.ui.View:
    """A test's buttons: the Ley de los Éxitos while successes are left, and *Repetir*."""
    roll = posted.from_data(record.data)
    view = discord.ui.View(timeout=None)
    if roll.law is not None and not roll.law.allocated:
        for action, style in (("hecho", discord.ButtonStyle.primary), ("dado", discord.ButtonStyle.success)):
            view.add_item(LawButton(record.id, action, t(lang, f"donjon.button.{action}"), style))
        view.add_item(
            LawButton(record.id, "amigo", t(lang, "donjon.button.amigo"), discord.ButtonStyle.secondary)
        )
    view.add_item(repeat.button(lang, record.id))
    return view


# -- the Ley de los Éxitos panel ----------------------------------------------------------------


async def check_winner(interaction: discord.Interaction, record: Record, law: Law) -> None:
    """Only the winner allocates; when the GM won, whoever runs the table."""
    table = await table_of(interaction, record)
    if law.winner_id == GM:
        if not is_gm(table, interaction):
            raise Refusal("donjon.not_winner")
    elif interaction.user.id != law.winner_id:
        raise Refusal("donjon.not_winner")


async def load_law(interaction: discord.Interaction, record_id: int) -> tuple[Record, Law]:
    """A Donjon test whose Ley de los Éxitos is still open, or a refusal: its buttons act
    on nothing else."""
    record = await load(interaction, record_id, KIND)
    law = posted.from_data(record.data).law
    if law is None:
        raise Refusal("error.roll_gone")
    return record, law


async def allocate(interaction: discord.Interaction[Tirada], record_id: int, change: Any) -> None:
    """Apply one allocation (a fact or a banked die) and update the panel; post the facts
    to the narrator once the last success is spent."""
    bot = interaction.client
    lang = lang_for(interaction.locale)
    record, law = await load_law(interaction, record_id)
    await check_winner(interaction, record, law)
    record, _ = await act(bot.store, interaction, record_id, KIND, change)
    await update(interaction, embed=roll_embed(lang, record), view=roll_view(lang, record))
    await narrate_when_allocated(interaction, lang, record)


async def narrate_when_allocated(interaction: discord.Interaction, lang: Lang, record: Record) -> None:
    """Once the last success is spent, the facts go to the narrator."""
    law = posted.from_data(record.data).law
    if law is not None and law.allocated and law.facts:
        await post_narration(interaction, lang, record, law)


async def post_narration(interaction: discord.Interaction, lang: Lang, record: Record, law: Law) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(
        NarratedButton(record.id, "narrado", t(lang, "donjon.button.narrado"), discord.ButtonStyle.success)
    )
    narrator = law.narrator_id
    mentions = discord.AllowedMentions(
        users=[discord.Object(narrator)] if narrator else False, roles=False, everyone=False
    )
    await interaction.followup.send(embed=narration_embed(lang, record), view=view, allowed_mentions=mentions)


def law_decision(record: Record, step: Any, reason: str, changes: tuple[Change, ...] = ()) -> Decision:
    roll = posted.from_data(record.data)
    if roll.law is None:
        raise Refusal("error.roll_gone")
    return Decision(posted.to_data(replace(roll, law=step(roll.law))), changes, reason)


class LawButton(ActionButton, template=r"donjon:ley:(?P<action>hecho|dado|amigo):(?P<record>[0-9]{1,18})"):
    prefix = "donjon:ley"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        lang = lang_for(interaction.locale)
        record, law = await load_law(interaction, self.record_id)
        await check_winner(interaction, record, law)
        if law.left <= 0:
            raise Refusal("donjon.no_success_left")
        if self.action == "hecho":
            await interaction.response.send_modal(FactModal(self.record_id, lang))
        elif self.action == "amigo":
            view = discord.ui.View(timeout=None)
            view.add_item(FriendSelect(self.record_id, t(lang, "donjon.friend.placeholder")))
            await send(
                interaction, embed=embeds.card(t(lang, "donjon.friend.title")), view=view, ephemeral=True
            )
        else:
            owner = law.winner_id

            def keep(current: Record) -> Decision:
                return law_decision(
                    current,
                    lambda law_: donjon_law.bank(law_, owner),
                    "donjon.bank",
                    (bank_change(owner, 1),),
                )

            await allocate(interaction, self.record_id, keep)


class FactModal(Modal):
    def __init__(self, record_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "donjon.fact.title"), custom_id=f"donjon:hecho-modal:{record_id}")
        self.record_id = record_id
        self.fact: discord.ui.TextInput[FactModal] = discord.ui.TextInput(
            label=t(lang, "donjon.fact.label"),
            custom_id="hecho",
            style=discord.TextStyle.paragraph,
            max_length=donjon_law.FACT_LIMIT,
        )
        self.add_item(self.fact)

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        text = self.fact.value
        author = interaction.user.id

        def add(current: Record) -> Decision:
            return law_decision(current, lambda law_: donjon_law.narrate(law_, author, text), "donjon.fact")

        await allocate(interaction, self.record_id, add)


class FriendSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.UserSelect],
    template=r"donjon:amigo:(?P<record>[0-9]{1,18})",
):
    """A bonus die for a friend at the table, chosen from the server's members."""

    def __init__(self, record_id: int, placeholder: str = "") -> None:
        super().__init__(
            discord.ui.UserSelect(custom_id=f"donjon:amigo:{record_id}", placeholder=placeholder or None)
        )
        self.record_id = record_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FriendSelect:
        return cls(int(match["record"]))

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        values = selected(interaction)
        if len(values) != 1 or not values[0].isdigit():
            raise Refusal("donjon.friend.pick_one")
        friend = int(values[0])
        data: Mapping[str, Any] = interaction.data or {}
        resolved = data.get("resolved", {}).get("users", {})
        if resolved.get(str(friend), {}).get("bot"):
            raise Refusal("donjon.friend.bot")
        record, law = await load_law(interaction, self.record_id)
        await check_winner(interaction, record, law)

        def give(current: Record) -> Decision:
            return law_decision(
                current,
                lambda law_: donjon_law.bank(law_, friend),
                "donjon.bank_friend",
                (bank_change(friend, 1),),
            )

        record, _ = await act(bot.store, interaction, self.record_id, KIND, give)
        await update(
            interaction,
            embed=embeds.card(t(lang, "donjon.friend.done", friend=friend), colour=embeds.SUCCESS),
            view=None,
        )
        if record.message_id is not None:
            channel = bot.get_partial_messageable(record.channel_id, guild_id=interaction.guild_id)
            await channel.get_partial_message(record.message_id).edit(
                embed=roll_embed(lang, record), view=roll_view(lang, record)
            )
        await narrate_when_allocated(interaction, lang, record)


class NarratedButton(ActionButton, template=r"donjon:(?P<action>narrado):(?P<record>[0-9]{1,18})"):
    prefix = "donjon"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record, law = await load_law(interaction, self.record_id)
        table = await table_of(interaction, record)
        narrator_ok = interaction.user.id == law.narrator_id or (
            law.narrator_id in (None, GM) and is_gm(table, interaction)
        )
        if not (narrator_ok or is_gm(table, interaction)):
            raise Refusal("donjon.not_narrator")
        record, _ = await act(
            bot.store,
            interaction,
            self.record_id,
            KIND,
            lambda r: law_decision(r, donjon_law.mark_narrated, "donjon.narrated"),
        )
        await update(interaction, embed=narration_embed(lang, record), view=None)
