"""Saved rolls (``/guardada``): a player's own or a table's, each bounded in number."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.models import Record, SavedRoll
from bot.store.base import Part
from bot.store.database import Row, Transaction
from bot.store.records import record_of


class Saved(Part):
    """Named rolls kept to be played again by their kind's repeater."""

    async def save_named_roll(self, roll: SavedRoll, limit: int) -> str:
        """Keep ``roll`` unless its owner already has ``limit`` of them or one by that name:
        ``"saved"``, ``"full"`` or ``"exists"``. Counted and written in one transaction,
        under the owner's lock, so two saves are counted one after the other."""
        where = {"scope": roll.scope, "owner": roll.owner_id}

        async def save(tx: Transaction) -> str:
            await tx.lock(roll.scope, roll.owner_id)
            count = await tx.fetch_one(
                "SELECT count(*), sum(CASE WHEN name = :name THEN 1 ELSE 0 END) FROM saved_rolls "
                "WHERE scope = :scope AND owner_id = :owner",
                {"name": roll.name, **where},
            )
            assert count is not None
            if count[1]:
                return "exists"
            if count[0] >= limit:
                return "full"
            await tx.execute(
                "INSERT INTO saved_rolls (scope, owner_id, creator_id, name, kind, data, created_at) "
                "VALUES (:scope, :owner, :creator, :name, :kind, :data, :now)",
                where
                | {
                    "creator": roll.creator_id,
                    "name": roll.name,
                    "kind": roll.kind,
                    "data": json.dumps(roll.data),
                    "now": self._now(),
                },
            )
            return "saved"

        return await self._transact(save)

    async def named_rolls(self, user_id: int, channel_id: int | None, prefix: str = "") -> list[SavedRoll]:
        """The player's own saved rolls, then the table's (none without a table), by name."""
        dialect = self.db.dialect
        rows = await self._fetchall(
            "SELECT * FROM saved_rolls WHERE ((scope = 0 AND owner_id = :user) "
            f"OR (scope = :table AND owner_id = 0)) AND {dialect.contains('name', 'prefix')} "
            f"ORDER BY scope <> 0, name COLLATE {dialect.binary} LIMIT 150",
            {"user": user_id, "table": channel_id if channel_id is not None else -1, "prefix": prefix},
        )
        return [saved_of(r) for r in rows]

    async def latest_roll(self, channel_id: int, user_id: int, kinds: Sequence[str]) -> Record | None:
        """The player's latest live roll at the table among ``kinds`` (to save it by name)."""
        row = await self._fetchone(
            "SELECT * FROM records WHERE channel_id = :channel AND user_id = :user AND NOT retired "
            f"AND {self.db.dialect.among('kind', 'kinds')} ORDER BY id DESC LIMIT 1",
            {"channel": channel_id, "user": user_id, "kinds": list(kinds)},
        )
        return None if row is None else record_of(row)

    async def delete_named_roll(self, saved_id: int) -> bool:
        deleted = await self._transact(
            lambda tx: tx.execute("DELETE FROM saved_rolls WHERE id = :id", {"id": saved_id})
        )
        return bool(deleted)


def saved_of(row: Row) -> SavedRoll:
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
