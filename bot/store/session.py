"""What the session's chronicle reads (``/mesa cronica``): the table's rolls the whole
table has seen and its ledger, between two times, and when its last scene ended."""

from __future__ import annotations

import sqlite3

from bot.models import LedgerRow, Record
from bot.store.connection import Connection
from bot.store.records import record_of


def scene_key(channel_id: int) -> str:
    """The ``meta`` key under which a table's last scene end is kept."""
    return f"scene_end:{channel_id}"


class Session(Connection):
    async def mark_scene_end(self, channel_id: int) -> None:
        """Remember when the table's last scene ended (where a chronicle starts by default)."""

        def mark(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (scene_key(channel_id), self._now()),
            )

        await self._write(mark)

    async def scene_end(self, channel_id: int) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (scene_key(channel_id),))
        return None if row is None else str(row[0])

    async def session_rolls(
        self, channel_id: int, since: str, until: str, limit: int
    ) -> list[tuple[str, Record]]:
        """The table's rolls made in [since, until] that the whole table has seen (not
        secret, or revealed), oldest first, with when each was made."""
        rows = await self._fetchall(
            "SELECT * FROM records r WHERE channel_id = ? AND created_at >= ? AND created_at <= ? "
            "AND (NOT secret OR EXISTS (SELECT 1 FROM reveals v WHERE v.roll_id = r.id)) "
            "ORDER BY id LIMIT ?",
            (channel_id, since, until, limit),
        )
        return [(r["created_at"], record_of(r)) for r in rows]

    async def session_ledger(self, channel_id: int, since: str, until: str, limit: int) -> list[LedgerRow]:
        """The table's ledger rows written in [since, until], oldest first."""
        rows = await self._fetchall(
            "SELECT id, channel_id, interaction_id, actor_id, pool, owner_id, delta, value_after, reason, "
            "message_id, created_at, undoes, gm_only FROM ledger WHERE channel_id = ? AND created_at >= ? "
            "AND created_at <= ? ORDER BY id LIMIT ?",
            (channel_id, since, until, limit),
        )
        return [LedgerRow(**dict(r)) for r in rows]
