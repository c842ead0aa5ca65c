"""The store's public interface: what the bot (cogs, boards, readers) may ask of it.

A protocol, so the type checker holds every implementation to it (``bot.store.sql.SqlStore``
is the one there is) and callers type against it alone; a leaf module, importing nothing
of the store but its foundation types (the rest under ``TYPE_CHECKING``).
``Store.open`` opens the implementation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bot.models import (
    Change,
    LedgerRow,
    Operation,
    Outcome,
    PoolValue,
    Record,
    SavedRoll,
    SheetRow,
    Table,
    TableSettings,
)
from bot.store.connection import Clock, Sleep, utc_now
from bot.store.touched import Touched

if TYPE_CHECKING:
    from bot.store.context import TableContext
    from bot.store.database import Statements
    from bot.store.retention import Pruned, Retention


class Store(Protocol):
    """The table's memory. Open with :meth:`open`, close with :meth:`close`."""

    # Called with a table's channel id and what changed there (``bot.store.touched``)
    # after each change to its state, whoever made it.
    listeners: list[Callable[[int, Touched], None]]
    # Called with the seconds each read or transaction took (/metrics).
    timers: list[Callable[[float], None]]
    # The SQL statements its database ran, counted by the adapter (/metrics).
    statements: Statements
    # Where the database is: a file's path or a PostgreSQL URL.
    path: str | None

    @classmethod
    async def open(cls, path: Path | str, clock: Clock = utc_now) -> Store:
        """The store ``path`` names (a ``postgresql://`` URL or an SQLite file), migrated."""
        from bot.store.sql import SqlStore

        return await SqlStore.open(path, clock)

    # -- the schema and the bot's own settings -------------------------------

    async def schema_version(self) -> int: ...

    async def migrate(self) -> None: ...

    async def get_meta(self, key: str) -> str | None: ...

    async def meta_with_prefix(self, prefix: str) -> dict[str, str]: ...

    async def delete_meta(self, key: str) -> None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    # -- tables --------------------------------------------------------------

    async def table(self, channel_id: int) -> Table | None: ...

    async def table_or_default(self, channel_id: int, guild_id: int | None) -> Table: ...

    async def set_system(self, channel_id: int, guild_id: int | None, system: str) -> Table: ...

    async def set_gm(self, channel_id: int, guild_id: int | None, gm_id: int) -> Table: ...

    async def set_gm_channel(
        self, channel_id: int, guild_id: int | None, gm_channel_id: int | None
    ) -> Table: ...

    async def tables_served(self, gm_channel_id: int) -> list[Table]: ...

    async def set_settings(self, channel_id: int, guild_id: int | None, settings: TableSettings) -> Table: ...

    async def players(
        self, channel_id: int, limit: int = 50, not_players: Collection[str] = ()
    ) -> list[int]: ...

    # -- pools, operations and the ledger ------------------------------------

    async def pools(self, channel_id: int) -> list[PoolValue]: ...

    async def pool(self, channel_id: int, pool: str, owner_id: int = 0) -> int: ...

    async def apply(self, op: Operation) -> Outcome: ...

    async def ledger(
        self,
        channel_id: int,
        limit: int = 20,
        before_id: int | None = None,
        pool: str | None = None,
        owner_id: int | None = None,
    ) -> list[LedgerRow]: ...

    async def ledger_pools(self, channel_id: int) -> list[str]: ...

    async def ledger_sums(self, channel_id: int) -> dict[tuple[str, int], int]: ...

    # -- records and reveals -------------------------------------------------

    async def save_record(
        self, channel_id: int, interaction_id: int, user_id: int, kind: str, data: dict[str, Any]
    ) -> int: ...

    async def record(self, record_id: int) -> Record | None: ...

    async def records(self, channel_id: int, kind: str, limit: int = 500) -> list[Record]: ...

    async def latest_records(
        self, channel_id: int, kind: str, user_id: int | None = None
    ) -> dict[int, Record]: ...

    async def linked_records(
        self, channel_id: int, kind: str, field: str, ids: Sequence[int]
    ) -> list[Record]: ...

    async def claim_reveal(self, message_id: int, roll_id: int, actor_id: int) -> bool: ...

    async def release_reveal(self, message_id: int) -> None: ...

    async def set_record_message(
        self,
        record_id: int,
        message_id: int,
        *,
        secret: bool = False,
        system: str = "",
        dice: tuple[tuple[int, int], ...] = (),
    ) -> Record | None: ...

    # -- retention -----------------------------------------------------------

    async def prune(self, retention: Retention) -> Pruned: ...

    async def forgotten_until(self, channel_id: int) -> str | None: ...

    # -- saved rolls ---------------------------------------------------------

    async def save_named_roll(self, roll: SavedRoll, limit: int) -> str: ...

    async def named_rolls(
        self, user_id: int, channel_id: int | None, prefix: str = ""
    ) -> list[SavedRoll]: ...

    async def latest_roll(self, channel_id: int, user_id: int, kinds: Sequence[str]) -> Record | None: ...

    async def delete_named_roll(self, saved_id: int) -> bool: ...

    # -- the chronicle -------------------------------------------------------

    async def mark_scene_end(self, channel_id: int) -> None: ...

    async def scene_end(self, channel_id: int) -> str | None: ...

    async def session_rolls(
        self, channel_id: int, since: str, until: str, limit: int
    ) -> list[tuple[str, Record]]: ...

    async def session_ledger(
        self, channel_id: int, since: str, until: str, limit: int
    ) -> list[LedgerRow]: ...

    # -- dice statistics -----------------------------------------------------

    async def dice_counts(
        self, since_day: str, user_id: int | None = None, channel_id: int | None = None
    ) -> dict[tuple[str, int], dict[int, int]]: ...

    # -- character sheets ----------------------------------------------------

    async def create_sheet(
        self, op: Operation, sheet: SheetRow, live: Callable[[int], tuple[Change, ...]]
    ) -> tuple[int, Outcome]: ...

    async def choose_sheet(self, channel_id: int, owner_id: int, sheet_id: int) -> bool: ...

    async def sheets(
        self,
        channel_id: int,
        owner_id: int | None = None,
        limit: int | None = 100,
        *,
        npc: bool | None = None,
    ) -> list[SheetRow]: ...

    async def named_sheets(
        self, channel_id: int, folded: str, sheet_id: int | None = None
    ) -> list[SheetRow]: ...

    async def sheet_choices(
        self, channel_id: int, contains: str, owner_id: int | None, npc: bool | None, limit: int
    ) -> list[SheetRow]: ...

    async def sheet(self, channel_id: int, sheet_id: int) -> SheetRow | None: ...

    async def active_sheet(self, channel_id: int, owner_id: int) -> SheetRow | None: ...

    async def update_sheet(self, sheet_id: int, version: int, data: dict[str, Any]) -> bool: ...

    async def rename_sheet(
        self, sheet_id: int, version: int, data: dict[str, Any], name: str, folded: str
    ) -> str | None: ...

    async def delete_sheet(self, channel_id: int, sheet_id: int) -> bool: ...

    # -- one interaction's reads ---------------------------------------------

    async def context(
        self, channel_id: int, guild_id: int | None, record_id: int | None = None
    ) -> TableContext: ...

    # -- the connection ------------------------------------------------------

    async def follow_others(self, missed: Callable[[], None], sleep: Sleep = asyncio.sleep) -> None: ...

    async def close(self) -> None: ...
