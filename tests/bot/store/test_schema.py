"""Migration 8 (issue 30): the schema names no system any more, and Donjon's level leaves
the generic ``tables`` table for the table's settings. A database written before it
upgrades in place, on both backends, keeping every table's level, settings and pools."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from bot.store import Store
from bot.store.schema import MIGRATIONS, POSTGRES_MIGRATIONS, VERSION_TABLE
from cogs.donjon.settings import donjon_settings

BEFORE = 7  # the schema's version before the systems left it
CHANNEL, GUILD = 1001, 9


def sqlite_before(path: Path) -> None:
    """A SQLite file at version 7 with a Donjon table at level 7 and a banked die."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    for statements in MIGRATIONS[:BEFORE]:
        for statement in statements:
            db.execute(statement)
    db.execute(f"PRAGMA user_version = {BEFORE}")
    db.execute(
        "INSERT INTO tables (channel_id, guild_id, system, donjon_level, settings, created_at) "
        "VALUES (?, ?, 'donjon', 7, '{\"roll_odds\": false, \"donjon_sides\": 12}', 'then')",
        (CHANNEL, GUILD),
    )
    db.execute("INSERT INTO pools (channel_id, pool, owner_id, value) VALUES (?, 'dados', 5, 3)", (CHANNEL,))
    db.close()


async def postgres_before(url: str) -> None:
    """The same database on PostgreSQL."""
    db = await asyncpg.connect(url)
    try:
        await db.execute(VERSION_TABLE)
        for statements in POSTGRES_MIGRATIONS[:BEFORE]:
            for statement in statements:
                await db.execute(statement)
        await db.execute("INSERT INTO schema_version (version) VALUES ($1)", BEFORE)
        await db.execute(
            "INSERT INTO tables (channel_id, guild_id, system, donjon_level, settings, created_at) "
            "VALUES ($1, $2, 'donjon', 7, '{\"roll_odds\": false, \"donjon_sides\": 12}', 'then')",
            CHANNEL,
            GUILD,
        )
        await db.execute(
            "INSERT INTO pools (channel_id, pool, owner_id, value) VALUES ($1, 'dados', 5, 3)", CHANNEL
        )
    finally:
        await db.close()


async def check_upgraded(store: Store) -> None:
    table = await store.table(CHANNEL)
    assert table is not None and table.system == "donjon"
    assert donjon_settings(table).donjon_level == 7
    assert (table.settings.roll_odds, donjon_settings(table).donjon_sides) == (False, 12)
    assert await store.pool(CHANNEL, "dados", 5) == 3
    fresh = await store.set_system(CHANNEL + 1, GUILD, "dune")
    assert donjon_settings(fresh).donjon_level == 1


async def test_a_sqlite_file_from_before_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    sqlite_before(path)
    store = await Store.open(path)
    try:
        await check_upgraded(store)
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
        (definition,) = db.execute("SELECT sql FROM sqlite_schema WHERE name = 'tables'").fetchone()
        # The registry says which systems there are: the schema takes any name.
        db.execute("INSERT INTO tables (channel_id, system, created_at) VALUES (5, 'nuevo', 'now')")
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert "donjon_level" not in columns and "system IN" not in definition


async def test_a_postgresql_database_from_before_upgrades_in_place(postgres_url: str) -> None:
    await postgres_before(postgres_url)
    store = await Store.open(postgres_url)
    try:
        await check_upgraded(store)
    finally:
        await store.close()
    db = await asyncpg.connect(postgres_url)
    try:
        columns = {
            row[0]
            for row in await db.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'tables'"
            )
        }
        await db.execute("INSERT INTO tables (channel_id, system, created_at) VALUES (5, 'nuevo', 'now')")
    finally:
        await db.close()
    assert "donjon_level" not in columns


async def test_a_new_database_keeps_the_level_in_the_settings(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "new.db")
    try:
        table = await store.set_system(CHANNEL, GUILD, "donjon")
        raised = await store.set_settings(
            CHANNEL, GUILD, table.settings.model_copy(update={"donjon_level": 4})
        )
        assert donjon_settings(raised).donjon_level == 4
        assert (await store.table(CHANNEL)) == raised
    finally:
        await store.close()
