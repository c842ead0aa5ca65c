"""Saved rolls (``/guardada``): a player's own or a table's, each bounded in number."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

import asyncpg

from bot.models import Record, SavedRoll
from bot.store.connection import Connection
from bot.store.records import record_of


class Saved(Connection):
    """Named rolls kept to be played again by their kind's repeater."""

    async def save_named_roll(self, roll: SavedRoll, limit: int) -> str:
        """Keep ``roll`` unless its owner already has ``limit`` of them or one by that name:
        ``"saved"``, ``"full"`` or ``"exists"``. Counted and written in one transaction."""

        def save(db: sqlite3.Connection) -> str:
            where = (roll.scope, roll.owner_id)
            count = db.execute(
                "SELECT count(*), sum(name = ?) FROM saved_rolls WHERE scope = ? AND owner_id = ?",
                (roll.name, *where),
            ).fetchone()
            if count[1]:
                return "exists"
            if count[0] >= limit:
                return "full"
            db.execute(
                "INSERT INTO saved_rolls (scope, owner_id, creator_id, name, kind, data, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*where, roll.creator_id, roll.name, roll.kind, json.dumps(roll.data), self._now()),
            )
            return "saved"

        return await self._write(save)

    async def named_rolls(self, user_id: int, channel_id: int | None, prefix: str = "") -> list[SavedRoll]:
        """The player's own saved rolls, then the table's (none without a table), by name."""
        rows = await self._fetchall(
            "SELECT * FROM saved_rolls WHERE ((scope = 0 AND owner_id = :user) "
            "OR (scope = :table AND owner_id = 0)) AND instr(name, :prefix) > 0 "
            "ORDER BY scope <> 0, name LIMIT 150",
            {"user": user_id, "table": channel_id if channel_id is not None else -1, "prefix": prefix},
        )
        return [saved_of(r) for r in rows]

    async def latest_roll(self, channel_id: int, user_id: int, kinds: Sequence[str]) -> Record | None:
        """The player's latest live roll at the table among ``kinds`` (to save it by name)."""
        row = await self._fetchone(
            "SELECT * FROM records WHERE channel_id = ? AND user_id = ? AND NOT retired "
            "AND kind IN (SELECT value FROM json_each(?)) ORDER BY id DESC LIMIT 1",
            (channel_id, user_id, json.dumps(list(kinds))),
        )
        return None if row is None else record_of(row)

    async def delete_named_roll(self, saved_id: int) -> bool:
        def delete(db: sqlite3.Connection) -> bool:
            return bool(db.execute("DELETE FROM saved_rolls WHERE id = ?", (saved_id,)).rowcount)

        return await self._write(delete)


def saved_of(row: sqlite3.Row | asyncpg.Record) -> SavedRoll:
    """A saved roll from its row, on either backend (both read columns by name)."""
    return SavedRoll(
        row["id"],
        row["scope"],
        row["owner_id"],
        row["creator_id"],
        row["name"],
        row["kind"],
        json.loads(row["data"]),
    )
