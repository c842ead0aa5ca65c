"""The bot: opens the store, loads the cogs, syncs commands, drains work on close."""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import logging
import pkgutil
import random
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import seen, systems
from bot.board.updater import Boards
from bot.checks import SERVER_CONTEXTS, SERVER_INSTALLS, usable_here
from bot.errors import DATABASE_ERRORS, RefusedCheck, answer_error
from bot.host import Repeater
from bot.internals import in_flight_interactions, open_forms
from bot.lockfile import hold
from bot.options import check_texts
from bot.repeat import RepeatButton, TirarRepeatButton
from bot.settings import Settings
from bot.store import Retention, Store
from bot.translator import Translator
from bot.ui import answer_orphans

log = logging.getLogger(__name__)

# The cogs that play no system, loaded before and after the systems' own. ``/mesa sistema``
# offers the systems declared when its cog loads: every one, as it loads after them.
COGS = "cogs"
BEFORE_SYSTEMS = (f"{COGS}.tirar",)
AFTER_SYSTEMS = (
    f"{COGS}.mesa",
    f"{COGS}.probabilidad",
    f"{COGS}.ficha",
    f"{COGS}.guardada",
    f"{COGS}.estadisticas",
)


def system_extensions() -> tuple[str, ...]:
    """Every system's cog package, found by its declaration (``cogs/<system>/system.py``,
    bot/systems.py): adding a system is adding its package. Found on disk, so that nothing
    of a cog runs before its extension loads."""
    spec = importlib.util.find_spec(COGS)
    assert spec is not None and spec.submodule_search_locations is not None
    folders = [Path(location) for location in spec.submodule_search_locations]
    found = {
        module.name
        for module in pkgutil.iter_modules([str(folder) for folder in folders])
        if module.ispkg and any((folder / module.name / "system.py").is_file() for folder in folders)
    }
    return tuple(f"{COGS}.{name}" for name in sorted(found))


EXTENSIONS = (*BEFORE_SYSTEMS, *system_extensions(), *AFTER_SYSTEMS)
COMMANDS_HASH = "commands_hash"
DRAIN_SECONDS = 10.0
# Rolls read by nothing but their own buttons (and, for Dune, the task they count towards):
# forgotten after ``Retention.records``; ``/tirar``'s here, each system's in its declaration
# (bot/systems.py ``forgotten``). Sheets, tasks, combats, inspiration and Donjon tests (their
# facts wait to be narrated) are table state and stay. docs/decisiones.md; a test checks
# every kind the cogs declare is one or the other.
FORGOTTEN = ("tirar",)


def retention() -> Retention:
    """What pruning forgets, of every system declared."""
    return Retention(kinds=(*FORGOTTEN, *(kind for system in systems.every() for kind in system.forgotten)))


class TiradaTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A command that needs a table, used where there is none (a DM, a server without
        Tirada), says so in the user's language; an autocomplete there just offers nothing.
        A text option with a control character (``bot.options.check_texts``) is refused
        too; while it is being typed, it is offered nothing."""
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        if not usable_here(interaction):
            if autocomplete:
                return False
            raise RefusedCheck("error.needs_server")
        try:
            check_texts(interaction)
        except RefusedCheck:
            if not autocomplete:
                raise
            await interaction.response.autocomplete([])
            return False
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await answer_error(interaction, error)


class Tirada(commands.Bot):
    """One process serving every table. ``rng`` is injectable so tests can seed it."""

    store: Store
    lock: IO[bytes]
    boards: Boards

    def __init__(self, settings: Settings, *, rng: random.Random | None = None, **shards: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=TiradaTree,
            help_command=None,
            allowed_installs=SERVER_INSTALLS,
            allowed_contexts=SERVER_CONTEXTS,
            **shards,
        )
        self.settings = settings
        self.rng = rng if rng is not None else random.SystemRandom()
        # How to roll each kind of roll again (bot.repeat): each cog registers its own.
        self.repeaters: dict[str, Repeater] = {}

    @classmethod
    def for_settings(cls, settings: Settings) -> Tirada:
        """The bot these settings ask for: sharded when ``TIRADA_SHARD_COUNT`` is set."""
        if not settings.sharded:
            return cls(settings)
        ids = list(settings.tirada_shard_ids) if settings.tirada_shard_ids is not None else None
        return ShardedTirada(settings, shard_count=settings.tirada_shard_count, shard_ids=ids)

    async def setup_hook(self) -> None:
        await self.open_books()
        await self.tree.set_translator(Translator())
        self.add_dynamic_items(RepeatButton, TirarRepeatButton)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.holds_shard_zero:
            await self.sync_commands()
        else:
            log.info("commands are synced by the process holding shard 0")
        await self.follow_books()

    async def open_books(self) -> None:
        """The database half of a start: the file's lock, the store, and what listens to
        its changes (the live boards; ``bot.seen``, so what an interaction read is read
        again once it writes there)."""
        if isinstance(self.settings.tirada_db, Path):
            self.lock = hold(self.settings.tirada_db)
        self.store = await self.open_store()
        self.boards = Boards(self, delay=self.settings.tirada_board_delay)
        self.store.listeners.append(self.boards.touch)
        self.store.listeners.append(seen.forget)

    async def follow_books(self) -> None:
        """Once the cogs are loaded: the boards drawn, other processes' changes heard, and
        the retention task running."""
        await self.boards.start()
        await self.store.follow_others(self.boards.resync)
        self.prune.start()

    async def close_books(self) -> None:
        """Stop listening to the store and close the boards (the store itself closes after
        the gateway, in ``__main__``): the database half of a close."""
        if self.boards.touch in self.store.listeners:
            self.store.listeners.remove(self.boards.touch)
        await self.boards.close()

    async def open_store(self) -> Store:
        """The database ``TIRADA_DB`` names. A PostgreSQL server that never answers times
        out: that is the database's fault, not Discord's, so it must not read as a timeout
        (which ``__main__`` takes for Discord out of reach and retries as such)."""
        try:
            return await Store.open(self.settings.tirada_db)
        except TimeoutError as error:
            raise ConnectionError(f"the database did not answer in time: {error!r}") from error

    @tasks.loop(minutes=10)
    async def prune(self) -> None:
        """Retention, in the background: a failure is logged and the next round tries again.
        A database failure (``DATABASE_ERRORS``: a PostgreSQL connection lost mid-prune is
        asyncpg's InterfaceError, not a PostgresError) would otherwise end the task for good."""
        try:
            pruned = await self.store.prune(retention())
        except DATABASE_ERRORS:
            log.exception("pruning failed; nothing was lost, it runs again later")
            self.dispatch("retention_run", "failed")
            return
        self.dispatch("retention_run", "done")
        if any(asdict(pruned).values()):
            log.info("pruned", extra=asdict(pruned))

    async def commands_payload(self) -> list[dict[str, Any]]:
        """The global commands as Discord receives them, in every language of the catalog."""
        translator = self.tree.translator
        assert translator is not None
        return [await c.get_translated_payload(self.tree, translator) for c in self.tree.get_commands()]

    async def sync_commands(self) -> None:
        """Sync to the dev guild every start; globally only when the command set changed.

        The global payload is translated once, for its digest and for the upload
        (``tree.sync`` would translate it again): discord.py asks the translator for every
        command string in each of Discord's locales, a fifth of a start.
        """
        try:
            if self.settings.tirada_dev_guild is not None:
                guild = discord.Object(self.settings.tirada_dev_guild)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
                log.info("commands synced to the dev guild", extra={"guild": guild.id})
                return
            payload = await self.commands_payload()
            digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
            if await self.store.get_meta(COMMANDS_HASH) == digest:
                log.info("commands unchanged; not synced")
                return
            if self.application_id is None:
                raise app_commands.MissingApplicationID
            await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
            await self.store.set_meta(COMMANDS_HASH, digest)
            log.info("commands synced globally")
        except discord.HTTPException:
            log.exception("command sync failed; the commands Discord already has stay in place")

    def release(self) -> None:
        """Let another process have the database: call after closing the store."""
        if hasattr(self, "lock"):
            self.lock.close()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await answer_orphans(interaction, open_forms(self))

    async def close(self) -> None:
        self.prune.cancel()
        await self._drain()
        if hasattr(self, "boards"):
            # Other processes' changes may still be heard until the store closes: not here
            # (a second close, a second SIGTERM, finds it gone already).
            await self.close_books()
        await super().close()

    async def _drain(self) -> None:
        pending = in_flight_interactions()
        if pending:
            log.info("finishing in-flight interactions", extra={"count": len(pending)})
            await asyncio.wait(pending, timeout=DRAIN_SECONDS)


class ShardedTirada(Tirada, commands.AutoShardedBot):
    """The same bot over the shards ``TIRADA_SHARD_IDS`` of ``TIRADA_SHARD_COUNT``.

    discord.py's ``AutoShardedBot`` runs those shards on one gateway connection each; the
    other shards run in other processes sharing one PostgreSQL database (docs/escalar.md).
    """
