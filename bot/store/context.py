"""One interaction's first read in one round trip: the table it is at, the tables that
channel serves as their GM channel, and the table's pools."""

from __future__ import annotations

from dataclasses import dataclass

from bot.models import PoolValue, Table
from bot.store.base import Part
from bot.store.pools import IN_PLAY
from bot.store.tables import table_of


@dataclass(frozen=True)
class TableContext:
    """A channel's own table (None: it has no row yet), the tables whose GM channel it is
    (by channel id), and every pool it plays with (:data:`IN_PLAY`), ordered by pool and owner as
    :meth:`Pools.pools` orders them."""

    channel_id: int
    guild_id: int | None
    own: Table | None
    served: tuple[Table, ...]
    pools: tuple[PoolValue, ...]

    @property
    def table(self) -> Table:
        """The channel's table, or the empty one it would be (as ``table_or_default``)."""
        return self.own or Table(self.channel_id, self.guild_id)

    def pool(self, pool: str, owner_id: int = 0) -> int:
        """A pool's value, 0 when it was never written (as :meth:`Pools.pool`)."""
        return next((p.value for p in self.pools if p.pool == pool and p.owner_id == owner_id), 0)


class Contexts(Part):
    async def context(self, channel_id: int, guild_id: int | None) -> TableContext:
        """The channel's table, the tables it serves and its pools in one statement (the
        tables' rows and the pools' rows, told apart by which half of the union filled
        them): what an interaction's guard, checks and card would otherwise read in two."""
        rows = await self._fetchall(
            "SELECT channel_id, guild_id, system, gm_id, gm_channel_id, settings, "
            "CAST(NULL AS TEXT) AS pool_name, CAST(NULL AS BIGINT) AS pool_owner, "
            "CAST(NULL AS INTEGER) AS pool_value "
            "FROM tables WHERE channel_id = :channel OR gm_channel_id = :channel "
            "UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, pool, owner_id, value "
            f"FROM pools WHERE channel_id = :channel AND {IN_PLAY} "
            "ORDER BY pool_name, pool_owner, channel_id",
            {"channel": channel_id},
        )
        tables = [table_of(r) for r in rows if r["pool_name"] is None]
        return TableContext(
            channel_id,
            guild_id,
            next((t for t in tables if t.channel_id == channel_id), None),
            tuple(t for t in tables if t.gm_channel_id == channel_id),
            tuple(
                PoolValue(r["pool_name"], r["pool_owner"], r["pool_value"])
                for r in rows
                if r["pool_name"] is not None
            ),
        )
