"""Secret rolls: where their result goes, and the GM's "Revelar en la mesa" button.

A secret roll is recorded like any other (its pool changes are real and in the ledger);
only its message is private, and its dice reach the statistics when it is revealed. The
GM's copy carries the roll's own buttons plus "Revelar": revealing posts that message's
embeds and buttons, unchanged, to the table channel, once (the store keeps one claim per
secret message), and the roll's buttons move with it. What else the table must get with
it, its system posts (bot/systems.py ``revealers``), once too: after the claim.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import embeds, systems
from bot.checks import in_gm_channel, is_gm
from bot.delivery import REVEAL_PREFIX, announce, send, update
from bot.errors import Refusal
from bot.i18n import lang_for, t
from bot.models import Table
from bot.readers import faces
from bot.ui import ActionButton

if TYPE_CHECKING:
    from bot.client import Tirada

log = logging.getLogger(__name__)

PREFIX = REVEAL_PREFIX


def is_secret(interaction: discord.Interaction, table: Table, secret: bool) -> bool:
    """Whether this roll is secret, or a refusal saying why it may not be. Checked before
    anything is recorded or paid. Everything rolled in a GM channel stays there."""
    if in_gm_channel(table, interaction):
        return True
    if not secret or is_gm(table, interaction):
        return secret
    if not table.settings.player_secret_rolls:
        raise Refusal("secret.players_forbidden")
    if table.gm_channel_id is None:
        raise Refusal("secret.needs_gm_channel")
    return True


class RevealButton(ActionButton, template=rf"{PREFIX}:(?P<action>revelar):(?P<record>[0-9]{{1,20}})"):
    prefix = PREFIX

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        record = await bot.store.record(self.record_id)
        if record is None:
            raise Refusal("error.roll_gone")
        table = await bot.store.table_or_default(record.channel_id, interaction.guild_id)
        if not is_gm(table, interaction):
            raise Refusal("secret.reveal_gm_only")
        message = interaction.message
        assert message is not None
        if not await bot.store.claim_reveal(message.id, record.id, interaction.user.id):
            raise Refusal("secret.already_revealed")
        try:
            posted = await bot.get_partial_messageable(table.channel_id, guild_id=interaction.guild_id).send(
                embeds=message.embeds, view=copy_without_reveal(message)
            )
        except BaseException as error:
            await bot.store.release_reveal(message.id)
            if isinstance(error, discord.Forbidden | discord.NotFound):
                raise Refusal("secret.table_unreachable", channel=table.channel_id) from error
            raise
        announce("public_roll", bot, table.channel_id, posted.id, {"embeds": message.embeds})
        system, dice = faces(record.kind, record.data)
        revealed_record = await bot.store.set_record_message(record.id, posted.id, system=system, dice=dice)
        lang = lang_for(interaction.locale)
        await update(
            interaction,
            revealing=True,
            content=t(lang, "secret.revealed", channel=table.channel_id),
            view=None,
        )
        revealer = systems.revealer(record.kind)
        if revealer is not None and revealed_record is not None:
            # The record as the reveal wrote it: a button pressed on the secret copy
            # meanwhile (a fact narrated) is in what the table is shown.
            await revealer(interaction, revealed_record)


class Copy(discord.ui.View):
    """A message's buttons posted again elsewhere. The persistent buttons registered on the
    client answer their clicks, so this copy is never kept for dispatch."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def copy_without_reveal(message: discord.Message) -> Copy:
    copy = Copy()
    for item in discord.ui.View.from_message(message, timeout=None).children:
        if not str(getattr(item, "custom_id", "")).startswith(f"{PREFIX}:"):
            copy.add_item(item)
    return copy


# The eye on every "Revelar", read once (as *Repetir*'s die: ``bot.repeat.DIE_EMOJI``).
EYE_EMOJI = discord.PartialEmoji(name="👁️")


def _with_reveal(view: discord.ui.View | None, record_id: int, label: str) -> discord.ui.View:
    panel = view if view is not None else discord.ui.View(timeout=None)
    panel.add_item(RevealButton.draw(record_id, "revelar", label, discord.ButtonStyle.primary, EYE_EMOJI))
    return panel


async def deliver(
    interaction: discord.Interaction,
    table: Table,
    record_id: int,
    embed: discord.Embed,
    view: discord.ui.View | None,
    secret: bool,
) -> int | None:
    """Post a roll where it belongs and return the id of the message its buttons live on.

    - Not secret: the answer, in the table channel.
    - Rolled in the GM channel: the answer, there, with "Revelar".
    - Secret, table without a GM channel (only the GM may then roll secretly): an
      ephemeral answer with "Revelar".
    - Secret, with a GM channel: posted there with "Revelar"; the roller gets an ephemeral
      answer (the player sees their own result, the GM a pointer to the GM channel).
    """
    kwargs: dict[str, Any] = {"embed": embed}
    if not secret:
        if view is not None:
            kwargs["view"] = view
        first = not interaction.response.is_done()
        message_id = await send(interaction, **kwargs)
        if first and message_id is not None and interaction.channel_id is not None:
            announce("public_roll", interaction.client, interaction.channel_id, message_id, kwargs)
        return message_id
    lang = lang_for(interaction.locale)
    panel = _with_reveal(view, record_id, t(lang, "secret.reveal"))
    if in_gm_channel(table, interaction) or table.gm_channel_id is None:
        return await send(interaction, **kwargs, view=panel, ephemeral=not in_gm_channel(table, interaction))
    # Answer first (Discord waits three seconds for it), then post to the GM channel.
    if is_gm(table, interaction):
        note = embeds.card(t(lang, "secret.sent", channel=table.gm_channel_id), colour=embeds.SUCCESS)
        await send(interaction, embed=note, ephemeral=True)
    else:
        await send(interaction, embed=embed, ephemeral=True)
    bot = interaction.client
    try:
        posted = await bot.get_partial_messageable(table.gm_channel_id, guild_id=interaction.guild_id).send(
            content=t(lang, "secret.from", user=interaction.user.id, channel=table.channel_id),
            embed=embed,
            view=panel,
        )
    except discord.HTTPException as error:
        await _gm_channel_unreachable(interaction, table, embed, panel, error)
        return None
    return posted.id


async def _gm_channel_unreachable(
    interaction: discord.Interaction,
    table: Table,
    embed: discord.Embed,
    panel: discord.ui.View,
    error: discord.HTTPException,
) -> None:
    """The GM channel was deleted or closed to the bot. The roll is already recorded, so
    it must reach someone: the GM gets it privately with "Revelar"; a player is told
    their roll reached only them."""
    log.warning(
        "GM channel unreachable; secret roll kept private",
        extra={"channel": table.channel_id, "gm_channel": table.gm_channel_id, "status": error.status},
    )
    lang = lang_for(interaction.locale)
    notice = embeds.card(
        t(lang, "secret.gm_channel_unreachable", channel=table.gm_channel_id), colour=embeds.REFUSAL
    )
    if is_gm(table, interaction):
        await send(interaction, embeds=[notice, embed], view=panel, ephemeral=True)
    else:
        await send(interaction, embed=notice, ephemeral=True)
