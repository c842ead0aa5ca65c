"""Tables: one row per channel that plays."""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from bot.models import (
    Table,
    TableSettings,
)
from bot.store.base import Part
from bot.store.database import Row, Transaction
from bot.store.touched import TABLE

# The columns a table's setters write, each by its own method.
TABLE_COLUMNS = frozenset({"system", "gm_id", "gm_channel_id", "settings"})


class Tables(Part):
    """Each channel's table: system, GM, GM channel, settings, and who plays there."""

    async def table(self, channel_id: int) -> Table | None:
        row = await self._fetchone(
            "SELECT * FROM tables WHERE channel_id = :channel", {"channel": channel_id}
        )
        return None if row is None else table_of(row)

    async def table_or_default(self, channel_id: int, guild_id: int | None) -> Table:
        """The channel's table, or the empty table it would be (nothing is written)."""
        return await self.table(channel_id) or Table(channel_id, guild_id)

    async def _update_table(self, channel_id: int, guild_id: int | None, column: str, value: Any) -> Table:
        """One statement: the table's row made with ``column`` set, or ``column`` set in
        the row there is; the row as it now is."""
        assert column in TABLE_COLUMNS
        values: dict[str, Any] = {"channel_id": channel_id, "guild_id": guild_id}
        values |= {"created_at": self._now(), column: value}

        async def update(tx: Transaction) -> Row | None:
            row = await tx.fetch_one(
                f"INSERT INTO tables ({', '.join(values)}) VALUES ({', '.join(f':{c}' for c in values)}) "
                f"ON CONFLICT (channel_id) DO UPDATE SET {column} = excluded.{column} RETURNING *",
                values,
            )
            await tx.announce(channel_id)
            return row

        row = await self._transact(update)
        assert row is not None
        self._changed(channel_id, TABLE)
        return table_of(row)

    async def set_system(self, channel_id: int, guild_id: int | None, system: str) -> Table:
        return await self._update_table(channel_id, guild_id, "system", system)

    async def set_gm(self, channel_id: int, guild_id: int | None, gm_id: int) -> Table:
        return await self._update_table(channel_id, guild_id, "gm_id", gm_id)

    async def set_gm_channel(self, channel_id: int, guild_id: int | None, gm_channel_id: int | None) -> Table:
        return await self._update_table(channel_id, guild_id, "gm_channel_id", gm_channel_id)

    async def tables_served(self, gm_channel_id: int) -> list[Table]:
        """The tables whose private GM channel this is."""
        rows = await self._fetchall(
            "SELECT * FROM tables WHERE gm_channel_id = :channel ORDER BY channel_id",
            {"channel": gm_channel_id},
        )
        return [table_of(r) for r in rows]

    async def set_settings(self, channel_id: int, guild_id: int | None, settings: TableSettings) -> Table:
        return await self._update_table(channel_id, guild_id, "settings", settings.model_dump_json())

    async def players(self, channel_id: int, limit: int = 50, not_players: Collection[str] = ()) -> list[int]:
        """Who plays at this table: everyone who has rolled there, in the order of their
        first roll, then whoever holds a pool of their own (even at zero) without a roll.
        The owners of ``not_players`` pools are not players (a character sheet's id)."""
        excluded = self.db.dialect.among("pool", "not_players")
        rows = await self._fetchall(
            "SELECT user_id FROM (SELECT user_id, id AS seen FROM records WHERE channel_id = :channel "
            "UNION ALL SELECT owner_id, CAST(1 AS BIGINT) << 62 FROM pools WHERE channel_id = :channel "
            f"AND owner_id <> 0 AND NOT ({excluded})) AS seen_at "
            "GROUP BY user_id ORDER BY min(seen), user_id LIMIT :limit",
            {"channel": channel_id, "limit": limit, "not_players": sorted(not_players)},
        )
        return [int(r[0]) for r in rows]


def table_of(row: Row) -> Table:
    """A stored table as cogs see it (a row of either backend: both read by column name)."""
    return Table(
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        system=row["system"] or None,
        gm_id=row["gm_id"],
        gm_channel_id=row["gm_channel_id"],
        settings=settings_of(row["settings"]),
    )


@functools.lru_cache(maxsize=4096)
def settings_of(text: str) -> TableSettings:
    """A settings text parsed, remembered by its text: every interaction reads its table's
    row, and most tables keep the same settings for weeks. A ``TableSettings`` is frozen,
    so tables with the same text may share one."""
    return TableSettings.model_validate_json(text)
