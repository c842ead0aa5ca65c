"""The character panels open now, redrawn when their numbers change.

A panel is a private (ephemeral) message: nobody but the interaction that drew it can edit
it, through its token, and Discord takes the token back 15 minutes after the interaction.
Each drawing of a panel (``/ficha ver``, *Ver ficha*, a page turned, the board's *Fichas*)
is kept here, in memory, with its interaction until a little before then. When the store
says a table changed (its listeners: a typed command, a card's button, the GM, the panel's
own *Cambiar*), the open panels of that table's sheets are drawn again from the database
for the reader each was drawn for, and edited where the drawing changed. A reader who may
no longer read the sheet (sheets made private again, another GM named, the sheet deleted)
gets a line saying so in its place, and the panel is let go. After a restart nothing is kept: a panel shows
what it showed until its next press (docs/decisiones.md, issue 31: "El panel se redibuja").
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import discord

from bot.checks import is_gm
from bot.errors import DATABASE_ERRORS, Refusal
from bot.i18n import lang_for, t
from bot.models import SheetRow, Table
from bot.sheets import access
from bot.store import Store
from bot.store.touched import Touched

log = logging.getLogger(__name__)

# Discord, Receiving an Interaction: "Interaction tokens are valid for 15 minutes". A panel
# is let go half a minute before, so that an edit begun in time never arrives too late.
TOKEN_SECONDS = 15 * 60
MARGIN_SECONDS = 30
# Open panels kept a table, the oldest let go first: a redraw edits each one that changed.
PER_TABLE = 25
# How often every table's expired panels are let go (a quiet table's too).
PRUNE_SECONDS = 60.0
TASK_PREFIX = "tirada-panel"

# What a panel is drawn from, read once a redraw for every reader of the sheet.
S = TypeVar("S")
Read = Callable[[Store, SheetRow], Awaitable[S]]
Draw = Callable[[discord.Interaction, Table, S, int], discord.ui.LayoutView]
Components = list[dict[str, Any]]


@dataclass
class OpenPanel:
    """One panel message: the interaction whose token edits it, the sheet and page it
    shows, when it is let go, and what it shows now."""

    interaction: discord.Interaction
    sheet_id: int
    page: int
    expires: float
    shown: Components


@dataclass
class Reads(Generic[S]):
    """One redraw's reads of the table's sheets: each read once, whichever of its readers
    asks first, and shared with the others."""

    store: Store
    read: Read[S]
    rows: dict[int, SheetRow | None] = field(default_factory=dict)
    played: dict[int, S] = field(default_factory=dict)

    async def row(self, channel_id: int, sheet_id: int) -> SheetRow | None:
        if sheet_id not in self.rows:
            self.rows[sheet_id] = await self.store.sheet(channel_id, sheet_id)
        return self.rows[sheet_id]

    async def content(self, row: SheetRow) -> S:
        if row.id not in self.played:
            self.played[row.id] = await self.read(self.store, row)
        return self.played[row.id]


class OpenPanels(Generic[S]):
    """Every open panel of this process, by table and message. ``read`` reads what a
    sheet's panel is drawn from (``cogs.ficha.panel.played``), ``draw`` draws it for an
    interaction's reader (``cogs.ficha.panel.drawn``); ``clock`` is injectable so a test
    lets fifteen minutes pass."""

    def __init__(self, read: Read[S], draw: Draw[S], clock: Callable[[], float] = time.monotonic) -> None:
        self.read = read
        self.draw = draw
        self.clock = clock
        self.store: Store | None = None
        self.edits = 0
        self._open: dict[int, dict[int, OpenPanel]] = {}
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._pruned = clock()

    def keep(
        self,
        interaction: discord.Interaction,
        row: SheetRow,
        message_id: int | None,
        page: int,
        view: discord.ui.LayoutView,
    ) -> None:
        """``interaction`` drew page ``page`` of ``row``'s panel in message ``message_id``
        (None: Discord did not say which, and it cannot be followed)."""
        self.follow(interaction.client.store)  # type: ignore[attr-defined]
        if message_id is None:
            return
        now = self.clock()
        self._prune(now)
        panels = self._open.setdefault(row.channel_id, {})
        panels.pop(message_id, None)
        expires = now + TOKEN_SECONDS - MARGIN_SECONDS
        panels[message_id] = OpenPanel(interaction, row.id, page, expires, view.to_components())
        while len(panels) > PER_TABLE:
            del panels[next(iter(panels))]

    def follow(self, store: Store) -> None:
        """Listen to ``store``: the bot's books. Books opened again are other books, which
        the panels drawn from the old ones do not outlive."""
        if store is self.store:
            return
        self.close()
        self.store = store
        store.listeners.append(self.touch)

    def close(self) -> None:
        """Stop listening and let every panel go (the cog is unloaded, or the books change)."""
        if self.store is not None and self.touch in self.store.listeners:
            self.store.listeners.remove(self.touch)
        self.store = None
        self._open.clear()
        self._dirty.clear()
        for task in self._tasks.values():
            task.cancel()

    async def settled(self) -> None:
        """Wait until no redraw is under way (tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def open_at(self, channel_id: int) -> int:
        """How many panels of the table are kept open."""
        return len(self._open.get(channel_id, {}))

    def touch(self, channel_id: int, _touched: Touched) -> None:
        """The store's listener: the table changed, its open panels are drawn again. Never
        blocks; a change arriving during a redraw draws them once more after it."""
        if channel_id not in self._open:
            return
        self._dirty.add(channel_id)
        if channel_id not in self._tasks:
            task = asyncio.create_task(self._keep_drawn(channel_id), name=f"{TASK_PREFIX}-{channel_id}")
            self._tasks[channel_id] = task

    async def _keep_drawn(self, channel_id: int) -> None:
        try:
            while channel_id in self._dirty:
                self._dirty.discard(channel_id)
                await self._redraw_table(channel_id)
        finally:
            self._tasks.pop(channel_id, None)

    async def _redraw_table(self, channel_id: int) -> None:
        self._prune(self.clock())
        panels = self._open.get(channel_id, {})
        if not panels or self.store is None:
            return
        try:
            table = await self.store.table_or_default(channel_id, None)
        except DATABASE_ERRORS:
            log.warning("open panels not redrawn", extra={"channel": channel_id}, exc_info=True)
            return
        reads = Reads(self.store, self.read)
        for message_id, panel in list(panels.items()):
            kept = panel.expires > self.clock() and await self._redraw(table, message_id, panel, reads)
            if not kept and panels.get(message_id) is panel:
                del panels[message_id]
        if not panels:
            self._open.pop(channel_id, None)

    async def _redraw(self, table: Table, message_id: int, panel: OpenPanel, reads: Reads[S]) -> bool:
        """Draw ``panel`` again and edit it if it changed; False: let it go. A panel drawn
        anew meanwhile (a page turned while this one read the store) is left as it is."""
        try:
            view, kept = await self._drawing(table, panel, reads)
        except DATABASE_ERRORS:
            log.warning("open panel not redrawn", extra={"sheet": panel.sheet_id}, exc_info=True)
            return True
        drawn = view.to_components()
        if drawn == panel.shown or self._open.get(table.channel_id, {}).get(message_id) is not panel:
            return kept
        try:
            await panel.interaction.edit_original_response(view=view)
        except discord.HTTPException as error:
            # Dismissed by its reader, or a token Discord no longer takes: nothing to edit.
            log.info("open panel gone", extra={"sheet": panel.sheet_id, "status": error.status})
            return False
        panel.shown = drawn
        self.edits += 1
        return kept

    async def _drawing(
        self, table: Table, panel: OpenPanel, reads: Reads[S]
    ) -> tuple[discord.ui.LayoutView, bool]:
        """The panel as its reader may see it now, and whether it stays open. A sheet
        deleted, or one its reader may no longer read, leaves a line saying so instead. At a
        table with no GM named, whoever could manage the channel when the panel opened still
        may: Discord tells that right only with an interaction (docs/decisiones.md, "El
        panel se redibuja")."""
        interaction = panel.interaction
        row = await reads.row(table.channel_id, panel.sheet_id)
        if row is None:
            return notice(interaction, "fichas.panel.gone"), False
        if not access.readable(table, is_gm(table, interaction), interaction.user.id, row):
            return notice(interaction, "fichas.panel.unreadable"), False
        try:
            return self.draw(interaction, table, await reads.content(row), panel.page), True
        except Refusal as refusal:
            return notice(interaction, refusal.key, **refusal.params), False

    def _prune(self, now: float) -> None:
        """Let go every table's expired panels, once a minute (a quiet table's too)."""
        if now - self._pruned < PRUNE_SECONDS:
            return
        self._pruned = now
        for channel_id, panels in list(self._open.items()):
            for message_id in [m for m, p in panels.items() if p.expires <= now]:
                del panels[message_id]
            if not panels:
                del self._open[channel_id]


def notice(interaction: discord.Interaction, key: str, **params: Any) -> discord.ui.LayoutView:
    """A panel's last drawing: one line, in its reader's language."""
    text = t(lang_for(interaction.locale), key, **params)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(discord.ui.TextDisplay(text)))
    view.stop()
    return view
