"""SQLite's adapter (``bot.store.sqlite``): the one connection answers on the event loop while
aiosqlite's thread has nothing of it queued, without a hop; what would wait for a lock or run
long goes to the thread, whole; while the thread has work, what follows goes there in order
and reads are the read-only reader's; the WAL is checkpointed off the loop."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import bot.store.sqlite as adapter
from bot.internals import connection_of
from bot.models import Change, Operation
from bot.store import Store

CHANNEL = 1
# A statement of some 100,000 steps of SQLite's machine, far past any budget below.
MANY = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(*) FROM n"
)


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    """These tests are of SQLite's adapter alone."""
    return sqlite_store


def database(store: Store) -> adapter.SqliteDatabase:
    db = store.db  # type: ignore[attr-defined]
    assert isinstance(db, adapter.SqliteDatabase)
    return db


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each function sent to aiosqlite's thread from now on."""
    sent: list[str] = []
    hop = adapter.run_on_connection

    async def counted(db: Any, fn: Callable[..., Any], *args: Any) -> Any:
        job = args[1] if getattr(fn, "__name__", "") == "_job" else fn
        sent.append(getattr(job, "__name__", repr(job)))
        return await hop(db, fn, *args)

    monkeypatch.setattr(adapter, "run_on_connection", counted)
    return sent


@pytest.fixture
def told(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each count told to the store's statement counter from now on."""
    counts: list[int] = []
    add = store.statements.add

    def counted(count: int = 1) -> None:
        counts.append(count)
        add(count)

    monkeypatch.setattr(store.statements, "add", counted)
    return counts


@pytest.fixture
def short_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """One round of steps on the loop: :data:`MANY` is stopped there."""
    monkeypatch.setattr(adapter, "READ_STEPS", adapter.READ_ROUND)


async def spend(store: Store, interaction: int, delta: int) -> None:
    await store.apply(Operation(CHANNEL, interaction, 7, "r", (Change("impulso", delta, cap=6),)))


class Blocker:
    """A job that holds aiosqlite's thread until released: while it is queued, the
    connection is the thread's."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def hold(self, connection: sqlite3.Connection) -> None:
        self.release.wait(5)

    def __enter__(self) -> Blocker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()


@pytest.fixture
def blocker() -> Iterator[Blocker]:
    with Blocker() as held:
        yield held


async def test_an_idle_connection_writes_and_reads_on_the_loop_without_a_hop(
    store: Store, hops: list[str]
) -> None:
    threads: list[int] = []

    async def where(tx: Any) -> None:
        threads.append(threading.get_ident())

    await database(store).transact(where)
    await spend(store, 1, 4)
    context = await store.context(CHANNEL, None)
    assert await store.pool(CHANNEL, "impulso") == 4 == context.pool("impulso")
    assert hops == []
    assert threads == [threading.get_ident()]


async def test_a_read_sees_every_commit_made_before_it(store: Store) -> None:
    for n in range(1, 6):
        await spend(store, n, 1)
        assert await store.pool(CHANNEL, "impulso") == n


async def test_a_long_read_is_stopped_and_answered_by_the_thread(
    store: Store, hops: list[str], short_budget: None
) -> None:
    assert await database(store).fetch_value(MANY) == 100000
    assert hops == ["_fetch"]


async def test_a_long_transaction_is_rolled_back_on_the_loop_and_run_whole_on_the_thread(
    store: Store, hops: list[str], short_budget: None
) -> None:
    """What the loop's attempt wrote before it was stopped is gone: the row is written once,
    by the thread's run, which no budget stops."""

    async def long(tx: Any) -> int:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
        return int(await tx.fetch_value(MANY))

    assert await database(store).transact(long) == 100000
    assert hops == ["_transaction"]
    assert await database(store).fetch_value("SELECT count(*) FROM meta WHERE key = 'k'") == 1


async def test_a_lock_sends_the_work_to_the_thread_which_waits_it_out(
    store: Store, hops: list[str], tmp_path: Path, told: list[int]
) -> None:
    """Another connection holds the file's write lock: the loop is answered "busy" at once
    (its busy timeout is nil), and the thread waits until the lock is let go. Counted: the
    loop's refused ``BEGIN``, the thread's two busy-timeout settings, its transaction."""
    other = sqlite3.connect(tmp_path / "store.db", check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    letting_go = asyncio.get_running_loop().call_later(0.05, other.rollback)
    try:
        await spend(store, 1, 2)
    finally:
        letting_go.cancel()
        other.close()
    assert hops == ["_transaction"]
    assert told[:2] == [1, 2] and len(told) == 3
    assert await store.pool(CHANNEL, "impulso") == 2
    assert connection_of(database(store).connection).execute("PRAGMA busy_timeout").fetchone()[0] == 0


async def test_the_loop_never_waits_for_a_lock(store: Store) -> None:
    """Both connections the loop reads from answer a lock at once (Python's ``sqlite3.connect``
    would wait five seconds by default): the thread waits instead."""
    db = database(store)
    for connection in (connection_of(db.connection), db.reader.connection):
        assert connection.execute("PRAGMA busy_timeout").fetchone()[0] == 0


async def test_while_the_thread_has_work_what_follows_goes_there_in_order(
    store: Store, hops: list[str], blocker: Blocker
) -> None:
    """A write behind the thread's job waits its turn there; a read meanwhile is the
    reader's, on the loop, and sees what was committed."""
    db = database(store)
    await spend(store, 1, 1)
    held = asyncio.create_task(db._on_thread(blocker.hold))
    await asyncio.sleep(0)
    assert db.queued == 1
    write = asyncio.create_task(spend(store, 2, 2))
    await asyncio.sleep(0.01)
    assert not write.done()
    assert await store.pool(CHANNEL, "impulso") == 1
    blocker.release.set()
    await asyncio.gather(held, write)
    assert hops == ["hold", "_transaction"]
    assert db.queued == 0
    assert await store.pool(CHANNEL, "impulso") == 3


async def test_a_read_the_reader_fails_while_the_thread_has_work_is_answered_there(
    store: Store, hops: list[str], blocker: Blocker
) -> None:
    db = database(store)
    await spend(store, 1, 4)
    held = asyncio.create_task(db._on_thread(blocker.hold))
    await asyncio.sleep(0)
    db.reader.connection.close()
    read = asyncio.create_task(store.pool(CHANNEL, "impulso"))
    await asyncio.sleep(0.01)
    blocker.release.set()
    assert await read == 4
    await held
    assert hops == ["hold", "_fetch"]
    db.reader.connection = sqlite3.connect(":memory:")


async def test_a_cancelled_caller_leaves_the_connection_to_the_thread_until_its_job_ends(
    store: Store, blocker: Blocker
) -> None:
    """Its caller gone, the job still runs on the thread: the loop may not touch the
    connection before it is done."""
    db = database(store)
    caller = asyncio.create_task(db._on_thread(blocker.hold))
    await asyncio.sleep(0)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert db.queued == 1
    blocker.release.set()
    for _ in range(100):
        if not db.queued:
            break
        await asyncio.sleep(0.005)
    assert db.queued == 0


def test_parameters_without_a_list_reach_sqlite_as_they_came() -> None:
    """Every statement of both threads passes through ``_bound``: only a list is rewritten
    (JSON text, for ``json_each``), and parameters without one are not copied."""
    plain = {"channel": CHANNEL, "pool": "impulso", "cap": None}
    assert adapter._bound(plain) is plain
    listed = {"channel": CHANNEL, "pools": ["a", "b"], "owners": (1, 2)}
    assert adapter._bound(listed) == {"channel": CHANNEL, "pools": '["a", "b"]', "owners": "[1, 2]"}
    assert listed["pools"] == ["a", "b"]


async def test_a_transaction_counts_its_statements_once(store: Store, told: list[int]) -> None:
    """BEGIN, the savepoint, the UPDATE, the ledger row, the operation and COMMIT are told to
    the counter in one ``add`` (a lock taken once)."""
    await spend(store, 1, 3)
    told.clear()
    await spend(store, 2, -1)
    assert told == [6]


def wal_size(path: Path) -> int:
    return Path(f"{path}-wal").stat().st_size


async def wal_after_spends(
    path: Path, every: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list[tuple[str, int]]]:
    """The WAL's size after 40 spends, checkpointed every ``every`` commits, and the
    checkpoints' statements with the threads they ran on."""
    monkeypatch.setattr(adapter, "CHECKPOINT_EVERY", every)
    store = await Store.open(path)
    db = database(store)
    threads: list[tuple[str, int]] = []
    db._checkpointer.set_trace_callback(lambda sql: threads.append((sql, threading.get_ident())))
    try:
        for n in range(1, 41):
            await spend(store, n, 1 if n % 2 else -1)
            if db._checkpoint is not None:
                await db._checkpoint
        return wal_size(path), threads
    finally:
        await store.close()


async def test_the_wal_is_checkpointed_off_the_loop_every_so_many_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's own checkpoint (a disk flush, inside a commit, on the loop) is off; a worker
    thread's, every :data:`CHECKPOINT_EVERY` commits, lets the WAL start over."""
    kept, none = await wal_after_spends(tmp_path / "never.db", 10**6, monkeypatch)
    checkpointed, ran = await wal_after_spends(tmp_path / "every5.db", 5, monkeypatch)
    assert none == []
    assert [sql for sql, _ in ran] == ["PRAGMA wal_checkpoint(PASSIVE)"] * 8
    assert threading.get_ident() not in {thread for _, thread in ran}
    assert checkpointed < kept / 3


async def test_a_wal_grown_past_its_bound_is_started_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a steady stream of writes a passive checkpoint never lets the WAL start over:
    past :data:`WAL_FRAMES_KEPT` frames, a ``TRUNCATE`` follows it."""
    monkeypatch.setattr(adapter, "WAL_FRAMES_KEPT", 1)
    _, ran = await wal_after_spends(tmp_path / "bound.db", 5, monkeypatch)
    assert [sql for sql, _ in ran] == [
        "PRAGMA wal_checkpoint(PASSIVE)",
        "PRAGMA wal_checkpoint(TRUNCATE)",
    ] * 8


async def test_a_commit_never_checkpoints_on_the_loop(store: Store) -> None:
    """SQLite's automatic checkpoint would copy and flush inside a commit, on the loop."""
    assert connection_of(database(store).connection).execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0


class HeldCheckpoint:
    """A checkpoint that waits until released, counting how many were started."""

    def __init__(self, db: adapter.SqliteDatabase, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.started = 0
        monkeypatch.setattr(adapter, "CHECKPOINT_EVERY", 1)
        monkeypatch.setattr(db, "_checkpointed", self.held)

    def held(self) -> None:
        self.started += 1
        self.release.wait(5)


async def test_one_checkpoint_at_a_time(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    db = database(store)
    held = HeldCheckpoint(db, monkeypatch)
    for n in range(1, 4):
        await spend(store, n, 1)
    held.release.set()
    assert db._checkpoint is not None
    await db._checkpoint
    assert held.started == 1


async def test_closing_waits_for_the_checkpoint_and_leaves_the_connection_to_the_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the store closes, nothing runs on the loop's side of the connection the thread
    is closing, no checkpoint starts, and the one under way ends before its connection is
    closed."""
    store = await Store.open(tmp_path / "closing.db")
    db = database(store)
    held = HeldCheckpoint(db, monkeypatch)
    await spend(store, 1, 1)
    closing = asyncio.create_task(store.close())
    try:
        await asyncio.sleep(0.01)
        assert not closing.done()
        assert db.queued > 0
    finally:
        held.release.set()
        await closing
    assert held.started == 1


async def test_a_closed_store_starts_no_checkpoint(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its connection is closed: a commit counted after that (a call that raced the close)
    leaves it alone."""
    monkeypatch.setattr(adapter, "CHECKPOINT_EVERY", 1)
    db = database(store)
    await store.close()
    db._committed()
    assert db._checkpoint is None


async def test_migrations_rolled_back_on_the_loop_are_told_once(
    tmp_path: Path, short_budget: None, caplog: pytest.LogCaptureFixture
) -> None:
    """A new file's migrations outrun the loop's budget and run again on the thread: only the
    run that commits tells which versions it applied."""
    with caplog.at_level(logging.INFO, logger="bot.store.schema"):
        store = await Store.open(tmp_path / "new.db")
    await store.close()
    told = [r.schema_version for r in caplog.records if r.getMessage() == "database migrated"]  # type: ignore[attr-defined]
    assert told == sorted(set(told)) and len(told) == len(adapter.SQLITE.migrations)


async def test_an_error_python_raises_on_the_loop_reaches_the_caller_as_it_is(store: Store) -> None:
    """Text SQLite holds but Python cannot decode: sqlite3's own error, with no SQLite code."""
    await database(store).write_one("INSERT INTO meta (key, value) VALUES ('bad', CAST(X'FF' AS TEXT))")
    with pytest.raises(sqlite3.OperationalError, match="decode"):
        await store.get_meta("bad")


async def test_a_restart_never_waits_for_a_reader_on_an_old_snapshot(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's open read: SQLite's ``TRUNCATE`` would hold the writers' lock while it
    waited for it (the busy timeout's length, each try). With none, it gives up at once."""
    monkeypatch.setattr(adapter, "WAL_FRAMES_KEPT", 1)
    db = database(store)
    await spend(store, 1, 1)
    other = sqlite3.connect(tmp_path / "store.db", check_same_thread=False)
    other.execute("BEGIN")
    other.execute("SELECT count(*) FROM pools").fetchall()
    try:
        await spend(store, 2, 1)
        started = time.perf_counter()
        await asyncio.to_thread(db._checkpointed)
        assert time.perf_counter() - started < 0.5
    finally:
        other.close()


def wal_bytes(path: Path) -> int:
    return Path(f"{path}-wal").stat().st_size


async def test_a_wal_past_its_bound_is_cut_by_the_checkpoint_not_by_a_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint's ``TRUNCATE`` empties the WAL's file in its own thread: the loop's next
    commit only starts the WAL over (``journal_size_limit`` would cut the file inside that
    commit, on the loop)."""
    monkeypatch.setattr(adapter, "CHECKPOINT_EVERY", 10**6)
    monkeypatch.setattr(adapter, "WAL_FRAMES_KEPT", 1)
    path = tmp_path / "cut.db"
    store = await Store.open(path)
    try:
        for n in range(1, 61):
            await spend(store, n, 1 if n % 2 else -1)
        grown = wal_bytes(path)
        await asyncio.to_thread(database(store)._checkpointed)
        assert wal_bytes(path) == 0
        await spend(store, 61, 1)
        assert 0 < 8 * wal_bytes(path) < grown
    finally:
        await store.close()
