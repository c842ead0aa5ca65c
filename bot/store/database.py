"""The narrow database interface the store is written against, once, and the small map of
what truly differs between the two dialects.

Two adapters implement it: ``bot.store.sqlite`` (one aiosqlite connection) and
``bot.store.postgres`` (an asyncpg pool). Every statement is written once, in one parameter
style, ``:name`` with a mapping of values; each adapter translates it for its driver
(aiosqlite takes it as it is, asyncpg gets ``$1``, ``$2``…). A list or tuple value is a list
of values, for :meth:`Dialect.among`. A parameter PostgreSQL cannot type from its context (a
``:x IS NULL``) is written ``CAST(:x AS …)``, which SQLite reads the same way.

Only what differs stays per dialect (:class:`Dialect`): the migrations (column types, and
how each dialect reshaped its tables), where the schema's version is kept, a few function
names, and the way to test membership in a list. The connection model, PostgreSQL's
advisory locks and LISTEN/NOTIFY live in the adapters, behind :meth:`Database.transact`,
:meth:`Transaction.lock` and
:meth:`Transaction.announce`, which SQLite's adapter answers by doing nothing (its one
connection writes one transaction at a time, and its file is one process's only).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeVar

from bot.store.connection import Sleep

Params = Mapping[str, Any]
NO_PARAMS: Params = {}
T = TypeVar("T")


class Row(Protocol):
    """A result row of either driver (``sqlite3.Row``, ``asyncpg.Record``): read by column
    name or position, and turned into a dict with ``dict(row)``."""

    def __getitem__(self, key: Any) -> Any: ...

    def keys(self) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Reads(Protocol):
    """Reads, on the database (each on its own) or inside a :class:`Transaction`."""

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[Row]: ...

    async def fetch_value(self, sql: str, params: Params = NO_PARAMS) -> Any:
        """The first column of the first row, None without one."""
        ...


class Transaction(Reads, Protocol):
    """An open transaction: everything in it is written together or not at all. Writes
    exist only here, so every one passes the checks a transaction makes (SQLite's: that
    the file is still the one the connection writes)."""

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        """Run a statement; the number of rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None: ...

    async def lock(self, key: int, second: int | None = None) -> None:
        """Order this transaction after every other holding ``key`` (one table's, one
        owner's): PostgreSQL's transaction-scoped advisory lock. SQLite holds the whole
        file's write lock already."""
        ...

    async def announce(self, channel_id: int) -> None:
        """Tell the other processes, when this commits, that the table changed
        (PostgreSQL's NOTIFY; SQLite's file has no other process)."""
        ...


# What runs inside a transaction: a coroutine function of it.
Work: TypeAlias = Callable[[Transaction], Coroutine[Any, Any, T]]

# The savepoint a transaction opened ``undoable`` takes first (after its lock; on PostgreSQL
# in BEGIN's round trip), and how its work goes back to it: what the work wrote is gone and
# the transaction goes on. Never released: COMMIT ends it with the rest.
UNDOABLE = "SAVEPOINT undoable"
UNDO = "ROLLBACK TO SAVEPOINT undoable"


class Statements:
    """The SQL statements a database has run, counted once each where its adapter hands
    them to the driver (``tirada_store_statements_total`` in ``/metrics``): a read, a write,
    each row of an ``execute_many`` (the driver runs the statement once a row), and a
    transaction's own ``BEGIN``, ``COMMIT`` or ``ROLLBACK``; ``backend`` labels them
    (``sqlite``, ``postgresql``). Thread-safe: SQLite's run on its connection's thread and,
    most reads, on the event loop."""

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self._lock = threading.Lock()
        self._total = 0

    def add(self, count: int = 1) -> None:
        with self._lock:
            self._total += count

    @property
    def total(self) -> int:
        return self._total


class Database(Reads, Protocol):
    """One database: its dialect, its transactions, and how it ends."""

    dialect: Dialect
    statements: Statements

    async def transact(self, work: Work[T], lock: int | None = None, undoable: bool = False) -> T:
        """``work(transaction)`` as one transaction, holding ``lock`` (:meth:`Transaction.lock`)
        from its start and, ``undoable``, the savepoint :data:`UNDO` goes back to: committed
        when it returns, rolled back when it raises. ``work`` awaits nothing but the
        transaction's statements (SQLite runs it whole on its connection's thread, in one
        hop: ``bot.store.sqlite``)."""
        ...

    async def write_one(self, sql: str, params: Params = NO_PARAMS) -> Row | None:
        """One statement that writes, as a transaction of its own (committed when it returns),
        and the first row it returns: on PostgreSQL one round trip, a statement being its
        own transaction; on SQLite a transaction like every write. It announces nothing: a
        write the other processes must hear goes through :meth:`transact`."""
        ...

    async def follow(self, heard: Callable[[int], None], missed: Callable[[], None], sleep: Sleep) -> None:
        """From now on, pass to ``heard`` each table the other processes change."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True, eq=False)
class Dialect:
    """What the two dialects say differently, in one place. One of each exists: compared
    and hashed as itself (the statements written from it are remembered per dialect).

    ``migrations`` the versioned list of schema changes (append an entry to extend it),
    ``version_setup`` what must exist before the version is read, ``read_version`` the
    statement answering it and ``write_version`` the statements recording a new one;
    ``greatest`` / ``least`` the two-argument max and min; ``binary`` the collation that
    orders text by code point; ``unlimited`` the LIMIT that means none; ``contains`` the
    position of a text in another (0: absent); ``member`` how ``x IN list`` is written for a
    list parameter.
    """

    migrations: tuple[tuple[str, ...], ...]
    version_setup: tuple[str, ...]
    read_version: str
    write_version: Callable[[int], tuple[str, ...]]
    greatest: str
    least: str
    binary: str
    unlimited: int | None
    position: str
    member: str

    def among(self, expression: str, param: str) -> str:
        """``expression`` is one of the list parameter ``param``."""
        return self.member.format(expression=expression, param=param)

    def contains(self, haystack: str, param: str) -> str:
        """``haystack`` contains the text parameter ``param``."""
        return f"{self.position}({haystack}, :{param}) > 0"
