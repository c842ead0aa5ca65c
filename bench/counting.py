"""Counting the SQL statements a store runs, on either backend, for the benchmarks.

SQLite: the library's own trace callback (``sqlite3.Connection.set_trace_callback``), called
on the connection's thread once per statement it runs. PostgreSQL: asyncpg's query logger
(``Connection.add_query_logger``), added to every connection the store's pool opens (the
pool is made with an ``init`` that adds it). Both see every statement the driver sends,
BEGIN/COMMIT/SAVEPOINT and the advisory locks included; those are counted apart.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import asyncpg

from bot.internals import run_on_connection
from bot.store import Store

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
    """From now on, count the statements the SQLite store's connection runs."""
    connection = store.db.connection  # type: ignore[attr-defined]
    await run_on_connection(connection, lambda db: db.set_trace_callback(statements.seen))


@contextlib.contextmanager
def counting_postgres(statements: Statements) -> Iterator[None]:
    """While open, a PostgreSQL store's pool counts the statements of every connection."""

    async def init(connection: asyncpg.Connection) -> None:
        connection.add_query_logger(statements.logged)

    create = functools.partial(asyncpg.create_pool, init=init)
    with mock.patch("bot.store.postgres.asyncpg.create_pool", create):
        yield
