"""What every part of the store shares: its database, its clock and its listeners."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.store.connection import Clock, Sleep, utc_now
from bot.store.database import NO_PARAMS, Database, Params, Row, Transaction
from rules.donjon import START_LEVEL


class Part:
    """The store's parts (tables, pools, records…) are written once against ``db``, the
    narrow interface both adapters implement (``bot.store.database``)."""

    def __init__(self, db: Database, clock: Clock = utc_now, path: str | None = None) -> None:
        self.db = db
        self._clock = clock
        # Where the database is: a file's path or a PostgreSQL URL.
        self.path = path
        # Called with a table's channel id after each write that changed its state (the
        # live boards, bot.board): every change passes here, whoever made it.
        self.listeners: list[Callable[[int], None]] = []

    def _changed(self, channel_id: int) -> None:
        for listener in self.listeners:
            listener(channel_id)

    async def follow_others(self, missed: Callable[[], None], sleep: Sleep = asyncio.sleep) -> None:
        """From now on, tell the listeners of every change other processes make; ``missed``
        is called whenever changes may have gone unheard (each time listening starts).
        SQLite has nothing to follow: its file is one process's only (``bot.lockfile``)."""
        await self.db.follow(self._changed, missed, sleep)

    async def close(self) -> None:
        await self.db.close()

    def _now(self) -> str:
        return self._clock().isoformat(timespec="seconds")

    def _day(self) -> str:
        return self._clock().date().isoformat()

    async def _fetchone(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        return await self.db.fetch_one(sql, params)

    async def _fetchall(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        return await self.db.fetch_all(sql, params)

    async def _ensure_table(self, tx: Transaction, channel_id: int, guild_id: int | None) -> None:
        """The table's row, written if missing: the pools and sheets reference it."""
        await tx.execute(
            "INSERT INTO tables (channel_id, guild_id, donjon_level, created_at) "
            "VALUES (:channel, :guild, :level, :now) ON CONFLICT (channel_id) DO NOTHING",
            {"channel": channel_id, "guild": guild_id, "level": START_LEVEL, "now": self._now()},
        )
