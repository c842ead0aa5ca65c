"""Records that buttons come back to, and the one reveal each secret roll gets."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.models import (
    Record,
)
from bot.store.base import Part
from bot.store.database import Row, Transaction
from bot.store.dice import count_dice
from bot.store.touched import touched


class Records(Part):
    """Records buttons come back to (rolls, tasks, trackers, sheets, grants) and reveals."""

    async def save_record(
        self, channel_id: int, interaction_id: int, user_id: int, kind: str, data: dict[str, Any]
    ) -> int:
        """Save a record once per interaction and return its id."""

        async def save(tx: Transaction) -> int:
            await tx.execute(
                "INSERT INTO records (channel_id, interaction_id, user_id, kind, data, created_at) "
                "VALUES (:channel, :interaction, :user, :kind, :data, :now) "
                "ON CONFLICT (interaction_id) DO NOTHING",
                {
                    "channel": channel_id,
                    "interaction": interaction_id,
                    "user": user_id,
                    "kind": kind,
                    "data": json.dumps(data),
                    "now": self._now(),
                },
            )
            record_id = int(
                await tx.fetch_value(
                    "SELECT id FROM records WHERE interaction_id = :interaction",
                    {"interaction": interaction_id},
                )
            )
            await tx.announce(channel_id)
            return record_id

        record_id = await self._transact(save)
        self._changed(channel_id, touched(kind=kind))
        return record_id

    async def record(self, record_id: int) -> Record | None:
        """A live record; a retired one (the table was reset) no longer exists for buttons."""
        row = await self._fetchone("SELECT * FROM records WHERE id = :id AND NOT retired", {"id": record_id})
        return None if row is None else record_of(row)

    async def records(self, channel_id: int, kind: str, limit: int = 500) -> list[Record]:
        """The channel's latest live records of one kind, newest first."""
        rows = await self._fetchall(
            "SELECT * FROM records WHERE channel_id = :channel AND kind = :kind AND NOT retired "
            "ORDER BY id DESC LIMIT :limit",
            {"channel": channel_id, "kind": kind, "limit": limit},
        )
        return [record_of(r) for r in rows]

    async def latest_records(
        self, channel_id: int, kind: str, user_id: int | None = None
    ) -> dict[int, Record]:
        """Each user's newest live record of one kind (only ``user_id``'s when given),
        however many others wrote since."""
        rows = await self._fetchall(
            "SELECT * FROM records WHERE id IN (SELECT max(id) FROM records WHERE channel_id = :channel "
            "AND kind = :kind AND NOT retired AND (CAST(:user AS BIGINT) IS NULL OR user_id = :user) "
            "GROUP BY user_id)",
            {"channel": channel_id, "kind": kind, "user": user_id},
        )
        return {r["user_id"]: record_of(r) for r in rows}

    async def linked_records(
        self, channel_id: int, kind: str, field: str, ids: Sequence[int]
    ) -> list[Record]:
        """In one query, the channel's live records of ``kind`` whose ``data[field]`` is one of
        ``ids`` (a Dune roll's ``task_id``: every roll that counts towards these tasks)."""
        # Compared as text on both sides: SQLite's ``->>`` answers a number, PostgreSQL's text.
        linked = self.db.dialect.among("CAST(data ->> CAST(:field AS TEXT) AS TEXT)", "ids")
        rows = await self._fetchall(
            "SELECT * FROM records WHERE channel_id = :channel AND kind = :kind AND NOT retired "
            f"AND {linked} ORDER BY id",
            {"channel": channel_id, "kind": kind, "field": field, "ids": [str(i) for i in ids]},
        )
        return [record_of(r) for r in rows]

    async def claim_reveal(self, message_id: int, roll_id: int, actor_id: int) -> bool:
        """Claim the reveal of a secret message; only the first claim wins."""
        claimed = await self._transact(
            lambda tx: tx.fetch_value(
                "INSERT INTO reveals (message_id, roll_id, actor_id, created_at) "
                "VALUES (:message, :roll, :actor, :now) ON CONFLICT (message_id) DO NOTHING "
                "RETURNING message_id",
                {"message": message_id, "roll": roll_id, "actor": actor_id, "now": self._now()},
            )
        )
        return claimed is not None

    async def release_reveal(self, message_id: int) -> None:
        """Give a reveal back when posting it failed, so the GM can try again."""
        await self._transact(
            lambda tx: tx.execute("DELETE FROM reveals WHERE message_id = :message", {"message": message_id})
        )

    async def set_record_message(
        self,
        record_id: int,
        message_id: int,
        *,
        secret: bool = False,
        system: str = "",
        dice: tuple[tuple[int, int], ...] = (),
    ) -> Record | None:
        """Remember where a roll was posted, so later buttons can edit that message; the
        ledger rows the roll itself wrote (its cost or gain) link to it through the record
        (``ledger`` reads a row's link from its interaction's record; retention writes it on
        the rows when it forgets the record), the rows a button writes know their message
        already. A secret roll's message is remembered but links nowhere (``ledger``); once
        revealed (posted again, not secret), the rows that named its secret message name the
        table's message instead, and its ``dice`` (of ``system``) reach the statistics, once,
        under its roller. A reveal changes what the table sees (its board may show the roll
        now): the listeners hear it.

        A post that leaves the roll as secret as it was (play's usual case: a roll posted
        once) is one statement on its own, which returns nothing of the record: its caller
        has the record it posted (None). Only a change of secrecy (a reveal) takes a
        transaction, and returns the record as it now stands, which its caller shows (None:
        there is none)."""
        posted = await self._write_one(
            "UPDATE records SET message_id = :message WHERE id = :id AND secret = CAST(:secret AS BOOLEAN) "
            "RETURNING id",
            {"message": message_id, "secret": secret, "id": record_id},
        )
        if posted is not None:
            return None

        async def remember(tx: Transaction) -> tuple[Record | None, bool]:
            # Before the record changes, so its old secret message is still named.
            revealed = not secret and bool(dice) and await was_secret(tx, record_id)
            await tx.execute(
                "UPDATE ledger SET message_id = :message "
                "WHERE channel_id = (SELECT channel_id FROM records WHERE id = :id) "
                "AND ((interaction_id = (SELECT interaction_id FROM records WHERE id = :id) "
                "AND message_id IS NULL) OR (NOT CAST(:secret AS BOOLEAN) "
                "AND message_id = (SELECT message_id FROM records WHERE id = :id AND secret)))",
                {"message": message_id, "secret": secret, "id": record_id},
            )
            row = await tx.fetch_one(
                "UPDATE records SET message_id = :message, secret = :secret WHERE id = :id RETURNING *",
                {"message": message_id, "secret": secret, "id": record_id},
            )
            if row is None:
                return None, False
            record = record_of(row)
            if revealed:
                await count_dice(tx, self._day(), record.channel_id, record.user_id, system, dice)
                await tx.announce(record.channel_id)
            return record, revealed

        record, revealed = await self._transact(remember)
        if record is not None and revealed:
            # The roll is no longer secret, and its ledger rows are no longer a secret's.
            self._changed(record.channel_id, touched(ledger=True, kind=record.kind))
        return record


async def was_secret(tx: Transaction, record_id: int) -> bool:
    """Whether the record is still secret: a reveal's dice are counted once, by the call
    that ends its secrecy."""
    return bool(await tx.fetch_value("SELECT secret FROM records WHERE id = :id", {"id": record_id}))


def record_of(row: Row) -> Record:
    """A stored record as cogs see it (a row of either backend: both read by column name)."""
    return Record(
        row["id"],
        row["channel_id"],
        row["user_id"],
        row["kind"],
        json.loads(row["data"]),
        row["version"],
        row["message_id"],
        secret=bool(row["secret"]),
    )
