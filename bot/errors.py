"""One place that answers every error, from commands, views, modals and buttons.

A rule or bot refusal (anything with a catalog key) becomes an ephemeral embed in the
user's language; anything unexpected becomes "something failed (ref XXXX)" for the
user and a logged traceback with the same reference for us.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot import embeds
from bot.i18n import CATALOG, Lang, lang_for, t
from rules.errors import RuleError

log = logging.getLogger(__name__)


class Refusal(RuleError):
    """A refusal decided by the bot rather than by a rule (permissions, wrong channel)."""


class RefusedCheck(app_commands.CheckFailure):
    """A failed command check that knows which sentence to answer with."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.refusal = Refusal(key, **params)


async def send(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Answer the interaction, or follow up when it was already answered or deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


def _refusal_of(error: BaseException) -> RuleError | None:
    if isinstance(error, RefusedCheck):
        return error.refusal
    if isinstance(error, RuleError):
        return error
    if isinstance(error, app_commands.TransformerError):
        return Refusal("error.bad_option", value=str(error.value)[:100])
    if isinstance(error, app_commands.NoPrivateMessage):
        return Refusal("error.guild_only")
    return None


def pool_name(lang: Lang, pool: str) -> str:
    """A pool's name in the rulebook's words (Impulso, Amenaza...), or its id."""
    key = f"pool.name.{pool}"
    return t(lang, key) if key in CATALOG.entries else pool


def refusal_text(lang: Lang, refusal: RuleError) -> str:
    params = dict(refusal.params)
    if isinstance(params.get("pool"), str):
        params["pool"] = pool_name(lang, params["pool"])
    return t(lang, refusal.key, **params)


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    original = getattr(error, "original", None) or error
    lang = lang_for(interaction.locale)
    refusal = _refusal_of(original)
    if refusal is not None:
        text = refusal_text(lang, refusal)
    else:
        ref = secrets.token_hex(3).upper()
        log.error(
            "unexpected error",
            exc_info=original,
            extra={"ref": ref, "interaction": interaction.id, "channel": interaction.channel_id},
        )
        text = t(lang, "error.unexpected", ref=ref)
    try:
        await send(interaction, embed=embeds.refusal(text), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error answer", extra={"interaction": interaction.id})
