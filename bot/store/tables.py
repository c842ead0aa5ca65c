"""Tables: one row per channel that plays."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection
from typing import Any

import asyncpg

from bot.models import (
    System,
    Table,
    TableSettings,
)
from bot.store.connection import Connection


class Tables(Connection):
    """Each channel's table: system, GM, GM channel, settings, and who plays there."""

    async def table(self, channel_id: int) -> Table | None:
        row = await self._fetchone("SELECT * FROM tables WHERE channel_id = ?", (channel_id,))
        return None if row is None else table_of(row)

    async def table_or_default(self, channel_id: int, guild_id: int | None) -> Table:
        """The channel's table, or the empty table it would be (nothing is written)."""
        return await self.table(channel_id) or Table(channel_id, guild_id)

    async def _update_table(self, channel_id: int, guild_id: int | None, column: str, value: Any) -> Table:
        def update(db: sqlite3.Connection) -> sqlite3.Row:
            self._ensure_table(db, channel_id, guild_id)
            return db.execute(
                f"UPDATE tables SET {column} = ? WHERE channel_id = ? RETURNING *", (value, channel_id)
            ).fetchone()

        table = table_of(await self._write(update))
        self._changed(channel_id)
        return table

    async def set_system(self, channel_id: int, guild_id: int | None, system: System) -> Table:
        return await self._update_table(channel_id, guild_id, "system", system.value)

    async def set_gm(self, channel_id: int, guild_id: int | None, gm_id: int) -> Table:
        return await self._update_table(channel_id, guild_id, "gm_id", gm_id)

    async def set_gm_channel(self, channel_id: int, guild_id: int | None, gm_channel_id: int | None) -> Table:
        return await self._update_table(channel_id, guild_id, "gm_channel_id", gm_channel_id)

    async def tables_seen_from(self, channel_id: int) -> tuple[Table | None, list[Table]]:
        """In one query: the channel's own table, and the tables it is the GM channel of."""
        rows = await self._fetchall(
            "SELECT * FROM tables WHERE channel_id = :channel OR gm_channel_id = :channel "
            "ORDER BY channel_id",
            {"channel": channel_id},
        )
        tables = [table_of(r) for r in rows]
        own = next((t for t in tables if t.channel_id == channel_id), None)
        return own, [t for t in tables if t.gm_channel_id == channel_id]

    async def tables_served(self, gm_channel_id: int) -> list[Table]:
        """The tables whose private GM channel this is."""
        rows = await self._fetchall(
            "SELECT * FROM tables WHERE gm_channel_id = ? ORDER BY channel_id", (gm_channel_id,)
        )
        return [table_of(r) for r in rows]

    async def set_settings(self, channel_id: int, guild_id: int | None, settings: TableSettings) -> Table:
        return await self._update_table(channel_id, guild_id, "settings", settings.model_dump_json())

    async def players(self, channel_id: int, limit: int = 50, not_players: Collection[str] = ()) -> list[int]:
        """Who plays at this table: everyone who has rolled there, in the order of their
        first roll, then whoever holds a pool of their own (even at zero) without a roll.
        The owners of ``not_players`` pools are not players (a character sheet's id)."""
        rows = await self._fetchall(
            "SELECT user_id FROM (SELECT user_id, id AS seen FROM records WHERE channel_id = :channel "
            "UNION ALL SELECT owner_id, 1 << 62 FROM pools WHERE channel_id = :channel AND owner_id <> 0 "
            "AND pool NOT IN (SELECT value FROM json_each(:not_players))) "
            "GROUP BY user_id ORDER BY min(seen), user_id LIMIT :limit",
            {"channel": channel_id, "limit": limit, "not_players": json.dumps(sorted(not_players))},
        )
        return [int(r[0]) for r in rows]


def table_of(row: sqlite3.Row | asyncpg.Record) -> Table:
    """A stored table as cogs see it (a row of either backend: both read by column name)."""
    return Table(
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        system=System(row["system"]) if row["system"] else None,
        gm_id=row["gm_id"],
        gm_channel_id=row["gm_channel_id"],
        settings=TableSettings.model_validate_json(row["settings"]),
    )
