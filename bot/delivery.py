"""Answers that reach the table even when Discord drops the interaction's own reply.

A change is stored before it is announced; if the interaction's answer then fails, a
public answer is redelivered through the REST API (a new message, or an edit of the
component's message), so the table sees it once and the store applies it once.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)


# What can go wrong between us and Discord after a change was already made: a server
# error or rate limit outlasting discord.py's own retries, a timeout, a dropped connection,
# or an answer that came too late (Discord no longer knows the interaction).
DELIVERY_ERRORS = (discord.HTTPException, asyncio.TimeoutError, aiohttp.ClientError)
_OUR_FAULT = frozenset({400, 401, 403})
# The custom_id prefix of "Revelar en la mesa" (bot.reveal): it stays on a secret roll's
# message whatever its panel becomes, until the reveal itself takes it away.
REVEAL_PREFIX = "secreta"


def _redeliverable(error: BaseException) -> bool:
    return not (isinstance(error, discord.HTTPException) and error.status in _OUR_FAULT)


def announce(
    event: str, client: discord.Client, channel_id: int, message_id: int, kwargs: dict[str, Any]
) -> None:
    """Tell the bot that a message everyone in ``channel_id`` sees was posted there
    (``public_roll``: a roll, by ``bot.reveal``) or edited (``public_edit``): the stream
    overlay shows the last roll (``bot.web.overlay``). Called only where the message is
    known to be public: never for an ephemeral one, nor for a follow-up (after a private
    deferral Discord makes it private whatever it says)."""
    embed = kwargs.get("embed")
    embeds = kwargs.get("embeds") or ([embed] if embed is not None and _shows(embed) else [])
    if embeds:
        client.dispatch(event, channel_id, message_id, list(embeds))


def _shows(embed: discord.Embed) -> bool:
    """Whether the embed shows anything (its truth), its title or description asked first:
    ``Embed.__bool__`` builds a proxy of each of its twelve parts, every time."""
    return bool(embed.title or embed.description or embed)


class Drawn(discord.ui.Item[Any]):
    """A persistent button as a card draws it: the ``custom_id`` of a registered
    ``DynamicItem`` (``bot.ui``: ``ActionButton.draw``, ``StepButton.draw``), and what it
    shows.

    discord.py routes a click by ``custom_id`` to the registered class, which rebuilds the
    button from the pressed message; the object drawn is only rendered, once, into the
    message's components. So it is a bare ``Item`` holding what it renders: a
    ``discord.ui.Button`` built its component (``_raw_construct`` walking nine slots over
    the class's ancestry) and checked arguments no card passes wrong, for every button of
    every card, half of a card's buttons' cost (wrapped in its ``DynamicItem``, a third
    more). It renders as ``discord.ui.Button`` renders the same button
    (``tests/bot/test_delivery.py`` compares them), and says it is not dispatchable, so
    discord.py never keeps a view for it, wherever the card is sent or edited.
    """

    def __init__(
        self,
        *,
        label: str,
        style: discord.ButtonStyle,
        custom_id: str,
        emoji: discord.PartialEmoji | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__()
        self.label = label
        self.style = style
        self.custom_id = custom_id
        # Parsed once where it is named (``bot.repeat.DIE_EMOJI``, ``bot.reveal.EYE_EMOJI``):
        # discord.ui.Button parses a text emoji with a regular expression for every button.
        self.emoji = emoji
        self.disabled = disabled

    @property
    def type(self) -> discord.ComponentType:
        return discord.ComponentType.button

    def to_component_dict(self) -> dict[str, Any]:
        """The button's payload, key for key as ``discord.ui.Button`` writes it."""
        payload: dict[str, Any] = {"type": 2, "style": self.style.value, "disabled": self.disabled}
        if self.label:
            payload["label"] = self.label
        if self.custom_id:
            payload["custom_id"] = self.custom_id
        if self.emoji:
            payload["emoji"] = self.emoji.to_dict()
        return payload

    def is_dispatchable(self) -> bool:
        return False


# What a view may hold and still be sent as plain components.
PERSISTENT = (discord.ui.DynamicItem, Drawn)


def plain_components(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Send a view made only of persistent buttons (``DynamicItem``s, or ``Drawn``
    ones) as plain components.

    Every such button's class is registered on the client and discord.py routes its clicks
    by ``custom_id`` alone, so nothing needs the view afterwards. Handed over live,
    discord.py would keep it anyway: on an ephemeral message with a 15-minute timer task
    each (most of the bot's memory at 2,000 tables). A stopped view is rendered and never
    stored.
    """
    view = kwargs.get("view")
    if isinstance(view, discord.ui.View) and all(
        isinstance(item, PERSISTENT) for item in view.walk_children()
    ):
        view.stop()
    return kwargs


async def send(interaction: discord.Interaction, **kwargs: Any) -> int | None:
    """Answer the interaction (or follow up if already answered) and return the message id
    when Discord gives it.

    If the answer fails after the change it announces was made, a public answer is posted
    to the channel through the REST API instead: the change is announced once, never
    applied twice (the store already holds it). A private answer cannot be redelivered
    privately, so it is logged.
    """
    plain_components(kwargs)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
            return None
        response = await interaction.response.send_message(**kwargs)
        return response.message_id
    except DELIVERY_ERRORS as error:
        channel = interaction.channel
        if (
            kwargs.get("ephemeral")
            or not _redeliverable(error)
            or not isinstance(channel, discord.abc.Messageable)
        ):
            raise
        log.warning(
            "answer failed; posting it to the channel",
            extra={"interaction": interaction.id, "error": repr(error)},
        )
        message = await channel.send(**{k: v for k, v in kwargs.items() if k != "ephemeral"})
        return message.id


def custom_ids(components: list[discord.Component]) -> set[str]:
    """Every ``custom_id`` a message's components carry: in action rows, and as a V2
    section's button (a component without children is not walked into)."""
    found: set[str] = set()
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        children = getattr(component, "children", None)
        if children:
            found |= custom_ids(list(children))
        accessory = getattr(component, "accessory", None)  # a V2 section's button
        if accessory is not None:
            found |= custom_ids([accessory])
    return found


def keep_reveal(interaction: discord.Interaction, kwargs: dict[str, Any]) -> None:
    """Carry "Revelar" into the new panel of a message that still shows it.

    A button pressed on the GM's copy of a secret roll redraws the roll's own panel, which
    knows nothing of secrecy; without this the GM could no longer reveal it. The kept
    button is the one the message shows (its clicks go to the registered ``RevealButton``
    by ``custom_id``), so the view is stopped: nothing needs it after it is rendered. The
    message's components are searched first: most messages show no "Revelar", and
    rebuilding a view of theirs only to find none is most of this function's cost.
    """
    message = interaction.message
    if (
        "view" not in kwargs
        or message is None
        or not any(custom_id.startswith(f"{REVEAL_PREFIX}:") for custom_id in custom_ids(message.components))
    ):
        return
    kept = [
        item
        for item in discord.ui.View.from_message(message, timeout=None).children
        if str(getattr(item, "custom_id", "")).startswith(f"{REVEAL_PREFIX}:")
    ]
    if not kept:
        return
    view = kwargs["view"] or discord.ui.View(timeout=None)
    shown = {getattr(item, "custom_id", None) for item in view.children}
    for item in kept:
        if getattr(item, "custom_id", None) not in shown:
            view.add_item(item)
    view.stop()
    kwargs["view"] = view


async def update(interaction: discord.Interaction, *, revealing: bool = False, **kwargs: Any) -> None:
    """Update the message a component belongs to; if that answer fails, edit the message
    through the REST API instead (a private message cannot be, so that is logged).
    "Revelar" stays on the message unless this update is the reveal itself."""
    if not revealing:
        keep_reveal(interaction, kwargs)
    plain_components(kwargs)
    message = interaction.message
    try:
        await interaction.response.edit_message(**kwargs)
        if message is not None and not message.flags.ephemeral:
            announce("public_edit", interaction.client, message.channel.id, message.id, kwargs)
    except DELIVERY_ERRORS as error:
        if message is None or not _redeliverable(error):
            raise
        if message.flags.ephemeral:
            log.warning("private update failed", extra={"interaction": interaction.id, "error": repr(error)})
            return
        log.warning(
            "update failed; editing the message", extra={"interaction": interaction.id, "error": repr(error)}
        )
        await message.edit(**kwargs)
