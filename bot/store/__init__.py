"""The store: the only package that speaks SQL. SQLite by default; PostgreSQL when
``TIRADA_DB`` is a URL (``postgres``, with the same interface and guarantees).

One aiosqlite connection in autocommit mode. Every transaction is a plain function run
whole on the connection's thread (``Store._run``): ``BEGIN IMMEDIATE`` … ``COMMIT`` in one
hop, so two coroutines never interleave statements of two transactions on the shared
connection (measured before: without serialising them, double spends or "cannot start a
transaction within a transaction"). Pool changes are conditional UPDATEs, each with an
append-only ledger row, and the whole operation is recorded under its interaction id so a
replay returns the first answer and changes nothing.

Split by concern: ``connection`` (the one connection and how a transaction runs),
``schema`` (migrations, ``meta``), ``tables``, ``pools`` (operations and the ledger), ``records``
(records and reveals), ``retention``, and for issue 21 ``saved`` (saved rolls), ``session``
(what the chronicle reads) and ``dice`` (dice statistics). ``Store`` is all of them.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite

from bot.settings import is_postgres
from bot.store.connection import Clock, DatabaseReplaced, utc_now
from bot.store.dice import Dice
from bot.store.pools import POOL_MAX, Pools
from bot.store.records import Records
from bot.store.retention import Pruned, Pruning, Retention
from bot.store.saved import Saved
from bot.store.schema import MIGRATIONS, Schema
from bot.store.session import Session
from bot.store.sheets import Sheets
from bot.store.tables import Tables

# How long a statement waits for another process's lock on the file before giving up.
BUSY_TIMEOUT_MS = 5000
WAL_RETRY_MS = 50


class Store(Schema, Tables, Sheets, Pools, Records, Pruning, Saved, Session, Dice):
    """The table's memory. Open with :meth:`open`, close with :meth:`close`."""

    @classmethod
    async def open(cls, path: Path | str, clock: Clock = utc_now) -> Store:
        """Connect, set the connection up and migrate. If any of it fails (a corrupt or
        truncated file fails its first statement) the connection is closed before the
        error goes on: its worker thread would otherwise keep the process alive.

        A ``postgresql://`` URL opens the PostgreSQL store instead (bot/store/postgres.py)."""
        if is_postgres(path):
            # Imported here: the PostgreSQL store is a Store, so it imports this module.
            from bot.store.postgres import PostgresStore

            return await PostgresStore.open(path, clock)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            for pragma in (
                f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
            ):
                async with db.execute(pragma) as cursor:
                    await cursor.fetchall()
            await _use_wal(db)
            store = cls(db, clock, str(path))
            await store.migrate()
        except BaseException:
            await db.close()
            raise
        return store


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


__all__ = [
    "MIGRATIONS",
    "POOL_MAX",
    "Clock",
    "DatabaseReplaced",
    "Pruned",
    "Retention",
    "Store",
]
