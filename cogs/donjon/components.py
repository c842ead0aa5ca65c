"""The Ley de los Éxitos panel: its buttons, menu and form (DynamicItems whose custom_id
carries the roll id, so the panel survives restarts) and the decisions they apply; then
the narration, a Components V2 message with a *Narrado* beside each fact."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import discord

from bot import embeds, repeat
from bot.checks import in_gm_channel, is_gm, table_of
from bot.client import Tirada
from bot.delivery import send, update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Change, Record
from bot.rolls import Card, Decision, act, load
from bot.ui import ActionButton, Guarded, Modal, selected
from cogs.donjon.render import fact_line, narrated_line, narration_embed, narration_header, roll_embed
from cogs.donjon.state import GM, KIND, bank_change
from rules.donjon import law as donjon_law
from rules.donjon import posted
from rules.donjon.law import Law
from rules.donjon.posted import DonjonRoll

log = logging.getLogger(__name__)

# The facts a narration shows at once. Each waiting one is three of the 40 components a V2
# message may hold (its section, its text, its button) and up to ~410 of its 4,000
# characters (200 whose every character markdown escapes): nine stay within both.
FACTS_SHOWN = 9


def roll_card(lang: Lang, record: Record) -> tuple[discord.Embed, discord.ui.View]:
    """The test's embed and buttons, from its roll decoded once: pydantic's decoding was a
    card's largest cost when each drew its own (issue 29)."""
    roll = posted.from_data(record.data)
    return roll_embed(lang, record, roll), roll_view(lang, record, roll)


def thrown_card(roll: DonjonRoll) -> Card:
    """The card of the record just written from ``roll``, drawn from it (``bot.rolls.publish``'s
    ``fresh``): not decoded again, nor its dice compared again (its comparison is kept)."""
    return lambda lang, record: (roll_embed(lang, record, roll), roll_view(lang, record, roll))


def roll_view(lang: Lang, record: Record, roll: DonjonRoll) -> discord.ui.View:
    """A test's buttons: the Ley de los Éxitos while successes are left, and *Repetir*."""
    view = discord.ui.View(timeout=None)
    if roll.law is not None and not roll.law.allocated:
        for action, style in (("hecho", discord.ButtonStyle.primary), ("dado", discord.ButtonStyle.success)):
            view.add_item(LawButton.draw(record.id, action, t(lang, f"donjon.button.{action}"), style))
        view.add_item(
            LawButton.draw(record.id, "amigo", t(lang, "donjon.button.amigo"), discord.ButtonStyle.secondary)
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
    return record, law_of(record)


def law_of(record: Record) -> Law:
    """The Ley de los Éxitos of a Donjon test, or a refusal (a test it does not apply to)."""
    law = posted.from_data(record.data).law
    if law is None:
        raise Refusal("error.roll_gone")
    return law


async def allocate(interaction: discord.Interaction[Tirada], record_id: int, change: Any) -> None:
    """Apply one allocation (a fact or a banked die) and update the panel; post the facts
    to the narrator once the last success is spent."""
    record, law = await load_law(interaction, record_id)
    await check_winner(interaction, record, law)
    await allocate_checked(interaction, record_id, change)


async def allocate_checked(interaction: discord.Interaction[Tirada], record_id: int, change: Any) -> None:
    """:func:`allocate` once the presser is known to be the winner (a Ley button checks it
    first, on the roll it decoded: not decoded again to check it twice)."""
    bot = interaction.client
    lang = lang_for(interaction.locale)
    record, _ = await act(bot.store, interaction, record_id, KIND, change)
    roll = posted.from_data(record.data)
    await update(interaction, embed=roll_embed(lang, record, roll), view=roll_view(lang, record, roll))
    await narrate_when_allocated(interaction, lang, record, roll.law)


async def narrate_when_allocated(
    interaction: discord.Interaction, lang: Lang, record: Record, law: Law | None
) -> None:
    """Once the last success is spent, the facts go to the narrator: in a new message, so it
    is born Components V2 (docs/decisiones.md, "Narración de la Ley de los Éxitos"). A
    secret roll's stay where the secret is (the GM channel, or the GM privately) until its
    reveal: the table reads them on the revealed card. ``law`` is the record's, as its card
    decoded it."""
    if law is None or not law.allocated or not law.facts:
        return
    view = narration_view(lang, record.id, law)
    if record.secret:
        table = await table_of(interaction, record)
        await send(
            interaction,
            view=view,
            allowed_mentions=discord.AllowedMentions.none(),
            ephemeral=not in_gm_channel(table, interaction),
        )
        return
    await send(interaction, view=view, allowed_mentions=narrator_mentions(law))


async def narrate_revealed(interaction: discord.Interaction, record: Record) -> None:
    """A secret test's reveal brings its narration to the table (bot/systems.py
    ``revealers``), with the facts narrated in secret shown done, pinging the narrator: the
    reveal is claimed once per secret message, so it posts once. A test revealed before its
    facts were told posts them when they are; one narrated whole has nothing left to narrate
    (its card, revealed, lists the facts)."""
    law = posted.from_data(record.data).law
    if law is None or not law.allocated or not law.pending:
        return
    lang = lang_for(interaction.locale)
    table = interaction.client.get_partial_messageable(record.channel_id, guild_id=interaction.guild_id)
    try:
        await table.send(view=narration_view(lang, record.id, law), allowed_mentions=narrator_mentions(law))
    except discord.HTTPException as error:
        # The card reached the table a moment ago; its narration did not. The reveal stands
        # (it is claimed and answered). The facts still wait, and nothing at the table marks
        # them (the GM's copy points there): the GM is told privately, with the facts and
        # the one *Narrado* that marks them all (docs/decisiones.md, "Narración rechazada").
        log.warning("revealed narration not posted", extra={"record": record.id, "error": repr(error)})
        view = discord.ui.View(timeout=None)
        label = t(lang, "donjon.button.narrado")
        view.add_item(NarratedButton.draw(record.id, "narrado", label, discord.ButtonStyle.success))
        await send(
            interaction,
            content=t(lang, "donjon.narrate.unposted", channel=record.channel_id),
            embed=narration_embed(lang, record),
            view=view,
            ephemeral=True,
        )


def check_at_table(interaction: discord.Interaction, record: Record) -> None:
    """A revealed test is narrated at the table: the GM's copy of its narration from before
    the reveal (in the GM channel, or private) refuses, or one of the two would go stale."""
    message = interaction.message
    if record.secret or message is None:
        return
    if interaction.channel_id != record.channel_id or message.flags.ephemeral:
        raise Refusal("donjon.narrate.moved", channel=record.channel_id)


def narrator_mentions(law: Law) -> discord.AllowedMentions:
    """The narration may ping the narrator and nobody else: a fact's text is the player's."""
    narrator = law.narrator_id
    users: list[discord.abc.Snowflake] | bool = [discord.Object(narrator)] if narrator else False
    return discord.AllowedMentions(users=users, roles=False, everyone=False)


def narration_window(law: Law) -> range:
    """The facts a narration shows: :data:`FACTS_SHOWN` of them, from the first one still
    waiting (those before are narrated), or the last ones when fewer are left."""
    first = law.pending[0] if law.pending else 0
    start = min(first, max(0, len(law.facts) - FACTS_SHOWN))
    return range(start, min(start + FACTS_SHOWN, len(law.facts)))


def narration_view(lang: Lang, record_id: int, law: Law) -> discord.ui.LayoutView:
    """The facts to narrate, each with its *Narrado* beside it; a narrated one is shown
    done, and once all are the message says so and has no button left."""
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        discord.ui.TextDisplay(narration_header(lang, law))
    )
    shown = narration_window(law)
    if shown.start:
        container.add_item(discord.ui.TextDisplay(t(lang, "donjon.narrate.earlier", n=shown.start)))
    label = t(lang, "donjon.button.narrado")
    for position in shown:
        fact = law.facts[position]
        if fact.narrated:
            container.add_item(discord.ui.TextDisplay(narrated_line(lang, position + 1, fact)))
        else:
            line = fact_line(lang, position + 1, fact)
            container.add_item(
                discord.ui.Section(line, accessory=FactNarratedButton(record_id, position + 1, label))
            )
    later = len(law.facts) - shown.stop
    if later:
        container.add_item(discord.ui.TextDisplay(t(lang, "donjon.narrate.later", n=later)))
    if law.narrated:
        container.add_item(discord.ui.TextDisplay(t(lang, "donjon.narrate.done")))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    view.stop()  # made of DynamicItems: rendered, never kept (bot.delivery.plain_components)
    return view


async def check_narrator(interaction: discord.Interaction, record: Record, law: Law) -> None:
    """Only the one who must narrate marks the facts narrated, or whoever runs the table."""
    table = await table_of(interaction, record)
    if interaction.user.id != law.narrator_id and not is_gm(table, interaction):
        raise Refusal("donjon.not_narrator")


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

            await allocate_checked(interaction, self.record_id, keep)


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
        roll = posted.from_data(record.data)
        if record.message_id is not None:
            channel = bot.get_partial_messageable(record.channel_id, guild_id=interaction.guild_id)
            await channel.get_partial_message(record.message_id).edit(
                embed=roll_embed(lang, record, roll), view=roll_view(lang, record, roll)
            )
        await narrate_when_allocated(interaction, lang, record, roll.law)


class NarratedButton(ActionButton, template=r"donjon:(?P<action>narrado):(?P<record>[0-9]{1,18})"):
    """The one *Narrado* of a narration posted as an embed, before each fact had its own:
    those messages are still in the channels, and their button narrates what is left. The
    GM's notice of a revealed narration Discord refused carries it too; once pressed, the
    notice is the narration done (its sentence, that the facts wait, gone)."""

    prefix = "donjon"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record, law = await load_law(interaction, self.record_id)
        await check_narrator(interaction, record, law)
        record, _ = await act(
            bot.store,
            interaction,
            self.record_id,
            KIND,
            lambda r: law_decision(r, donjon_law.mark_all_narrated, "donjon.narrated"),
        )
        await update(interaction, content=None, embed=narration_embed(lang, record), view=None)


class FactNarratedButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"donjon:narrado:(?P<record>[0-9]{1,18}):(?P<fact>[0-9]{1,3})",
):
    """*Narrado* beside one fact: the narrator (or the GM) has used it. The fact's number
    is in the ``custom_id``, so a second press or a replay finds it narrated and changes
    nothing; the message is drawn again from the roll as stored."""

    def __init__(self, record_id: int, fact: int, label: str = "") -> None:
        custom_id = f"donjon:narrado:{record_id}:{fact}"
        style = discord.ButtonStyle.success
        super().__init__(discord.ui.Button(label=label or str(fact), style=style, custom_id=custom_id))
        self.record_id, self.fact = record_id, fact

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FactNarratedButton:
        return cls(int(match["record"]), int(match["fact"]))

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record, law = await load_law(interaction, self.record_id)
        await check_narrator(interaction, record, law)
        check_at_table(interaction, record)
        position = self.fact - 1

        def narrate(current: Record) -> Decision:
            return law_decision(
                current, lambda law_: donjon_law.mark_narrated(law_, position), "donjon.narrated"
            )

        record, _ = await act(bot.store, interaction, self.record_id, KIND, narrate)
        # Not bot.delivery.update: its "Revelar" keeper reads messages as classic views.
        await interaction.response.edit_message(
            view=narration_view(lang, record.id, law_of(record)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
