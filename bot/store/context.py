"""One interaction's reads of its table in one round trip: the table and its pools."""

from __future__ import annotations

from dataclasses import dataclass

from bot.models import PoolValue, Table
from bot.store.base import Part
from bot.store.tables import table_of


@dataclass(frozen=True)
class TableContext:
    """A channel's table (the empty one it would be, when it has none yet) and every pool
    it holds, ordered by pool and owner as :meth:`Pools.pools` orders them."""

    table: Table
    pools: tuple[PoolValue, ...]

    def pool(self, pool: str, owner_id: int = 0) -> int:
        """A pool's value, 0 when it was never written (as :meth:`Pools.pool`)."""
        return next((p.value for p in self.pools if p.pool == pool and p.owner_id == owner_id), 0)


class Contexts(Part):
    async def context(self, channel_id: int, guild_id: int | None) -> TableContext:
        """The table and its pools in one statement (a join from the channel, so a channel
        without a table still answers one row): what ``table_or_default`` and ``pools``
        answer, in one round trip instead of two."""
        rows = await self._fetchall(
            "SELECT t.*, p.pool AS pool_name, p.owner_id AS pool_owner, p.value AS pool_value "
            "FROM (SELECT CAST(:channel AS BIGINT) AS channel) AS k "
            "LEFT JOIN tables t ON t.channel_id = k.channel LEFT JOIN pools p ON p.channel_id = k.channel "
            "ORDER BY p.pool, p.owner_id",
            {"channel": channel_id},
        )
        first = rows[0]
        table = Table(channel_id, guild_id) if first["channel_id"] is None else table_of(first)
        pools = tuple(
            PoolValue(r["pool_name"], r["pool_owner"], r["pool_value"])
            for r in rows
            if r["pool_name"] is not None
        )
        return TableContext(table, pools)
