"""Keeping each table's board current, without ever holding up an interaction.

The store calls :meth:`Boards.touch` after every write that changed a table (commands,
buttons, undo, reset, scene end: they all pass through it). ``touch`` only marks the board
dirty; one task a board waits ``delay`` seconds, so a burst of changes becomes one edit,
then draws the board from the store as it is at that moment and edits the message. A
change arriving during an edit marks it dirty again: the last state is always drawn, and
stale ones are never queued. A failed edit (a 429 past discord.py's own retries, a 5xx, a
network error) is logged and tried again later; a deleted board is posted again, once
saying so. The message id is kept in the store's meta, so a restart finds the boards and
brings each up to date.

With several processes on one PostgreSQL database (shards), a board is held (edited) only
by the process that runs its guild's shard (``Settings.holds_guild``); the store tells it of
the changes the other processes make too (``Store.follow_others``: LISTEN/NOTIFY), and when
those may have gone unheard (the listening connection dropped) every board is redrawn
(``resync``). A low-frequency refresh of every board (``sweep``) stays the safety net.

The drawing is shared (``Drawings``): a table's state is drawn once, by whoever shows it
first (the message here, the stream overlays of ``bot.web.overlay``), and the others get
that drawing until the table changes, so the pages open on a table never read what its
board already read.

Only a change the board may show redraws it (``render.shows``): the store says what each
write touched (``bot.store.touched``), the table's system says what its board reads, so a
D&D table's rolls, a kind its board never reads, leave its board and its drawing alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import marshal
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.board.render import board_embed, board_view, shows
from bot.errors import DATABASE_ERRORS
from bot.i18n import LANGS, Lang, t
from bot.models import Table
from bot.settings import Settings
from bot.store import Store
from bot.store.touched import ANYTHING, Touched

log = logging.getLogger(__name__)

META_PREFIX = "board:"
# Waits between attempts at an edit that failed, the last one repeated.
BACKOFF = (2.0, 5.0, 15.0, 60.0)
# How often every board is redrawn anyway (the safety net under other processes'
# notifications); an unchanged board is not edited.
SWEEP_SECONDS = 300.0
# discord.py's error codes for a message or channel that no longer exists.
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL = 10008, 10003
TASK_PREFIX = "tirada-board"
# Tables whose latest drawing is kept (1–2 KB each), the least recently drawn let go. A kept
# drawing saves a read only to whoever shows the table again before it changes: its overlay
# pages and its board, which draw within a second of each other (``TIRADA_BOARD_DELAY``, the overlay's
# ``SETTLE``). 2,000 tables at play draw some 30 boards a second, so 256 span over 8 s of
# drawings, where keeping every table's (10,000) held 3 MB that nothing read again.
DRAWINGS_KEPT = 256

Sleep = Callable[[float], Awaitable[None]]


@dataclass
class Spot:
    """Where a table's board is, and in which language it is drawn (the GM's, when placed)."""

    channel_id: int
    message_id: int
    lang: Lang
    # The table's guild: the process running its shard holds the board (None: not known).
    guild_id: int | None = None

    def dump(self) -> str:
        return json.dumps({"message": self.message_id, "lang": self.lang, "guild": self.guild_id})

    @classmethod
    def load(cls, channel_id: int, text: str) -> Spot:
        data = json.loads(text)
        guild = data.get("guild")
        lang: Lang = "en" if data.get("lang") == "en" else "es"
        return cls(channel_id, int(data["message"]), lang, None if guild is None else int(guild))


def fingerprint(embed: discord.Embed) -> bytes:
    """A fingerprint of what a board shows, to tell an unchanged board from a changed one (the
    same embed always gives the same bytes; two different ones, with odds of 2**-128, not).

    The embed's parts are written by ``marshal``'s first format, which writes every value by
    its type and content (no references to objects met before, so equal parts give equal
    bytes whoever made them), in a fraction of JSON's time: every redraw asks, and only this
    process compares the bytes (``Boards._shown`` is never stored), so the format's changes
    between Python versions do not matter. A board is drawn by the same code every time, so
    the same parts come in the same order. A part ``marshal`` cannot write (a subclass of
    ``str`` or ``int``, which ``discord.Embed`` does not keep today) takes JSON's text."""
    # A TypedDict of text, numbers and lists: marshal's types, which typeshed cannot tell.
    parts = cast(dict[str, Any], embed.to_dict())
    try:
        written = marshal.dumps(parts, 0)
    except ValueError:
        written = json.dumps(parts, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.blake2b(written, digest_size=16).digest()


class Drawings:
    """Each table's board as it is now, drawn once a change for whoever shows it.

    A drawing is kept until the table changes in a way it may show (``forget``: every
    change passes through ``Boards.touch``, which asks :meth:`shows` first); asking while
    one is under way waits for it rather than reading again. A change arriving during a
    drawing leaves that drawing unkept: it may have read the table half before, half after.
    """

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        # Drawings made (read from the store), for /metrics and bench/bench_overlay.py.
        self.made = 0
        self._kept: OrderedDict[tuple[int, Lang], discord.Embed] = OrderedDict()
        self._drawing: dict[tuple[int, Lang], asyncio.Lock] = {}
        self._stale: set[tuple[int, Lang]] = set()
        # The system each table played when its board was last read (a few bytes a table):
        # what its board reads. Forgotten with a change of the table's row, which may
        # change it; unknown, every change may show.
        self._plays: dict[int, str | None] = {}

    def shows(self, channel_id: int, touched: Touched) -> bool:
        """Whether the table's board may show what a write ``touched``: always while it is
        being drawn (the drawing may have read that part already) or when the table's
        system is not known; else as the system's board reads (``render.shows``)."""
        if channel_id not in self._plays or any((channel_id, lang) in self._drawing for lang in LANGS):
            return True
        return shows(self._plays[channel_id], touched)

    def played(self, table: Table) -> None:
        """The table as a drawing read it: its system says what its board reads."""
        self._plays[table.channel_id] = table.system

    def forget(self, channel_id: int, touched: Touched) -> None:
        """The table changed (in a way its board may show): its next drawing reads the
        store again."""
        if touched.table:
            self._plays.pop(channel_id, None)
        for lang in LANGS:
            self._let_go((channel_id, lang))

    def clear(self) -> None:
        """Changes may have gone unheard: every drawing reads the store again."""
        self._plays.clear()
        for key in [*self._kept, *self._drawing]:
            self._let_go(key)

    def _let_go(self, key: tuple[int, Lang]) -> None:
        self._kept.pop(key, None)
        if key in self._drawing:
            self._stale.add(key)

    async def board(self, channel_id: int, lang: Lang) -> discord.Embed:
        """The table's board in ``lang``, a copy: whoever receives it may change it."""
        return (await self.drawn(channel_id, lang)).copy()

    async def drawn(self, channel_id: int, lang: Lang) -> discord.Embed:
        """The table's board in ``lang``: the kept drawing, or a new one, itself (only read,
        never changed: the board's own edit sends it as it is, where a copy cost a
        ``to_dict`` and a ``from_dict`` of the whole embed)."""
        key = (channel_id, lang)
        while key not in self._kept and key in self._drawing:
            async with self._drawing[key]:
                pass
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        lock = self._drawing[key] = asyncio.Lock()
        async with lock:
            try:
                table = await self.bot.store.table_or_default(channel_id, None)
                self.played(table)
                embed = await board_embed(self.bot.store, lang, table)
                self.made += 1
            finally:
                del self._drawing[key]
                stale = key in self._stale
                self._stale.discard(key)
            if not stale:
                self._keep(key, embed)
        return embed

    def _keep(self, key: tuple[int, Lang], embed: discord.Embed) -> None:
        self._kept[key] = embed
        while len(self._kept) > DRAWINGS_KEPT:
            self._kept.popitem(last=False)


class Host(Protocol):
    """What the boards need of the bot (``bot.client.Tirada``, which imports this module):
    its store, its settings and its channels."""

    store: Store
    settings: Settings

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


class Boards:
    """Every table's board: where it is, whether it is stale, the task that refreshes it."""

    def __init__(self, bot: Host, *, delay: float, sleep: Sleep = asyncio.sleep) -> None:
        """``delay``: seconds between the first change of a burst and the edit that shows it
        (``TIRADA_BOARD_DELAY``)."""
        self.bot = bot
        self.delay = delay
        # Injectable so tests decide when the coalescing wait ends (no wall-clock tests).
        self.sleep = sleep
        self.spots: dict[int, Spot] = {}
        self.drawings = Drawings(bot)
        self.edits = 0
        # Edits that failed and wait to be tried again (a 429 past discord.py's retries...).
        self.failures = 0
        # Tables whose board is stale, and the task drawing each (only while one is stale:
        # two thousand quiet tables hold no task).
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._quiet = asyncio.Event()
        self._quiet.set()
        # What each board shows, as its fingerprint: a few bytes a table for the process's
        # life, where the drawing itself is kilobytes.
        self._shown: dict[int, bytes] = {}
        self._sweeper: asyncio.Task[None] | None = None
        # Two /mesa tablero at once would leave two boards: one placing at a time a table,
        # the lock kept only while someone places or waits to (``_placing_turn``).
        self._placing: dict[int, tuple[asyncio.Lock, int]] = {}
        # Boards being posted (how many posts of each table at once), and those a change
        # reached meanwhile: drawn again once posted (``_post``). Only while posting.
        self._posting: dict[int, int] = {}
        self._touched_while_posting: set[int] = set()
        # Called on every resync (the sweep, changes that may have gone unheard): whatever
        # else shows the tables (bot.web.overlay's pages) draws them again too.
        self.resynced: list[Callable[[], None]] = []

    # -- the store's side ---------------------------------------------------------------------

    async def start(self) -> None:
        """Find the boards a previous run left in this process's guilds and bring each up
        to date (another process's shards' boards are that process's)."""
        for key, text in (await self.bot.store.meta_with_prefix(META_PREFIX)).items():
            channel_id = int(key.removeprefix(META_PREFIX))
            spot = Spot.load(channel_id, text)
            if spot.guild_id is None:
                spot.guild_id = (await self.bot.store.table_or_default(channel_id, None)).guild_id
            if self.bot.settings.holds_guild(spot.guild_id):
                self.spots[channel_id] = spot
                self.touch(channel_id)
        self._sweeper = asyncio.create_task(self._sweep(), name=f"{TASK_PREFIX}-sweep")

    def touch(self, channel_id: int, touched: Touched = ANYTHING) -> None:
        """The table changed (the store's listener): its board, if it has one and may show
        what changed, is redrawn soon. Never blocks."""
        if not self.drawings.shows(channel_id, touched):
            return
        self.drawings.forget(channel_id, touched)
        if channel_id in self._posting:
            self._touched_while_posting.add(channel_id)
        if channel_id not in self.spots:
            return
        self._dirty.add(channel_id)
        if channel_id not in self._tasks:
            self._quiet.clear()
            self._tasks[channel_id] = asyncio.create_task(
                self._keep(channel_id), name=f"{TASK_PREFIX}-{channel_id}"
            )

    def resync(self) -> None:
        """Changes may have gone unheard (another process's): redraw every board held, and
        tell ``resynced``; an unchanged board is not edited."""
        self.drawings.clear()
        for channel_id in list(self.spots):
            self.touch(channel_id)
        for listener in self.resynced:
            listener()

    async def close(self) -> None:
        """Stop every task; a board left stale is brought up to date on the next start."""
        tasks = [*self._tasks.values(), *([self._sweeper] if self._sweeper else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def settled(self) -> None:
        """Wait until no board is stale or being edited (tests and benchmarks)."""
        await self._quiet.wait()

    # -- placing a board -------------------------------------------------------------------------

    async def place(self, channel_id: int, lang: Lang) -> bool:
        """Post the table's board at the bottom of its channel (removing the old one: one
        board a table) and pin it. Returns whether it could be pinned."""
        async with self._placing_turn(channel_id):
            old = self.spots.get(channel_id)
            message = await self._post(channel_id, lang, notice=None)
            if old is not None and old.message_id != message.id:
                with contextlib.suppress(discord.HTTPException):
                    await self._channel(channel_id).get_partial_message(old.message_id).delete()
        try:
            await message.pin()
        except discord.Forbidden:
            return False
        return True

    @contextlib.asynccontextmanager
    async def _placing_turn(self, channel_id: int) -> AsyncIterator[None]:
        """The table's placing lock, held; let go of once nobody else waits for it."""
        lock, waiting = self._placing.get(channel_id, (asyncio.Lock(), 0))
        self._placing[channel_id] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._placing[channel_id]
            if waiting == 1:
                del self._placing[channel_id]
            else:
                self._placing[channel_id] = (lock, waiting - 1)

    async def _post(self, channel_id: int, lang: Lang, notice: str | None) -> discord.Message:
        """Post the table's board as it is now. A change heard while it is being posted
        (before its spot is known, ``touch`` has no board to mark) is drawn once it is."""
        self._posting[channel_id] = self._posting.get(channel_id, 0) + 1
        try:
            message = await self._draw_and_post(channel_id, lang, notice)
        finally:
            still = self._posting.pop(channel_id) - 1
            if still:
                self._posting[channel_id] = still
            changed = not still and channel_id in self._touched_while_posting
            if not still:
                self._touched_while_posting.discard(channel_id)
        if changed:
            self.touch(channel_id)
        return message

    async def _draw_and_post(self, channel_id: int, lang: Lang, notice: str | None) -> discord.Message:
        table = await self.bot.store.table_or_default(channel_id, None)
        self.drawings.played(table)
        embed = await board_embed(self.bot.store, lang, table)
        message = await self._channel(channel_id).send(content=notice, embed=embed, view=board_view(lang))
        spot = Spot(channel_id, message.id, lang, table.guild_id)
        await self.bot.store.set_meta(META_PREFIX + str(channel_id), spot.dump())
        self.spots[channel_id] = spot
        self._shown[channel_id] = fingerprint(embed)
        self.edits += 1
        return message

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    # -- keeping it current ----------------------------------------------------------------------

    async def _keep(self, channel_id: int) -> None:
        """Draw one board until it is no longer stale: let the burst settle, draw the latest
        state; a change arriving meanwhile goes round again."""
        failures = 0
        try:
            while channel_id in self._dirty:
                try:
                    await self.sleep(self.delay if not failures else BACKOFF[min(failures, len(BACKOFF)) - 1])
                    self._dirty.discard(channel_id)
                    await self._refresh(channel_id)
                    failures = 0
                # An edit Discord refused or the network lost (an OSError, a timeout among
                # them) and the database failing while the board is drawn: tried again.
                except (discord.HTTPException, *DATABASE_ERRORS):
                    failures += 1
                    self.failures += 1
                    log.warning(
                        "board edit failed; trying again", extra={"channel": channel_id}, exc_info=True
                    )
                    self._dirty.add(channel_id)
        finally:
            # No await between the loop's last check and here: a touch now starts a new task.
            del self._tasks[channel_id]
            if not self._tasks:
                self._quiet.set()

    async def _refresh(self, channel_id: int) -> None:
        spot = self.spots.get(channel_id)
        if spot is None:
            return
        embed = await self.drawings.drawn(channel_id, spot.lang)
        drawn = fingerprint(embed)
        if drawn == self._shown.get(channel_id):
            return
        message = self._channel(channel_id).get_partial_message(spot.message_id)
        try:
            await message.edit(content=None, embed=embed)
        except discord.NotFound as error:
            await self._lost(channel_id, spot, error)
            return
        self._shown[channel_id] = drawn
        self.edits += 1

    async def _lost(self, channel_id: int, spot: Spot, error: discord.NotFound) -> None:
        """The message is gone: post the board again, saying so; the channel is gone: forget it.
        A board moved meanwhile (``/mesa tablero`` deleted the old one) is not posted twice."""
        if self.spots.get(channel_id) is not spot:
            return
        if error.code == UNKNOWN_MESSAGE:
            try:
                message = await self._post(channel_id, spot.lang, notice=t(spot.lang, "board.recreated"))
            except discord.NotFound:
                pass
            else:
                with contextlib.suppress(discord.Forbidden):
                    await message.pin()
                return
        log.info("board's channel is gone; board forgotten", extra={"channel": channel_id})
        self.spots.pop(channel_id, None)
        await self.bot.store.delete_meta(META_PREFIX + str(channel_id))

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.resync()
