"""The PostgreSQL adapter of the database interface (``bot.store.database``), asyncpg.

Chosen when ``TIRADA_DB`` is a ``postgresql://`` URL, so that several processes (Discord
shards, docs/escalar.md) share one database. What it does that SQLite's does not, and why:

- A pool of connections instead of one: transactions of different tables run at once.
  An operation takes the transaction-scoped advisory lock of its table's channel first
  (:meth:`PostgresTransaction.lock`), so one table's operations run one after another
  exactly as on SQLite (the undo plan and the replay check read before they write), while
  other tables never wait. Migrations run under a lock of their own: processes starting
  together migrate once.
- Pool changes are the same conditional UPDATEs: under READ COMMITTED a concurrent
  UPDATE of the same row waits and re-checks its WHERE on the committed value, so no
  spend goes below zero even between processes.
- Other processes hear of each change to a table (``pg_notify`` in the change's
  transaction, delivered on commit: ``bot.store.postgres_follow``).
- Timestamps stay ISO-8601 text and a roll's data JSON text in a ``jsonb`` column, so rows
  read back (and copy across with ``python -m bot.migrate``) exactly as SQLite's.

The statements arrive in the store's one style (``:name``) and are translated here to
asyncpg's ``$1``, ``$2``… once each (cached).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

import asyncpg

from bot.store.connection import Sleep
from bot.store.database import NO_PARAMS, UNDOABLE, Dialect, Params, Row, Statements, Work
from bot.store.postgres_follow import Db, Follower, notification
from bot.store.schema import POSTGRES_MIGRATIONS, VERSION_TABLE

T = TypeVar("T")

# Up to 10 connections a process, opened as the load asks (max_connections must cover every
# process: docs/escalar.md). No floor: with one, a server that goes away leaves a task
# reconnecting in a loop; without, the next operation reconnects or says it cannot.
POOL_MIN, POOL_MAX_CONNECTIONS = 0, 10

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


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it came: the store leaves no session state
    (its advisory locks end with their transaction, it listens on a connection of its own,
    it sets nothing, opens no cursor). asyncpg's default reset would cost a round trip
    (``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``) after every
    statement run on its own, one in two of a read's."""


class PostgresReads:
    """Reads on a pool (each on a connection it lends) or on one held connection."""

    def __init__(self, runner: asyncpg.Pool | Db, statements: Statements) -> None:
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

    def __init__(self, connection: Db, origin: str, statements: Statements) -> None:
        super().__init__(connection, statements)
        self._connection = connection
        self._origin = origin
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
        """Noted, and sent with the ``COMMIT`` (PostgreSQL delivers a notification at the
        commit whenever it was sent in the transaction): one round trip fewer."""
        if channel_id not in self._announced:
            self._announced.append(channel_id)

    def closing(self) -> tuple[str, int]:
        """The transaction's last round trip: its notifications, then ``COMMIT``, as one
        simple query (its values are numbers and this store's hexadecimal name, written
        as literals); and how many statements that is."""
        notified = "".join(f"{notification(c, self._origin)}; " for c in self._announced)
        return notified + "COMMIT", len(self._announced) + 1


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


async def _rolled_back(connection: Db, statements: Statements) -> None:
    """End a failed transaction; a connection that cannot roll back (its query cut off
    half way, the server gone) is closed, so the pool never lends it in a transaction."""
    if connection.is_closed() or not connection.is_in_transaction():
        return
    statements.add()
    try:
        await connection.execute("ROLLBACK")
    except BaseException:
        connection.terminate()
        raise


class PostgresDatabase(PostgresReads):
    """A pool of connections, and the one listening to the other processes."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        super().__init__(pool, Statements("postgresql"))
        self._pool = pool
        self._url = url
        # This store's name in its notifications, so it does not hear its own.
        self._origin = secrets.token_hex(8)
        self._follower: Follower | None = None

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        pool = await asyncpg.create_pool(
            url, min_size=POOL_MIN, max_size=POOL_MAX_CONNECTIONS, reset=_nothing_to_reset
        )
        return cls(pool, url)

    async def transact(self, work: Work[T], lock: int | None = None, undoable: bool = False) -> T:
        """``BEGIN`` with the lock and the savepoint in one round trip, the work's statements,
        then its notifications with the ``COMMIT`` in one: three round trips fewer than
        asyncpg's ``transaction()`` with the lock, the savepoint and each ``pg_notify`` on
        their own."""
        async with self._pool.acquire() as connection:
            transaction = PostgresTransaction(connection, self._origin, self.statements)
            begin, begun = opening(lock, undoable)
            try:
                self.statements.add(begun)
                await connection.execute(begin)
                result = await work(transaction)
                commit, committed = transaction.closing()
                self.statements.add(committed)
                await connection.execute(commit)
            except BaseException:
                await _rolled_back(connection, self.statements)
                raise
            return result

    async def write_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        """The statement alone, on a connection the pool lends: PostgreSQL runs a statement
        outside ``BEGIN`` as its own transaction, whole or not at all."""
        return await self.fetch_one(sql, params)

    async def follow(self, heard: Callable[[int], None], missed: Callable[[], None], sleep: Sleep) -> None:
        """Listen on a connection of its own, opened again when it drops
        (``bot.store.postgres_follow``); ``sleep`` is how it waits (injectable for tests)."""
        self._follower = Follower(self._url, self._origin, heard, missed, sleep)

    async def close(self) -> None:
        if self._follower is not None:
            await self._follower.close()
        await self._pool.close()
