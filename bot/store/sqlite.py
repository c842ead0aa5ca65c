"""The SQLite adapter of the database interface (``bot.store.database``): one aiosqlite
connection in autocommit mode, shared by the whole process (the file is one process's only:
``bot.lockfile``).

Statements of two transactions must never interleave on the one connection (measured
before: double spends, or "cannot start a transaction within a transaction"), and a read
must never see another coroutine's transaction half done. A transaction's work is written as
a coroutine, like PostgreSQL's, but this adapter's statements complete without suspending, so
the coroutine is driven to its end in one go (:func:`completed`), ``BEGIN IMMEDIATE`` to
``COMMIT``, where nothing else can slip in.

Where it runs: **on the event loop**, when aiosqlite's thread has nothing of this
connection's to do (:attr:`SqliteDatabase.queued`), so that a transaction or a read costs no
hop. The loop never waits there for a lock or a long statement, though: the connection's busy
timeout is nil on the loop, a progress handler stops a statement after :data:`READ_STEPS`
steps of SQLite's machine, and what stops it (a lock another process holds, a long statement)
rolls it back and sends the same work to **the thread**, which waits out the lock
(:data:`BUSY_TIMEOUT_MS`) and runs it to its end. While anything is queued there, everything
after it goes there too, in order (aiosqlite's one thread runs its queue in order), except
reads, which a second, read-only connection answers on the loop (:class:`LoopReader`, with the
same bounds: in WAL mode a reader takes no lock a writer holds, and sees every transaction
committed before it starts). The WAL's checkpoints, which flush the disk, are a third
connection's, in a worker thread (:data:`CHECKPOINT_EVERY`), never a commit's on the loop;
what is left of the disk on the loop is the first commit after the WAL starts over, which
writes and syncs its new header.
``docs/decisiones.md`` (Almacén) and ``bench/README.md`` (issue 29, inline13) say why and
what each part saves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.internals import connection_of, run_on_connection
from bot.store.connection import DatabaseReplaced, Sleep
from bot.store.database import NO_PARAMS, UNDOABLE, Dialect, Params, Row, Statements, Work
from bot.store.schema import MIGRATIONS

T = TypeVar("T")

log = logging.getLogger(__name__)

# How long a statement on the thread waits for another process's lock on the file before
# giving up (on the loop it never waits: the lock sends it to the thread).
BUSY_TIMEOUT_MS = 5000
WAL_RETRY_MS = 50
# A statement on the event loop is stopped after this many steps of SQLite's virtual machine,
# counted in rounds of READ_ROUND (about a tenth of a millisecond here), and goes to the thread
# (with the rest of its transaction): an interaction's reads and writes take a few hundred
# steps each, a whole ledger or a retention pass many more. SQLite counts the rounds per
# prepared statement (across a cached statement's runs, so one may be stopped a little early,
# which costs a hop); the budget's count starts again with each use on the loop.
READ_ROUND = 1000
READ_STEPS = 20 * READ_ROUND
# What SQLite answers a statement that would wait for a lock, or that the progress handler
# stopped: the thread runs it instead (primary result codes).
SENT_ELSEWHERE = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_INTERRUPT})
# The WAL is checkpointed (its pages copied into the file, and the disk flushed) once this many
# transactions have committed since the last checkpoint: SQLite's own automatic checkpoint
# would do it inside a commit, on the event loop, at about a thousand pages (a transaction of
# play writes some four).
CHECKPOINT_EVERY = 250
# A checkpoint runs beside the loop's writes, so under a steady stream of them it never finds
# the WAL all copied at a moment no write follows, and SQLite never starts the WAL over: it
# would grow without end (measured: 55 MB in the 200-table load). With traffic that pauses
# (a table's, not a benchmark's) a passive checkpoint is enough. One that leaves this many
# frames (32 MB of 4 KB pages) is followed by a ``TRUNCATE``, which holds writers off while it
# copies the last frames and cuts the WAL's file to nothing, in its own thread, so the next
# write starts the WAL over; writes meanwhile meet its lock and go to the thread, and those
# after them follow until the thread's queue empties: the bound is high so that this is rare
# (a 200-table load reaches it near its end). Each try needs the writers' lock free at once,
# so under a steady stream it may take several checkpoints to find it (review13c: 77.5 MB in
# 20,000 commits back to back), and none while another process keeps an old read open.
WAL_FRAMES_KEPT = 8192
# The ``TRUNCATE`` needs the writers' lock free between two of the loop's transactions: two
# tries, a couple of milliseconds apart, in the checkpoint's own thread.
TRUNCATE_TRIES = 2
TRUNCATE_PAUSE = 0.002
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
    """Statements straight on the sqlite3 connection (on the loop or its thread), inside the
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
    """A read-only connection to the file, read on the event loop while the main connection
    is the thread's: a read it answers takes no lock and at most :data:`READ_STEPS` steps;
    one it cannot answer so is refused (:class:`OffLoop`) for the thread to run."""

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
        self.budget = StepBudget(self.connection)

    def fetch(self, sql: str, params: dict[str, Any]) -> list[Row]:
        """A read refused here is counted here too: SQLite ran it, and runs it again on
        the thread."""
        self.statements.add()
        try:
            with self.budget:
                return _fetch(self.connection, sql, params)
        except sqlite3.Error as error:
            raise OffLoop from error

    def close(self) -> None:
        self.connection.close()


class StepBudget:
    """A connection's statements stopped after :data:`READ_STEPS` steps of SQLite's machine
    while the budget is open (``with``), and never otherwise: the main connection's
    statements on the thread run to their end."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.open = False
        self._rounds = 0
        connection.set_progress_handler(self._step, READ_ROUND)

    def _step(self) -> int:
        """SQLite asks every READ_ROUND steps; non-zero interrupts the statement."""
        self._rounds += 1
        return int(self.open and self._rounds * READ_ROUND >= READ_STEPS)

    def __enter__(self) -> None:
        self._rounds = 0
        self.open = True

    def __exit__(self, *exc: object) -> None:
        self.open = False


class OffLoop(Exception):
    """What ran on the loop would have waited for a lock, or ran too long (or, the reader's,
    failed in any way): rolled back, the thread runs it."""


class SqliteDatabase:
    """The one connection (used on the loop or on its thread, never both at once), the file
    it must still be writing, the loop's reader and the checkpoints."""

    dialect = SQLITE

    def __init__(
        self,
        connection: aiosqlite.Connection,
        path: str,
        reader: LoopReader,
        checkpointer: sqlite3.Connection,
    ) -> None:
        self.connection = connection
        self.path = path
        self.reader = reader
        self.statements = reader.statements
        # Jobs sent to aiosqlite's thread that it has not finished (counted down by the thread
        # itself, once done): while there are any, the connection is the thread's. Closing
        # keeps one for good.
        self.queued = 0
        self._file = _identity(path)
        self._db = connection_of(connection)
        self._budget = StepBudget(self._db)
        self._commits = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._checkpointer = checkpointer
        self._closed = False

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        """Connect and set the connection up. A failure (a corrupt or truncated file fails
        its first statement) closes the connection before it goes on: its worker thread
        would otherwise keep the process alive. The busy timeout is the thread's to set, job
        by job (:meth:`_job`): on the loop a lock is answered at once."""
        connection = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
        try:
            connection.row_factory = aiosqlite.Row
            for pragma in (
                "PRAGMA busy_timeout = 0",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA wal_autocheckpoint = 0",
            ):
                async with connection.execute(pragma) as cursor:
                    await cursor.fetchall()
            await _use_wal(connection)
            reader = LoopReader(path, Statements("sqlite"))
            # Its busy timeout is nil: SQLite's ``TRUNCATE`` would wait holding the writers'
            # lock for any reader still on an old snapshot (another process's open read).
            checkpointer = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0)
        except BaseException:
            await connection.close()
            raise
        return cls(connection, path, reader, checkpointer)

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        """On the loop when it answers at once (the connection itself when the thread has
        nothing queued, else the reader), else on the thread. A PRAGMA asks about the
        connection (its foreign keys, its journal) and may wait (a checkpoint's), so it goes
        to the thread."""
        bound = _bound(params)
        if not PRAGMA.match(sql):
            try:
                if not self.queued:
                    self.statements.add()
                    return self._on_loop(_fetch, sql, bound)
                return self.reader.fetch(sql, bound)
            except OffLoop:
                pass
        self.statements.add()
        return await self._on_thread(_fetch, sql, bound)

    async def fetch_value(self, sql: str, params: Params = NO_PARAMS) -> Any:
        row = await self.fetch_one(sql, params)
        return None if row is None else row[0]

    async def transact(self, work: Work[T], lock: int | None = None, undoable: bool = False) -> T:
        """``work`` whole, on the loop when the thread is idle and it neither meets a lock nor
        runs long, else (rolled back and started again) on the thread, in one hop."""
        if not self.queued:
            try:
                result = self._on_loop(self._transaction, work, undoable)
            except OffLoop:
                pass
            else:
                self._committed()
                return result
        result = await self._on_thread(self._transaction, work, undoable)
        self._committed()
        return result

    async def write_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        """A transaction of one statement (the file's check included)."""
        return await self.transact(lambda tx: tx.fetch_one(sql, params))

    def _on_loop(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` here, on the loop, within the step budget; what would
        wait or ran out of steps is :class:`OffLoop` (a transaction rolls itself back)."""
        try:
            with self._budget:
                return fn(self._db, *args)
        except sqlite3.OperationalError as error:
            # Python's own errors (a text it cannot decode) carry no SQLite code.
            if getattr(error, "sqlite_errorcode", 0) & 0xFF in SENT_ELSEWHERE:
                raise OffLoop from error
            raise

    async def _on_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` on aiosqlite's thread, after every job queued there. The
        connection stays the thread's until the thread is done with the job, even if its
        caller (or the job's task) is cancelled first: the thread counts it down itself."""
        self.queued += 1
        return await run_on_connection(self.connection, self._job, asyncio.get_running_loop(), fn, *args)

    def _job(
        self, db: sqlite3.Connection, loop: asyncio.AbstractEventLoop, fn: Callable[..., T], *args: Any
    ) -> T:
        """On the thread, which may wait out another process's lock: the busy timeout for the
        job's length, nil again after it; then the loop is told the connection is free (before
        aiosqlite gives the job's answer, so its caller finds it free)."""
        try:
            self.statements.add(2)
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            try:
                return fn(db, *args)
            finally:
                db.execute("PRAGMA busy_timeout = 0")
        finally:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody to tell
                loop.call_soon_threadsafe(self._ended)

    def _ended(self) -> None:
        self.queued -= 1

    def _committed(self) -> None:
        """Count a commit; every :data:`CHECKPOINT_EVERY`, checkpoint the WAL in a worker
        thread, one checkpoint at a time."""
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and self._checkpoint is None and not self._closed:
            self._commits = 0
            self._checkpoint = asyncio.get_running_loop().run_in_executor(None, self._checkpointed)
            self._checkpoint.add_done_callback(self._checkpoint_ended)

    def _checkpointed(self) -> None:
        """``PASSIVE``: copy what no reader still needs, waiting for nobody; then, when the WAL
        has grown to :data:`WAL_FRAMES_KEPT` frames, ``TRUNCATE``, tried :data:`TRUNCATE_TRIES`
        times a moment apart. Its busy timeout is nil, so it never waits holding the writers'
        lock: a write under way, or a reader on an old snapshot, makes it copy what it can
        and say so (its first column), and the next checkpoint tries again."""
        self.statements.add()
        _, frames, _ = self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if frames < WAL_FRAMES_KEPT:
            return
        for _ in range(TRUNCATE_TRIES):
            self.statements.add()
            (busy, _, _) = self._checkpointer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return
            time.sleep(TRUNCATE_PAUSE)

    def _checkpoint_ended(self, checkpoint: asyncio.Future[None]) -> None:
        self._checkpoint = None
        if not checkpoint.cancelled() and (error := checkpoint.exception()) is not None:
            log.warning("the WAL's checkpoint failed: %s", error)

    def _transaction(self, db: sqlite3.Connection, work: Work[T], undoable: bool) -> T:
        """On the loop or the connection's thread (a ``stat`` per transaction): SQLite keeps
        writing to a deleted file without complaint, so the path is checked first. ``BEGIN
        IMMEDIATE`` (and an undoable one's savepoint) … ``COMMIT``; anything raised rolls it all
        back, and so does a commit that fails (the file turned read-only)."""
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
        """From here on the connection is the thread's (a call made while it closes goes
        there, and meets the closed connection's error, never the loop's use of a connection
        the thread is closing), and no checkpoint starts; the one under way ends before its
        connection is closed."""
        self._closed = True
        self.queued += 1
        if self._checkpoint is not None:
            await asyncio.wait([self._checkpoint])
        self._checkpointer.close()
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
