"""The PostgreSQL store (asyncpg): the same public interface and guarantees as the SQLite one.

Chosen when ``TIRADA_DB`` is a ``postgresql://`` URL, so that several processes (Discord
shards, docs/escalar.md) share one database. What changes from SQLite, and why:

- A pool of connections instead of one: transactions of different tables run at once.
  An operation takes the transaction-scoped advisory lock of its table's channel first,
  so one table's operations run one after another exactly as on SQLite (the undo plan and
  the replay check read before they write), while other tables never wait.
- Pool changes are the same conditional UPDATEs: under READ COMMITTED a concurrent
  UPDATE of the same row waits and re-checks its WHERE on the committed value, so no
  spend goes below zero even between processes.
- Migrations are the same versioned list in PostgreSQL's words
  (``bot.store.schema.POSTGRES_MIGRATIONS``, beside SQLite's), applied in one transaction
  under an advisory lock: processes starting together migrate once.
- Other processes hear of each change to a table (``pg_notify`` in the change's
  transaction, delivered on commit: ``bot.store.postgres_follow``), as this process's own
  listeners do; SQLite needs none of it, being one process's only (the lockfile).
- Timestamps stay ISO-8601 text and a roll's data JSON text in a ``jsonb`` column, so rows
  read back (and copy across with ``python -m bot.migrate``) exactly as SQLite's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import astuple
from pathlib import Path
from typing import Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.kinds import SHEET_POOLS
from bot.models import (
    Applied,
    Change,
    LedgerRow,
    NewRecord,
    Operation,
    Outcome,
    PoolState,
    PoolValue,
    Record,
    Refused,
    System,
    Table,
    TableSettings,
)
from bot.store import Store
from bot.store import postgres_steps as steps
from bot.store.connection import Clock, Sleep, utc_now
from bot.store.pools import POOL_MAX, decode_outcome, encode_outcome
from bot.store.postgres_follow import Follower, announce
from bot.store.postgres_play import PostgresPlay, count_dice
from bot.store.postgres_sheets import PostgresSheets
from bot.store.records import record_of
from bot.store.retention import Pruned, Retention, forgotten_key
from bot.store.schema import POSTGRES_MIGRATIONS, VERSION_TABLE
from bot.store.tables import table_of

log = logging.getLogger(__name__)

# A connection lent by the pool: every statement runs on one.
Db: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

# Up to 10 connections a process, opened as the load asks (max_connections must cover every
# process: docs/escalar.md). No floor: with one, a server that goes away leaves a task
# reconnecting in a loop; without, the next operation reconnects or says it cannot.
POOL_MIN, POOL_MAX_CONNECTIONS = 0, 10
# The advisory lock key migrations run under (any constant no table's channel id can be).
MIGRATION_LOCK = -20


class PostgresStore(PostgresSheets, PostgresPlay, Store):
    """The table's memory on PostgreSQL. Open with :meth:`open`, close with :meth:`close`.

    It is a ``Store`` so the cogs, typed against ``Store``, take it unchanged; it defines
    every public method itself (tests/bot/test_store.py checks that none falls through to
    the SQLite code it inherits), with its own SQL.
    """

    def __init__(self, pool: asyncpg.Pool, clock: Clock = utc_now, url: str = "") -> None:
        self._pool = pool
        self._clock = clock
        self.path = url
        self._url = url
        # The live boards' listeners (bot.board), told of every change as SQLite's are,
        # and of other processes' changes once :meth:`follow_others` is called.
        self.listeners: list[Callable[[int], None]] = []
        # SQLite's operation timers (/metrics); PostgreSQL's operations are not timed yet.
        self.timers: list[Callable[[float], None]] = []
        # This store's name in its notifications, so it does not hear its own.
        self._origin = secrets.token_hex(8)
        self._follower: Follower | None = None

    @classmethod
    async def open(cls, path: Path | str, clock: Clock = utc_now) -> PostgresStore:
        """Connect a pool and migrate; a failure closes the pool before it goes on."""
        url = str(path)
        pool = await asyncpg.create_pool(url, min_size=POOL_MIN, max_size=POOL_MAX_CONNECTIONS)
        try:
            store = cls(pool, clock, url)
            await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        if self._follower is not None:
            await self._follower.close()
        await self._pool.close()

    async def follow_others(self, missed: Callable[[], None], sleep: Sleep = asyncio.sleep) -> None:
        """From now on, tell the listeners of every change other processes make (on a
        connection of its own, opened again when it drops: ``bot.store.postgres_follow``);
        ``missed`` is called whenever changes may have gone unheard (each time listening
        starts). ``sleep`` is how it waits, between attempts and between pings (injectable
        for tests)."""
        self._follower = Follower(self._url, self._origin, self._changed, missed, sleep)

    async def _announce(self, db: Db, channel_id: int) -> None:
        """Inside the transaction that changed the table: the other processes hear of it
        on commit. Every write that calls ``_changed`` after its commit calls this inside."""
        await announce(db, channel_id, self._origin)

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        return await self._pool.fetchrow(sql, *args)

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return await self._pool.fetch(sql, *args)

    # -- schema -------------------------------------------------------------------------

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))

    async def migrate(self) -> None:
        """The migrations the database lacks, in one transaction under an advisory lock:
        a second process starting at the same moment waits, then finds nothing to do."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await db.execute(VERSION_TABLE)
            current = await db.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")
            for version, statements in enumerate(POSTGRES_MIGRATIONS, start=1):
                if version <= current:
                    continue
                for statement in statements:
                    await db.execute(statement)
                await db.execute("DELETE FROM schema_version")
                await db.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
                log.info("database migrated", extra={"schema_version": version})

    async def get_meta(self, key: str) -> str | None:
        value = await self._pool.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        await self._pool.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        rows = await self._fetch("SELECT key, value FROM meta WHERE starts_with(key, $1)", prefix)
        return {r[0]: r[1] for r in rows}

    async def delete_meta(self, key: str) -> None:
        await self._pool.execute("DELETE FROM meta WHERE key = $1", key)

    # -- tables -------------------------------------------------------------------------

    async def table(self, channel_id: int) -> Table | None:
        row = await self._fetchrow("SELECT * FROM tables WHERE channel_id = $1", channel_id)
        return None if row is None else table_of(row)

    async def table_or_default(self, channel_id: int, guild_id: int | None) -> Table:
        """The channel's table, or the empty table it would be (nothing is written)."""
        return await self.table(channel_id) or Table(channel_id, guild_id)

    async def _add_table(self, db: Db, channel_id: int, guild_id: int | None) -> None:
        await db.execute(
            "INSERT INTO tables (channel_id, guild_id, created_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (channel_id) DO NOTHING",
            channel_id,
            guild_id,
            self._now(),
        )

    async def _update_table(self, channel_id: int, guild_id: int | None, column: str, value: Any) -> Table:
        async with self._pool.acquire() as db, db.transaction():
            await self._add_table(db, channel_id, guild_id)
            row = await db.fetchrow(
                f"UPDATE tables SET {column} = $1 WHERE channel_id = $2 RETURNING *", value, channel_id
            )
            await self._announce(db, channel_id)
        assert row is not None
        self._changed(channel_id)
        return table_of(row)

    async def set_system(self, channel_id: int, guild_id: int | None, system: System) -> Table:
        return await self._update_table(channel_id, guild_id, "system", system.value)

    async def set_gm(self, channel_id: int, guild_id: int | None, gm_id: int) -> Table:
        return await self._update_table(channel_id, guild_id, "gm_id", gm_id)

    async def set_gm_channel(self, channel_id: int, guild_id: int | None, gm_channel_id: int | None) -> Table:
        return await self._update_table(channel_id, guild_id, "gm_channel_id", gm_channel_id)

    async def set_settings(self, channel_id: int, guild_id: int | None, settings: TableSettings) -> Table:
        return await self._update_table(channel_id, guild_id, "settings", settings.model_dump_json())

    async def tables_seen_from(self, channel_id: int) -> tuple[Table | None, list[Table]]:
        """In one query: the channel's own table, and the tables it is the GM channel of."""
        rows = await self._fetch(
            "SELECT * FROM tables WHERE channel_id = $1 OR gm_channel_id = $1 ORDER BY channel_id", channel_id
        )
        tables = [table_of(r) for r in rows]
        own = next((t for t in tables if t.channel_id == channel_id), None)
        return own, [t for t in tables if t.gm_channel_id == channel_id]

    async def tables_served(self, gm_channel_id: int) -> list[Table]:
        """The tables whose private GM channel this is."""
        rows = await self._fetch(
            "SELECT * FROM tables WHERE gm_channel_id = $1 ORDER BY channel_id", gm_channel_id
        )
        return [table_of(r) for r in rows]

    # -- retention ------------------------------------------------------------------------

    async def prune(self, retention: Retention) -> Pruned:
        """Forget what ``retention`` allows, in short transactions; returns what went."""
        operations_before, rolls_before, days_before = retention.cutoffs(self._clock())
        total = Pruned()
        while True:
            async with self._pool.acquire() as db, db.transaction():
                batch = await steps.prune_batch(
                    db, operations_before, rolls_before, retention.kinds, days_before
                )
            total += batch
            if not any(astuple(batch)):
                return total

    async def forgotten_until(self, channel_id: int) -> str | None:
        """When the newest record pruning forgot at this table was made (as SQLite's)."""
        return await self.get_meta(forgotten_key(channel_id))

    # -- pools --------------------------------------------------------------------------

    async def pools(self, channel_id: int) -> list[PoolValue]:
        rows = await self._fetch(
            "SELECT pool, owner_id, value FROM pools WHERE channel_id = $1 ORDER BY pool, owner_id",
            channel_id,
        )
        return [PoolValue(r["pool"], r["owner_id"], r["value"]) for r in rows]

    async def players(self, channel_id: int, limit: int = 50, not_players: Collection[str] = ()) -> list[int]:
        """Who plays at this table: everyone who has rolled there, in the order of their
        first roll, then whoever holds a pool of their own (even at zero) without a roll.
        The owners of ``not_players`` pools are not players (a character sheet's id)."""
        rows = await self._fetch(
            "SELECT user_id FROM (SELECT user_id, id AS seen FROM records WHERE channel_id = $1 "
            "UNION ALL SELECT owner_id, 1::bigint << 62 FROM pools WHERE channel_id = $1 AND owner_id <> 0 "
            "AND NOT (pool = ANY($3::text[]))) "
            "AS seen_at GROUP BY user_id ORDER BY min(seen), user_id LIMIT $2",
            channel_id,
            limit,
            sorted(not_players),
        )
        return [int(r[0]) for r in rows]

    async def pool(self, channel_id: int, pool: str, owner_id: int = 0) -> int:
        value = await self._pool.fetchval(
            "SELECT value FROM pools WHERE channel_id = $1 AND pool = $2 AND owner_id = $3",
            channel_id,
            pool,
            owner_id,
        )
        return 0 if value is None else int(value)

    async def apply(self, op: Operation) -> Outcome:
        """Apply every change of ``op`` or none, once per interaction id (as SQLite's).

        The table's advisory lock orders this table's operations; the conditional UPDATEs
        stay the guard. A refusal rolls back to a savepoint, and the outcome is recorded."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", op.channel_id)
            outcome = await self._apply_in(db, op)
            if isinstance(outcome, Applied) and not outcome.replayed:
                await self._announce(db, op.channel_id)
        if isinstance(outcome, Applied) and not outcome.replayed:
            self._changed(op.channel_id)
        return outcome

    async def _apply_in(self, db: Db, op: Operation) -> Outcome:
        """``apply`` inside a transaction that holds the table's lock already."""
        first = await self._outcome_of(db, op.interaction_id, op.step)
        if first is not None:
            return first
        await self._add_table(db, op.channel_id, op.guild_id)
        changes = db.transaction()
        await changes.start()
        outcome = await self._operate(db, op)
        if isinstance(outcome, Refused):
            await changes.rollback()
        else:
            await changes.commit()
        await db.execute(
            "INSERT INTO operations (interaction_id, step, channel_id, outcome, created_at) "
            "VALUES ($1, $2, $3, $4, $5)",
            op.interaction_id,
            op.step,
            op.channel_id,
            encode_outcome(outcome),
            self._now(),
        )
        return outcome

    async def _operate(self, db: Db, op: Operation) -> Outcome:
        record_id = None
        if op.record_update is not None:
            refused = await steps.update_record(db, self._day(), op, op.record_update)
            if refused is not None:
                return refused
            record_id = op.record_update.record_id
        if op.sheet_update is not None and not await steps.update_sheet_file(db, op.sheet_update):
            return Refused("fichas.busy", "", 0, 0, 0)
        changes = op.changes
        if op.undo is not None:
            reverted = await steps.undo_plan(db, op.channel_id, op.undo)
            if isinstance(reverted, Refused):
                return reverted
            if not reverted:
                return Refused("mesa.deshacer.nothing", "", 0, 0, 0)
            changes += reverted
        retired = 0
        if op.reset is not None:
            changes += await steps.reset_plan(db, op.channel_id, op.reset.keep_pools)
            retired = steps.count(
                await db.execute(
                    "UPDATE records SET retired = true WHERE channel_id = $1 AND NOT retired "
                    "AND NOT (kind = ANY($2::text[]))",
                    op.channel_id,
                    list(op.reset.keep),
                )
            )
        states: list[PoolState] = []
        for change in changes:
            result = await self._change_one(db, op, change)
            if isinstance(result, Refused):
                return result
            states.append(result)
        if op.new_record is not None:
            record_id = await self._add_roll(db, op.channel_id, op.interaction_id, op.new_record)
        return Applied(tuple(states), record_id=record_id, retired=retired)

    async def _outcome_of(self, db: Db, interaction_id: int, step: int) -> Outcome | None:
        text = await db.fetchval(
            "SELECT outcome FROM operations WHERE interaction_id = $1 AND step = $2", interaction_id, step
        )
        return None if text is None else decode_outcome(text)

    async def _add_roll(self, db: Db, channel_id: int, interaction_id: int, roll: NewRecord) -> int:
        """Secret from its first write, its dice counted at the reveal (as SQLite's)."""
        roll_id = await db.fetchval(
            "INSERT INTO records (channel_id, interaction_id, user_id, kind, data, secret, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
            channel_id,
            interaction_id,
            roll.user_id,
            roll.kind,
            json.dumps(roll.data),
            roll.secret,
            self._now(),
        )
        if not roll.secret:
            await count_dice(
                db, self._day(), channel_id, roll.user_id, roll.system, roll.dice, private=roll.private
            )
        return int(roll_id)

    async def _change_one(self, db: Db, op: Operation, change: Change) -> PoolState | Refused:
        await db.execute(
            "INSERT INTO pools (channel_id, pool, owner_id, value) VALUES ($1, $2, $3, 0) "
            "ON CONFLICT DO NOTHING",
            op.channel_id,
            change.pool,
            change.owner_id,
        )
        target = "pools.value + given.delta"
        if change.set_to is not None:
            target = "given.set_to"
        elif change.clamp:
            added = "pools.value + given.delta"
            target = f"greatest(0, least(coalesce(given.cap, pools.cap, {added}), {added}))"
        row = await db.fetchrow(
            "WITH given AS (SELECT $4::integer AS delta, $5::integer AS set_to, $6::integer AS cap) "
            f"UPDATE pools SET value = {target}, applied = {target} - pools.value, "
            "cap = coalesce(given.cap, pools.cap) FROM given "
            "WHERE channel_id = $1 AND pool = $2 AND owner_id = $3 "
            f"AND {target} >= 0 AND {target} <= least(coalesce(given.cap, pools.cap, $7), $7) "
            "RETURNING pools.value, pools.applied",
            op.channel_id,
            change.pool,
            change.owner_id,
            change.delta,
            change.set_to,
            change.cap,
            POOL_MAX,
        )
        if row is None:
            return await steps.refused(db, op.channel_id, change)
        value, applied = int(row[0]), int(row[1])
        if applied:
            await db.execute(
                "INSERT INTO ledger (channel_id, interaction_id, actor_id, pool, owner_id, delta, "
                "value_after, reason, message_id, created_at, undoes, gm_only) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, "
                # SQLite's GM_ONLY (bot/store/pools.py): an NPC sheet's number, or its undo.
                "($12::boolean AND EXISTS (SELECT 1 FROM sheets WHERE id = $5 AND channel_id = $1 AND npc)) "
                "OR coalesce((SELECT gm_only FROM ledger WHERE id = $11), false))",
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
                change.pool in SHEET_POOLS,
            )
        requested = applied if change.set_to is not None else change.delta
        return PoolState(change.pool, change.owner_id, value, applied, requested)

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
        # A secret roll's message not yet revealed is nobody's link (as SQLite's).
        rows = await self._fetch(
            "SELECT l.id, l.channel_id, l.interaction_id, l.actor_id, l.pool, l.owner_id, l.delta, "
            "l.value_after, l.reason, nullif(coalesce(l.message_id, r.message_id), "
            "(SELECT s.message_id FROM records s WHERE s.secret "
            "AND s.message_id = coalesce(l.message_id, r.message_id))) AS message_id, "
            "l.created_at, l.undoes, l.gm_only FROM ledger l LEFT JOIN records r "
            "ON r.interaction_id = l.interaction_id AND r.channel_id = l.channel_id "
            "WHERE l.channel_id = $1 AND l.id < $2 "
            "AND ($3::text IS NULL OR l.pool = $3) AND ($4::bigint IS NULL OR l.owner_id = $4) "
            "ORDER BY l.id DESC LIMIT $5",
            channel_id,
            before_id if before_id is not None else 2**63 - 1,
            pool,
            owner_id,
            limit,
        )
        return [LedgerRow(**dict(r)) for r in rows]

    async def ledger_pools(self, channel_id: int) -> list[str]:
        """The pools this table's ledger mentions, for the history's filter."""
        rows = await self._fetch(
            "SELECT DISTINCT pool FROM ledger WHERE channel_id = $1 ORDER BY pool", channel_id
        )
        return [r[0] for r in rows]

    async def ledger_sums(self, channel_id: int) -> dict[tuple[str, int], int]:
        rows = await self._fetch(
            "SELECT pool, owner_id, sum(delta) FROM ledger WHERE channel_id = $1 GROUP BY pool, owner_id",
            channel_id,
        )
        return {(r[0], r[1]): int(r[2]) for r in rows}

    # -- rolls that buttons come back to ------------------------------------------------

    async def save_record(
        self, channel_id: int, interaction_id: int, user_id: int, kind: str, data: dict[str, Any]
    ) -> int:
        """Record a posted roll once per interaction and return its id."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute(
                "INSERT INTO records (channel_id, interaction_id, user_id, kind, data, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (interaction_id) DO NOTHING",
                channel_id,
                interaction_id,
                user_id,
                kind,
                json.dumps(data),
                self._now(),
            )
            roll_id = int(
                await db.fetchval("SELECT id FROM records WHERE interaction_id = $1", interaction_id)
            )
            await self._announce(db, channel_id)
        self._changed(channel_id)
        return roll_id

    async def record(self, record_id: int) -> Record | None:
        """A live roll; a retired one (the table was reset) no longer exists for buttons."""
        row = await self._fetchrow("SELECT * FROM records WHERE id = $1 AND NOT retired", record_id)
        return None if row is None else record_of(row)

    async def records(self, channel_id: int, kind: str, limit: int = 500) -> list[Record]:
        """The channel's latest rolls of one kind, newest first."""
        rows = await self._fetch(
            "SELECT * FROM records WHERE channel_id = $1 AND kind = $2 AND NOT retired "
            "ORDER BY id DESC LIMIT $3",
            channel_id,
            kind,
            limit,
        )
        return [record_of(r) for r in rows]

    async def latest_records(
        self, channel_id: int, kind: str, user_id: int | None = None
    ) -> dict[int, Record]:
        """Each user's newest live record of one kind (only ``user_id``'s when given),
        however many others wrote since."""
        rows = await self._fetch(
            "SELECT DISTINCT ON (user_id) * FROM records WHERE channel_id = $1 AND kind = $2 "
            "AND NOT retired AND ($3::bigint IS NULL OR user_id = $3) ORDER BY user_id, id DESC",
            channel_id,
            kind,
            user_id,
        )
        return {r["user_id"]: record_of(r) for r in rows}

    async def linked_records(
        self, channel_id: int, kind: str, field: str, ids: Sequence[int]
    ) -> list[Record]:
        """In one query, the channel's live rolls of ``kind`` whose ``data[field]`` is one of
        ``ids`` (a Dune roll's ``task_id``: every roll that counts towards these tasks)."""
        rows = await self._fetch(
            "SELECT * FROM records WHERE channel_id = $1 AND kind = $2 AND NOT retired "
            "AND data ->> $3 = ANY($4::text[]) ORDER BY id",
            channel_id,
            kind,
            field,
            [str(i) for i in ids],
        )
        return [record_of(r) for r in rows]

    async def claim_reveal(self, message_id: int, roll_id: int, actor_id: int) -> bool:
        """Claim the reveal of a secret message; only the first claim wins."""
        claimed = await self._pool.fetchval(
            "INSERT INTO reveals (message_id, roll_id, actor_id, created_at) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (message_id) DO NOTHING RETURNING message_id",
            message_id,
            roll_id,
            actor_id,
            self._now(),
        )
        return claimed is not None

    async def release_reveal(self, message_id: int) -> None:
        """Give a reveal back when posting it failed, so the GM can try again."""
        await self._pool.execute("DELETE FROM reveals WHERE message_id = $1", message_id)

    async def set_record_message(
        self,
        record_id: int,
        message_id: int,
        *,
        secret: bool = False,
        system: str = "",
        dice: tuple[tuple[int, int], ...] = (),
    ) -> None:
        """Remember where a roll was posted; the roll's own ledger rows learn the link too,
        and once a secret roll is revealed the rows naming its secret message name the
        table's message instead and its dice are counted (as SQLite's)."""
        async with self._pool.acquire() as db, db.transaction():
            before = await db.fetchrow("SELECT message_id, secret FROM records WHERE id = $1", record_id)
            row = await db.fetchrow(
                "UPDATE records SET message_id = $1, secret = $2 WHERE id = $3 "
                "RETURNING channel_id, interaction_id, user_id",
                message_id,
                secret,
                record_id,
            )
            if row is None or before is None:
                return
            await db.execute(
                "UPDATE ledger SET message_id = $1 "
                "WHERE channel_id = $2 AND interaction_id = $3 AND message_id IS NULL",
                message_id,
                row[0],
                row[1],
            )
            if before["secret"] and not secret:
                await db.execute(
                    "UPDATE ledger SET message_id = $1 WHERE channel_id = $2 AND message_id = $3",
                    message_id,
                    row[0],
                    before["message_id"],
                )
                await count_dice(db, self._day(), row[0], row[2], system, dice)
