"""The SQLite adapter of the database interface (``bot.store.database``): one aiosqlite
connection in autocommit mode, shared by the whole process.

Statements of two transactions must never interleave on the one connection (measured
before: double spends, or "cannot start a transaction within a transaction"), and a read
must never see another coroutine's transaction half done. So everything that uses the
connection, a transaction from ``BEGIN IMMEDIATE`` to ``COMMIT`` or a read on its own,
holds one ``asyncio.Lock``; each statement is one hop to aiosqlite's thread
(``bench/README.md`` measures this against the former one hop per transaction).
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiosqlite

from bot.internals import run_on_connection
from bot.store.connection import DatabaseReplaced, Sleep
from bot.store.database import NO_PARAMS, Dialect, Params, Row, Transaction
from bot.store.schema import MIGRATIONS

T = TypeVar("T")

# How long a statement waits for another process's lock on the file before giving up.
BUSY_TIMEOUT_MS = 5000
WAL_RETRY_MS = 50

SQLITE = Dialect(
    name="sqlite",
    migrations=MIGRATIONS,
    version_setup=(),
    read_version="PRAGMA user_version",
    write_version=lambda version: (f"PRAGMA user_version = {version}",),
    greatest="max",
    least="min",
    binary="BINARY",
    unlimited=-1,
    position="instr",
    member="{expression} IN (SELECT value FROM json_each(:{param}))",
)


def _identity(path: str) -> tuple[int, int] | None:
    """A file's device and inode, or None when nothing is at ``path``."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


def _bound(params: Params) -> dict[str, Any]:
    """A list value as SQLite reads one: JSON text, for ``json_each``."""
    return {k: json.dumps(list(v)) if isinstance(v, list | tuple) else v for k, v in params.items()}


class SqliteStatements:
    """Statements on the connection's thread, each one hop; the caller holds the lock."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    async def _hop(self, fn: Callable[..., T], *args: Any) -> T:
        return await run_on_connection(self.connection, fn, *args)

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        return await self._hop(_execute, sql, _bound(params))

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        await self._hop(_execute_many, sql, [_bound(r) for r in rows])

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        rows = await self._hop(_fetch, sql, _bound(params))
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        return await self._hop(_fetch, sql, _bound(params))

    async def fetch_value(self, sql: str, params: Params = NO_PARAMS) -> Any:
        row = await self.fetch_one(sql, params)
        return None if row is None else row[0]


class SqliteTransaction(SqliteStatements):
    async def lock(self, key: int, second: int | None = None) -> None:
        """Nothing to take: ``BEGIN IMMEDIATE`` holds the whole file's write lock."""

    async def announce(self, channel_id: int) -> None:
        """Nobody to tell: the file is one process's only (``bot.lockfile``)."""


class SqliteDatabase(SqliteStatements):
    """The one connection, the lock every use of it holds, and the file it must still be."""

    dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        super().__init__(connection)
        self.path = path
        self._file = _identity(path)
        self._lock = asyncio.Lock()
        self._transaction = SqliteTransaction(connection)

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        """Connect and set the connection up. A failure (a corrupt or truncated file fails
        its first statement) closes the connection before it goes on: its worker thread
        would otherwise keep the process alive."""
        connection = await aiosqlite.connect(path, isolation_level=None)
        try:
            connection.row_factory = aiosqlite.Row
            for pragma in (
                f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
            ):
                async with connection.execute(pragma) as cursor:
                    await cursor.fetchall()
            await _use_wal(connection)
        except BaseException:
            await connection.close()
            raise
        return cls(connection, path)

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        async with self._lock:
            return await super().execute(sql, params)

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        async with self._lock:
            await super().execute_many(sql, rows)

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        async with self._lock:
            return await super().fetch_all(sql, params)

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        async with self._lock:
            return await super().fetch_one(sql, params)

    @asynccontextmanager
    async def transaction(self, lock: int | None = None) -> AsyncIterator[Transaction]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` under the lock, provided the file at the path is
        still the one the connection writes; anything raised rolls it all back."""
        async with self._lock:
            await self._hop(self._begin)
            try:
                yield self._transaction
            except BaseException:
                await self._hop(_rollback)
                raise
            await self._hop(_commit)

    def _begin(self, db: sqlite3.Connection) -> None:
        """On the connection's thread (a ``stat`` per transaction, off the event loop):
        SQLite keeps writing to a deleted file without complaint, so the path is checked."""
        if _identity(self.path) != self._file:
            raise DatabaseReplaced(self.path)
        db.execute("BEGIN IMMEDIATE")

    async def follow(self, heard: Callable[[int], None], missed: Callable[[], None], sleep: Sleep) -> None:
        """Nothing to follow: every change is this process's own."""

    async def close(self) -> None:
        await self.connection.close()


def _execute(db: sqlite3.Connection, sql: str, params: dict[str, Any]) -> int:
    cursor = db.execute(sql, params)
    try:
        cursor.fetchall()
        return cursor.rowcount
    finally:
        cursor.close()


def _execute_many(db: sqlite3.Connection, sql: str, rows: list[dict[str, Any]]) -> None:
    db.executemany(sql, rows).close()


def _fetch(db: sqlite3.Connection, sql: str, params: dict[str, Any]) -> list[Row]:
    cursor = db.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        db.rollback()


def _commit(db: sqlite3.Connection) -> None:
    """A commit that fails (the file turned read-only) leaves nothing behind."""
    try:
        db.commit()
    except BaseException:
        _rollback(db)
        raise


async def _use_wal(db: aiosqlite.Connection) -> None:
    """Switch the file to WAL. Two processes creating the file at the same moment: SQLite
    answers the loser's switch "database is locked" at once, without waiting out the busy
    timeout, so it is tried again for as long as that timeout."""
    for _ in range(BUSY_TIMEOUT_MS // WAL_RETRY_MS):
        try:
            async with db.execute("PRAGMA journal_mode = WAL") as cursor:
                await cursor.fetchall()
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
            await asyncio.sleep(WAL_RETRY_MS / 1000)
    raise sqlite3.OperationalError("database is locked")
