"""Pools, operations and the ledger: conditional UPDATEs, an append-only ledger row per
change, and each operation's outcome kept under its interaction id (a replay changes nothing)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict

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
    RecordUpdate,
    Refused,
    SheetUpdate,
    Undo,
)
from bot.store.connection import Connection
from bot.store.dice import count_dice

# The largest value any pool may hold: the schema's CHECK, refused before it is reached.
POOL_MAX = 1_000_000
# A ledger row tells the GM's secret when it changes an NPC sheet's own pool (its hit
# points, its Heridas, Provisiones and Riqueza: docs/decisiones.md), or reverts such a
# row. Marked as it is written (``ledger.gm_only``), so hiding it never depends on the
# sheet still being there (PostgreSQL's twin: bot/store/postgres.py).
GM_ONLY = (
    "(:sheet_pool AND EXISTS (SELECT 1 FROM sheets WHERE id = :owner AND channel_id = :channel AND npc)) "
    "OR coalesce((SELECT gm_only FROM ledger WHERE id = :undoes), false)"
)


class Pools(Connection):
    """Pools and the ledger: every change one operation, recorded under its interaction id."""

    async def pools(self, channel_id: int) -> list[PoolValue]:
        rows = await self._fetchall(
            "SELECT pool, owner_id, value FROM pools WHERE channel_id = ? ORDER BY pool, owner_id",
            (channel_id,),
        )
        return [PoolValue(r["pool"], r["owner_id"], r["value"]) for r in rows]

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
        outcome = await self._write(self._apply, op)
        if isinstance(outcome, Applied) and not outcome.replayed:
            self._changed(op.channel_id)
        return outcome

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
            (op.interaction_id, op.step, op.channel_id, encode_outcome(outcome), self._now()),
        )
        return outcome

    def _changes(self, db: sqlite3.Connection, op: Operation) -> Outcome:
        record_id = None
        if op.record_update is not None:
            refused = self._update_record(db, op, op.record_update)
            if refused is not None:
                return refused
            record_id = op.record_update.record_id
        if op.sheet_update is not None and not self._update_sheet_file(db, op.sheet_update):
            return Refused("fichas.busy", "", 0, 0, 0)
        changes = op.changes
        if op.undo is not None:
            reverted = self._undo_plan(db, op.channel_id, op.undo)
            if isinstance(reverted, Refused):
                return reverted
            if not reverted:
                return Refused("mesa.deshacer.nothing", "", 0, 0, 0)
            changes += reverted
        retired = 0
        if op.reset is not None:
            changes += self._reset_plan(db, op.channel_id, op.reset.keep_pools)
            retired = db.execute(
                "UPDATE records SET retired = 1 WHERE channel_id = ? AND NOT retired "
                f"AND kind NOT IN ({', '.join('?' for _ in op.reset.keep)})",
                (op.channel_id, *op.reset.keep),
            ).rowcount
        states: list[PoolState] = []
        for change in changes:
            result = self._change(db, op, change)
            if isinstance(result, Refused):
                return result
            states.append(result)
        if op.new_record is not None:
            record_id = self._insert_record(db, op.channel_id, op.interaction_id, op.new_record)
        return Applied(tuple(states), record_id=record_id, retired=retired)

    def _undo_plan(self, db: sqlite3.Connection, channel_id: int, undo: Undo) -> tuple[Change, ...] | Refused:
        """The compensating changes for the last operation not yet reverted (that touched
        the pool, when one is named). Reading here is safe: the write lock is held. Refused
        when that operation also wrote a sheet's file (``undo.final``), which compensating
        rows cannot take back."""
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
            "SELECT id, pool, owner_id, delta, reason FROM ledger "
            f"WHERE channel_id = ? AND interaction_id = ? AND {live} ORDER BY id",
            (channel_id, last[0]),
        )
        rows = cursor.fetchall()
        if any(r["reason"] in undo.final for r in rows):
            return Refused("mesa.deshacer.final", "", 0, 0, 0)
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

    def _update_record(self, db: sqlite3.Connection, op: Operation, update: RecordUpdate) -> Refused | None:
        """Move the record on from the version read, and count the dice the change threw
        (a secret roll's wait for its reveal: they count then, with the rest)."""
        cursor = db.execute(
            "UPDATE records SET data = ?, version = version + 1 WHERE id = ? AND version = ? AND NOT retired "
            "RETURNING secret",
            (json.dumps(update.data), update.record_id, update.version),
        )
        updated = cursor.fetchone()
        if updated is not None:
            if not updated[0]:
                count_dice(db, self._day(), op.channel_id, op.actor_id, update.system, update.dice)
            return None
        cursor = db.execute("SELECT 1 FROM records WHERE id = ? AND NOT retired", (update.record_id,))
        exists = cursor.fetchone()
        key = "roll.stale" if exists else "error.roll_gone"
        return Refused(key, "", 0, 0, 0)

    def _update_sheet_file(self, db: sqlite3.Connection, update: SheetUpdate) -> bool:
        cursor = db.execute(
            "UPDATE sheets SET data = ?, version = version + 1 WHERE id = ? AND version = ? RETURNING id",
            (json.dumps(update.data, ensure_ascii=False), update.sheet_id, update.version),
        )
        return cursor.fetchone() is not None

    def _insert_record(
        self, db: sqlite3.Connection, channel_id: int, interaction_id: int, record: NewRecord
    ) -> int:
        """A secret roll is secret from its first write: nothing reads it as public before
        it is revealed, and its dice are counted then (bot/reveal.py)."""
        cursor = db.execute(
            "INSERT INTO records (channel_id, interaction_id, user_id, kind, data, secret, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                channel_id,
                interaction_id,
                record.user_id,
                record.kind,
                json.dumps(record.data),
                record.secret,
                self._now(),
            ),
        )
        row = cursor.fetchone()
        assert row is not None
        if not record.secret:
            count_dice(
                db,
                self._day(),
                channel_id,
                record.user_id,
                record.system,
                record.dice,
                private=record.private,
            )
        return int(row[0])

    def _recorded(self, db: sqlite3.Connection, interaction_id: int, step: int) -> Outcome | None:
        cursor = db.execute(
            "SELECT outcome FROM operations WHERE interaction_id = ? AND step = ?", (interaction_id, step)
        )
        row = cursor.fetchone()
        return None if row is None else decode_outcome(row[0])

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
                "value_after, reason, message_id, created_at, undoes, gm_only) "
                "VALUES (:channel, :interaction, :actor, :pool, :owner, :delta, :value, :reason, "
                f":message, :now, :undoes, {GM_ONLY})",
                {
                    "channel": op.channel_id,
                    "interaction": op.interaction_id,
                    "actor": op.actor_id,
                    "pool": change.pool,
                    "owner": change.owner_id,
                    "delta": applied,
                    "value": value,
                    "reason": change.reason or op.reason,
                    "message": op.message_id,
                    "now": self._now(),
                    "undoes": change.undoes,
                    "sheet_pool": change.pool in SHEET_POOLS,
                },
            )
        requested = applied if change.set_to is not None else change.delta
        return PoolState(change.pool, change.owner_id, value, applied, requested)

    def _refusal(self, db: sqlite3.Connection, channel_id: int, change: Change) -> Refused:
        cursor = db.execute(
            "SELECT value, cap FROM pools WHERE channel_id = ? AND pool = ? AND owner_id = ?",
            (channel_id, change.pool, change.owner_id),
        )
        row = cursor.fetchone()
        return refusal(change, None if row is None else (int(row[0]), row[1]))

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
        # A message of a secret roll not yet revealed is nobody's link (players would be led
        # to the GM channel, or to an ephemeral message).
        rows = await self._fetchall(
            "SELECT l.id, l.channel_id, l.interaction_id, l.actor_id, l.pool, l.owner_id, l.delta, "
            "l.value_after, l.reason, nullif(coalesce(l.message_id, r.message_id), "
            "(SELECT s.message_id FROM records s WHERE s.secret "
            "AND s.message_id = coalesce(l.message_id, r.message_id))) AS message_id, "
            "l.created_at, l.undoes, l.gm_only FROM ledger l LEFT JOIN records r "
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


def refusal(change: Change, found: tuple[int, int | None] | None) -> Refused:
    """Why ``change`` was refused, from its pool's value and cap (``found``; None: no pool
    yet). Both backends read the pool after a conditional UPDATE matched nothing."""
    value = 0 if found is None else found[0]
    cap = change.cap if change.cap is not None or found is None else found[1]
    delta = change.delta if change.set_to is None else change.set_to - value
    if delta < 0:
        return Refused("pool.not_enough", change.pool, change.owner_id, value, delta, cap)
    # Past the pool's own cap, or (a pool without one) past the schema's bound.
    return Refused(
        "pool.over_cap", change.pool, change.owner_id, value, delta, min(cap or POOL_MAX, POOL_MAX)
    )


def encode_outcome(outcome: Outcome) -> str:
    kind = "applied" if isinstance(outcome, Applied) else "refused"
    return json.dumps({"kind": kind, **asdict(outcome)})


def decode_outcome(text: str) -> Outcome:
    data = json.loads(text)
    kind = data.pop("kind")
    data["replayed"] = True
    if kind == "applied":
        pools = tuple(PoolState(**p) for p in data["pools"])
        return Applied(pools, replayed=True, record_id=data["record_id"], retired=data.get("retired", 0))
    return Refused(**data)
