"""Copying an SQLite database into an empty PostgreSQL one (``python -m bot.migrate``).

Every table the SQLite file has (tables, pools, the ledger, operations, rolls, reveals,
meta, and whatever later migrations add) is copied row for row, ids included, through the
store's database interface (``bot.store.database``), inside one PostgreSQL transaction
that commits only when the checks pass: the same number of rows in every table on both
sides, and the same ledger sum for every table's pool on both sides.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store import SqlStore
from bot.store.database import Database, Row, Transaction

# Each table's pools' ledger sums: the same text on both sides.
LEDGER_SUMS = "SELECT channel_id, pool, owner_id, sum(delta) FROM ledger GROUP BY channel_id, pool, owner_id"


class NotEmpty(Exception):
    """The target database already holds rows: copying would mix two histories."""

    def __init__(self, table: str) -> None:
        super().__init__(table)
        self.table = table


class Mismatch(Exception):
    """After the copy, the two sides differ (nothing was committed)."""


class Unstorable(Exception):
    """A row holds a NUL, which SQLite keeps and PostgreSQL's text and jsonb refuse (a file
    from before NULs were refused in what players type): which row, so it can be mended."""

    def __init__(self, table: str, row: str, column: str) -> None:
        super().__init__(table, row, column)
        self.table, self.row, self.column = table, row, column


@dataclass
class Copied:
    """What was copied: rows per table, and the ledger sums compared on both sides."""

    rows: dict[str, int] = field(default_factory=dict)
    sums: int = 0


@dataclass
class Snapshot:
    """Everything in the SQLite file: each table's columns and rows, in creation order."""

    columns: dict[str, list[str]]
    rows: dict[str, list[tuple[Any, ...]]]
    sums: dict[tuple[int, str, int], int]


async def copy(source: Path, target: str) -> Copied:
    """Copy ``source`` (an SQLite file) into ``target`` (a PostgreSQL URL); see the module.
    Both are opened as the bot opens them (the store's own adapters, the same interface the
    bot writes through), so both are at the latest schema version."""
    reader = await SqlStore.open(source)
    try:
        writer = await SqlStore.open(target)
        try:
            return await _copy(reader.db, writer.db)
        finally:
            await writer.close()
    finally:
        await reader.close()


async def _copy(source: Database, target: Database) -> Copied:
    snapshot = await _read(source)

    async def write(tx: Transaction) -> Copied:
        for name in snapshot.rows:
            if await tx.fetch_value(f'SELECT EXISTS (SELECT 1 FROM "{name}")'):
                raise NotEmpty(name)
        for name, rows in snapshot.rows.items():
            await _copy_table(tx, name, snapshot.columns[name], rows)
        return await _check(tx, snapshot)

    return await target.transact(write)


async def _read(db: Database) -> Snapshot:
    """Every table of the SQLite file in creation order (referenced tables first)."""
    names = [
        str(r[0])
        for r in await db.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
    ]
    columns = {n: [str(c[1]) for c in await db.fetch_all(f'PRAGMA table_info("{n}")')] for n in names}
    rows = {n: [tuple(r) for r in await db.fetch_all(f'SELECT * FROM "{n}"')] for n in names}
    return Snapshot(columns, rows, _sums(await db.fetch_all(LEDGER_SUMS)))


async def _copy_table(tx: Transaction, name: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert the rows, SQLite's 0/1 turned into booleans where PostgreSQL has them, then
    move the table's identity past the ids copied."""
    types = {
        str(r[0]): str(r[1])
        for r in await tx.fetch_all(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = :name",
            {"name": name},
        )
    }
    for row in rows:
        for column, value in zip(columns, row, strict=True):
            if holds_nul(value, types.get(column) == "jsonb"):
                raise Unstorable(name, row_name(columns, row), column)
    booleans = {c for c in columns if types.get(c) == "boolean"}
    await tx.execute_many(
        f'INSERT INTO "{name}" ({", ".join(f"{chr(34)}{c}{chr(34)}" for c in columns)}) '
        f"VALUES ({', '.join(f':c{i}' for i in range(len(columns)))})",
        [
            {
                f"c{i}": bool(v) if c in booleans and v is not None else v
                for i, (c, v) in enumerate(zip(columns, r, strict=True))
            }
            for r in rows
        ],
    )
    for (column,) in await tx.fetch_all(
        "SELECT column_name FROM information_schema.columns WHERE table_name = :name AND is_identity = 'YES'",
        {"name": name},
    ):
        await tx.execute(
            f"SELECT setval(pg_get_serial_sequence('{name}', '{column}'), "
            f'coalesce((SELECT max("{column}") FROM "{name}"), 0) + 1, false)'
        )


def holds_nul(value: Any, jsonb: bool) -> bool:
    """Whether ``value`` holds a NUL, counting JSON's ``\\u0000`` escape in a jsonb column."""
    if not isinstance(value, str):
        return False
    if "\x00" in value:
        return True
    return jsonb and "\\u0000" in value and _nul_in(json.loads(value))


def _nul_in(data: Any) -> bool:
    if isinstance(data, str):
        return "\x00" in data
    if isinstance(data, dict):
        return any(_nul_in(k) or _nul_in(v) for k, v in data.items())
    return isinstance(data, list) and any(_nul_in(v) for v in data)


def row_name(columns: list[str], row: tuple[Any, ...]) -> str:
    """A row as a person finds it again: ``id 12``, or its first columns' values."""
    values = dict(zip(columns, row, strict=True))
    if "id" in values:
        return f"id {values['id']}"
    return ", ".join(f"{c} {str(v).replace(chr(0), '')[:40]}" for c, v in list(values.items())[:3])


async def _check(tx: Transaction, snapshot: Snapshot) -> Copied:
    """Row counts and ledger sums, compared inside the copy's transaction."""
    copied = Copied()
    for name, source_rows in snapshot.rows.items():
        count = int(await tx.fetch_value(f'SELECT count(*) FROM "{name}"'))
        if count != len(source_rows):
            raise Mismatch(f"{name}: {len(source_rows)} rows in SQLite, {count} in PostgreSQL")
        copied.rows[name] = count
    if _sums(await tx.fetch_all(LEDGER_SUMS)) != snapshot.sums:
        raise Mismatch("the ledger sums differ")
    copied.sums = len(snapshot.sums)
    return copied


def _sums(rows: Iterable[Row]) -> dict[tuple[int, str, int], int]:
    return {(int(r[0]), str(r[1]), int(r[2])): int(r[3]) for r in rows}
