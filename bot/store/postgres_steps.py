"""The steps of a PostgreSQL operation and of pruning (bot/store/postgres.py): each a
statement or two on a connection the caller holds inside its transaction."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from bot.models import Change, Operation, RecordUpdate, Refused, SheetUpdate, Undo
from bot.store.pools import refusal
from bot.store.postgres_play import count_dice
from bot.store.retention import PRUNE_BATCH, Pruned, newest_per_table

if TYPE_CHECKING:
    from bot.store.postgres import Db


def count(status: str) -> int:
    """The row count of a command's status (``"DELETE 3"``)."""
    return int(status.rsplit(" ", 1)[-1])


async def update_record(db: Db, day: str, op: Operation, update: RecordUpdate) -> Refused | None:
    """A roll's state moves only from the version it was read at, and the dice the change
    threw are counted unless the roll is still secret (as SQLite's)."""
    secret = await db.fetchval(
        "UPDATE records SET data = $1, version = version + 1 WHERE id = $2 AND version = $3 AND NOT retired "
        "RETURNING secret",
        json.dumps(update.data),
        update.record_id,
        update.version,
    )
    if secret is not None:
        if not secret:
            await count_dice(db, day, op.channel_id, op.actor_id, update.system, update.dice)
        return None
    exists = await db.fetchval("SELECT 1 FROM records WHERE id = $1 AND NOT retired", update.record_id)
    return Refused("roll.stale" if exists else "error.roll_gone", "", 0, 0, 0)


async def update_sheet_file(db: Db, update: SheetUpdate) -> bool:
    """A sheet's file moves only from the version it was read at (as SQLite's)."""
    updated = await db.fetchval(
        "UPDATE sheets SET data = $1, version = version + 1 WHERE id = $2 AND version = $3 RETURNING id",
        json.dumps(update.data, ensure_ascii=False),
        update.sheet_id,
        update.version,
    )
    return updated is not None


async def undo_plan(db: Db, channel_id: int, undo: Undo) -> tuple[Change, ...] | Refused:
    """The compensating changes for the last operation not yet reverted (that touched the
    pool, when one is named). Reading here is safe: the table's advisory lock is held. Refused when that
    operation also wrote a sheet's file (``undo.final``), which compensating rows cannot take back."""
    live = "undoes IS NULL AND NOT EXISTS (SELECT 1 FROM ledger AS u WHERE u.undoes = ledger.id)"
    last = await db.fetchval(
        f"SELECT interaction_id FROM ledger WHERE channel_id = $1 AND {live} "
        "AND ($2::text IS NULL OR pool = $2) AND ($3::bigint IS NULL OR owner_id = $3) "
        "ORDER BY id DESC LIMIT 1",
        channel_id,
        undo.pool,
        undo.owner_id,
    )
    if last is None:
        return ()
    rows = await db.fetch(
        "SELECT id, pool, owner_id, delta, reason FROM ledger "
        f"WHERE channel_id = $1 AND interaction_id = $2 AND {live} ORDER BY id",
        channel_id,
        last,
    )
    if any(r["reason"] in undo.final for r in rows):
        return Refused("mesa.deshacer.final", "", 0, 0, 0)
    return tuple(Change(r["pool"], -r["delta"], owner_id=r["owner_id"], undoes=r["id"]) for r in rows)


async def reset_plan(db: Db, channel_id: int, keep: tuple[str, ...] = ()) -> tuple[Change, ...]:
    """Every pool of the table that is not at zero, set to zero, but those in ``keep``."""
    rows = await db.fetch(
        "SELECT pool, owner_id FROM pools WHERE channel_id = $1 AND value <> 0 "
        "AND NOT (pool = ANY($2::text[])) ORDER BY pool, owner_id",
        channel_id,
        list(keep),
    )
    return tuple(Change(r["pool"], owner_id=r["owner_id"], set_to=0) for r in rows)


async def refused(db: Db, channel_id: int, change: Change) -> Refused:
    """Why a conditional UPDATE matched nothing, from the pool as it is."""
    row = await db.fetchrow(
        "SELECT value, cap FROM pools WHERE channel_id = $1 AND pool = $2 AND owner_id = $3",
        channel_id,
        change.pool,
        change.owner_id,
    )
    return refusal(change, None if row is None else (int(row[0]), row[1]))


async def prune_batch(
    db: Db, operations_before: str, rolls_before: str, kinds: tuple[str, ...], days_before: str
) -> Pruned:
    """One batch of :meth:`PostgresStore.prune`."""
    operations = await db.execute(
        "DELETE FROM operations WHERE (interaction_id, step) IN "
        "(SELECT interaction_id, step FROM operations WHERE created_at < $1 LIMIT $2)",
        operations_before,
        PRUNE_BATCH,
    )
    gone = await db.fetch(
        "DELETE FROM records WHERE id IN (SELECT id FROM records WHERE created_at < $1 "
        "AND (retired OR (kind = ANY($2::text[]) AND data ->> 'task_id' IS NULL)) LIMIT $3) "
        "RETURNING channel_id, created_at",
        rolls_before,
        list(kinds),
        PRUNE_BATCH,
    )
    await db.executemany(
        "INSERT INTO meta (key, value) VALUES ($1, $2) "
        "ON CONFLICT (key) DO UPDATE SET value = greatest(meta.value, excluded.value)",
        list(newest_per_table([(row[0], row[1]) for row in gone]).items()),
    )
    reveals = await db.execute(
        "DELETE FROM reveals WHERE message_id IN (SELECT message_id FROM reveals WHERE created_at < $1 "
        "AND NOT EXISTS (SELECT 1 FROM records WHERE records.id = reveals.roll_id) LIMIT $2)",
        rolls_before,
        PRUNE_BATCH,
    )
    dice = await db.execute(
        "DELETE FROM dice_counts WHERE ctid = ANY(ARRAY("
        "SELECT ctid FROM dice_counts WHERE day < $1 LIMIT $2))",
        days_before,
        PRUNE_BATCH,
    )
    return Pruned(count(operations), len(gone), count(reveals), count(dice))
