"""The SQLite store: the only module that speaks SQL.

One aiosqlite connection in autocommit mode. Every transaction is a plain function run
whole on the connection's thread (``Store._run``): ``BEGIN IMMEDIATE`` … ``COMMIT`` in one
hop, so two coroutines never interleave statements of two transactions on the shared
connection (measured before: without serialising them, double spends or "cannot start a
transaction within a transaction"). Pool changes are conditional UPDATEs, each with an
append-only ledger row, and the whole operation is recorded under its interaction id so a
replay returns the first answer and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import asdict, astuple, dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.models import (
    Applied,
    Change,
    LedgerRow,
    NewRoll,
    Operation,
    Outcome,
    PoolState,
    PoolValue,
    Refused,
    RollRecord,
    RollUpdate,
    SheetRow,
    System,
    Table,
    TableSettings,
    Undo,
)

log = logging.getLogger(__name__)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE tables (
            channel_id    INTEGER PRIMARY KEY,
            guild_id      INTEGER,
            system        TEXT CHECK (system IN ('donjon', 'dune', 'dnd5e', 'mediana')),
            gm_id         INTEGER,
            gm_channel_id INTEGER,
            donjon_level  INTEGER NOT NULL DEFAULT 0 CHECK (donjon_level BETWEEN 0 AND 100),
            settings      TEXT NOT NULL DEFAULT '{}',
            created_at    TEXT NOT NULL
        )""",
        """CREATE TABLE pools (
            channel_id INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
            pool       TEXT NOT NULL CHECK (length(pool) BETWEEN 1 AND 40),
            owner_id   INTEGER NOT NULL DEFAULT 0,
            value      INTEGER NOT NULL CHECK (value BETWEEN 0 AND 1000000),
            applied    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (channel_id, pool, owner_id)
        )""",
        """CREATE TABLE ledger (
            id             INTEGER PRIMARY KEY AUTOINCREMENT,
            channel_id     INTEGER NOT NULL,
            interaction_id INTEGER NOT NULL,
            actor_id       INTEGER NOT NULL,
            pool           TEXT NOT NULL,
            owner_id       INTEGER NOT NULL DEFAULT 0,
            delta          INTEGER NOT NULL CHECK (delta <> 0),
            value_after    INTEGER NOT NULL CHECK (value_after >= 0),
            reason         TEXT NOT NULL,
            message_id     INTEGER,
            created_at     TEXT NOT NULL,
            UNIQUE (interaction_id, channel_id, pool, owner_id)
        )""",
        "CREATE INDEX ledger_by_channel ON ledger (channel_id, id)",
        """CREATE TABLE operations (
            interaction_id INTEGER NOT NULL,
            step           INTEGER NOT NULL DEFAULT 0,
            channel_id     INTEGER NOT NULL,
            outcome        TEXT NOT NULL,
            created_at     TEXT NOT NULL,
            PRIMARY KEY (interaction_id, step)
        )""",
        """CREATE TABLE rolls (
            id             INTEGER PRIMARY KEY AUTOINCREMENT,
            channel_id     INTEGER NOT NULL,
            interaction_id INTEGER NOT NULL UNIQUE,
            user_id        INTEGER NOT NULL,
            kind           TEXT NOT NULL,
            data           TEXT NOT NULL,
            version        INTEGER NOT NULL DEFAULT 0,
            message_id     INTEGER,
            created_at     TEXT NOT NULL
        )""",
        "CREATE INDEX rolls_by_channel ON rolls (channel_id, kind, id)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    (
        # The GM's side: undo (a compensating row names the row it reverts, once), reset
        # (rolls retired, never deleted), the GM channel lookup, secret rolls revealed once,
        # and each pool's cap remembered so an undo respects it.
        "ALTER TABLE ledger ADD COLUMN undoes INTEGER REFERENCES ledger (id)",
        "CREATE UNIQUE INDEX ledger_undone ON ledger (undoes) WHERE undoes IS NOT NULL",
        "ALTER TABLE rolls ADD COLUMN retired INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE pools ADD COLUMN cap INTEGER",
        "CREATE INDEX tables_by_gm_channel ON tables (gm_channel_id) WHERE gm_channel_id IS NOT NULL",
        """CREATE TABLE reveals (
            message_id INTEGER PRIMARY KEY,
            roll_id    INTEGER NOT NULL,
            actor_id   INTEGER NOT NULL,
            created_at TEXT NOT NULL
        )""",
    ),
    (
        # Character sheets (/ficha): per player per table, one active; the GM's NPCs. The
        # numbers play changes live in ledger pools owned by the sheet's id.
        """CREATE TABLE sheets (
            id             INTEGER PRIMARY KEY AUTOINCREMENT,
            channel_id     INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
            owner_id       INTEGER NOT NULL,
            npc            INTEGER NOT NULL DEFAULT 0,
            name           TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            folded         TEXT NOT NULL,
            system         TEXT NOT NULL,
            data           TEXT NOT NULL CHECK (length(data) <= 65536),
            active         INTEGER NOT NULL DEFAULT 0,
            version        INTEGER NOT NULL DEFAULT 0,
            interaction_id INTEGER NOT NULL UNIQUE,
            created_at     TEXT NOT NULL,
            UNIQUE (channel_id, owner_id, npc, folded)
        )""",
        "CREATE UNIQUE INDEX sheets_active ON sheets (channel_id, owner_id) WHERE active AND NOT npc",
    ),
)

# The largest value any pool may hold: the schema's CHECK, refused before it is reached.
POOL_MAX = 1_000_000

# How many rows one pruning transaction deletes, so a large first prune never holds the
# write lock for long.
PRUNE_BATCH = 2000

Clock = Callable[[], datetime]
T = TypeVar("T")
# How long a statement waits for another process's lock on the file before giving up.
BUSY_TIMEOUT_MS = 5000
WAL_RETRY_MS = 50


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Retention:
    """What the store forgets, and when; the ledger is always kept whole.

    - ``operations``: an interaction's recorded outcome exists to answer Discord's replay
      of it, and Discord replays only while the interaction's token lives (15 minutes).
    - ``rolls``: a roll of one of ``kinds`` (rolls read by nothing but their own buttons),
      or any retired one, older than this. A Dune roll linked to an extended task stays
      while the task lives: the task's progress is counted from it.
    """

    operations: timedelta = timedelta(minutes=20)
    rolls: timedelta = timedelta(days=30)
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pruned:
    operations: int = 0
    rolls: int = 0
    reveals: int = 0


class DatabaseReplaced(sqlite3.DatabaseError):
    """The file at the database's path is no longer the one this connection writes (it was
    deleted or replaced while the bot ran): anything written now would be lost on restart."""


def _identity(path: str) -> tuple[int, int] | None:
    """A file's device and inode, or None when nothing is at ``path``."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


class Store:
    """The table's memory. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, clock: Clock = _utc_now, path: str | None = None) -> None:
        self._db = db
        self._clock = clock
        # The file this connection writes, to notice when the path stops naming it.
        self.path = path
        self._file = _identity(path) if path is not None else None

    @classmethod
    async def open(cls, path: Path | str, clock: Clock = _utc_now) -> Store:
        """Connect, set the connection up and migrate. If any of it fails (a corrupt or
        truncated file fails its first statement) the connection is closed before the
        error goes on: its worker thread would otherwise keep the process alive."""
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

    async def close(self) -> None:
        await self._db.close()

    def _now(self) -> str:
        return self._clock().isoformat(timespec="seconds")

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` on the connection's own thread, in one hop.

        aiosqlite hops to its thread once per statement, fetch and cursor close: some twenty
        hops for one operation, each a chance for another coroutine's statement to slip in
        (hence, before, a lock around every transaction). Its ``_execute`` queues a whole
        function instead; it has no public equivalent, so this is the one place that uses
        it (the version is pinned below 0.23 and every store test goes through here). One
        thread runs the queue in order, so no two transactions ever interleave.
        """
        return await self._db._execute(fn, self._db._conn, *args)

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` as one ``BEGIN IMMEDIATE`` transaction, all or nothing,
        provided the file at the path is still the one the connection writes."""
        return await self._run(self._checked_transaction, fn, *args)

    def _checked_transaction(self, db: sqlite3.Connection, fn: Callable[..., T], *args: Any) -> T:
        """On the connection's thread (a ``stat`` per change, off the event loop): SQLite
        keeps writing to a deleted file without complaint, so the path is checked first."""
        if self.path is not None and _identity(self.path) != self._file:
            raise DatabaseReplaced(self.path)
        return _in_transaction(db, fn, *args)

    async def _fetchone(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Row | None:
        return await self._run(lambda db: db.execute(sql, params).fetchone())

    async def _fetchall(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        return await self._run(lambda db: db.execute(sql, params).fetchall())

    # -- schema -------------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self._fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def migrate(self) -> None:
        """Bring the schema up to date in one write transaction that reads the version
        inside it: a second process starting at the same moment waits for the lock, then
        finds nothing left to do."""
        for version in await self._write(_migrate):
            log.info("database migrated", extra={"schema_version": version})

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            lambda db: db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        )

    # -- tables -------------------------------------------------------------------------

    async def table(self, channel_id: int) -> Table | None:
        row = await self._fetchone("SELECT * FROM tables WHERE channel_id = ?", (channel_id,))
        return None if row is None else _table(row)

    async def table_or_default(self, channel_id: int, guild_id: int | None) -> Table:
        """The channel's table, or the empty table it would be (nothing is written)."""
        return await self.table(channel_id) or Table(channel_id, guild_id)

    def _ensure_table(self, db: sqlite3.Connection, channel_id: int, guild_id: int | None) -> None:
        db.execute(
            "INSERT INTO tables (channel_id, guild_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (channel_id) DO NOTHING",
            (channel_id, guild_id, self._now()),
        )

    async def _update_table(self, channel_id: int, guild_id: int | None, column: str, value: Any) -> Table:
        def update(db: sqlite3.Connection) -> sqlite3.Row:
            self._ensure_table(db, channel_id, guild_id)
            return db.execute(
                f"UPDATE tables SET {column} = ? WHERE channel_id = ? RETURNING *", (value, channel_id)
            ).fetchone()

        return _table(await self._write(update))

    async def set_system(self, channel_id: int, guild_id: int | None, system: System) -> Table:
        return await self._update_table(channel_id, guild_id, "system", system.value)

    async def set_gm(self, channel_id: int, guild_id: int | None, gm_id: int) -> Table:
        return await self._update_table(channel_id, guild_id, "gm_id", gm_id)

    async def set_donjon_level(self, channel_id: int, guild_id: int | None, level: int) -> Table:
        return await self._update_table(channel_id, guild_id, "donjon_level", level)

    async def set_gm_channel(self, channel_id: int, guild_id: int | None, gm_channel_id: int | None) -> Table:
        return await self._update_table(channel_id, guild_id, "gm_channel_id", gm_channel_id)

    async def tables_seen_from(self, channel_id: int) -> tuple[Table | None, list[Table]]:
        """In one query: the channel's own table, and the tables it is the GM channel of."""
        rows = await self._fetchall(
            "SELECT * FROM tables WHERE channel_id = :channel OR gm_channel_id = :channel "
            "ORDER BY channel_id",
            {"channel": channel_id},
        )
        tables = [_table(r) for r in rows]
        own = next((t for t in tables if t.channel_id == channel_id), None)
        return own, [t for t in tables if t.gm_channel_id == channel_id]

    async def tables_served(self, gm_channel_id: int) -> list[Table]:
        """The tables whose private GM channel this is."""
        rows = await self._fetchall(
            "SELECT * FROM tables WHERE gm_channel_id = ? ORDER BY channel_id", (gm_channel_id,)
        )
        return [_table(r) for r in rows]

    async def set_settings(self, channel_id: int, guild_id: int | None, settings: TableSettings) -> Table:
        return await self._update_table(channel_id, guild_id, "settings", settings.model_dump_json())

    # -- retention ------------------------------------------------------------------------

    async def prune(self, retention: Retention) -> Pruned:
        """Forget what ``retention`` allows, in short transactions; returns what went."""
        now = self._clock()
        operations_before = (now - retention.operations).isoformat(timespec="seconds")
        rolls_before = (now - retention.rolls).isoformat(timespec="seconds")
        counts = [0, 0, 0]
        while True:
            batch = await self._write(_prune_batch, operations_before, rolls_before, retention.kinds)
            counts = [a + b for a, b in zip(counts, astuple(batch), strict=True)]
            if not any(astuple(batch)):
                return Pruned(*counts)

    # -- pools --------------------------------------------------------------------------

    async def pools(self, channel_id: int) -> list[PoolValue]:
        rows = await self._fetchall(
            "SELECT pool, owner_id, value FROM pools WHERE channel_id = ? ORDER BY pool, owner_id",
            (channel_id,),
        )
        return [PoolValue(r["pool"], r["owner_id"], r["value"]) for r in rows]

    async def players(self, channel_id: int, limit: int = 50, not_players: Sequence[str] = ()) -> list[int]:
        """Who plays at this table: everyone who has rolled there, in the order of their
        first roll, then whoever holds a pool of their own (even at zero) without a roll.
        The owners of ``not_players`` pools are not players (a character sheet's id)."""
        rows = await self._fetchall(
            "SELECT user_id FROM (SELECT user_id, id AS seen FROM rolls WHERE channel_id = :channel "
            "UNION ALL SELECT owner_id, 1 << 62 FROM pools WHERE channel_id = :channel AND owner_id <> 0 "
            "AND pool NOT IN (SELECT value FROM json_each(:not_players))) "
            "GROUP BY user_id ORDER BY min(seen), user_id LIMIT :limit",
            {"channel": channel_id, "limit": limit, "not_players": json.dumps(sorted(not_players))},
        )
        return [int(r[0]) for r in rows]

    async def pool(self, channel_id: int, pool: str, owner_id: int = 0) -> int:
        row = await self._fetchone(
            "SELECT value FROM pools WHERE channel_id = ? AND pool = ? AND owner_id = ?",
            (channel_id, pool, owner_id),
        )
        return 0 if row is None else int(row[0])

    async def apply(self, op: Operation) -> Outcome:
        """Apply every change of ``op`` or none, once per interaction id.

        Each change is one conditional UPDATE (the bound is in its WHERE clause, so no
        value is read and written back); a refusal rolls the whole operation back. The
        outcome, applied or refused, is stored under the interaction id: a replay gets
        the first answer with ``replayed`` set and changes nothing.
        """
        return await self._write(self._apply, op)

    def _apply(self, db: sqlite3.Connection, op: Operation) -> Outcome:
        first = self._recorded(db, op.interaction_id, op.step)
        if first is not None:
            return first
        self._ensure_table(db, op.channel_id, op.guild_id)
        db.execute("SAVEPOINT changes")
        outcome = self._changes(db, op)
        if isinstance(outcome, Refused):
            db.execute("ROLLBACK TO changes")
        db.execute("RELEASE changes")
        db.execute(
            "INSERT INTO operations (interaction_id, step, channel_id, outcome, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (op.interaction_id, op.step, op.channel_id, _encode(outcome), self._now()),
        )
        return outcome

    def _changes(self, db: sqlite3.Connection, op: Operation) -> Outcome:
        roll_id = None
        if op.roll_update is not None:
            refused = self._update_roll(db, op.roll_update)
            if refused is not None:
                return refused
            roll_id = op.roll_update.roll_id
        changes = op.changes
        if op.undo is not None:
            reverted = self._undo_plan(db, op.channel_id, op.undo)
            if not reverted:
                return Refused("mesa.deshacer.nothing", "", 0, 0, 0)
            changes += reverted
        retired = 0
        if op.reset is not None:
            changes += self._reset_plan(db, op.channel_id, op.reset.keep_pools)
            retired = db.execute(
                "UPDATE rolls SET retired = 1 WHERE channel_id = ? AND NOT retired "
                f"AND kind NOT IN ({', '.join('?' for _ in op.reset.keep)})",
                (op.channel_id, *op.reset.keep),
            ).rowcount
        states: list[PoolState] = []
        for change in changes:
            result = self._change(db, op, change)
            if isinstance(result, Refused):
                return result
            states.append(result)
        if op.new_roll is not None:
            roll_id = self._insert_roll(db, op.channel_id, op.interaction_id, op.new_roll)
        return Applied(tuple(states), roll_id=roll_id, retired=retired)

    def _undo_plan(self, db: sqlite3.Connection, channel_id: int, undo: Undo) -> tuple[Change, ...]:
        """The compensating changes for the last operation not yet reverted (that touched
        the pool, when one is named). Reading here is safe: the write lock is held."""
        live = "undoes IS NULL AND NOT EXISTS (SELECT 1 FROM ledger AS u WHERE u.undoes = ledger.id)"
        cursor = db.execute(
            f"SELECT interaction_id FROM ledger WHERE channel_id = :channel AND {live} "
            "AND (:pool IS NULL OR pool = :pool) AND (:owner IS NULL OR owner_id = :owner) "
            "ORDER BY id DESC LIMIT 1",
            {"channel": channel_id, "pool": undo.pool, "owner": undo.owner_id},
        )
        last = cursor.fetchone()
        if last is None:
            return ()
        cursor = db.execute(
            "SELECT id, pool, owner_id, delta FROM ledger "
            f"WHERE channel_id = ? AND interaction_id = ? AND {live} ORDER BY id",
            (channel_id, last[0]),
        )
        rows = cursor.fetchall()
        return tuple(Change(r["pool"], -r["delta"], owner_id=r["owner_id"], undoes=r["id"]) for r in rows)

    def _reset_plan(
        self, db: sqlite3.Connection, channel_id: int, keep: tuple[str, ...] = ()
    ) -> tuple[Change, ...]:
        cursor = db.execute(
            "SELECT pool, owner_id FROM pools WHERE channel_id = ? AND value <> 0 "
            "AND pool NOT IN (SELECT value FROM json_each(?)) ORDER BY pool, owner_id",
            (channel_id, json.dumps(list(keep))),
        )
        rows = cursor.fetchall()
        return tuple(Change(r["pool"], owner_id=r["owner_id"], set_to=0) for r in rows)

    def _update_roll(self, db: sqlite3.Connection, update: RollUpdate) -> Refused | None:
        cursor = db.execute(
            "UPDATE rolls SET data = ?, version = version + 1 WHERE id = ? AND version = ? AND NOT retired "
            "RETURNING id",
            (json.dumps(update.data), update.roll_id, update.version),
        )
        if cursor.fetchone() is not None:
            return None
        cursor = db.execute("SELECT 1 FROM rolls WHERE id = ? AND NOT retired", (update.roll_id,))
        exists = cursor.fetchone()
        key = "roll.stale" if exists else "error.roll_gone"
        return Refused(key, "", 0, 0, 0)

    def _insert_roll(
        self, db: sqlite3.Connection, channel_id: int, interaction_id: int, roll: NewRoll
    ) -> int:
        cursor = db.execute(
            "INSERT INTO rolls (channel_id, interaction_id, user_id, kind, data, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (channel_id, interaction_id, roll.user_id, roll.kind, json.dumps(roll.data), self._now()),
        )
        row = cursor.fetchone()
        assert row is not None
        return int(row[0])

    def _recorded(self, db: sqlite3.Connection, interaction_id: int, step: int) -> Outcome | None:
        cursor = db.execute(
            "SELECT outcome FROM operations WHERE interaction_id = ? AND step = ?", (interaction_id, step)
        )
        row = cursor.fetchone()
        return None if row is None else _decode(row[0])

    def _change(self, db: sqlite3.Connection, op: Operation, change: Change) -> PoolState | Refused:
        db.execute(
            "INSERT INTO pools (channel_id, pool, owner_id, value) VALUES (?, ?, ?, 0) "
            "ON CONFLICT DO NOTHING",
            (op.channel_id, change.pool, change.owner_id),
        )
        target = "value + :delta"
        if change.set_to is not None:
            target = ":set_to"
        elif change.clamp:
            target = "max(0, min(coalesce(:cap, cap, value + :delta), value + :delta))"
        cursor = db.execute(
            f"UPDATE pools SET value = {target}, applied = {target} - value, cap = coalesce(:cap, cap) "
            "WHERE channel_id = :channel AND pool = :pool AND owner_id = :owner "
            f"AND {target} >= 0 AND {target} <= min(coalesce(:cap, cap, :max), :max) "
            "RETURNING value, applied",
            {
                "delta": change.delta,
                "set_to": change.set_to,
                "cap": change.cap,
                "channel": op.channel_id,
                "pool": change.pool,
                "owner": change.owner_id,
                "max": POOL_MAX,
            },
        )
        row = cursor.fetchone()
        if row is None:
            return self._refusal(db, op.channel_id, change)
        value, applied = int(row[0]), int(row[1])
        if applied:
            db.execute(
                "INSERT INTO ledger (channel_id, interaction_id, actor_id, pool, owner_id, delta, "
                "value_after, reason, message_id, created_at, undoes) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    op.channel_id,
                    op.interaction_id,
                    op.actor_id,
                    change.pool,
                    change.owner_id,
                    applied,
                    value,
                    change.reason or op.reason,
                    op.message_id,
                    self._now(),
                    change.undoes,
                ),
            )
        requested = applied if change.set_to is not None else change.delta
        return PoolState(change.pool, change.owner_id, value, applied, requested)

    def _refusal(self, db: sqlite3.Connection, channel_id: int, change: Change) -> Refused:
        cursor = db.execute(
            "SELECT value, cap FROM pools WHERE channel_id = ? AND pool = ? AND owner_id = ?",
            (channel_id, change.pool, change.owner_id),
        )
        row = cursor.fetchone()
        value = 0 if row is None else int(row[0])
        cap = change.cap if change.cap is not None or row is None else row[1]
        delta = change.delta if change.set_to is None else change.set_to - value
        if delta < 0:
            return Refused("pool.not_enough", change.pool, change.owner_id, value, delta, cap)
        # Past the pool's own cap, or (a pool without one) past the schema's bound.
        return Refused(
            "pool.over_cap", change.pool, change.owner_id, value, delta, min(cap or POOL_MAX, POOL_MAX)
        )

    async def ledger(
        self,
        channel_id: int,
        limit: int = 20,
        before_id: int | None = None,
        pool: str | None = None,
        owner_id: int | None = None,
    ) -> list[LedgerRow]:
        """The table's ledger, newest first, from before ``before_id`` (a page's end)."""
        # A roll's rows are written before its message exists: their link is the roll's.
        rows = await self._fetchall(
            "SELECT l.id, l.channel_id, l.interaction_id, l.actor_id, l.pool, l.owner_id, l.delta, "
            "l.value_after, l.reason, coalesce(l.message_id, r.message_id) AS message_id, "
            "l.created_at, l.undoes FROM ledger l LEFT JOIN rolls r "
            "ON r.interaction_id = l.interaction_id AND r.channel_id = l.channel_id "
            "WHERE l.channel_id = :channel AND l.id < :before "
            "AND (:pool IS NULL OR l.pool = :pool) AND (:owner IS NULL OR l.owner_id = :owner) "
            "ORDER BY l.id DESC LIMIT :limit",
            {
                "channel": channel_id,
                "before": before_id if before_id is not None else 2**63 - 1,
                "pool": pool,
                "owner": owner_id,
                "limit": limit,
            },
        )
        return [LedgerRow(**dict(r)) for r in rows]

    async def ledger_pools(self, channel_id: int) -> list[str]:
        """The pools this table's ledger mentions, for the history's filter."""
        rows = await self._fetchall(
            "SELECT DISTINCT pool FROM ledger WHERE channel_id = ? ORDER BY pool", (channel_id,)
        )
        return [r[0] for r in rows]

    async def ledger_sums(self, channel_id: int) -> dict[tuple[str, int], int]:
        rows = await self._fetchall(
            "SELECT pool, owner_id, sum(delta) FROM ledger WHERE channel_id = ? GROUP BY pool, owner_id",
            (channel_id,),
        )
        return {(r[0], r[1]): int(r[2]) for r in rows}

    # -- rolls that buttons come back to ------------------------------------------------

    async def save_roll(
        self, channel_id: int, interaction_id: int, user_id: int, kind: str, data: dict[str, Any]
    ) -> int:
        """Record a posted roll once per interaction and return its id."""

        def save(db: sqlite3.Connection) -> int:
            db.execute(
                "INSERT INTO rolls (channel_id, interaction_id, user_id, kind, data, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (interaction_id) DO NOTHING",
                (channel_id, interaction_id, user_id, kind, json.dumps(data), self._now()),
            )
            return int(
                db.execute("SELECT id FROM rolls WHERE interaction_id = ?", (interaction_id,)).fetchone()[0]
            )

        return await self._write(save)

    async def roll(self, roll_id: int) -> RollRecord | None:
        """A live roll; a retired one (the table was reset) no longer exists for buttons."""
        row = await self._fetchone("SELECT * FROM rolls WHERE id = ? AND NOT retired", (roll_id,))
        return None if row is None else _roll(row)

    async def rolls(self, channel_id: int, kind: str, limit: int = 500) -> list[RollRecord]:
        """The channel's latest rolls of one kind, newest first."""
        rows = await self._fetchall(
            "SELECT * FROM rolls WHERE channel_id = ? AND kind = ? AND NOT retired ORDER BY id DESC LIMIT ?",
            (channel_id, kind, limit),
        )
        return [_roll(r) for r in rows]

    async def linked_rolls(
        self, channel_id: int, kind: str, field: str, ids: Sequence[int]
    ) -> list[RollRecord]:
        """In one query, the channel's live rolls of ``kind`` whose ``data[field]`` is one of
        ``ids`` (a Dune roll's ``task_id``: every roll that counts towards these tasks)."""
        rows = await self._fetchall(
            "SELECT * FROM rolls WHERE channel_id = ? AND kind = ? AND NOT retired "
            "AND json_extract(data, ?) IN (SELECT value FROM json_each(?)) ORDER BY id",
            (channel_id, kind, f"$.{field}", json.dumps(list(ids))),
        )
        return [_roll(r) for r in rows]

    async def claim_reveal(self, message_id: int, roll_id: int, actor_id: int) -> bool:
        """Claim the reveal of a secret message; only the first claim wins."""

        def claim(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT INTO reveals (message_id, roll_id, actor_id, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (message_id) DO NOTHING RETURNING message_id",
                (message_id, roll_id, actor_id, self._now()),
            )
            return cursor.fetchone() is not None

        return await self._write(claim)

    async def release_reveal(self, message_id: int) -> None:
        """Give a reveal back when posting it failed, so the GM can try again."""
        await self._write(lambda db: db.execute("DELETE FROM reveals WHERE message_id = ?", (message_id,)))

    async def set_roll_message(self, roll_id: int, message_id: int) -> None:
        """Remember where a roll was posted, so later buttons can edit that message; the
        ledger rows the roll itself wrote (its cost or gain) learn the link too, like the
        rows a button writes, which know the message already."""

        def remember(db: sqlite3.Connection) -> None:
            row = db.execute(
                "UPDATE rolls SET message_id = ? WHERE id = ? RETURNING channel_id, interaction_id",
                (message_id, roll_id),
            ).fetchone()
            if row is not None:
                db.execute(
                    "UPDATE ledger SET message_id = ? "
                    "WHERE channel_id = ? AND interaction_id = ? AND message_id IS NULL",
                    (message_id, row[0], row[1]),
                )

        await self._write(remember)

    # -- character sheets (/ficha) ---------------------------------------------------------
    # One block, to move whole into the store package: rows of ``sheets`` and the pool
    # changes that go with creating one, in one transaction.

    async def create_sheet(
        self, op: Operation, sheet: SheetRow, live: Callable[[int], tuple[Change, ...]]
    ) -> tuple[int, Outcome]:
        """Insert ``sheet`` (active, for a player's) and apply ``live(its id)`` (its pools
        put at the file's values) as one operation, once per interaction. Refused, with
        nothing written, when the owner already has a sheet of that name at the table."""

        def create(db: sqlite3.Connection) -> tuple[int, Outcome]:
            first = db.execute(
                "SELECT id FROM sheets WHERE interaction_id = ?", (op.interaction_id,)
            ).fetchone()
            recorded = self._recorded(db, op.interaction_id, op.step)
            if first is not None and recorded is not None:
                return int(first[0]), recorded
            self._ensure_table(db, op.channel_id, op.guild_id)
            row = db.execute(
                "INSERT INTO sheets (channel_id, owner_id, npc, name, folded, system, data, "
                "interaction_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (channel_id, owner_id, npc, folded) DO NOTHING RETURNING id",
                (
                    op.channel_id,
                    sheet.owner_id,
                    sheet.npc,
                    sheet.name,
                    sheet.folded,
                    sheet.system,
                    json.dumps(sheet.data, ensure_ascii=False),
                    op.interaction_id,
                    self._now(),
                ),
            ).fetchone()
            if row is None:
                return 0, Refused("fichas.exists", "", 0, 0, 0)
            sheet_id = int(row[0])
            if not sheet.npc:
                self._activate(db, op.channel_id, sheet.owner_id, sheet_id)
            outcome = self._apply(db, replace(op, changes=live(sheet_id)))
            if isinstance(outcome, Refused):
                db.execute("DELETE FROM sheets WHERE id = ?", (sheet_id,))
            return sheet_id, outcome

        return await self._write(create)

    def _activate(self, db: sqlite3.Connection, channel_id: int, owner_id: int, sheet_id: int) -> int:
        db.execute(
            "UPDATE sheets SET active = 0 WHERE channel_id = ? AND owner_id = ? AND NOT npc AND active",
            (channel_id, owner_id),
        )
        return db.execute(
            "UPDATE sheets SET active = 1 WHERE id = ? AND channel_id = ? AND owner_id = ? AND NOT npc",
            (sheet_id, channel_id, owner_id),
        ).rowcount

    async def choose_sheet(self, channel_id: int, owner_id: int, sheet_id: int) -> bool:
        """Make one of the owner's sheets at the table the active one."""
        return bool(await self._write(self._activate, channel_id, owner_id, sheet_id))

    async def sheets(self, channel_id: int, owner_id: int | None = None, limit: int = 100) -> list[SheetRow]:
        """The table's sheets (one owner's when given), by name."""
        rows = await self._fetchall(
            "SELECT * FROM sheets WHERE channel_id = :channel AND (:owner IS NULL OR owner_id = :owner) "
            "ORDER BY npc, folded LIMIT :limit",
            {"channel": channel_id, "owner": owner_id, "limit": limit},
        )
        return [_sheet(r) for r in rows]

    async def sheet(self, channel_id: int, sheet_id: int) -> SheetRow | None:
        """A sheet of this table only: an id from elsewhere finds nothing."""
        row = await self._fetchone(
            "SELECT * FROM sheets WHERE id = ? AND channel_id = ?", (sheet_id, channel_id)
        )
        return None if row is None else _sheet(row)

    async def active_sheet(self, channel_id: int, owner_id: int) -> SheetRow | None:
        row = await self._fetchone(
            "SELECT * FROM sheets WHERE channel_id = ? AND owner_id = ? AND active AND NOT npc",
            (channel_id, owner_id),
        )
        return None if row is None else _sheet(row)

    async def update_sheet(self, sheet_id: int, version: int, data: dict[str, Any]) -> bool:
        """Write a sheet's new data if nobody changed it since ``version`` was read."""

        def update(db: sqlite3.Connection) -> bool:
            return bool(
                db.execute(
                    "UPDATE sheets SET data = ?, version = version + 1 WHERE id = ? AND version = ?",
                    (json.dumps(data, ensure_ascii=False), sheet_id, version),
                ).rowcount
            )

        return await self._write(update)

    async def delete_sheet(self, channel_id: int, sheet_id: int) -> bool:
        """Forget a sheet; its pools' ledger rows stay, like every ledger row."""

        def delete(db: sqlite3.Connection) -> bool:
            deleted = db.execute(
                "DELETE FROM sheets WHERE id = ? AND channel_id = ?", (sheet_id, channel_id)
            )
            return bool(deleted.rowcount)

        return await self._write(delete)


def _sheet(row: sqlite3.Row) -> SheetRow:
    return SheetRow(
        id=row["id"],
        channel_id=row["channel_id"],
        owner_id=row["owner_id"],
        npc=bool(row["npc"]),
        name=row["name"],
        folded=row["folded"],
        system=row["system"],
        data=json.loads(row["data"]),
        active=bool(row["active"]),
        version=row["version"],
    )


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


def _in_transaction(db: sqlite3.Connection, fn: Callable[..., T], *args: Any) -> T:
    """On the connection's thread: ``fn`` inside ``BEGIN IMMEDIATE`` … ``COMMIT``. A commit
    that fails (the file turned read-only) leaves nothing behind: SQLite rolls back."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = fn(db, *args)
    except BaseException:
        db.rollback()
        raise
    db.commit()
    return result


def _prune_batch(
    db: sqlite3.Connection, operations_before: str, rolls_before: str, kinds: tuple[str, ...]
) -> Pruned:
    """One batch of :meth:`Store.prune`, on the connection's thread."""
    operations = db.execute(
        "DELETE FROM operations WHERE rowid IN (SELECT rowid FROM operations WHERE created_at < ? LIMIT ?)",
        (operations_before, PRUNE_BATCH),
    ).rowcount
    rolls = db.execute(
        "DELETE FROM rolls WHERE id IN (SELECT id FROM rolls WHERE created_at < ? "
        "AND (retired OR (kind IN (SELECT value FROM json_each(?)) "
        "AND json_extract(data, '$.task_id') IS NULL)) LIMIT ?)",
        (rolls_before, json.dumps(list(kinds)), PRUNE_BATCH),
    ).rowcount
    reveals = db.execute(
        "DELETE FROM reveals WHERE message_id IN (SELECT message_id FROM reveals WHERE created_at < ? "
        "AND NOT EXISTS (SELECT 1 FROM rolls WHERE rolls.id = reveals.roll_id) LIMIT ?)",
        (rolls_before, PRUNE_BATCH),
    ).rowcount
    return Pruned(operations, rolls, reveals)


def _migrate(db: sqlite3.Connection) -> list[int]:
    """On the connection's thread, inside the write lock: the migrations the file still
    lacks, in order; returns the versions applied."""
    current = int(db.execute("PRAGMA user_version").fetchone()[0])
    applied = []
    for version, statements in enumerate(MIGRATIONS, start=1):
        if version <= current:
            continue
        for statement in statements:
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {version}")
        applied.append(version)
    return applied


def _table(row: sqlite3.Row) -> Table:
    return Table(
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        system=System(row["system"]) if row["system"] else None,
        gm_id=row["gm_id"],
        gm_channel_id=row["gm_channel_id"],
        donjon_level=row["donjon_level"],
        settings=TableSettings.model_validate_json(row["settings"]),
    )


def _roll(row: sqlite3.Row) -> RollRecord:
    return RollRecord(
        row["id"],
        row["channel_id"],
        row["user_id"],
        row["kind"],
        json.loads(row["data"]),
        row["version"],
        row["message_id"],
    )


def _encode(outcome: Outcome) -> str:
    kind = "applied" if isinstance(outcome, Applied) else "refused"
    return json.dumps({"kind": kind, **asdict(outcome)})


def _decode(text: str) -> Outcome:
    data = json.loads(text)
    kind = data.pop("kind")
    data["replayed"] = True
    if kind == "applied":
        pools = tuple(PoolState(**p) for p in data["pools"])
        return Applied(pools, replayed=True, roll_id=data["roll_id"], retired=data.get("retired", 0))
    return Refused(**data)
