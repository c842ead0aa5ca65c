"""SQLite's reads on the event loop (``bot.store.sqlite.LoopReader``): a read answered at once
takes no hop to aiosqlite's thread; one that would wait or run long is answered there."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

import bot.store.sqlite as adapter
from bot.models import Change, Operation
from bot.store import Store

CHANNEL = 1


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    """These tests are of SQLite's adapter alone."""
    return sqlite_store


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each function sent to aiosqlite's thread from now on."""
    sent: list[str] = []
    hop = adapter.run_on_connection

    async def counted(db: Any, fn: Callable[..., Any], *args: Any) -> Any:
        sent.append(getattr(fn, "__name__", repr(fn)))
        return await hop(db, fn, *args)

    monkeypatch.setattr(adapter, "run_on_connection", counted)
    return sent


async def spend(store: Store, interaction: int, delta: int) -> None:
    await store.apply(Operation(CHANNEL, interaction, 7, "r", (Change("impulso", delta, cap=6),)))


async def test_a_read_is_answered_on_the_loop_without_a_hop(store: Store, hops: list[str]) -> None:
    await spend(store, 1, 4)
    assert hops == ["_transaction"]
    context = await store.context(CHANNEL, None)
    assert await store.pool(CHANNEL, "impulso") == 4 == context.pool("impulso")
    assert hops == ["_transaction"]


async def test_a_read_sees_every_commit_made_before_it(store: Store) -> None:
    for n in range(1, 6):
        await spend(store, n, 1)
        assert await store.pool(CHANNEL, "impulso") == n


async def test_a_long_read_is_stopped_and_answered_by_the_thread(
    store: Store, hops: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    await spend(store, 1, 4)
    monkeypatch.setattr(adapter, "READ_STEPS", adapter.READ_ROUND)
    many = (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
        "SELECT count(*) FROM n"
    )
    assert await store.db.fetch_value(many) == 100000
    assert hops == ["_transaction", "_fetch"]


async def test_the_loop_reader_never_waits_for_a_lock(store: Store) -> None:
    """A lock held on the file is answered SQLITE_BUSY at once (no busy timeout: Python's
    ``sqlite3.connect`` would wait five seconds by default), for the thread to wait instead."""
    reader: adapter.LoopReader = store.db.reader  # type: ignore[attr-defined]
    assert reader.connection.execute("PRAGMA busy_timeout").fetchone()[0] == 0


async def test_a_read_the_loop_reader_fails_is_answered_by_the_thread(store: Store, hops: list[str]) -> None:
    await spend(store, 1, 4)
    reader: adapter.LoopReader = store.db.reader  # type: ignore[attr-defined]
    reader.connection.close()
    assert await store.pool(CHANNEL, "impulso") == 4
    assert hops == ["_transaction", "_fetch"]
    reader.connection = sqlite3.connect(":memory:")


def test_parameters_without_a_list_reach_sqlite_as_they_came() -> None:
    """Every statement of both threads passes through ``_bound``: only a list is rewritten
    (JSON text, for ``json_each``), and parameters without one are not copied."""
    plain = {"channel": CHANNEL, "pool": "impulso", "cap": None}
    assert adapter._bound(plain) is plain
    listed = {"channel": CHANNEL, "pools": ["a", "b"], "owners": (1, 2)}
    assert adapter._bound(listed) == {"channel": CHANNEL, "pools": '["a", "b"]', "owners": "[1, 2]"}
    assert listed["pools"] == ["a", "b"]


async def test_a_transaction_counts_its_statements_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BEGIN, the savepoint, the UPDATE, the ledger row, the operation and COMMIT are told to
    the counter in one ``add`` (a lock taken once, on aiosqlite's thread)."""
    await spend(store, 1, 3)
    told: list[int] = []
    add = store.statements.add

    def counted(count: int = 1) -> None:
        told.append(count)
        add(count)

    monkeypatch.setattr(store.statements, "add", counted)
    await spend(store, 2, -1)
    assert told == [6]
