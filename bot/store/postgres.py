"""The PostgreSQL adapter of the database interface (``bot.store.database``), asyncpg.

Chosen when ``TIRADA_DB`` is a ``postgresql://`` URL, so that several processes (Discord
shards, docs/escalar.md) share one database. What it does that SQLite's does not, and why:

- A few connections instead of one (``bot.store.postgres_pool``): transactions of different
  tables run at once. An operation takes the transaction-scoped advisory lock of its table's
  channel first (:meth:`PostgresTransaction.lock`), so one table's operations run one after
  another exactly as on SQLite (the undo plan reads before it writes, a replay finds the
  first's rows), while other tables never wait. Migrations run under a lock of their own: processes starting
  together migrate once.
- Pool changes are the same conditional UPDATEs: under READ COMMITTED a concurrent
  UPDATE of the same row waits and re-checks its WHERE on the committed value, so no
  spend goes below zero even between processes.
- Other processes hear of each change to a table (``pg_notify`` right after the change's
  commit, in the same round trip: ``bot.store.postgres_follow``).
- Timestamps stay ISO-8601 text and a roll's data JSON text in a ``jsonb`` column, so rows
  read back (and copy across with ``python -m bot.migrate``) exactly as SQLite's.

The statements arrive in the store's one style (``:name``) and are translated here to
asyncpg's ``$1``, ``$2``… once each (cached).
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

import asyncpg

from bot.store.connection import Sleep
from bot.store.database import NO_PARAMS, UNDOABLE, Dialect, Params, Row, Statements, Work
from bot.store.postgres_follow import Follower, notifying
from bot.store.postgres_pool import Connections
from bot.store.schema import POSTGRES_MIGRATIONS, VERSION_TABLE

T = TypeVar("T")

log = logging.getLogger(__name__)

# Up to 10 connections a process, opened as the load asks and kept open (max_connections must
# cover every process: docs/escalar.md). None is opened before it is needed: a server that
# goes away costs no task reconnecting in a loop; the next operation reconnects or says it cannot.
POOL_MAX_CONNECTIONS = 10

POSTGRES = Dialect(
    migrations=POSTGRES_MIGRATIONS,
    version_setup=(VERSION_TABLE,),
    read_version="SELECT coalesce(max(version), 0) FROM schema_version",
    write_version=lambda version: (
        "DELETE FROM schema_version",
        f"INSERT INTO schema_version (version) VALUES ({int(version)})",
    ),
    greatest="greatest",
    least="least",
    binary='"C"',
    unlimited=None,
    position="strpos",
    member="{expression} = ANY(CAST(:{param} AS text[]))",
)

# A parameter: a colon and a name, not a cast's second colon.
PARAMETER = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@lru_cache(maxsize=512)
def translated(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql`` in asyncpg's numbered style, and the names its numbers stand for."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return PARAMETER.sub(number, sql), tuple(names)


def _args(names: tuple[str, ...], params: Params) -> list[Any]:
    return [list(v) if isinstance(v, tuple) else v for v in (params[n] for n in names)]


def count(status: str) -> int:
    """The row count of a command's status (``"DELETE 3"``; 0 for one without)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresReads:
    """Reads on the connections (each on one lent to it) or on one held connection."""

    def __init__(self, runner: Connections | asyncpg.Connection, statements: Statements) -> None:
        self._runner = runner
        self.statements = statements

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        text, names = translated(sql)
        self.statements.add()
        row: Row | None = await self._runner.fetchrow(text, *_args(names, params))
        return row

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[Row]:
        text, names = translated(sql)
        self.statements.add()
        return list(await self._runner.fetch(text, *_args(names, params)))

    async def fetch_value(self, sql: str, params: Params = NO_PARAMS) -> Any:
        text, names = translated(sql)
        self.statements.add()
        return await self._runner.fetchval(text, *_args(names, params))


class PostgresTransaction(PostgresReads):
    """Statements on the connection the transaction holds; its announcements wait for the
    commit, which carries them (:meth:`closing`)."""

    def __init__(self, connection: asyncpg.Connection, statements: Statements) -> None:
        super().__init__(connection, statements)
        self._connection = connection
        self._announced: list[int] = []

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        text, names = translated(sql)
        self.statements.add()
        return count(await self._connection.execute(text, *_args(names, params)))

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        text, names = translated(sql)
        if rows:
            self.statements.add(len(rows))
            await self._connection.executemany(text, [_args(names, r) for r in rows])

    async def lock(self, key: int, second: int | None = None) -> None:
        """The transaction-scoped advisory lock of ``key`` (or of the pair, each folded
        into PostgreSQL's 32-bit halves)."""
        self.statements.add()
        if second is None:
            await self._connection.execute("SELECT pg_advisory_xact_lock($1)", key)
        else:
            await self._connection.execute(
                "SELECT pg_advisory_xact_lock($1, $2)", key % 2**31, second % 2**31
            )

    async def announce(self, channel_id: int) -> None:
        """Noted, and sent after the ``COMMIT`` in its round trip (:meth:`closing`)."""
        if channel_id not in self._announced:
            self._announced.append(channel_id)

    def closing(self, origin: str) -> tuple[str, int]:
        """The transaction's last round trip as one simple query: ``COMMIT``, then its
        notifications in a transaction of their own (``bot.store.postgres_follow``
        :func:`notifying`; its values are numbers and this store's hexadecimal name,
        written as literals), which the server runs only when the ``COMMIT`` succeeded;
        and how many statements that is."""
        if not self._announced:
            return "COMMIT", 1
        return f"COMMIT; {notifying(self._announced, origin)}", 5


def opening(lock: int | None, undoable: bool) -> tuple[str, int]:
    """A transaction's first round trip: ``BEGIN``, the table's advisory lock (a number,
    written as a literal) and the savepoint of an undoable one in the same simple query; and
    how many statements that is."""
    statements = ["BEGIN"]
    if lock is not None:
        statements.append(f"SELECT pg_advisory_xact_lock({int(lock)})")
    if undoable:
        statements.append(UNDOABLE)
    return "; ".join(statements), len(statements)


async def _rolled_back(connection: asyncpg.Connection, statements: Statements) -> None:
    """End a failed transaction; a connection that cannot roll back (its query cut off
    half way, the server gone) is closed, so it is never lent again in a transaction."""
    if connection.is_closed() or not connection.is_in_transaction():
        return
    statements.add()
    try:
        await connection.execute("ROLLBACK")
    except BaseException:
        connection.terminate()
        raise


async def _committed(connection: asyncpg.Connection, commit: str, statements: Statements) -> None:
    """Run a transaction's closing query (:meth:`PostgresTransaction.closing`). When it fails
    with the connection still in a transaction, the ``COMMIT`` went through and what failed
    is the notifications' transaction after it (a failed ``COMMIT`` ends its transaction, and
    the server then runs nothing more of the query): the change is written and the caller
    must hear so; the other processes see it at their boards' next sweep."""
    try:
        await connection.execute(commit)
    except asyncpg.PostgresError:
        if not connection.is_in_transaction():
            raise
        log.warning("a change was written but the other processes could not be told of it", exc_info=True)
        await _rolled_back(connection, statements)


class PostgresDatabase(PostgresReads):
    """A few connections, and the one listening to the other processes."""

    dialect = POSTGRES

    def __init__(self, connections: Connections, url: str) -> None:
        super().__init__(connections, Statements("postgresql"))
        self._connections = connections
        self._url = url
        # This store's name in its notifications, so it does not hear its own.
        self._origin = secrets.token_hex(8)
        self._follower: Follower | None = None

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        return cls(Connections(url, POOL_MAX_CONNECTIONS), url)

    async def transact(self, work: Work[T], lock: int | None = None, undoable: bool = False) -> T:
        """``BEGIN`` with the lock and the savepoint in one round trip, the work's statements,
        then the ``COMMIT`` with its notifications after it in one: three round trips fewer
        than asyncpg's ``transaction()`` with the lock, the savepoint and each ``pg_notify``
        on their own."""
        connection = await self._connections.take()
        try:
            transaction = PostgresTransaction(connection, self.statements)
            begin, begun = opening(lock, undoable)
            try:
                self.statements.add(begun)
                await connection.execute(begin)
                result = await work(transaction)
                commit, committed = transaction.closing(self._origin)
                self.statements.add(committed)
                await _committed(connection, commit, self.statements)
            except BaseException:
                await _rolled_back(connection, self.statements)
                raise
            return result
        finally:
            self._connections.give(connection)

    async def write_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        """The statement alone, on a connection lent to it: PostgreSQL runs a statement
        outside ``BEGIN`` as its own transaction, whole or not at all."""
        return await self.fetch_one(sql, params)

    async def follow(self, heard: Callable[[int], None], missed: Callable[[], None], sleep: Sleep) -> None:
        """Listen on a connection of its own, opened again when it drops
        (``bot.store.postgres_follow``); ``sleep`` is how it waits (injectable for tests)."""
        self._follower = Follower(self._url, self._origin, heard, missed, sleep)

    async def close(self) -> None:
        if self._follower is not None:
            await self._follower.close()
        await self._connections.close()
