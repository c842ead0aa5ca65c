"""Character sheets (``/ficha``): rows of ``sheets``, and the pool changes that go with
creating one, in one transaction. Per player per table, one active; the GM's NPCs."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import asyncpg

from bot.models import Applied, Change, Operation, Outcome, Refused, SheetRow
from bot.store.pools import Pools


class Sheets(Pools):
    """Sheets need the pools' operation: a new sheet's live pools are set with it."""

    async def create_sheet(
        self, op: Operation, sheet: SheetRow, live: Callable[[int], tuple[Change, ...]]
    ) -> tuple[int, Outcome]:
        """Insert ``sheet`` (active, for a player's) and apply ``live(its id)`` (its pools
        put at the file's values) as one operation, once per interaction. Refused, with
        nothing written, when the owner already has a sheet of that name at the table."""

        def create(db: sqlite3.Connection) -> tuple[int, Outcome]:
            first = db.execute(
                "SELECT id FROM sheets WHERE interaction_id = ?", (op.interaction_id,)
            ).fetchone()
            recorded = self._recorded(db, op.interaction_id, op.step)
            if first is not None and recorded is not None:
                return int(first[0]), recorded
            self._ensure_table(db, op.channel_id, op.guild_id)
            row = db.execute(
                "INSERT INTO sheets (channel_id, owner_id, npc, name, folded, system, data, "
                "interaction_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (channel_id, owner_id, npc, folded) DO NOTHING RETURNING id",
                (
                    op.channel_id,
                    sheet.owner_id,
                    sheet.npc,
                    sheet.name,
                    sheet.folded,
                    sheet.system,
                    json.dumps(sheet.data, ensure_ascii=False),
                    op.interaction_id,
                    self._now(),
                ),
            ).fetchone()
            if row is None:
                return 0, Refused("fichas.exists", "", 0, 0, 0)
            sheet_id = int(row[0])
            if not sheet.npc:
                self._activate(db, op.channel_id, sheet.owner_id, sheet_id)
            outcome = self._apply(db, replace(op, changes=live(sheet_id)))
            if isinstance(outcome, Refused):
                db.execute("DELETE FROM sheets WHERE id = ?", (sheet_id,))
            return sheet_id, outcome

        sheet_id, outcome = await self._write(create)
        if isinstance(outcome, Applied) and not outcome.replayed:
            self._changed(op.channel_id)
        return sheet_id, outcome

    def _activate(self, db: sqlite3.Connection, channel_id: int, owner_id: int, sheet_id: int) -> int:
        db.execute(
            "UPDATE sheets SET active = 0 WHERE channel_id = ? AND owner_id = ? AND NOT npc AND active",
            (channel_id, owner_id),
        )
        return db.execute(
            "UPDATE sheets SET active = 1 WHERE id = ? AND channel_id = ? AND owner_id = ? AND NOT npc",
            (sheet_id, channel_id, owner_id),
        ).rowcount

    async def choose_sheet(self, channel_id: int, owner_id: int, sheet_id: int) -> bool:
        """Make one of the owner's sheets at the table the active one."""
        chosen = bool(await self._write(self._activate, channel_id, owner_id, sheet_id))
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
        rows = await self._fetchall(
            "SELECT * FROM sheets WHERE channel_id = :channel AND (:owner IS NULL OR owner_id = :owner) "
            "AND (:npc IS NULL OR npc = :npc) ORDER BY npc, folded, id LIMIT coalesce(:limit, -1)",
            {"channel": channel_id, "owner": owner_id, "npc": npc, "limit": limit},
        )
        return [sheet_of(r) for r in rows]

    async def named_sheets(self, channel_id: int, folded: str, sheet_id: int | None = None) -> list[SheetRow]:
        """The table's sheets called ``folded`` (one per owner at most), and the one whose
        id is ``sheet_id``: what a typed name or a picked choice may mean, however many
        sheets others keep."""
        rows = await self._fetchall(
            "SELECT * FROM sheets WHERE channel_id = ? AND (folded = ? OR id = ?) ORDER BY npc, folded, id",
            (channel_id, folded, sheet_id),
        )
        return [sheet_of(r) for r in rows]

    async def sheet_choices(
        self, channel_id: int, contains: str, owner_id: int | None, npc: bool | None, limit: int
    ) -> list[SheetRow]:
        """The table's first ``limit`` sheets whose folded name contains ``contains``: one
        owner's players' sheets (``owner_id``), only NPCs' or only players' (``npc``)."""
        rows = await self._fetchall(
            "SELECT * FROM sheets WHERE channel_id = :channel AND instr(folded, :contains) > 0 "
            "AND (:owner IS NULL OR (owner_id = :owner AND NOT npc)) AND (:npc IS NULL OR npc = :npc) "
            "ORDER BY npc, folded, id LIMIT :limit",
            {"channel": channel_id, "contains": contains, "owner": owner_id, "npc": npc, "limit": limit},
        )
        return [sheet_of(r) for r in rows]

    async def sheet(self, channel_id: int, sheet_id: int) -> SheetRow | None:
        """A sheet of this table only: an id from elsewhere finds nothing."""
        row = await self._fetchone(
            "SELECT * FROM sheets WHERE id = ? AND channel_id = ?", (sheet_id, channel_id)
        )
        return None if row is None else sheet_of(row)

    async def active_sheet(self, channel_id: int, owner_id: int) -> SheetRow | None:
        row = await self._fetchone(
            "SELECT * FROM sheets WHERE channel_id = ? AND owner_id = ? AND active AND NOT npc",
            (channel_id, owner_id),
        )
        return None if row is None else sheet_of(row)

    async def update_sheet(self, sheet_id: int, version: int, data: dict[str, Any]) -> bool:
        """Write a sheet's new data if nobody changed it since ``version`` was read."""

        def update(db: sqlite3.Connection) -> sqlite3.Row | None:
            return db.execute(
                "UPDATE sheets SET data = ?, version = version + 1 WHERE id = ? AND version = ? "
                "RETURNING channel_id",
                (json.dumps(data, ensure_ascii=False), sheet_id, version),
            ).fetchone()

        row = await self._write(update)
        if row is not None:
            self._changed(int(row[0]))
        return row is not None

    async def rename_sheet(
        self, sheet_id: int, version: int, data: dict[str, Any], name: str, folded: str
    ) -> str | None:
        """Write a sheet's new data and name (``folded``, its lookup) in one conditional
        UPDATE, if nobody changed it since ``version`` and its owner has no other sheet of
        that name at the table; else the refusal's key."""

        def rename(db: sqlite3.Connection) -> tuple[int | None, str | None]:
            row = db.execute(
                "UPDATE sheets SET data = :data, name = :name, folded = :folded, version = version + 1 "
                "WHERE id = :id AND version = :version AND NOT EXISTS (SELECT 1 FROM sheets AS o "
                "WHERE o.channel_id = sheets.channel_id AND o.owner_id = sheets.owner_id "
                "AND o.npc = sheets.npc AND o.folded = :folded AND o.id <> sheets.id) RETURNING channel_id",
                {
                    "data": json.dumps(data, ensure_ascii=False),
                    "name": name,
                    "folded": folded,
                    "id": sheet_id,
                    "version": version,
                },
            ).fetchone()
            if row is not None:
                return int(row[0]), None
            same = db.execute("SELECT 1 FROM sheets WHERE id = ? AND version = ?", (sheet_id, version))
            return None, "fichas.busy" if same.fetchone() is None else "fichas.exists"

        channel_id, refused = await self._write(rename)
        if channel_id is not None:
            self._changed(channel_id)
        return refused

    async def delete_sheet(self, channel_id: int, sheet_id: int) -> bool:
        """Forget a sheet; its pools' ledger rows stay, like every ledger row."""

        def delete(db: sqlite3.Connection) -> bool:
            deleted = db.execute("DELETE FROM sheets WHERE id = ? AND channel_id = ?", (sheet_id, channel_id))
            return bool(deleted.rowcount)

        deleted = await self._write(delete)
        if deleted:
            self._changed(channel_id)
        return deleted


def sheet_of(row: sqlite3.Row | asyncpg.Record) -> SheetRow:
    """A sheet from its row, on either backend (both read columns by name)."""
    return SheetRow(
        id=row["id"],
        channel_id=row["channel_id"],
        owner_id=row["owner_id"],
        npc=bool(row["npc"]),
        name=row["name"],
        folded=row["folded"],
        system=row["system"],
        data=json.loads(row["data"]),
        active=bool(row["active"]),
        version=row["version"],
    )
