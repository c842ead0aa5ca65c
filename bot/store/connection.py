"""The connection every part of the store shares, and how a transaction runs on it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import aiosqlite

from bot.internals import run_on_connection

Clock = Callable[[], datetime]
Sleep = Callable[[float], Awaitable[None]]
T = TypeVar("T")


def utc_now() -> datetime:
    return datetime.now(UTC)


class DatabaseReplaced(sqlite3.DatabaseError):
    """The file at the database's path is no longer the one this connection writes (it was
    deleted or replaced while the bot ran): anything written now would be lost on restart."""


def _identity(path: str) -> tuple[int, int] | None:
    """A file's device and inode, or None when nothing is at ``path``."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


class Connection:
    """One aiosqlite connection and the way every transaction runs on it (its thread, one
    hop, ``BEGIN IMMEDIATE``); the store's parts build on it."""

    def __init__(self, db: aiosqlite.Connection, clock: Clock = utc_now, path: str | None = None) -> None:
        self._db = db
        self._clock = clock
        # The file this connection writes, to notice when the path stops naming it.
        self.path = path
        self._file = _identity(path) if path is not None else None
        # Called with a table's channel id after each write that changed its state (the
        # live boards, bot.board): every change passes here, whoever made it.
        self.listeners: list[Callable[[int], None]] = []
        # Called with the seconds each operation (a transaction or a read) took: /metrics.
        self.timers: list[Callable[[float], None]] = []

    def _changed(self, channel_id: int) -> None:
        for listener in self.listeners:
            listener(channel_id)

    async def follow_others(self, missed: Callable[[], None], sleep: Sleep = asyncio.sleep) -> None:
        """Nothing to follow: an SQLite file is one process's only (``bot.lockfile``: a
        second one exits with code 6), so every change is this process's own and reaches the
        listeners through ``_changed``. PostgreSQL's twin listens to the other processes."""

    async def close(self) -> None:
        await self._db.close()

    def _now(self) -> str:
        return self._clock().isoformat(timespec="seconds")

    def _day(self) -> str:
        return self._clock().date().isoformat()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` on the connection's own thread, in one hop (so no
        two transactions ever interleave: ``bot.internals.run_on_connection``)."""
        started = time.perf_counter()
        try:
            return await run_on_connection(self._db, fn, *args)
        finally:
            for timer in self.timers:
                timer(time.perf_counter() - started)

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` as one ``BEGIN IMMEDIATE`` transaction, all or nothing,
        provided the file at the path is still the one the connection writes."""
        return await self._run(self._checked_transaction, fn, *args)

    def _checked_transaction(self, db: sqlite3.Connection, fn: Callable[..., T], *args: Any) -> T:
        """On the connection's thread (a ``stat`` per change, off the event loop): SQLite
        keeps writing to a deleted file without complaint, so the path is checked first."""
        if self.path is not None and _identity(self.path) != self._file:
            raise DatabaseReplaced(self.path)
        return _in_transaction(db, fn, *args)

    async def _fetchone(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Row | None:
        return await self._run(lambda db: db.execute(sql, params).fetchone())

    async def _fetchall(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        return await self._run(lambda db: db.execute(sql, params).fetchall())

    def _ensure_table(self, db: sqlite3.Connection, channel_id: int, guild_id: int | None) -> None:
        db.execute(
            "INSERT INTO tables (channel_id, guild_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (channel_id) DO NOTHING",
            (channel_id, guild_id, self._now()),
        )


def _in_transaction(db: sqlite3.Connection, fn: Callable[..., T], *args: Any) -> T:
    """On the connection's thread: ``fn`` inside ``BEGIN IMMEDIATE`` … ``COMMIT``. A commit
    that fails (the file turned read-only) leaves nothing behind: SQLite rolls back."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = fn(db, *args)
    except BaseException:
        db.rollback()
        raise
    db.commit()
    return result
