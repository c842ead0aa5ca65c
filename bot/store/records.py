"""Records that buttons come back to, and the one reveal each secret roll gets."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.models import (
    Record,
)
from bot.store.connection import Connection
from bot.store.dice import count_dice


class Records(Connection):
    """Records buttons come back to (rolls, tasks, trackers, sheets, grants) and reveals."""

    async def save_record(
        self, channel_id: int, interaction_id: int, user_id: int, kind: str, data: dict[str, Any]
    ) -> int:
        """Save a record once per interaction and return its id."""

        def save(db: sqlite3.Connection) -> int:
            db.execute(
                "INSERT INTO records (channel_id, interaction_id, user_id, kind, data, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (interaction_id) DO NOTHING",
                (channel_id, interaction_id, user_id, kind, json.dumps(data), self._now()),
            )
            return int(
                db.execute("SELECT id FROM records WHERE interaction_id = ?", (interaction_id,)).fetchone()[0]
            )

        record_id = await self._write(save)
        self._changed(channel_id)
        return record_id

    async def record(self, record_id: int) -> Record | None:
        """A live record; a retired one (the table was reset) no longer exists for buttons."""
        row = await self._fetchone("SELECT * FROM records WHERE id = ? AND NOT retired", (record_id,))
        return None if row is None else record_of(row)

    async def records(self, channel_id: int, kind: str, limit: int = 500) -> list[Record]:
        """The channel's latest live records of one kind, newest first."""
        rows = await self._fetchall(
            "SELECT * FROM records WHERE channel_id = ? AND kind = ? AND NOT retired "
            "ORDER BY id DESC LIMIT ?",
            (channel_id, kind, limit),
        )
        return [record_of(r) for r in rows]

    async def latest_records(
        self, channel_id: int, kind: str, user_id: int | None = None
    ) -> dict[int, Record]:
        """Each user's newest live record of one kind (only ``user_id``'s when given),
        however many others wrote since."""
        rows = await self._fetchall(
            "SELECT * FROM records WHERE id IN (SELECT max(id) FROM records WHERE channel_id = :channel "
            "AND kind = :kind AND NOT retired AND (:user IS NULL OR user_id = :user) GROUP BY user_id)",
            {"channel": channel_id, "kind": kind, "user": user_id},
        )
        return {r["user_id"]: record_of(r) for r in rows}

    async def linked_records(
        self, channel_id: int, kind: str, field: str, ids: Sequence[int]
    ) -> list[Record]:
        """In one query, the channel's live records of ``kind`` whose ``data[field]`` is one of
        ``ids`` (a Dune roll's ``task_id``: every roll that counts towards these tasks)."""
        rows = await self._fetchall(
            "SELECT * FROM records WHERE channel_id = ? AND kind = ? AND NOT retired "
            "AND json_extract(data, ?) IN (SELECT value FROM json_each(?)) ORDER BY id",
            (channel_id, kind, f"$.{field}", json.dumps(list(ids))),
        )
        return [record_of(r) for r in rows]

    async def claim_reveal(self, message_id: int, roll_id: int, actor_id: int) -> bool:
        """Claim the reveal of a secret message; only the first claim wins."""

        def claim(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT INTO reveals (message_id, roll_id, actor_id, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (message_id) DO NOTHING RETURNING message_id",
                (message_id, roll_id, actor_id, self._now()),
            )
            return cursor.fetchone() is not None

        return await self._write(claim)

    async def release_reveal(self, message_id: int) -> None:
        """Give a reveal back when posting it failed, so the GM can try again."""
        await self._write(lambda db: db.execute("DELETE FROM reveals WHERE message_id = ?", (message_id,)))

    async def set_record_message(
        self,
        record_id: int,
        message_id: int,
        *,
        secret: bool = False,
        system: str = "",
        dice: tuple[tuple[int, int], ...] = (),
    ) -> None:
        """Remember where a roll was posted, so later buttons can edit that message; the
        ledger rows the roll itself wrote (its cost or gain) learn the link too, like the
        rows a button writes, which know the message already. A secret roll's message is
        remembered but links nowhere (``ledger``); once revealed (posted again, not secret),
        the rows that named its secret message name the table's message instead, and its
        ``dice`` (of ``system``) reach the statistics, once, under its roller."""

        def remember(db: sqlite3.Connection) -> None:
            before = db.execute(
                "SELECT message_id, secret FROM records WHERE id = ?", (record_id,)
            ).fetchone()
            row = db.execute(
                "UPDATE records SET message_id = ?, secret = ? WHERE id = ? "
                "RETURNING channel_id, interaction_id, user_id",
                (message_id, secret, record_id),
            ).fetchone()
            if row is None:
                return
            db.execute(
                "UPDATE ledger SET message_id = ? "
                "WHERE channel_id = ? AND interaction_id = ? AND message_id IS NULL",
                (message_id, row[0], row[1]),
            )
            if before[1] and not secret:
                db.execute(
                    "UPDATE ledger SET message_id = ? WHERE channel_id = ? AND message_id = ?",
                    (message_id, row[0], before[0]),
                )
                count_dice(db, self._day(), row[0], row[2], system, dice)

        await self._write(remember)


def record_of(row: sqlite3.Row | asyncpg.Record) -> Record:
    """A stored record as cogs see it (a row of either backend: both read by column name)."""
    return Record(
        row["id"],
        row["channel_id"],
        row["user_id"],
        row["kind"],
        json.loads(row["data"]),
        row["version"],
        row["message_id"],
    )
