"""Copying an SQLite database into an empty PostgreSQL one (``python -m bot.migrate``).

Every table the SQLite file has (tables, pools, the ledger, operations, rolls, reveals,
meta, and whatever later migrations add) is copied row for row, ids included, inside one
PostgreSQL transaction that commits only when the checks pass: the same number of rows in
every table on both sides, and the same ledger sum for every table's pool on both sides.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import Store

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
    Both are opened as the bot opens them first, so both are at the latest schema version."""
    await (await Store.open(source)).close()
    await (await Store.open(target)).close()
    snapshot = _read(source)
    connection = await asyncpg.connect(target)
    try:
        async with connection.transaction():
            for name in snapshot.rows:
                if await connection.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{name}")'):
                    raise NotEmpty(name)
            for name, rows in snapshot.rows.items():
                await _copy_table(connection, name, snapshot.columns[name], rows)
            return await _check(connection, snapshot)
    finally:
        await connection.close()


def _read(source: Path) -> Snapshot:
    tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db:
        names = [str(r[0]) for r in db.execute(tables)]
        return Snapshot(
            columns={n: [str(c[1]) for c in db.execute(f'PRAGMA table_info("{n}")')] for n in names},
            rows={n: [tuple(r) for r in db.execute(f'SELECT * FROM "{n}"')] for n in names},
            sums=_sums(db.execute(LEDGER_SUMS).fetchall()),
        )


async def _copy_table(
    db: asyncpg.Connection, name: str, columns: list[str], rows: list[tuple[Any, ...]]
) -> None:
    """COPY the rows in, SQLite's 0/1 turned into booleans where PostgreSQL has them, then
    move the table's identity past the ids copied."""
    types = {
        str(r[0]): str(r[1])
        for r in await db.fetch(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1", name
        )
    }
    for row in rows:
        for column, value in zip(columns, row, strict=True):
            if holds_nul(value, types.get(column) == "jsonb"):
                raise Unstorable(name, row_name(columns, row), column)
    booleans = [i for i, c in enumerate(columns) if types.get(c) == "boolean"]
    records = [
        tuple(bool(v) if i in booleans and v is not None else v for i, v in enumerate(r)) for r in rows
    ]
    if records:
        await db.copy_records_to_table(name, records=records, columns=columns)
    for (column,) in await db.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND is_identity = 'YES'",
        name,
    ):
        await db.execute(
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


async def _check(db: asyncpg.Connection, snapshot: Snapshot) -> Copied:
    """Row counts and ledger sums, compared inside the copy's transaction."""
    copied = Copied()
    for name, source_rows in snapshot.rows.items():
        count = int(await db.fetchval(f'SELECT count(*) FROM "{name}"'))
        if count != len(source_rows):
            raise Mismatch(f"{name}: {len(source_rows)} rows in SQLite, {count} in PostgreSQL")
        copied.rows[name] = count
    if _sums(await db.fetch(LEDGER_SUMS)) != snapshot.sums:
        raise Mismatch("the ledger sums differ")
    copied.sums = len(snapshot.sums)
    return copied


def _sums(rows: Iterable[sqlite3.Row | asyncpg.Record | tuple[Any, ...]]) -> dict[tuple[int, str, int], int]:
    return {(int(r[0]), str(r[1]), int(r[2])): int(r[3]) for r in rows}
