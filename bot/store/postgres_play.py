"""Issue 21's store on PostgreSQL: saved rolls, what the chronicle reads, dice statistics.

The twins of ``bot.store.saved``, ``session`` and ``dice`` (same interface and answers),
kept apart from ``postgres.py`` as SQLite's are kept apart from the pools and the ledger.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import asyncpg

from bot.models import LedgerRow, Record, SavedRoll
from bot.store.dice import tally
from bot.store.records import record_of
from bot.store.saved import saved_of
from bot.store.session import scene_key

if TYPE_CHECKING:
    from bot.store.postgres import Db


async def count_dice(
    db: Db,
    day: str,
    channel_id: int,
    user_id: int,
    system: str,
    dice: tuple[tuple[int, int], ...],
    *,
    private: bool = False,
) -> None:
    """Inside the transaction of the roll (or the change, or the reveal) that showed them
    (a replay records nothing twice): add ``dice`` to the day's counts, a private roll's
    apart (as SQLite's)."""
    if not dice:
        return
    await db.executemany(
        "INSERT INTO dice_counts (day, channel_id, user_id, system, sides, face, private, count) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
        "ON CONFLICT (day, channel_id, user_id, system, sides, face, private) "
        "DO UPDATE SET count = dice_counts.count + excluded.count",
        [(day, channel_id, user_id, system, s, f, private, n) for (s, f), n in tally(dice).items()],
    )


class PostgresPlay:
    """Saved rolls, the chronicle's reads and the dice counts, on the store's pool."""

    _pool: asyncpg.Pool

    if TYPE_CHECKING:

        def _now(self) -> str: ...

    async def save_named_roll(self, roll: SavedRoll, limit: int) -> str:
        """Keep ``roll`` unless its owner already has ``limit`` of them or one by that name:
        ``"saved"``, ``"full"`` or ``"exists"``. The owner's advisory lock orders two saves."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute(
                "SELECT pg_advisory_xact_lock($1, $2)", roll.scope % 2**31, roll.owner_id % 2**31
            )
            count = await db.fetchrow(
                "SELECT count(*), count(*) FILTER (WHERE name = $1) FROM saved_rolls "
                "WHERE scope = $2 AND owner_id = $3",
                roll.name,
                roll.scope,
                roll.owner_id,
            )
            if count is not None and count[1]:
                return "exists"
            if count is not None and count[0] >= limit:
                return "full"
            await db.execute(
                "INSERT INTO saved_rolls (scope, owner_id, creator_id, name, kind, data, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                roll.scope,
                roll.owner_id,
                roll.creator_id,
                roll.name,
                roll.kind,
                json.dumps(roll.data),
                self._now(),
            )
            return "saved"

    async def named_rolls(self, user_id: int, channel_id: int | None, prefix: str = "") -> list[SavedRoll]:
        """The player's own saved rolls, then the table's (none without a table), by name."""
        rows = await self._pool.fetch(
            "SELECT * FROM saved_rolls WHERE ((scope = 0 AND owner_id = $1) "
            "OR (scope = $2 AND owner_id = 0)) AND strpos(name, $3) > 0 "
            'ORDER BY scope <> 0, name COLLATE "C" LIMIT 150',
            user_id,
            channel_id if channel_id is not None else -1,
            prefix,
        )
        return [saved_of(r) for r in rows]

    async def latest_roll(self, channel_id: int, user_id: int, kinds: Sequence[str]) -> Record | None:
        """The player's latest live roll at the table among ``kinds`` (to save it by name)."""
        row = await self._pool.fetchrow(
            "SELECT * FROM records WHERE channel_id = $1 AND user_id = $2 AND NOT retired "
            "AND kind = ANY($3::text[]) ORDER BY id DESC LIMIT 1",
            channel_id,
            user_id,
            list(kinds),
        )
        return None if row is None else record_of(row)

    async def delete_named_roll(self, saved_id: int) -> bool:
        status = await self._pool.execute("DELETE FROM saved_rolls WHERE id = $1", saved_id)
        return status != "DELETE 0"

    async def mark_scene_end(self, channel_id: int) -> None:
        """Remember when the table's last scene ended (where a chronicle starts by default)."""
        await self._pool.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            scene_key(channel_id),
            self._now(),
        )

    async def scene_end(self, channel_id: int) -> str | None:
        value = await self._pool.fetchval("SELECT value FROM meta WHERE key = $1", scene_key(channel_id))
        return None if value is None else str(value)

    async def session_rolls(
        self, channel_id: int, since: str, until: str, limit: int
    ) -> list[tuple[str, Record]]:
        """The table's rolls made in [since, until] that the whole table has seen (not
        secret, or revealed), oldest first, with when each was made."""
        rows = await self._pool.fetch(
            "SELECT * FROM records r WHERE channel_id = $1 AND created_at >= $2 AND created_at <= $3 "
            "AND (NOT secret OR EXISTS (SELECT 1 FROM reveals v WHERE v.roll_id = r.id)) "
            "ORDER BY id LIMIT $4",
            channel_id,
            since,
            until,
            limit,
        )
        return [(r["created_at"], record_of(r)) for r in rows]

    async def session_ledger(self, channel_id: int, since: str, until: str, limit: int) -> list[LedgerRow]:
        """The table's ledger rows written in [since, until], oldest first."""
        rows = await self._pool.fetch(
            "SELECT id, channel_id, interaction_id, actor_id, pool, owner_id, delta, value_after, reason, "
            "message_id, created_at, undoes, gm_only FROM ledger WHERE channel_id = $1 AND created_at >= $2 "
            "AND created_at <= $3 ORDER BY id LIMIT $4",
            channel_id,
            since,
            until,
            limit,
        )
        return [LedgerRow(**dict(r)) for r in rows]

    async def dice_counts(
        self, since_day: str, user_id: int | None = None, channel_id: int | None = None
    ) -> dict[tuple[str, int], dict[int, int]]:
        """Face counts from ``since_day`` on, per (system, sides): one player's, one
        table's, or (neither given) every die the bot rolled; private rolls only in their
        roller's own (as SQLite's)."""
        rows = await self._pool.fetch(
            "SELECT system, sides, face, sum(count) FROM dice_counts WHERE day >= $1 "
            "AND ($2::bigint IS NULL OR user_id = $2) AND ($3::bigint IS NULL OR channel_id = $3) "
            "AND ($2::bigint IS NOT NULL OR NOT private) "
            "GROUP BY system, sides, face",
            since_day,
            user_id,
            channel_id,
        )
        counts: dict[tuple[str, int], dict[int, int]] = {}
        for system, sides, face, count in rows:
            counts.setdefault((system, sides), {})[face] = int(count)
        return counts
