"""What every part of the store shares: its database, its clock and its listeners."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

from bot.store.connection import Clock, Sleep, utc_now
from bot.store.database import NO_PARAMS, Database, Params, Row, Transaction, Work
from bot.store.touched import ANYTHING, Touched

T = TypeVar("T")


class Part:
    """The store's parts (tables, pools, records…) are written once against ``db``, the
    narrow interface both adapters implement (``bot.store.database``)."""

    def __init__(self, db: Database, clock: Clock = utc_now, path: str | None = None) -> None:
        self.db = db
        self._clock = clock
        # Where the database is: a file's path or a PostgreSQL URL.
        self.path = path
        # Called with a table's channel id and what changed there (``bot.store.touched``)
        # after each write that changed its state (the live boards, bot.board): every change
        # passes here, whoever made it.
        self.listeners: list[Callable[[int, Touched], None]] = []
        # Called with the seconds each read or transaction took, on either backend (/metrics).
        self.timers: list[Callable[[float], None]] = []
        # The SQL statements its database ran, counted by the adapter (/metrics).
        self.statements = db.statements
        self._last_now: tuple[datetime | None, str] = (None, "")

    def _changed(self, channel_id: int, touched: Touched) -> None:
        for listener in self.listeners:
            listener(channel_id, touched)

    def _heard(self, channel_id: int) -> None:
        """Another process changed the table: its notification names the table alone."""
        self._changed(channel_id, ANYTHING)

    async def follow_others(self, missed: Callable[[], None], sleep: Sleep = asyncio.sleep) -> None:
        """From now on, tell the listeners of every change other processes make (what it
        changed, the notification does not say: :data:`ANYTHING`); ``missed`` is called
        whenever changes may have gone unheard (each time listening starts). SQLite has
        nothing to follow: its file is one process's only (``bot.lockfile``)."""
        await self.db.follow(self._heard, missed, sleep)

    async def close(self) -> None:
        await self.db.close()

    def _now(self) -> str:
        """The time as the store writes it (ISO, to the second), written once a second:
        ``isoformat`` costs more than the statement it goes into, and most seconds see
        several writes. One pair, replaced whole (both threads ask)."""
        whole = self._clock().replace(microsecond=0)
        last = self._last_now
        if last[0] != whole:
            last = self._last_now = (whole, whole.isoformat(timespec="seconds"))
        return last[1]

    def _day(self) -> str:
        return day_of(self._now())

    def _timed(self, pending: Awaitable[T]) -> Awaitable[T]:
        """``pending``, its time told to every timer once awaited: each read and transaction
        of every part passes through one of the five below. With no timer (no /metrics)
        it is ``pending`` itself: a coroutine around each of the loop's five or so
        statements an interaction, and the five's own, cost more than the read's Python."""
        if not self.timers:
            return pending
        return self._timing(pending)

    async def _timing(self, pending: Awaitable[T]) -> T:
        started = time.perf_counter()
        try:
            return await pending
        finally:
            for timer in self.timers:
                timer(time.perf_counter() - started)

    def _fetchone(self, sql: str, params: Params = NO_PARAMS) -> Awaitable[Row | None]:
        return self._timed(self.db.fetch_one(sql, params))

    def _fetchall(self, sql: str, params: Params = NO_PARAMS) -> Awaitable[list[Row]]:
        return self._timed(self.db.fetch_all(sql, params))

    def _fetchvalue(self, sql: str, params: Params = NO_PARAMS) -> Awaitable[Any]:
        return self._timed(self.db.fetch_value(sql, params))

    def _transact(self, work: Work[T], lock: int | None = None, undoable: bool = False) -> Awaitable[T]:
        return self._timed(self.db.transact(work, lock, undoable))

    def _write_one(self, sql: str, params: Params = NO_PARAMS) -> Awaitable[Row | None]:
        return self._timed(self.db.write_one(sql, params))

    async def _ensure_table(self, tx: Transaction, channel_id: int, guild_id: int | None) -> None:
        """The table's row, written if missing: the pools and sheets reference it."""
        await tx.execute(
            "INSERT INTO tables (channel_id, guild_id, created_at) "
            "VALUES (:channel, :guild, :now) ON CONFLICT (channel_id) DO NOTHING",
            {"channel": channel_id, "guild": guild_id, "now": self._now()},
        )


def day_of(now: str) -> str:
    """The day (``YYYY-MM-DD``) of a time as the store writes it (``Part._now``: ISO, its
    date first): one clock read gives an operation both."""
    return now[:10]
