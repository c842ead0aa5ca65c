"""Character sheets (``/ficha``): rows of ``sheets``, and the pool changes that go with
creating one, in one transaction. Per player per table, one active; the GM's NPCs."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.models import Applied, Change, Operation, Outcome, Refused, SheetRow
from bot.store.database import Row, Transaction
from bot.store.pools import Pools
from bot.store.touched import SHEETS, by_operation


class Sheets(Pools):
    """Sheets need the pools' operation: a new sheet's live pools are set with it."""

    async def create_sheet(
        self, op: Operation, sheet: SheetRow, live: Callable[[int], tuple[Change, ...]]
    ) -> tuple[int, Outcome]:
        """Insert ``sheet`` (active, for a player's) and apply ``live(its id)`` (its pools
        put at the file's values) as one operation, once per interaction, under the
        table's lock like every operation. Refused, with nothing written, when the owner
        already has a sheet of that name at the table."""

        async def create(tx: Transaction) -> tuple[int, Outcome]:
            sheet_id, outcome = await self._create_sheet(tx, op, sheet, live)
            if isinstance(outcome, Applied) and not outcome.replayed:
                await tx.announce(op.channel_id)
            return sheet_id, outcome

        sheet_id, outcome = await self._transact(create, lock=op.channel_id, undoable=True)
        if isinstance(outcome, Applied) and not outcome.replayed:
            # Its live pools set, and its companion record written with it, if any.
            self._changed(op.channel_id, replace(by_operation(op), ledger=True, sheets=True))
        return sheet_id, outcome

    async def _create_sheet(
        self, tx: Transaction, op: Operation, sheet: SheetRow, live: Callable[[int], tuple[Change, ...]]
    ) -> tuple[int, Outcome]:
        first = await tx.fetch_value(
            "SELECT id FROM sheets WHERE interaction_id = :interaction", {"interaction": op.interaction_id}
        )
        # A replay answers as the first did, and makes nothing: not a sheet whose pools its
        # first refused, nor again one deleted since. (A name taken is refused before any
        # outcome is kept: its replay asks again.)
        recorded = await self._recorded(tx, op.interaction_id, op.step)
        if recorded is not None:
            return int(first or 0), recorded
        await self._ensure_table(tx, op.channel_id, op.guild_id)
        sheet_id = await tx.fetch_value(
            "INSERT INTO sheets (channel_id, owner_id, npc, name, folded, system, data, interaction_id, "
            "created_at) VALUES (:channel, :owner, :npc, :name, :folded, :system, :data, :interaction, :now) "
            "ON CONFLICT (channel_id, owner_id, npc, folded) DO NOTHING RETURNING id",
            {
                "channel": op.channel_id,
                "owner": sheet.owner_id,
                "npc": sheet.npc,
                "name": sheet.name,
                "folded": sheet.folded,
                "system": sheet.system,
                "data": json.dumps(sheet.data, ensure_ascii=False),
                "interaction": op.interaction_id,
                "now": self._now(),
            },
        )
        if sheet_id is None:
            return 0, Refused("fichas.exists", "", 0, 0, 0)
        if not sheet.npc:
            await _activate(tx, op.channel_id, sheet.owner_id, sheet_id)
        # Refused, the savepoint taken at the opening takes back the sheet and the owner's
        # switch to it with the pools.
        outcome = await self._apply(tx, replace(op, changes=live(sheet_id)))
        return int(sheet_id), outcome

    async def choose_sheet(self, channel_id: int, owner_id: int, sheet_id: int) -> bool:
        """Make one of the owner's sheets at the table the active one."""

        async def choose(tx: Transaction) -> bool:
            chosen = await _activate(tx, channel_id, owner_id, sheet_id)
            if chosen:
                await tx.announce(channel_id)
            return chosen

        chosen = await self._transact(choose)
        if chosen:
            self._changed(channel_id, SHEETS)
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
            "SELECT * FROM sheets WHERE channel_id = :channel "
            "AND (CAST(:owner AS BIGINT) IS NULL OR owner_id = :owner) "
            "AND (CAST(:npc AS BOOLEAN) IS NULL OR npc = :npc) "
            f"ORDER BY npc, folded COLLATE {self.db.dialect.binary}, id LIMIT :limit",
            {
                "channel": channel_id,
                "owner": owner_id,
                "npc": npc,
                "limit": self.db.dialect.unlimited if limit is None else limit,
            },
        )
        return [sheet_of(r) for r in rows]

    async def named_sheets(self, channel_id: int, folded: str, sheet_id: int | None = None) -> list[SheetRow]:
        """The table's sheets called ``folded`` (one per owner at most), and the one whose
        id is ``sheet_id``: what a typed name or a picked choice may mean, however many
        sheets others keep."""
        rows = await self._fetchall(
            "SELECT * FROM sheets WHERE channel_id = :channel AND (folded = :folded OR id = :id) "
            f"ORDER BY npc, folded COLLATE {self.db.dialect.binary}, id",
            {"channel": channel_id, "folded": folded, "id": sheet_id},
        )
        return [sheet_of(r) for r in rows]

    async def sheet_choices(
        self, channel_id: int, contains: str, owner_id: int | None, npc: bool | None, limit: int
    ) -> list[SheetRow]:
        """The table's first ``limit`` sheets whose folded name contains ``contains``: one
        owner's players' sheets (``owner_id``), only NPCs' or only players' (``npc``)."""
        dialect = self.db.dialect
        rows = await self._fetchall(
            f"SELECT * FROM sheets WHERE channel_id = :channel AND {dialect.contains('folded', 'contains')} "
            "AND (CAST(:owner AS BIGINT) IS NULL OR (owner_id = :owner AND NOT npc)) "
            "AND (CAST(:npc AS BOOLEAN) IS NULL OR npc = :npc) "
            f"ORDER BY npc, folded COLLATE {dialect.binary}, id LIMIT :limit",
            {"channel": channel_id, "contains": contains, "owner": owner_id, "npc": npc, "limit": limit},
        )
        return [sheet_of(r) for r in rows]

    async def sheet(self, channel_id: int, sheet_id: int) -> SheetRow | None:
        """A sheet of this table only: an id from elsewhere finds nothing."""
        row = await self._fetchone(
            "SELECT * FROM sheets WHERE id = :id AND channel_id = :channel",
            {"id": sheet_id, "channel": channel_id},
        )
        return None if row is None else sheet_of(row)

    async def active_sheet(self, channel_id: int, owner_id: int) -> SheetRow | None:
        row = await self._fetchone(
            "SELECT * FROM sheets WHERE channel_id = :channel AND owner_id = :owner AND active AND NOT npc",
            {"channel": channel_id, "owner": owner_id},
        )
        return None if row is None else sheet_of(row)

    async def update_sheet(self, sheet_id: int, version: int, data: dict[str, Any]) -> bool:
        """Write a sheet's new data if nobody changed it since ``version`` was read."""

        async def update(tx: Transaction) -> int | None:
            channel_id = await tx.fetch_value(
                "UPDATE sheets SET data = :data, version = version + 1 WHERE id = :id AND version = :version "
                "RETURNING channel_id",
                {"data": json.dumps(data, ensure_ascii=False), "id": sheet_id, "version": version},
            )
            if channel_id is not None:
                await tx.announce(int(channel_id))
            return None if channel_id is None else int(channel_id)

        channel_id = await self._transact(update)
        if channel_id is not None:
            self._changed(int(channel_id), SHEETS)
        return channel_id is not None

    async def rename_sheet(
        self, sheet_id: int, version: int, data: dict[str, Any], name: str, folded: str
    ) -> str | None:
        """Write a sheet's new data and name (``folded``, its lookup) in one conditional
        UPDATE, if nobody changed it since ``version`` and its owner has no other sheet of
        that name at the table; else the refusal's key. Under the table's lock, as a new
        sheet is, so two renames to one name cannot both pass the check."""

        async def rename(tx: Transaction) -> tuple[int | None, str | None]:
            channel_id = await tx.fetch_value(
                "SELECT channel_id FROM sheets WHERE id = :id", {"id": sheet_id}
            )
            if channel_id is None:
                return None, "fichas.busy"
            await tx.lock(int(channel_id))
            renamed = await tx.fetch_value(
                "UPDATE sheets SET data = :data, name = :name, folded = :folded, version = version + 1 "
                "WHERE id = :id AND version = :version AND NOT EXISTS (SELECT 1 FROM sheets AS o "
                "WHERE o.channel_id = sheets.channel_id AND o.owner_id = sheets.owner_id "
                "AND o.npc = sheets.npc AND o.folded = :folded AND o.id <> sheets.id) RETURNING id",
                {
                    "data": json.dumps(data, ensure_ascii=False),
                    "name": name,
                    "folded": folded,
                    "id": sheet_id,
                    "version": version,
                },
            )
            if renamed is None:
                same = await tx.fetch_value(
                    "SELECT 1 FROM sheets WHERE id = :id AND version = :version",
                    {"id": sheet_id, "version": version},
                )
                return None, "fichas.busy" if same is None else "fichas.exists"
            await tx.announce(int(channel_id))
            return int(channel_id), None

        channel_id, refused = await self._transact(rename)
        if channel_id is not None:
            self._changed(channel_id, SHEETS)
        return refused

    async def delete_sheet(self, channel_id: int, sheet_id: int) -> bool:
        """Forget a sheet; its pools' ledger rows stay, like every ledger row."""

        async def delete(tx: Transaction) -> bool:
            deleted = bool(
                await tx.execute(
                    "DELETE FROM sheets WHERE id = :id AND channel_id = :channel",
                    {"id": sheet_id, "channel": channel_id},
                )
            )
            if deleted:
                await tx.announce(channel_id)
            return deleted

        deleted = await self._transact(delete)
        if deleted:
            self._changed(channel_id, SHEETS)
        return deleted


async def _activate(tx: Transaction, channel_id: int, owner_id: int, sheet_id: int) -> bool:
    await tx.execute(
        "UPDATE sheets SET active = false "
        "WHERE channel_id = :channel AND owner_id = :owner AND NOT npc AND active",
        {"channel": channel_id, "owner": owner_id},
    )
    return bool(
        await tx.execute(
            "UPDATE sheets SET active = true WHERE id = :id AND channel_id = :channel AND owner_id = :owner "
            "AND NOT npc",
            {"id": sheet_id, "channel": channel_id, "owner": owner_id},
        )
    )


def sheet_of(row: Row) -> SheetRow:
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
