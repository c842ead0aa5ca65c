"""The store: the only package that speaks SQL. SQLite by default; PostgreSQL when
``TIRADA_DB`` is a URL (``postgres``, with the same interface and guarantees).

The bot types against :class:`Store`, a protocol (``bot.store.protocol``) the type checker
holds every implementation to. There is one: :class:`SqlStore`, written once against the
narrow database interface of ``bot.store.database``, whose two adapters are
``bot.store.sqlite`` (one aiosqlite connection) and ``bot.store.postgres`` (an asyncpg
pool, advisory locks, LISTEN/NOTIFY). Pool changes are conditional UPDATEs, each with an
append-only ledger row, and the whole operation is recorded under its interaction id so a
replay returns the first answer and changes nothing.

Split by concern: ``schema`` (migrations, ``meta``), ``tables``, ``pools`` (operations and
the ledger), ``records`` (records and reveals), ``retention``, ``saved`` (saved rolls),
``session`` (what the chronicle reads), ``dice`` (dice statistics), ``sheets`` and
``context`` (one interaction's reads in one round trip). ``SqlStore`` is all of them.
"""

from __future__ import annotations

from pathlib import Path

from bot.settings import is_postgres
from bot.store.connection import Clock, DatabaseReplaced, utc_now
from bot.store.context import Contexts
from bot.store.database import Database
from bot.store.dice import Dice
from bot.store.pools import POOL_MAX
from bot.store.protocol import Store
from bot.store.records import Records
from bot.store.retention import Pruned, Pruning, Retention
from bot.store.saved import Saved
from bot.store.schema import MIGRATIONS, Schema
from bot.store.session import Session
from bot.store.sheets import Sheets
from bot.store.tables import Tables


class SqlStore(Schema, Tables, Sheets, Records, Pruning, Saved, Session, Dice, Contexts):
    """The table's memory, on either database. Open with :meth:`open`, close with :meth:`close`."""

    @classmethod
    async def open(cls, path: Path | str, clock: Clock = utc_now) -> SqlStore:
        """Connect (a ``postgresql://`` URL: PostgreSQL; else an SQLite file) and migrate.
        If migrating fails the database is closed before the error goes on: an SQLite
        connection's worker thread would otherwise keep the process alive."""
        db = await open_database(path)
        try:
            store = cls(db, clock, str(path))
            await store.migrate()
        except BaseException:
            await db.close()
            raise
        return store


async def open_database(path: Path | str) -> Database:
    """The adapter ``path`` names (imported here: asyncpg only when PostgreSQL is used)."""
    if is_postgres(path):
        from bot.store.postgres import PostgresDatabase

        return await PostgresDatabase.open(str(path))
    from bot.store.sqlite import SqliteDatabase

    return await SqliteDatabase.open(str(path))


__all__ = [
    "MIGRATIONS",
    "POOL_MAX",
    "Clock",
    "DatabaseReplaced",
    "Pruned",
    "Retention",
    "SqlStore",
    "Store",
]
