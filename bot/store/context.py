"""One interaction's first read in one round trip: the table it is at, the tables that
channel serves as their GM channel, the table's pools, and the record a pressed button
names."""

from __future__ import annotations

from dataclasses import dataclass

from bot.models import PoolValue, Record, Table
from bot.store.base import Part
from bot.store.database import Row
from bot.store.pools import IN_PLAY
from bot.store.records import record_of
from bot.store.tables import table_of

# The statement's halves, each filling its own columns and NULL in the others': a table's
# row, a pool's and (asked for) a record's, which shares ``channel_id`` with the table's.
# The first half casts every NULL it adds, so that PostgreSQL knows each column's type. A
# context without a record is the first two halves alone: the record's columns and its
# third half cost every other read a quarter more (SQLite, measured: 12-16 µs against 17-21).
RECORD_COLUMNS = (
    ", CAST(NULL AS BIGINT) AS id, CAST(NULL AS BIGINT) AS user_id, CAST(NULL AS TEXT) AS kind, "
    "CAST(NULL AS TEXT) AS data, CAST(NULL AS INTEGER) AS version, CAST(NULL AS BIGINT) AS message_id, "
    "CAST(NULL AS BOOLEAN) AS secret"
)
RECORD_NULLS = ", NULL, NULL, NULL, NULL, NULL, NULL, NULL"


def _context(record: bool) -> str:
    """The context statement, with the record's columns and half or without."""
    columns, nulls = (RECORD_COLUMNS, RECORD_NULLS) if record else ("", "")
    halves = [
        "SELECT channel_id, guild_id, system, gm_id, gm_channel_id, settings, "
        "CAST(NULL AS TEXT) AS pool_name, CAST(NULL AS BIGINT) AS pool_owner, "
        f"CAST(NULL AS INTEGER) AS pool_value{columns} "
        "FROM tables WHERE channel_id = :channel OR gm_channel_id = :channel",
        f"SELECT NULL, NULL, NULL, NULL, NULL, NULL, pool, owner_id, value{nulls} "
        f"FROM pools WHERE channel_id = :channel AND {IN_PLAY}",
    ]
    if record:
        halves.append(
            "SELECT channel_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
            "id, user_id, kind, CAST(data AS TEXT), version, message_id, secret "
            "FROM records WHERE id = :record AND NOT retired"
        )
    return " UNION ALL ".join(halves) + " ORDER BY pool_name, pool_owner, channel_id"


CONTEXT = _context(record=False)
CONTEXT_WITH_RECORD = _context(record=True)


@dataclass(frozen=True)
class TableContext:
    """A channel's own table (None: it has no row yet), the tables whose GM channel it is
    (by channel id), every pool it plays with (:data:`IN_PLAY`), ordered by pool and owner as
    :meth:`Pools.pools` orders them, and the live record asked for with them (None: none
    asked, or it is gone, as :meth:`Records.record` says)."""

    channel_id: int
    guild_id: int | None
    own: Table | None
    served: tuple[Table, ...]
    pools: tuple[PoolValue, ...]
    record: Record | None = None

    @property
    def table(self) -> Table:
        """The channel's table, or the empty one it would be (as ``table_or_default``)."""
        return self.own or Table(self.channel_id, self.guild_id)

    def pool(self, pool: str, owner_id: int = 0) -> int:
        """A pool's value, 0 when it was never written (as :meth:`Pools.pool`)."""
        return next((p.value for p in self.pools if p.pool == pool and p.owner_id == owner_id), 0)


class Contexts(Part):
    async def context(
        self, channel_id: int, guild_id: int | None, record_id: int | None = None
    ) -> TableContext:
        """The channel's table, the tables it serves, its pools and the record ``record_id``
        (a pressed button's) in one statement, the rows told apart by which half filled
        them: what an interaction's guard, checks and card would otherwise read in three."""
        if record_id is None:
            rows = await self._fetchall(CONTEXT, {"channel": channel_id})
        else:
            rows = await self._fetchall(CONTEXT_WITH_RECORD, {"channel": channel_id, "record": record_id})
        return _context_of(channel_id, guild_id, rows, record_id is not None)


def _context_of(channel_id: int, guild_id: int | None, rows: list[Row], with_record: bool) -> TableContext:
    """The rows told apart in one pass (every interaction's first read is this one): a
    pool's half names its pool, the record's its id, the rest are tables."""
    own: Table | None = None
    served: list[Table] = []
    pools: list[PoolValue] = []
    record: Record | None = None
    for row in rows:
        if row["pool_name"] is not None:
            pools.append(PoolValue(row["pool_name"], row["pool_owner"], row["pool_value"]))
        elif with_record and row["id"] is not None:
            record = record or record_of(row)
        else:
            table = table_of(row)
            if table.channel_id == channel_id:
                own = own or table
            if table.gm_channel_id == channel_id:
                served.append(table)
    return TableContext(channel_id, guild_id, own, tuple(served), tuple(pools), record)
