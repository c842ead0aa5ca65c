"""The SQLite adapter of the database interface (``bot.store.database``): one aiosqlite
connection in autocommit mode, shared by the whole process.

Statements of two transactions must never interleave on the one connection (measured
before: double spends, or "cannot start a transaction within a transaction"), and a read
must never see another coroutine's transaction half done. So a transaction runs whole on
the connection's thread, as one job of aiosqlite's queue (``run_on_connection``): its work
is written as a coroutine, like PostgreSQL's, but this adapter's statements complete
without suspending, so the coroutine is driven to its end right there (:func:`completed`),
``BEGIN IMMEDIATE`` to ``COMMIT`` in one hop. No lock: the thread runs its queue in order.
Measured against an ``asyncio.Lock`` around transactions whose every statement is a hop
(``docs/decisiones.md``, Almacén): the lock held across hops waits on the event loop between
statements, 2–3 times slower.

A read on its own is served on the event loop by a second, read-only connection
(:class:`LoopReader`), without a hop: in WAL mode a reader takes no lock a writer holds, and
it sees every transaction committed before it starts (each read is its own read
transaction, the cursor closed before it returns). It may never wait on the loop: its busy
timeout is nil and a progress handler stops it after :data:`READ_STEPS` steps of SQLite's
machine, and whatever stops it (a lock, a long read, any error) sends the same read to the
thread, whose answer is the one given (``docs/decisiones.md``, Almacén, and
``bench/README.md``, issue 29, for why and what it saves).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.internals import run_on_connection
from bot.store.connection import DatabaseReplaced, Sleep
from bot.store.database import NO_PARAMS, UNDOABLE, Dialect, Params, Row, Statements, Work
from bot.store.schema import MIGRATIONS

T = TypeVar("T")

# How long a statement waits for another process's lock on the file before giving up.
BUSY_TIMEOUT_MS = 5000
WAL_RETRY_MS = 50
# A read on the event loop is stopped after this many steps of SQLite's virtual machine,
# counted in rounds of READ_ROUND (about a tenth of a millisecond here), and goes to the
# thread: the reads of an interaction take a few hundred steps, a whole ledger many more.
READ_ROUND = 1000
READ_STEPS = 20 * READ_ROUND
PRAGMA = re.compile(r"\s*PRAGMA\b", re.IGNORECASE)

SQLITE = Dialect(
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


# The values a statement takes as a list (``Dialect.member``'s ``json_each``): JSON's arrays.
LISTS = frozenset({list, tuple})


def _bound(params: Params) -> dict[str, Any]:
    """A list value as SQLite reads one: JSON text, for ``json_each``. Most statements
    take none, and their parameters are handed over as they came, told so by their types
    in one C call (every statement of either thread passes here, a write's with up to ten
    parameters: a copy, or an ``isinstance`` a value, cost more than the statement's own
    Python)."""
    bound = params if isinstance(params, dict) else dict(params)
    if LISTS.isdisjoint(map(type, bound.values())):
        return bound
    return {k: json.dumps(list(v)) if type(v) in LISTS else v for k, v in bound.items()}


def completed(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end now: it awaits only :class:`SqliteTransaction`'s statements,
    which never suspend. One that would (it awaited something else) is refused."""
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    work.close()
    raise RuntimeError("an SQLite transaction awaited something other than its own statements")


class SqliteTransaction:
    """Statements straight on the sqlite3 connection, on its thread, inside the
    transaction :meth:`SqliteDatabase.transact` opened; none of them suspends. It counts
    the statements it runs (``ran``), its ``BEGIN`` and ``COMMIT`` included, and the
    transaction tells :class:`Statements` once, not under its lock at each."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self.ran = 0

    def control(self, sql: str) -> None:
        """``BEGIN``, the savepoint: counted like any statement."""
        self.ran += 1
        self._db.execute(sql)

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        self.ran += 1
        return _execute(self._db, sql, _bound(params))

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        self.ran += len(rows)
        _execute_many(self._db, sql, [_bound(r) for r in rows])

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        # Each runs its statement itself, not through ``fetch_all``: most of a transaction's
        # statements are these, and a coroutine more each is Python the thread runs holding
        # the interpreter's lock.
        self.ran += 1
        rows = _fetch(self._db, sql, _bound(params))
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        self.ran += 1
        return _fetch(self._db, sql, _bound(params))

    async def fetch_value(self, sql: str, params: Params = NO_PARAMS) -> Any:
        self.ran += 1
        rows = _fetch(self._db, sql, _bound(params))
        return rows[0][0] if rows else None

    async def lock(self, key: int, second: int | None = None) -> None:
        """Nothing to take: ``BEGIN IMMEDIATE`` holds the whole file's write lock."""

    async def announce(self, channel_id: int) -> None:
        """Nobody to tell: the file is one process's only (``bot.lockfile``)."""


class LoopReader:
    """A read-only connection to the file, read on the event loop: a read it answers takes
    no lock and at most :data:`READ_STEPS` steps; one it cannot answer so is refused
    (:class:`ReadElsewhere`) for the thread to run."""

    def __init__(self, path: str, statements: Statements) -> None:
        self.statements = statements
        self.connection = sqlite3.connect(
            f"{Path(path).resolve().as_uri()}?mode=ro",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
            timeout=0,
        )
        self.connection.row_factory = sqlite3.Row
        self.connection.set_progress_handler(self._step, READ_ROUND)
        self._rounds = 0

    def _step(self) -> int:
        """SQLite asks every READ_ROUND steps; non-zero interrupts the statement."""
        self._rounds += 1
        return int(self._rounds * READ_ROUND >= READ_STEPS)

    def fetch(self, sql: str, params: dict[str, Any]) -> list[Row]:
        """A read refused here is counted here too: SQLite ran it, and runs it again on
        the thread."""
        self._rounds = 0
        self.statements.add()
        try:
            return _fetch(self.connection, sql, params)
        except sqlite3.Error as error:
            raise ReadElsewhere from error

    def close(self) -> None:
        self.connection.close()


class ReadElsewhere(Exception):
    """The loop's reader could not answer a read at once: the thread will."""


class SqliteDatabase:
    """The one connection, the file it must still be writing, and the loop's reader."""

    dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection, path: str, reader: LoopReader) -> None:
        self.connection = connection
        self.path = path
        self.reader = reader
        self.statements = reader.statements
        self._file = _identity(path)

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
            reader = LoopReader(path, Statements("sqlite"))
        except BaseException:
            await connection.close()
            raise
        return cls(connection, path, reader)

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        """On the loop when the reader answers at once, else on the thread. A PRAGMA asks
        about the writing connection (its foreign keys, its journal), so it goes there."""
        bound = _bound(params)
        if not PRAGMA.match(sql):
            try:
                return self.reader.fetch(sql, bound)
            except ReadElsewhere:
                pass
        self.statements.add()
        return await run_on_connection(self.connection, _fetch, sql, bound)

    async def fetch_value(self, sql: str, params: Params = NO_PARAMS) -> Any:
        row = await self.fetch_one(sql, params)
        return None if row is None else row[0]

    async def transact(self, work: Work[T], lock: int | None = None, undoable: bool = False) -> T:
        """``work`` whole on the connection's thread, in one hop."""
        return await run_on_connection(self.connection, self._transaction, work, undoable)

    async def write_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        """A transaction of one statement (the file's check included)."""
        return await run_on_connection(
            self.connection, self._transaction, lambda tx: tx.fetch_one(sql, params), False
        )

    def _transaction(self, db: sqlite3.Connection, work: Work[T], undoable: bool) -> T:
        """On the connection's thread (a ``stat`` per transaction, off the event loop):
        SQLite keeps writing to a deleted file without complaint, so the path is checked
        first. ``BEGIN IMMEDIATE`` (and an undoable one's savepoint) … ``COMMIT``; anything
        raised rolls it all back, and so does a commit that fails (the file turned read-only)."""
        if _identity(self.path) != self._file:
            raise DatabaseReplaced(self.path)
        tx = SqliteTransaction(db)
        try:
            tx.control("BEGIN IMMEDIATE")
            try:
                if undoable:
                    tx.control(UNDOABLE)
                result = completed(work(tx))
                tx.ran += 1
                db.commit()
            except BaseException:
                if db.in_transaction:
                    tx.ran += 1
                    db.rollback()
                raise
        finally:
            self.statements.add(tx.ran)
        return result

    async def follow(self, heard: Callable[[int], None], missed: Callable[[], None], sleep: Sleep) -> None:
        """Nothing to follow: every change is this process's own."""

    async def close(self) -> None:
        self.reader.close()
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
