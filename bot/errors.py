"""One place that answers every error, from commands, views, modals and buttons.

A rule or bot refusal (anything with a catalog key) becomes an ephemeral embed in the
user's language; anything unexpected becomes "something failed (ref XXXX)" for the
user and a logged traceback with the same reference for us.
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
from typing import Any

import asyncpg
import discord
from discord import app_commands

from bot import embeds
from bot.delivery import send
from bot.i18n import CATALOG, Lang, lang_for, t
from bot.store import DatabaseReplaced
from rules.errors import RuleError

log = logging.getLogger(__name__)


class Refusal(RuleError):
    """A refusal decided by the bot rather than by a rule (permissions, wrong channel)."""


class RefusedCheck(app_commands.CheckFailure):
    """A failed command check that knows which sentence to answer with."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.refusal = Refusal(key, **params)


# Discord's JSON error codes the bot reacts to: an answer to an interaction that already
# has one (a duplicate delivery, answered the first time), and a body past its limits.
ALREADY_ACKNOWLEDGED = 40060
INVALID_FORM_BODY = 50035


class RefusedOption(app_commands.AppCommandError):
    """An option value refused while discord.py converts it (``bot.options``): an
    ``AppCommandError``, so discord.py passes it on instead of hiding it in a
    ``TransformerError``."""

    def __init__(self, refusal: RuleError) -> None:
        super().__init__(refusal.key)
        self.refusal = refusal


# The PostgreSQL server out of reach mid-game (restarting, shutting down, the network):
# what it had not committed is rolled back; what it had, /mesa historial shows. A
# connection cut under a query leaves asyncpg's protocol mid-operation, which it reports
# as an InternalClientError ("cannot switch to state 15; another operation is in progress").
DATABASE_GONE = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.exceptions.OperatorInterventionError,
    ConnectionError,
)
# The database failed, whichever it is: what a background task (the retention, a board,
# an overlay, an open panel) or the health check catches, logs and tries again later.
# SQLite's errors (a replaced file's ``DatabaseReplaced`` among them), PostgreSQL's, the
# server out of reach, and the operating system's: ``OSError`` covers a connection refused
# or reset and a server that never answers (``TimeoutError``).
DATABASE_ERRORS = (sqlite3.Error, asyncpg.PostgresError, *DATABASE_GONE, OSError)


def _refusal_of(error: BaseException) -> RuleError | None:
    if isinstance(error, RefusedCheck | RefusedOption):
        return error.refusal
    if isinstance(error, RuleError):
        return error
    if isinstance(error, app_commands.TransformerError):
        return Refusal("error.bad_option", value=str(error.value)[:100])
    if isinstance(error, app_commands.NoPrivateMessage):
        return Refusal("error.guild_only")
    if isinstance(error, DatabaseReplaced):
        log.error(
            "the database file was deleted or replaced while the bot runs; changes are refused "
            "(they would be lost on restart). To recover: stop the bot, put the database back "
            "at the path (a backup, or a copy of /proc/PID/fd/N taken while this process still "
            "runs: it holds the file open), then start it again",
            extra={"path": str(error), "pid": os.getpid()},
        )
        return Refusal("error.db_replaced")
    if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
        log.warning("database locked past the busy timeout; nothing was changed")
        return Refusal("error.db_busy")
    if isinstance(error, sqlite3.OperationalError) and _unwritable(error):
        log.error(
            "the database cannot be written; nothing was changed",
            extra={"sqlite_error": getattr(error, "sqlite_errorname", str(error))},
        )
        return Refusal("error.db_unwritable")
    if isinstance(error, DATABASE_GONE):
        log.error("the database server cannot be reached", extra={"reason": repr(error)})
        return Refusal("error.db_unreachable")
    return None


def _unwritable(error: sqlite3.OperationalError) -> bool:
    """The file cannot take a write: SQLite says READONLY when it knows, fails the commit's
    write with IOERR when the file itself refuses it, and says FULL when the disk is."""
    name = getattr(error, "sqlite_errorname", "")
    return name.startswith(("SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_FULL")) or "readonly" in str(error)


def pool_name(lang: Lang, pool: str) -> str:
    """A pool's name in the rulebook's words (Impulso, Amenaza...), or its id. A pool named
    by its players (a scene's trait, ``rasgo:humo denso``) is its kind's word around the
    name, shown as plain text."""
    key = f"pool.name.{pool}"
    if key in CATALOG.entries:
        return t(lang, key)
    kind, named, name = pool.partition(":")
    if named and f"pool.prefix.{kind}" in CATALOG.entries:
        plain = discord.utils.escape_mentions(discord.utils.escape_markdown(name))
        return t(lang, f"pool.prefix.{kind}", name=plain)
    return pool


def refusal_text(lang: Lang, refusal: RuleError) -> str:
    params = dict(refusal.params)
    if isinstance(params.get("pool"), str):
        params["pool"] = pool_name(lang, params["pool"])
    return t(lang, refusal.key, **params)


def _discord_code(error: BaseException) -> int | None:
    return error.code if isinstance(error, discord.HTTPException) else None


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    original = getattr(error, "original", None) or error
    code = _discord_code(original)
    if code == ALREADY_ACKNOWLEDGED:
        # The same interaction delivered twice: the first delivery answered it and the store
        # made the replay change nothing. Nothing failed and nobody waits for a second answer.
        log.info("replayed interaction already answered", extra={"interaction": interaction.id})
        return
    lang = lang_for(interaction.locale)
    refusal = _refusal_of(original)
    if refusal is not None:
        text = refusal_text(lang, refusal)
    elif code == INVALID_FORM_BODY:
        # A form or message past one of Discord's limits: our bug, and the player is told so
        # in their language rather than with the generic failure.
        ref = secrets.token_hex(3).upper()
        log.error(
            "Discord refused what the bot sent",
            extra={"ref": ref, "interaction": interaction.id, "discord_error": getattr(original, "text", "")},
        )
        text = t(lang, "error.discord_refused", ref=ref)
    else:
        ref = secrets.token_hex(3).upper()
        log.error(
            "unexpected error",
            exc_info=original,
            extra={"ref": ref, "interaction": interaction.id, "channel": interaction.channel_id},
        )
        text = t(lang, "error.unexpected", ref=ref)
    interaction.client.dispatch("interaction_outcome", interaction, "refused" if refusal else "failed")
    try:
        await send(interaction, embed=embeds.refusal(text), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error answer", extra={"interaction": interaction.id})
