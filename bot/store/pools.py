"""Pools, operations and the ledger: conditional UPDATEs, an append-only ledger row per
change, and each operation's outcome kept under its interaction id (a replay changes nothing)."""

from __future__ import annotations

import functools
import json
from dataclasses import fields

from bot.kinds import SHEET_POOL_PREFIX, SHEET_POOLS
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
from bot.store.base import Part, day_of
from bot.store.database import UNDO, Dialect, Transaction
from bot.store.dice import count_dice
from bot.store.touched import by_operation

# The largest value any pool may hold: the schema's CHECK, refused before it is reached.
POOL_MAX = 1_000_000
# A ledger row tells the GM's secret when it changes an NPC sheet's own pool (its hit
# points, its Heridas, Provisiones and Riqueza: docs/decisiones.md), or reverts such a
# row. Marked as it is written (``ledger.gm_only``), so hiding it never depends on the
# sheet still being there.
GM_ONLY = (
    "(CAST(:sheet_pool AS BOOLEAN) AND EXISTS (SELECT 1 FROM sheets WHERE id = :owner "
    "AND channel_id = :channel AND npc)) OR coalesce((SELECT gm_only FROM ledger WHERE id = :undoes), false)"
)

# A pool change's ledger row, once per interaction and pool (a replay writes none, which
# the count of rows written tells: no RETURNING, see ``Pools._kept``).
LEDGER_ROW = (
    "INSERT INTO ledger (channel_id, interaction_id, actor_id, pool, owner_id, delta, "
    "value_after, reason, message_id, created_at, undoes, gm_only) "
    "VALUES (:channel, :interaction, :actor, :pool, :owner, :delta, :value, :reason, "
    f":message, :now, :undoes, {GM_ONLY}) "
    "ON CONFLICT (interaction_id, channel_id, pool, owner_id) DO NOTHING"
)

# The pools a table plays with: a sheet's own pools only while the sheet is there (deleting
# a sheet keeps its ledger rows and its pools, which undo reverts; nothing shows or reads
# them, and a table that makes and deletes sheets would read them on every interaction).
IN_PLAY = (
    f"(substr(pool, 1, {len(SHEET_POOL_PREFIX)}) <> '{SHEET_POOL_PREFIX}' "
    "OR owner_id IN (SELECT id FROM sheets WHERE channel_id = :channel))"
)

# A roll changed since it was read (its version moved): the interaction reads it again and
# retries (``bot.rolls.act``), so this refusal is no outcome of the interaction to replay.
STALE = "roll.stale"


class Pools(Part):
    """Pools and the ledger: every change one operation, recorded under its interaction id."""

    async def pools(self, channel_id: int) -> list[PoolValue]:
        rows = await self._fetchall(
            f"SELECT pool, owner_id, value FROM pools WHERE channel_id = :channel AND {IN_PLAY} "
            "ORDER BY pool, owner_id",
            {"channel": channel_id},
        )
        return [PoolValue(r["pool"], r["owner_id"], r["value"]) for r in rows]

    async def pool(self, channel_id: int, pool: str, owner_id: int = 0) -> int:
        value = await self._fetchvalue(
            "SELECT value FROM pools WHERE channel_id = :channel AND pool = :pool AND owner_id = :owner",
            {"channel": channel_id, "pool": pool, "owner": owner_id},
        )
        return 0 if value is None else int(value)

    async def apply(self, op: Operation) -> Outcome:
        """Apply every change of ``op`` or none, once per interaction id.

        Each change is one conditional UPDATE (the bound is in its WHERE clause, so no
        value is read and written back); a refusal rolls the whole operation back. The
        outcome, applied or refused, is stored under the interaction id: a replay gets
        the first answer with ``replayed`` set and changes nothing. The table's lock
        orders its operations (PostgreSQL; SQLite's transactions are one at a time).
        """

        async def operate(tx: Transaction) -> Outcome:
            outcome = await self._apply(tx, op)
            if isinstance(outcome, Applied) and not outcome.replayed:
                await tx.announce(op.channel_id)
            return outcome

        outcome = await self._transact(operate, lock=op.channel_id, undoable=may_refuse(op))
        if isinstance(outcome, Applied) and not outcome.replayed:
            self._changed(op.channel_id, by_operation(op))
        return outcome

    async def _apply(self, tx: Transaction, op: Operation) -> Outcome:
        """``apply`` inside a transaction that holds the table's lock already and, when ``op``
        may be refused, the savepoint a refusal goes back to (taken in the transaction's
        opening, ``undoable``). Everything the operation writes comes after that savepoint,
        and its outcome after going back: a refused one leaves only its outcome.

        No operation is checked for a replay first (a read every operation paid, for the few
        replayed): what it writes is one an interaction (its outcome, its record, each pool's
        ledger row), so a row found already written is the replay's sign. Then what this one
        wrote goes back to the savepoint and the first outcome is the answer. A record changed
        since it was read is how the replay of a record's change looks too (the first moved
        its version), so that refusal answers the first outcome when there is one. A new record
        alone keeps no outcome: its record answers its replay (:func:`recorded_alone`), also
        one whose change is refused now (its dice, thrown again, cost what the first's did not)."""
        undoable = may_refuse(op)
        # One instant for everything the operation writes: its rows' time and its dice's day.
        now = self._now()
        outcome = await self._changes(tx, op, now)
        refused = isinstance(outcome, Refused)
        if refused and undoable:
            await tx.execute(UNDO)
        if isinstance(outcome, Refused) and outcome.key == STALE:
            return await self._recorded(tx, op.interaction_id, op.step) or outcome
        if recorded_alone(op):
            return outcome or await self._replayed(tx, op)
        if refused and op.new_record is not None and await self._record_replayed(tx, op.interaction_id):
            # Refused, it went back before its record could meet a first delivery's: only the
            # record tells this is a replay (a first one alone kept no outcome), whose answer
            # is the first's, kept or the record's.
            return await self._replayed(tx, op)
        if outcome is not None and await self._kept(tx, op, outcome, now):
            return outcome
        if undoable and not refused:
            await tx.execute(UNDO)
        return await self._replayed(tx, op)

    async def _kept(self, tx: Transaction, op: Operation, outcome: Outcome, now: str) -> bool:
        """Keep the operation's outcome under its interaction id; False, keeping nothing,
        when the interaction has one already (a replay)."""
        # Told by the count of rows written, not a RETURNING: SQLite buffers a statement's
        # returned rows in a table of their own, which doubled this INSERT's cost.
        kept = await tx.execute(
            "INSERT INTO operations (interaction_id, step, channel_id, outcome, created_at) "
            "VALUES (:interaction, :step, :channel, :outcome, :now) "
            "ON CONFLICT (interaction_id, step) DO NOTHING",
            {
                "interaction": op.interaction_id,
                "step": op.step,
                "channel": op.channel_id,
                "outcome": encode_outcome(outcome),
                "now": now,
            },
        )
        return kept > 0

    async def _changes(self, tx: Transaction, op: Operation, now: str) -> Outcome | None:
        """What ``op`` does; None when its new record, or a pool's ledger row, was written
        already (its interaction's: a replay, :meth:`_replayed`)."""
        record_id = None
        if op.record_update is not None:
            refused = await self._update_record(tx, op, op.record_update, now)
            if refused is not None:
                return refused
            record_id = op.record_update.record_id
        if op.sheet_update is not None and not await self._update_sheet_file(tx, op.sheet_update):
            return Refused("fichas.busy", "", 0, 0, 0)
        changes = op.changes
        if op.undo is not None:
            reverted = await self._undo_plan(tx, op.channel_id, op.undo)
            if isinstance(reverted, Refused):
                return reverted
            if not reverted:
                return Refused("mesa.deshacer.nothing", "", 0, 0, 0)
            changes += reverted
        retired = 0
        if op.reset is not None:
            changes += await self._reset_plan(tx, op.channel_id, op.reset.keep_pools)
            retired = await tx.execute(
                "UPDATE records SET retired = true WHERE channel_id = :channel AND NOT retired "
                f"AND NOT ({self.db.dialect.among('kind', 'keep')})",
                {"channel": op.channel_id, "keep": list(op.reset.keep)},
            )
        states: list[PoolState] = []
        for change in changes:
            result = await self._change(tx, op, change, now)
            if not isinstance(result, PoolState):
                return result
            states.append(result)
        if op.new_record is not None:
            record_id = await self._insert_record(tx, op.channel_id, op.interaction_id, op.new_record, now)
            if record_id is None:
                return None
        return Applied(tuple(states), record_id=record_id, retired=retired)

    async def _undo_plan(self, tx: Transaction, channel_id: int, undo: Undo) -> tuple[Change, ...] | Refused:
        """The compensating changes for the last operation not yet reverted (that touched
        the pool, when one is named). Reading here is safe: the table's lock is held.
        Refused when that operation also wrote a sheet's file (``undo.final``), which
        compensating rows cannot take back."""
        live = "undoes IS NULL AND NOT EXISTS (SELECT 1 FROM ledger AS u WHERE u.undoes = ledger.id)"
        rows = await tx.fetch_all(
            "SELECT id, pool, owner_id, delta, reason FROM ledger WHERE channel_id = :channel "
            f"AND {live} AND interaction_id = (SELECT interaction_id FROM ledger WHERE channel_id = :channel "
            f"AND {live} AND (CAST(:pool AS TEXT) IS NULL OR pool = :pool) "
            "AND (CAST(:owner AS BIGINT) IS NULL OR owner_id = :owner) ORDER BY id DESC LIMIT 1) ORDER BY id",
            {"channel": channel_id, "pool": undo.pool, "owner": undo.owner_id},
        )
        if any(r["reason"] in undo.final for r in rows):
            return Refused("mesa.deshacer.final", "", 0, 0, 0)
        return tuple(Change(r["pool"], -r["delta"], owner_id=r["owner_id"], undoes=r["id"]) for r in rows)

    async def _reset_plan(
        self, tx: Transaction, channel_id: int, keep: tuple[str, ...] = ()
    ) -> tuple[Change, ...]:
        rows = await tx.fetch_all(
            "SELECT pool, owner_id FROM pools WHERE channel_id = :channel AND value <> 0 "
            f"AND NOT ({self.db.dialect.among('pool', 'keep')}) ORDER BY pool, owner_id",
            {"channel": channel_id, "keep": list(keep)},
        )
        return tuple(Change(r["pool"], owner_id=r["owner_id"], set_to=0) for r in rows)

    async def _update_record(
        self, tx: Transaction, op: Operation, update: RecordUpdate, now: str
    ) -> Refused | None:
        """Move the record on from the version read, and count the dice the change threw
        (a secret roll's wait for its reveal: they count then, with the rest)."""
        updated = await tx.fetch_one(
            "UPDATE records SET data = :data, version = version + 1 WHERE id = :id AND version = :version "
            "AND NOT retired RETURNING secret",
            {"data": json.dumps(update.data), "id": update.record_id, "version": update.version},
        )
        if updated is not None:
            if not updated[0]:
                await count_dice(tx, day_of(now), op.channel_id, op.actor_id, update.system, update.dice)
            return None
        exists = await tx.fetch_value(
            "SELECT 1 FROM records WHERE id = :id AND NOT retired", {"id": update.record_id}
        )
        return Refused(STALE if exists else "error.roll_gone", "", 0, 0, 0)

    async def _update_sheet_file(self, tx: Transaction, update: SheetUpdate) -> bool:
        updated = await tx.fetch_value(
            "UPDATE sheets SET data = :data, version = version + 1 WHERE id = :id AND version = :version "
            "RETURNING id",
            {
                "data": json.dumps(update.data, ensure_ascii=False),
                "id": update.sheet_id,
                "version": update.version,
            },
        )
        return updated is not None

    async def _insert_record(
        self, tx: Transaction, channel_id: int, interaction_id: int, record: NewRecord, now: str
    ) -> int | None:
        """A secret roll is secret from its first write: nothing reads it as public before
        it is revealed, and its dice are counted then (bot/reveal.py). None, writing nothing,
        when the interaction has its record already."""
        record_id = await tx.fetch_value(
            "INSERT INTO records (channel_id, interaction_id, user_id, kind, data, secret, created_at) "
            "VALUES (:channel, :interaction, :user, :kind, :data, :secret, :now) "
            "ON CONFLICT (interaction_id) DO NOTHING RETURNING id",
            {
                "channel": channel_id,
                "interaction": interaction_id,
                "user": record.user_id,
                "kind": record.kind,
                "data": json.dumps(record.data),
                "secret": record.secret,
                "now": now,
            },
        )
        if record_id is None:
            return None
        if not record.secret:
            await count_dice(
                tx,
                day_of(now),
                channel_id,
                record.user_id,
                record.system,
                record.dice,
                private=record.private,
            )
        return int(record_id)

    async def _replayed(self, tx: Transaction, op: Operation) -> Outcome:
        """The first outcome of an operation whose rows (its outcome, its record, a pool's
        ledger row) its interaction wrote already: the one kept, or, when none was (a new
        record alone keeps none), the record's. A replay need not have the first delivery's
        shape (its dice are thrown again: a damage roll's may now take nothing), so both are
        looked for whatever this one is. An interaction whose ledger row was written
        without an outcome or a record (never in play) is refused, as its unique key
        refused it before."""
        first = await self._recorded(tx, op.interaction_id, op.step)
        if first is None:
            first = await self._record_replayed(tx, op.interaction_id)
        if first is None:
            raise LookupError(f"interaction {op.interaction_id} wrote its rows but has no outcome")
        return first

    async def _record_replayed(self, tx: Transaction, interaction_id: int) -> Applied | None:
        """The first outcome of a new record alone, told by the record its interaction wrote
        (None without one): nothing else, and it can only have been applied."""
        record_id = await tx.fetch_value(
            "SELECT id FROM records WHERE interaction_id = :interaction", {"interaction": interaction_id}
        )
        return None if record_id is None else Applied((), replayed=True, record_id=int(record_id))

    async def _recorded(self, tx: Transaction, interaction_id: int, step: int) -> Outcome | None:
        text = await tx.fetch_value(
            "SELECT outcome FROM operations WHERE interaction_id = :interaction AND step = :step",
            {"interaction": interaction_id, "step": step},
        )
        return None if text is None else decode_outcome(text)

    async def _change(
        self, tx: Transaction, op: Operation, change: Change, now: str
    ) -> PoolState | Refused | None:
        """The pool's conditional UPDATE: one statement for a pool that is there (play's
        usual case; its table's row is there too, which it references). One that changes
        nothing is refused, or its pool is not there yet: then the table's row is made and
        the pool with the change applied, when it is within its bound (the table's lock
        held, no other operation of the table comes between). None when the interaction
        wrote this pool's ledger row already (a replay)."""
        params = {
            "delta": change.delta,
            "set_to": change.set_to,
            "expect": change.expect,
            "cap": change.cap,
            "channel": op.channel_id,
            "pool": change.pool,
            "owner": change.owner_id,
            "max": POOL_MAX,
        }
        row = await tx.fetch_one(changed_pool(self.db.dialect, change), params)
        if row is None:
            await self._ensure_table(tx, op.channel_id, op.guild_id)
            row = await tx.fetch_one(new_pool(self.db.dialect, change), params)
            if row is None:
                return refusal(change, await self._found_pool(tx, op.channel_id, change) or (0, None))
        value, applied = int(row[0]), int(row[1])
        if applied:
            written = await tx.execute(
                LEDGER_ROW,
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
                    "now": now,
                    "undoes": change.undoes,
                    "sheet_pool": change.pool in SHEET_POOLS,
                },
            )
            if not written:
                return None
        requested = applied if change.set_to is not None else change.delta
        return PoolState(change.pool, change.owner_id, value, applied, requested)

    async def _found_pool(
        self, tx: Transaction, channel_id: int, change: Change
    ) -> tuple[int, int | None] | None:
        """The pool's value and cap, None when it is not there."""
        row = await tx.fetch_one(
            "SELECT value, cap FROM pools WHERE channel_id = :channel AND pool = :pool AND owner_id = :owner",
            {"channel": channel_id, "pool": change.pool, "owner": change.owner_id},
        )
        return None if row is None else (int(row[0]), row[1])

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
            "AND (CAST(:pool AS TEXT) IS NULL OR l.pool = :pool) "
            "AND (CAST(:owner AS BIGINT) IS NULL OR l.owner_id = :owner) "
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
            "SELECT DISTINCT pool FROM ledger WHERE channel_id = :channel ORDER BY pool",
            {"channel": channel_id},
        )
        return [r[0] for r in rows]

    async def ledger_sums(self, channel_id: int) -> dict[tuple[str, int], int]:
        rows = await self._fetchall(
            "SELECT pool, owner_id, sum(delta) FROM ledger WHERE channel_id = :channel "
            "GROUP BY pool, owner_id",
            {"channel": channel_id},
        )
        return {(r[0], r[1]): int(r[2]) for r in rows}


def recorded_alone(op: Operation) -> bool:
    """Whether ``op`` only records a new roll: its record, unique by interaction like an
    outcome, tells its replay all the outcome would (its id), so it keeps no outcome. The
    record outlives the replay's window (``bot.store.retention``: days, against minutes)."""
    return op.new_record is not None and not may_refuse(op)


def may_refuse(op: Operation) -> bool:
    """Whether anything in ``op`` can be refused: an operation that only records a new
    roll cannot, and needs neither a savepoint to go back to nor the table's row (which
    its pools and sheets reference, not its records)."""
    return bool(op.changes) or any(
        part is not None for part in (op.undo, op.reset, op.record_update, op.sheet_update)
    )


def bounded(dialect: Dialect, change: Change, value: str, cap: str) -> tuple[str, str]:
    """What ``change`` makes of a pool whose value and cap are ``value`` and ``cap`` (its
    columns, or a pool not made yet: 0 and NULL), and the condition it must meet: within 0
    and its bound (the change's cap, else the pool's, else the schema's), and at the value
    ``expect`` says the pool must still be at (a form's set, drawn at it)."""
    delta, new_cap = "CAST(:delta AS INTEGER)", "CAST(:cap AS INTEGER)"
    target = f"{value} + {delta}"
    if change.set_to is not None:
        target = "CAST(:set_to AS INTEGER)"
    elif change.clamp:
        target = f"{dialect.greatest}(0, {dialect.least}(coalesce({new_cap}, {cap}, {target}), {target}))"
    within = f"{target} >= 0 AND {target} <= {dialect.least}(coalesce({new_cap}, {cap}, :max), :max)"
    if change.expect is not None:
        within += f" AND {value} = CAST(:expect AS INTEGER)"
    return target, within


def changed_pool(dialect: Dialect, change: Change) -> str:
    """The conditional UPDATE of one change: its bound in the WHERE clause, so nothing is
    read and written back; what it applied returned. Its text depends only on the change's
    shape (a set, a clamp, an expected value), written once per shape and dialect."""
    return _changed_pool(dialect, change.set_to is not None, change.clamp, change.expect is not None)


def new_pool(dialect: Dialect, change: Change) -> str:
    """The pool made with one change applied to its 0, when it is within its bound and the
    pool is not there (nothing made, nothing returned, otherwise): what it applied returned."""
    return _new_pool(dialect, change.set_to is not None, change.clamp, change.expect is not None)


@functools.cache
def _changed_pool(dialect: Dialect, sets: bool, clamp: bool, expects: bool) -> str:
    change = _shaped(sets, clamp, expects)
    target, within = bounded(dialect, change, "value", "cap")
    return (
        f"UPDATE pools SET value = {target}, applied = {target} - value, "
        "cap = coalesce(CAST(:cap AS INTEGER), cap) "
        f"WHERE channel_id = :channel AND pool = :pool AND owner_id = :owner AND {within} "
        "RETURNING value, applied"
    )


@functools.cache
def _new_pool(dialect: Dialect, sets: bool, clamp: bool, expects: bool) -> str:
    change = _shaped(sets, clamp, expects)
    target, within = bounded(dialect, change, "0", "NULL")
    return (
        "INSERT INTO pools (channel_id, pool, owner_id, value, applied, cap) "
        "SELECT CAST(:channel AS BIGINT), CAST(:pool AS TEXT), CAST(:owner AS BIGINT), "
        f"{target}, {target}, CAST(:cap AS INTEGER) WHERE {within} "
        "ON CONFLICT DO NOTHING RETURNING value, applied"
    )


def _shaped(sets: bool, clamp: bool, expects: bool) -> Change:
    """A change of this shape: all :func:`bounded` reads of one (its values are parameters)."""
    return Change("", set_to=0 if sets else None, clamp=clamp, expect=0 if expects else None)


def refusal(change: Change, found: tuple[int, int | None]) -> Refused:
    """Why ``change`` was refused, from its pool's value and cap (``found``: a pool not made
    is at 0 without one), read after its conditional statements matched nothing."""
    value, cap = found[0], change.cap if change.cap is not None else found[1]
    delta = change.delta if change.set_to is None else change.set_to - value
    if change.expect is not None and value != change.expect:
        return Refused("pool.moved", change.pool, change.owner_id, value, delta, cap)
    if delta < 0:
        return Refused("pool.not_enough", change.pool, change.owner_id, value, delta, cap)
    # Past the pool's own cap, or (a pool without one) past the schema's bound.
    return Refused(
        "pool.over_cap", change.pool, change.owner_id, value, delta, min(cap or POOL_MAX, POOL_MAX)
    )


# Each outcome's fields, in the order its dataclass declares them (the replay row's text).
APPLIED_FIELDS = tuple(f.name for f in fields(Applied))
POOL_FIELDS = tuple(f.name for f in fields(PoolState))
REFUSED_FIELDS = tuple(f.name for f in fields(Refused))


def encode_outcome(outcome: Outcome) -> str:
    """The outcome as its replay row keeps it: the text ``dataclasses.asdict`` gave, built
    field by field (its recursive deep copy was a fifth of the Python that aiosqlite's
    thread runs for a write, holding the interpreter's lock the loop waits for)."""
    if isinstance(outcome, Applied):
        data = {name: getattr(outcome, name) for name in APPLIED_FIELDS}
        data["pools"] = [{name: getattr(p, name) for name in POOL_FIELDS} for p in outcome.pools]
        return json.dumps({"kind": "applied", **data})
    return json.dumps({"kind": "refused", **{name: getattr(outcome, name) for name in REFUSED_FIELDS}})


def decode_outcome(text: str) -> Outcome:
    data = json.loads(text)
    kind = data.pop("kind")
    data["replayed"] = True
    if kind == "applied":
        pools = tuple(PoolState(**p) for p in data["pools"])
        return Applied(pools, replayed=True, record_id=data["record_id"], retired=data.get("retired", 0))
    return Refused(**data)
