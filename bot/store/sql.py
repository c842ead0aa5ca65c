"""The one implementation of the store's protocol, on either database."""

from __future__ import annotations

from pathlib import Path

from bot.settings import is_postgres
from bot.store.connection import Clock, utc_now
from bot.store.context import Contexts
from bot.store.database import Database
from bot.store.dice import Dice
from bot.store.records import Records
from bot.store.retention import Pruning
from bot.store.saved import Saved
from bot.store.schema import Schema
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
