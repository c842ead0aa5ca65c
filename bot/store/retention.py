"""Retention: what the store forgets, and when (the ledger is kept whole)."""

from __future__ import annotations

from dataclasses import astuple, dataclass
from datetime import datetime, timedelta

from bot.store.base import Part
from bot.store.database import Transaction

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


class Pruning(Part):
    """Forgetting what nothing reads any more, in short transactions."""

    async def prune(self, retention: Retention) -> Pruned:
        """Forget what ``retention`` allows, in short transactions; returns what went."""
        operations_before, records_before, days_before = retention.cutoffs(self._clock())
        total = Pruned()
        while True:
            batch = await self._transact(
                lambda tx: self._prune_batch(
                    tx, operations_before, records_before, retention.kinds, days_before
                )
            )
            total += batch
            if not any(astuple(batch)):
                return total

    async def forgotten_until(self, channel_id: int) -> str | None:
        """When the newest record pruning forgot at this table was made (ISO, UTC), if any:
        rolls made until then may be gone."""
        value = await self._fetchvalue(
            "SELECT value FROM meta WHERE key = :key", {"key": forgotten_key(channel_id)}
        )
        return None if value is None else str(value)

    async def _prune_batch(
        self,
        tx: Transaction,
        operations_before: str,
        records_before: str,
        kinds: tuple[str, ...],
        days_before: str,
    ) -> Pruned:
        """One batch of :meth:`prune`. Rows are named by their keys (no dialect's row id),
        and a forgotten record that counts towards a Dune task (``task_id``) stays."""
        dialect = self.db.dialect
        operations = await tx.execute(
            "DELETE FROM operations WHERE (interaction_id, step) IN (SELECT interaction_id, step "
            "FROM operations WHERE created_at < :before LIMIT :batch)",
            {"before": operations_before, "batch": PRUNE_BATCH},
        )
        gone = await tx.fetch_all(
            "DELETE FROM records WHERE id IN (SELECT id FROM records WHERE created_at < :before "
            f"AND (retired OR ({dialect.among('kind', 'kinds')} AND data ->> 'task_id' IS NULL)) "
            "LIMIT :batch) "
            "RETURNING channel_id, created_at, interaction_id, message_id, secret",
            {"before": records_before, "kinds": list(kinds), "batch": PRUNE_BATCH},
        )
        # The ledger reads a roll's own rows' link from its record: written on them now (a
        # secret roll's, never revealed, links nowhere).
        await tx.execute_many(
            "UPDATE ledger SET message_id = :message WHERE channel_id = :channel "
            "AND interaction_id = :interaction AND message_id IS NULL",
            [
                {"message": r["message_id"], "channel": r["channel_id"], "interaction": r["interaction_id"]}
                for r in gone
                if r["message_id"] is not None and not r["secret"]
            ],
        )
        # A secret roll forgotten unrevealed: the rows that carry its message (a button's on
        # its card, a roll's own in a database from before its link was read through the
        # record) were hidden by the record alone (``Pools.ledger``); they link nowhere now.
        await tx.execute_many(
            "UPDATE ledger SET message_id = NULL WHERE channel_id = :channel AND message_id = :message",
            [
                {"message": r["message_id"], "channel": r["channel_id"]}
                for r in gone
                if r["message_id"] is not None and r["secret"]
            ],
        )
        await tx.execute_many(
            "INSERT INTO meta (key, value) VALUES (:key, :value) ON CONFLICT (key) "
            f"DO UPDATE SET value = {dialect.greatest}(meta.value, excluded.value)",
            [{"key": k, "value": v} for k, v in newest_per_table([(r[0], r[1]) for r in gone]).items()],
        )
        reveals = await tx.execute(
            "DELETE FROM reveals WHERE message_id IN (SELECT message_id FROM reveals "
            "WHERE created_at < :before "
            "AND NOT EXISTS (SELECT 1 FROM records WHERE records.id = reveals.roll_id) LIMIT :batch)",
            {"before": records_before, "batch": PRUNE_BATCH},
        )
        dice = await tx.execute(
            "DELETE FROM dice_counts WHERE (day, channel_id, user_id, system, sides, face, private) IN "
            "(SELECT day, channel_id, user_id, system, sides, face, private FROM dice_counts "
            "WHERE day < :before LIMIT :batch)",
            {"before": days_before, "batch": PRUNE_BATCH},
        )
        return Pruned(operations, len(gone), reveals, dice)
