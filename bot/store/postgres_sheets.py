"""Character sheets (``/ficha``) on PostgreSQL: the twin of ``bot.store.sheets`` (same
interface and answers). A sheet and the pools it brings are one transaction, under the
table's advisory lock like every operation."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import asyncpg

from bot.models import Applied, Change, Operation, Outcome, Refused, SheetRow
from bot.store.sheets import sheet_of

if TYPE_CHECKING:
    from bot.store.postgres import Db


class PostgresSheets:
    """Sheets on the store's pool; ``create_sheet`` reuses the store's operation."""

    _pool: asyncpg.Pool

    if TYPE_CHECKING:

        def _now(self) -> str: ...

        def _changed(self, channel_id: int) -> None: ...

        async def _announce(self, db: Db, channel_id: int) -> None: ...

        async def _apply_in(self, db: Db, op: Operation) -> Outcome: ...

        async def _outcome_of(self, db: Db, interaction_id: int, step: int) -> Outcome | None: ...

        async def _add_table(self, db: Db, channel_id: int, guild_id: int | None) -> None: ...

    async def create_sheet(
        self, op: Operation, sheet: SheetRow, live: Callable[[int], tuple[Change, ...]]
    ) -> tuple[int, Outcome]:
        """Insert ``sheet`` (active, for a player's) and apply ``live(its id)`` as one
        operation, once per interaction; refused, with nothing written, when the owner
        already has a sheet of that name at the table."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", op.channel_id)
            first = await db.fetchval("SELECT id FROM sheets WHERE interaction_id = $1", op.interaction_id)
            recorded = await self._outcome_of(db, op.interaction_id, op.step)
            if first is not None and recorded is not None:
                return int(first), recorded
            await self._add_table(db, op.channel_id, op.guild_id)
            sheet_id = await db.fetchval(
                "INSERT INTO sheets (channel_id, owner_id, npc, name, folded, system, data, "
                "interaction_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                "ON CONFLICT (channel_id, owner_id, npc, folded) DO NOTHING RETURNING id",
                op.channel_id,
                sheet.owner_id,
                sheet.npc,
                sheet.name,
                sheet.folded,
                sheet.system,
                json.dumps(sheet.data, ensure_ascii=False),
                op.interaction_id,
                self._now(),
            )
            if sheet_id is None:
                return 0, Refused("fichas.exists", "", 0, 0, 0)
            if not sheet.npc:
                await _activate(db, op.channel_id, sheet.owner_id, sheet_id)
            outcome = await self._apply_in(db, replace(op, changes=live(sheet_id)))
            if isinstance(outcome, Refused):
                await db.execute("DELETE FROM sheets WHERE id = $1", sheet_id)
            elif not outcome.replayed:
                await self._announce(db, op.channel_id)
        if isinstance(outcome, Applied) and not outcome.replayed:
            self._changed(op.channel_id)
        return int(sheet_id), outcome

    async def choose_sheet(self, channel_id: int, owner_id: int, sheet_id: int) -> bool:
        """Make one of the owner's sheets at the table the active one."""
        async with self._pool.acquire() as db, db.transaction():
            chosen = await _activate(db, channel_id, owner_id, sheet_id)
            if chosen:
                await self._announce(db, channel_id)
        if chosen:
            self._changed(channel_id)
        return chosen

    async def sheets(
        self,
        channel_id: int,
        owner_id: int | None = None,
        limit: int | None = 100,
        *,
        npc: bool | None = None,
    ) -> list[SheetRow]:
        """The table's sheets (one owner's, only NPCs' or only players' when given), by
        name; every one with ``limit`` None."""
        rows = await self._pool.fetch(
            "SELECT * FROM sheets WHERE channel_id = $1 AND ($2::bigint IS NULL OR owner_id = $2) "
            'AND ($3::boolean IS NULL OR npc = $3) ORDER BY npc, folded COLLATE "C", id LIMIT $4',
            channel_id,
            owner_id,
            npc,
            limit,
        )
        return [sheet_of(r) for r in rows]

    async def named_sheets(self, channel_id: int, folded: str, sheet_id: int | None = None) -> list[SheetRow]:
        """The table's sheets called ``folded`` (one per owner at most), and the one whose
        id is ``sheet_id``: what a typed name or a picked choice may mean, however many
        sheets others keep."""
        rows = await self._pool.fetch(
            "SELECT * FROM sheets WHERE channel_id = $1 AND (folded = $2 OR id = $3) "
            'ORDER BY npc, folded COLLATE "C", id',
            channel_id,
            folded,
            sheet_id,
        )
        return [sheet_of(r) for r in rows]

    async def sheet_choices(
        self, channel_id: int, contains: str, owner_id: int | None, npc: bool | None, limit: int
    ) -> list[SheetRow]:
        """The table's first ``limit`` sheets whose folded name contains ``contains``: one
        owner's players' sheets (``owner_id``), only NPCs' or only players' (``npc``)."""
        rows = await self._pool.fetch(
            "SELECT * FROM sheets WHERE channel_id = $1 AND strpos(folded, $2) > 0 "
            "AND ($3::bigint IS NULL OR (owner_id = $3 AND NOT npc)) AND ($4::boolean IS NULL OR npc = $4) "
            'ORDER BY npc, folded COLLATE "C", id LIMIT $5',
            channel_id,
            contains,
            owner_id,
            npc,
            limit,
        )
        return [sheet_of(r) for r in rows]

    async def sheet(self, channel_id: int, sheet_id: int) -> SheetRow | None:
        """A sheet of this table only: an id from elsewhere finds nothing."""
        row = await self._pool.fetchrow(
            "SELECT * FROM sheets WHERE id = $1 AND channel_id = $2", sheet_id, channel_id
        )
        return None if row is None else sheet_of(row)

    async def active_sheet(self, channel_id: int, owner_id: int) -> SheetRow | None:
        row = await self._pool.fetchrow(
            "SELECT * FROM sheets WHERE channel_id = $1 AND owner_id = $2 AND active AND NOT npc",
            channel_id,
            owner_id,
        )
        return None if row is None else sheet_of(row)

    async def update_sheet(self, sheet_id: int, version: int, data: dict[str, Any]) -> bool:
        """Write a sheet's new data if nobody changed it since ``version`` was read."""
        async with self._pool.acquire() as db, db.transaction():
            channel_id = await db.fetchval(
                "UPDATE sheets SET data = $1, version = version + 1 WHERE id = $2 AND version = $3 "
                "RETURNING channel_id",
                json.dumps(data, ensure_ascii=False),
                sheet_id,
                version,
            )
            if channel_id is not None:
                await self._announce(db, int(channel_id))
        if channel_id is not None:
            self._changed(int(channel_id))
        return channel_id is not None

    async def rename_sheet(
        self, sheet_id: int, version: int, data: dict[str, Any], name: str, folded: str
    ) -> str | None:
        """Write a sheet's new data and name (``folded``, its lookup) in one conditional
        UPDATE, if nobody changed it since ``version`` and its owner has no other sheet of
        that name at the table; else the refusal's key. Under the table's lock, as a new
        sheet is, so two renames to one name cannot both pass the check."""
        async with self._pool.acquire() as db, db.transaction():
            channel_id = await db.fetchval("SELECT channel_id FROM sheets WHERE id = $1", sheet_id)
            if channel_id is None:
                return "fichas.busy"
            await db.execute("SELECT pg_advisory_xact_lock($1)", channel_id)
            renamed = await db.fetchval(
                "UPDATE sheets SET data = $1, name = $2, folded = $3, version = version + 1 "
                "WHERE id = $4 AND version = $5 AND NOT EXISTS (SELECT 1 FROM sheets AS o "
                "WHERE o.channel_id = sheets.channel_id AND o.owner_id = sheets.owner_id "
                "AND o.npc = sheets.npc AND o.folded = $3 AND o.id <> sheets.id) RETURNING id",
                json.dumps(data, ensure_ascii=False),
                name,
                folded,
                sheet_id,
                version,
            )
            if renamed is None:
                same = await db.fetchval(
                    "SELECT 1 FROM sheets WHERE id = $1 AND version = $2", sheet_id, version
                )
                return "fichas.busy" if same is None else "fichas.exists"
            await self._announce(db, int(channel_id))
        self._changed(int(channel_id))
        return None

    async def delete_sheet(self, channel_id: int, sheet_id: int) -> bool:
        """Forget a sheet; its pools' ledger rows stay, like every ledger row."""
        async with self._pool.acquire() as db, db.transaction():
            status = await db.execute(
                "DELETE FROM sheets WHERE id = $1 AND channel_id = $2", sheet_id, channel_id
            )
            deleted = status != "DELETE 0"
            if deleted:
                await self._announce(db, channel_id)
        if deleted:
            self._changed(channel_id)
        return deleted


async def _activate(db: Db, channel_id: int, owner_id: int, sheet_id: int) -> bool:
    await db.execute(
        "UPDATE sheets SET active = false WHERE channel_id = $1 AND owner_id = $2 AND NOT npc AND active",
        channel_id,
        owner_id,
    )
    status = await db.execute(
        "UPDATE sheets SET active = true WHERE id = $1 AND channel_id = $2 AND owner_id = $3 AND NOT npc",
        sheet_id,
        channel_id,
        owner_id,
    )
    return bool(status != "UPDATE 0")
