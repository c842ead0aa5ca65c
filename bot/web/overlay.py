"""Each table's overlay: its live board and its last public card, pushed to the pages open
on it (server-sent events), never more than the table's players see.

Two sources only (docs/decisiones.md): the board as ``bot.board.render`` draws it for the
channel (the players' rendering: hidden Amenaza, NPC numbers and hit points as the table's
setting says are already left out), and the last card the bot posted *publicly* in the
table's own channel (``public_roll`` from ``bot.reveal``, ``public_edit`` from
``bot.delivery``, dispatched only for messages everyone in that channel sees: never an
ephemeral answer, never the GM channel, never a secret roll before "Revelar" posts it).

One hub a table with pages open makes the snapshot once per burst of changes, as the
event's bytes, and hands those same bytes to every page of that table; a page holds the
latest event only, never a queue of stale ones. The board in it is the live board's own
drawing (``bot.board.updater.Drawings``): a change is read once, whether the table has a
board message, open pages, or both. Every change the store's listeners hear reaches the
pages (another process's too, under PostgreSQL), and so does every ``Boards.resync`` (the
sweep, changes missed while the store was not listening). A page costs no timer of its
own: one heartbeat for the whole process checks each table's link once and keeps the
streams alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.board.updater import TASK_PREFIX
from bot.errors import DATABASE_ERRORS
from bot.i18n import LANGS, t
from bot.store.touched import Touched
from bot.web import tokens, view
from bot.web.tokens import Overlay

if TYPE_CHECKING:
    from bot.client import Tirada

log = logging.getLogger(__name__)

# A burst of changes is drawn once it has been quiet QUIET seconds, and SETTLE seconds
# after its first change at the latest: the page must show a change within a second, and
# each drawing reads the store (at 0.1 s, 200 pages on 50 busy tables made interactions'
# median five times slower: bench/bench_overlay.py), so a lone change shows in about
# 0.3 s and quick clicks in a row are one drawing. A change arriving during a drawing waits
# SETTLE at most for the next: the same worst case as a fixed 0.4 s wait, which could
# miss a change by a hair and wait twice. QUIET bounds each stream's rate: a hub offers
# its pages one event a QUIET at most.
QUIET = 0.3
SETTLE = 0.7
# Seconds between two heartbeats: each checks every table's link again (another process
# sharing the database may have revoked it) and writes a comment to every stream with
# nothing else waiting (a page gone away is found so, by the write failing).
KEEPALIVE = 15.0
KEEP_ALIVE = b": keep-alive\n\n"
# Pages open at once on one table, and on the whole process.
STREAMS_PER_TABLE = 8
STREAMS = 2000
# Channels whose last public card is remembered, and user names kept for mentions.
CARDS_KEPT = 10_000
NAMES_KEPT = 10_000
RETRY = 1.0


class Stream:
    """One open page, opened with the link whose hash is ``hashed``: the latest event not
    yet written to it (older ones are dropped, so what waits for a slow page is one event)."""

    def __init__(self, overlay: Overlay, hashed: str) -> None:
        self.overlay = overlay
        self.hashed = hashed
        self.revoked = False
        # The server is closing (the bot stops or restarts): the stream ends, the link
        # still works, and the page connects again by itself.
        self.ended = False
        self._pending: bytes | None = None
        self._ready = asyncio.Event()

    def offer(self, event: bytes) -> None:
        self._pending = event
        self._ready.set()

    def keep_alive(self) -> None:
        """A comment for a page with nothing else waiting (a snapshot is never replaced)."""
        if self._pending is None:
            self.offer(KEEP_ALIVE)

    def revoke(self) -> None:
        self.revoked = True
        self._ready.set()

    def end(self) -> None:
        self.ended = True
        self._ready.set()

    async def next(self) -> bytes | None:
        """The next event to write, once there is one; None once the stream is over
        (revoked or ended). No timeout: the heartbeat wakes a quiet page, so a waiting page
        holds no timer."""
        await self._ready.wait()
        self._ready.clear()
        pending, self._pending = self._pending, None
        return None if self.revoked or self.ended else pending


@dataclass(frozen=True)
class Card:
    """The last public roll of a channel: its message and embeds as Discord received them."""

    message_id: int
    embeds: list[dict[str, Any]]


@dataclass
class Hub:
    """The pages open on one table (in one language), the snapshot they show and its event."""

    overlay: Overlay
    streams: set[Stream] = field(default_factory=set)
    snapshot: str | None = None
    event: bytes | None = None
    dirty: bool = True
    # When the table last changed (the loop's clock): a burst is drawn once it is quiet.
    changed: float = 0.0
    task: asyncio.Task[None] | None = None


class Overlays:
    """Every open overlay of this process, fed by the store's listeners and public cards."""

    def __init__(self, bot: Tirada, *, quiet: float = QUIET, settle: float = SETTLE) -> None:
        self.bot = bot
        self.quiet = quiet
        self.settle = settle
        self.hubs: dict[Overlay, Hub] = {}
        self.cards: OrderedDict[int, Card] = OrderedDict()
        self.names: OrderedDict[int, str] = OrderedDict()
        self._heart: asyncio.Task[None] | None = None

    @property
    def open_streams(self) -> int:
        return sum(len(hub.streams) for hub in self.hubs.values())

    # -- what feeds them -------------------------------------------------------------------

    def touch(self, channel_id: int, touched: Touched) -> None:
        """The table changed (a store listener): its open overlays are redrawn soon, if
        their board may show what changed (the last card changes by ``public_roll`` and
        ``public_edit`` alone)."""
        if self.bot.boards.drawings.shows(channel_id, touched):
            self._redraw(channel_id)

    def _redraw(self, channel_id: int) -> None:
        for hub in self._hubs_of(channel_id):
            self._dirty(hub)

    def resync(self) -> None:
        """Changes may have gone unheard (the boards' sweep, another process's changes
        missed while the store was not listening): every open overlay is drawn again; an
        unchanged one sends nothing."""
        for hub in self.hubs.values():
            self._dirty(hub)

    def public_roll(self, channel_id: int, message_id: int, embeds: list[discord.Embed]) -> None:
        """A roll everyone in ``channel_id`` sees was posted there: the page's last roll."""
        self.cards[channel_id] = Card(message_id, [dict(embed.to_dict()) for embed in embeds])
        self.cards.move_to_end(channel_id)
        while len(self.cards) > CARDS_KEPT:
            self.cards.popitem(last=False)
        self._redraw(channel_id)

    def public_edit(self, channel_id: int, message_id: int, embeds: list[discord.Embed]) -> None:
        """A public message was edited (a button pressed on it): if it is the last roll,
        the page shows it as it is now."""
        card = self.cards.get(channel_id)
        if card is not None and card.message_id == message_id:
            self.cards[channel_id] = Card(message_id, [dict(embed.to_dict()) for embed in embeds])
            self._redraw(channel_id)

    def seen(self, interaction: discord.Interaction) -> None:
        """Remember the name of whoever interacts, for the mentions the page shows."""
        self.names[interaction.user.id] = interaction.user.display_name
        self.names.move_to_end(interaction.user.id)
        while len(self.names) > NAMES_KEPT:
            self.names.popitem(last=False)

    # -- the pages ----------------------------------------------------------------------------

    def join(self, overlay: Overlay, hashed: str) -> Stream | None:
        """A new page on ``overlay`` (opened with the link hashed ``hashed``), with the
        snapshot on its way; None past the bounds."""
        hub = self.hubs.get(overlay)
        if self.open_streams >= STREAMS or (hub is not None and len(hub.streams) >= STREAMS_PER_TABLE):
            return None
        if hub is None:
            hub = self.hubs[overlay] = Hub(overlay)
            self._dirty(hub)
        stream = Stream(overlay, hashed)
        hub.streams.add(stream)
        if hub.event is not None:
            stream.offer(hub.event)
        return stream

    def leave(self, stream: Stream) -> None:
        hub = self.hubs.get(stream.overlay)
        if hub is None:
            return
        hub.streams.discard(stream)
        if not hub.streams:
            del self.hubs[stream.overlay]
            if hub.task is not None:
                hub.task.cancel()

    def revoke(self, channel_id: int) -> None:
        """The table's link was replaced or revoked: every page open on it stops."""
        for hub in self._hubs_of(channel_id):
            for stream in hub.streams:
                stream.revoke()

    def _hubs_of(self, channel_id: int) -> list[Hub]:
        """The table's hubs, one a language its pages are open in (no walk over the others)."""
        hubs = (self.hubs.get(Overlay(channel_id, lang)) for lang in LANGS)
        return [hub for hub in hubs if hub is not None]

    # -- the heartbeat ------------------------------------------------------------------------

    def start(self) -> None:
        self._heart = asyncio.create_task(self._beat(), name=f"{TASK_PREFIX}-overlay-heartbeat")

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(KEEPALIVE)
            await self.beat()

    async def beat(self) -> None:
        """One heartbeat: each table with pages open has its link read once (one read a
        table, however many pages), its pages opened with another link stop, and every
        page still open gets a keep-alive comment unless an event is already waiting."""
        for channel_id in {overlay.channel_id for overlay in self.hubs}:
            try:
                current = await tokens.current(self.bot.store, channel_id)
            except DATABASE_ERRORS:
                log.warning("overlay link check failed; pages kept until the next", exc_info=True)
                continue
            for hub in self._hubs_of(channel_id):
                for stream in hub.streams:
                    if stream.hashed != current:
                        stream.revoke()
        for hub in list(self.hubs.values()):
            for stream in hub.streams:
                stream.keep_alive()

    async def close(self) -> None:
        tasks = [hub.task for hub in self.hubs.values() if hub.task is not None]
        if self._heart is not None:
            tasks.append(self._heart)
            self._heart = None
        for hub in self.hubs.values():
            for stream in hub.streams:
                stream.end()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- drawing --------------------------------------------------------------------------------

    def _dirty(self, hub: Hub) -> None:
        hub.dirty = True
        hub.changed = asyncio.get_running_loop().time()
        if hub.task is None:
            channel = hub.overlay.channel_id
            # Named as a board's refresher (it is one, for the page): waiting for an
            # interaction to finish never waits for the boards that show it.
            hub.task = asyncio.create_task(self._keep(hub), name=f"{TASK_PREFIX}-overlay-{channel}")

    async def _keep(self, hub: Hub) -> None:
        """Draw the table's snapshot until it is current; a failed read tries again."""
        try:
            while hub.dirty:
                await self._burst_over(hub)
                hub.dirty = False
                try:
                    snapshot = await self.snapshot(hub.overlay)
                except DATABASE_ERRORS:
                    log.warning("overlay draw failed; trying again", exc_info=True)
                    hub.dirty = True
                    await asyncio.sleep(RETRY)
                    continue
                if snapshot != hub.snapshot:
                    hub.snapshot = snapshot
                    # Made into bytes once; every page of the table writes the same ones.
                    hub.event = f"data: {snapshot}\n\n".encode()
                    for stream in hub.streams:
                        stream.offer(hub.event)
        finally:
            hub.task = None

    async def _burst_over(self, hub: Hub) -> None:
        """Until the table has been quiet ``quiet`` seconds, or ``settle`` seconds have
        passed since this wait began (a table that never stops changing is still shown)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settle
        while True:
            wake = min(hub.changed + self.quiet, deadline)
            if wake <= loop.time():
                return
            # A change meanwhile moves ``changed`` on: the next round waits again.
            await asyncio.sleep(wake - loop.time())

    async def snapshot(self, overlay: Overlay) -> str:
        """Everything the page shows, as one JSON text: the board (the drawing the live
        board shares, ``bot.board.updater.Drawings``) and the last card."""
        lang = overlay.lang
        board = await self.bot.boards.drawings.board(overlay.channel_id, lang)
        card = self.cards.get(overlay.channel_id)
        cards = card.embeds if card is not None else []
        data = {
            "lang": lang,
            "board": view.embed_view(lang, dict(board.to_dict()), self.name),
            "card": [view.embed_view(lang, card, self.name) for card in cards],
            "last": t(lang, "overlay.last_card"),
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def name(self, kind: str, snowflake: int) -> str | None:
        """A mention's name as the table knows it: a user who interacted or a role of the
        guilds the bot is in. Never a channel's: a card may point at the GM's private
        channel, whose name the players do not see (Discord shows them no name either)."""
        if kind == "user":
            return self.names.get(snowflake)
        if kind == "channel":
            return None
        for guild in self.bot.guilds:
            role = guild.get_role(snowflake)
            if role is not None:
                return role.name
        return None
