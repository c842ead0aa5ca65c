"""What the session's chronicle reads (``/mesa cronica``): the table's rolls the whole
table has seen and its ledger, between two times, and when its last scene ended."""

from __future__ import annotations

from bot.models import LedgerRow, Record
from bot.store.base import Part
from bot.store.records import record_of
from bot.store.schema import SET_META


def scene_key(channel_id: int) -> str:
    """The ``meta`` key under which a table's last scene end is kept."""
    return f"scene_end:{channel_id}"


class Session(Part):
    async def mark_scene_end(self, channel_id: int) -> None:
        """Remember when the table's last scene ended (where a chronicle starts by default)."""
        await self._transact(
            lambda tx: tx.execute(SET_META, {"key": scene_key(channel_id), "value": self._now()})
        )

    async def scene_end(self, channel_id: int) -> str | None:
        value = await self._fetchvalue(
            "SELECT value FROM meta WHERE key = :key", {"key": scene_key(channel_id)}
        )
        return None if value is None else str(value)

    async def session_rolls(
        self, channel_id: int, since: str, until: str, limit: int
    ) -> list[tuple[str, Record]]:
        """The table's rolls made in [since, until] that the whole table has seen (not
        secret, or revealed), oldest first, with when each was made."""
        rows = await self._fetchall(
            "SELECT * FROM records r WHERE channel_id = :channel AND created_at >= :since "
            "AND created_at <= :until "
            "AND (NOT secret OR EXISTS (SELECT 1 FROM reveals v WHERE v.roll_id = r.id)) "
            "ORDER BY id LIMIT :limit",
            {"channel": channel_id, "since": since, "until": until, "limit": limit},
        )
        return [(r["created_at"], record_of(r)) for r in rows]

    async def session_ledger(self, channel_id: int, since: str, until: str, limit: int) -> list[LedgerRow]:
        """The table's ledger rows written in [since, until], oldest first."""
        rows = await self._fetchall(
            "SELECT id, channel_id, interaction_id, actor_id, pool, owner_id, delta, value_after, reason, "
            "message_id, created_at, undoes, gm_only FROM ledger WHERE channel_id = :channel "
            "AND created_at >= :since AND created_at <= :until ORDER BY id LIMIT :limit",
            {"channel": channel_id, "since": since, "until": until, "limit": limit},
        )
        return [LedgerRow(**dict(r)) for r in rows]
