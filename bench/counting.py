"""Counting the SQL statements a store runs, on either backend, for the benchmarks.

Run: ``python bench/counting.py``: the statements each store operation of ordinary play runs
on SQLite and on PostgreSQL (a throwaway server, as the tests start one), the table warm.

SQLite: the library's own trace callback (``sqlite3.Connection.set_trace_callback``), called
once per statement the connection runs, on the event loop or on aiosqlite's thread.
PostgreSQL: asyncpg's query logger (``Connection.add_query_logger``), added to every
connection the store's pool opens (the pool is made with an ``init`` that adds it). Both see
every statement the driver sends, BEGIN/COMMIT/SAVEPOINT and the advisory locks included;
those are counted apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg

from bot.internals import run_on_connection
from bot.models import Change, NewRecord, Operation
from bot.store import Store
from tests.support.postgres import Server

CONTROL = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b", re.IGNORECASE)


@dataclass
class Statements:
    """Every statement seen, and how many of them were transaction control."""

    total: int = 0
    control: int = 0

    def seen(self, sql: str) -> None:
        self.total += 1
        self.control += bool(CONTROL.match(sql))

    def logged(self, record: Any) -> None:
        """asyncpg's query logger: one call per query, its text in ``record.query``."""
        self.seen(record.query)


async def count_sqlite(store: Store, statements: Statements) -> None:
    """From now on, count the statements the SQLite store's connections run: the writer's
    (on the loop or its thread) and the reader's (on the loop)."""
    connection = store.db.connection  # type: ignore[attr-defined]
    await run_on_connection(connection, lambda db: db.set_trace_callback(statements.seen))
    store.db.reader.connection.set_trace_callback(statements.seen)  # type: ignore[attr-defined]


@contextlib.contextmanager
def counting_postgres(statements: Statements) -> Iterator[None]:
    """While open, a PostgreSQL store's pool counts the statements of every connection."""

    async def init(connection: asyncpg.Connection) -> None:
        connection.add_query_logger(statements.logged)

    create = functools.partial(asyncpg.create_pool, init=init)
    with mock.patch("bot.store.postgres.asyncpg.create_pool", create):
        yield


# Each operation as play calls it, on a table with a GM, pools and a roll already written.
CHANNEL = 1
OPERATIONS: tuple[tuple[str, Callable[[Store, int], Awaitable[Any]]], ...] = (
    ("`context` (table and pools)", lambda s, i: s.context(CHANNEL, 5)),
    ("`table_or_default`", lambda s, i: s.table_or_default(CHANNEL, 5)),
    ("`apply`: a pool spend", lambda s, i: s.apply(Operation(CHANNEL, i, 7, "r", (Change("impulso", -1),)))),
    (
        "`apply`: a roll paid with a pool",
        lambda s, i: s.apply(
            Operation(
                CHANNEL,
                i,
                7,
                "r",
                (Change("impulso", -1),),
                new_record=NewRecord(7, "dune", {}, dice=((6, 3),)),
            )
        ),
    ),
    (
        "`apply`: a roll alone",
        lambda s, i: s.apply(
            Operation(CHANNEL, i, 7, "r", new_record=NewRecord(7, "tirar", {}, dice=((20, 5),)))
        ),
    ),
    ("`apply`: a replay", lambda s, i: s.apply(Operation(CHANNEL, 1, 7, "r", (Change("impulso", 1),)))),
    ("`set_record_message`", lambda s, i: s.set_record_message(1, 1000 + i)),
    ("`set_gm`", lambda s, i: s.set_gm(CHANNEL, 5, 9)),
)


async def per_operation(store: Store, statements: Statements) -> list[tuple[int, int]]:
    """Each operation's statements (data, control), measured once the table is warm."""
    await store.set_gm(CHANNEL, 5, 9)
    await store.apply(
        Operation(CHANNEL, 1, 7, "r", (Change("impulso", 100),), new_record=NewRecord(7, "dune", {}))
    )
    counts = []
    for n, (_, operation) in enumerate(OPERATIONS):
        await operation(store, 100 + 2 * n)
        statements.total = statements.control = 0
        await operation(store, 101 + 2 * n)
        counts.append((statements.total - statements.control, statements.control))
    return counts


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        statements = Statements()
        store = await Store.open(Path(folder) / "count.db")
        await count_sqlite(store, statements)
        sqlite = await per_operation(store, statements)
        await store.close()
    server = Server()
    server.start()
    try:
        statements = Statements()
        with counting_postgres(statements):
            store = await Store.open(await server.create())
        postgres = await per_operation(store, statements)
        await store.close()
    finally:
        server.stop()
    print("| store operation | SQLite | PostgreSQL |")
    print("| --- | --- | --- |")
    for (name, _), (s, sc), (p, pc) in zip(OPERATIONS, sqlite, postgres, strict=True):
        print(f"| {name} | {s} + {sc} | {p} + {pc} |")


if __name__ == "__main__":
    asyncio.run(main())
