"""Retention: what the store forgets, and when (the ledger is kept whole)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import astuple, dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.store.connection import Connection

# How many rows one pruning transaction deletes, so a large first prune never holds the
# write lock for long.
PRUNE_BATCH = 2000


def forgotten_key(channel_id: int) -> str:
    """The ``meta`` key holding when the table's newest forgotten record was made."""
    return f"forgotten:{channel_id}"


def newest_per_table(gone: list[tuple[int, str]]) -> dict[str, str]:
    """The deleted records' (table, made at) as ``meta`` rows: each table's newest."""
    newest: dict[str, str] = {}
    for channel_id, created_at in gone:
        key = forgotten_key(channel_id)
        newest[key] = max(newest.get(key, ""), created_at)
    return newest


@dataclass(frozen=True)
class Retention:
    """What the store forgets, and when; the ledger is always kept whole.

    - ``operations``: an interaction's recorded outcome exists to answer Discord's replay
      of it, and Discord replays only while the interaction's token lives (15 minutes).
    - ``records``: a record of one of ``kinds`` (rolls read by nothing but their own
      buttons), or any retired one, older than this. A Dune roll linked to an extended task stays
      while the task lives: the task's progress is counted from it. The chronicle reads rolls
      of any age, so each table remembers until when its records were forgotten (``meta``,
      :func:`forgotten_key`), and a chronicle reaching back further says so.
    - ``dice``: a day's dice counts (``/estadisticas``) older than this. The longest
      ``/estadisticas`` reads a year (365 days counting today, ``cogs/estadisticas.py``):
      an older day is read by nothing.
    """

    operations: timedelta = timedelta(minutes=20)
    records: timedelta = timedelta(days=30)
    kinds: tuple[str, ...] = ()
    dice: timedelta = timedelta(days=365)

    def cutoffs(self, now: datetime) -> tuple[str, str, str]:
        """What is older goes: operations' and records' timestamps and dice counts' day, as
        the stores write them (ISO text), so both backends prune at the same instants."""
        return (
            (now - self.operations).isoformat(timespec="seconds"),
            (now - self.records).isoformat(timespec="seconds"),
            (now - self.dice).date().isoformat(),
        )


@dataclass(frozen=True)
class Pruned:
    operations: int = 0
    records: int = 0
    reveals: int = 0
    dice: int = 0

    def __add__(self, other: Pruned) -> Pruned:
        """Batches' counts summed, field by field."""
        return Pruned(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


class Pruning(Connection):
    """Forgetting what nothing reads any more, in short transactions."""

    async def prune(self, retention: Retention) -> Pruned:
        """Forget what ``retention`` allows, in short transactions; returns what went."""
        operations_before, records_before, days_before = retention.cutoffs(self._clock())
        total = Pruned()
        while True:
            batch = await self._write(
                _prune_batch, operations_before, records_before, retention.kinds, days_before
            )
            total += batch
            if not any(astuple(batch)):
                return total

    async def forgotten_until(self, channel_id: int) -> str | None:
        """When the newest record pruning forgot at this table was made (ISO, UTC), if any:
        rolls made until then may be gone."""
        return await self.get_meta(forgotten_key(channel_id))

    if TYPE_CHECKING:

        async def get_meta(self, key: str) -> str | None: ...


def _prune_batch(
    db: sqlite3.Connection,
    operations_before: str,
    records_before: str,
    kinds: tuple[str, ...],
    days_before: str,
) -> Pruned:
    """One batch of :meth:`Store.prune`, on the connection's thread."""
    operations = db.execute(
        "DELETE FROM operations WHERE rowid IN (SELECT rowid FROM operations WHERE created_at < ? LIMIT ?)",
        (operations_before, PRUNE_BATCH),
    ).rowcount
    gone = db.execute(
        "DELETE FROM records WHERE id IN (SELECT id FROM records WHERE created_at < ? "
        "AND (retired OR (kind IN (SELECT value FROM json_each(?)) "
        "AND json_extract(data, '$.task_id') IS NULL)) LIMIT ?) RETURNING channel_id, created_at",
        (records_before, json.dumps(list(kinds)), PRUNE_BATCH),
    ).fetchall()
    db.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)",
        newest_per_table([(row[0], row[1]) for row in gone]).items(),
    )
    records = len(gone)
    reveals = db.execute(
        "DELETE FROM reveals WHERE message_id IN (SELECT message_id FROM reveals WHERE created_at < ? "
        "AND NOT EXISTS (SELECT 1 FROM records WHERE records.id = reveals.roll_id) LIMIT ?)",
        (records_before, PRUNE_BATCH),
    ).rowcount
    dice = db.execute(
        "DELETE FROM dice_counts WHERE rowid IN (SELECT rowid FROM dice_counts WHERE day < ? LIMIT ?)",
        (days_before, PRUNE_BATCH),
    ).rowcount
    return Pruned(operations, records, reveals, dice)
