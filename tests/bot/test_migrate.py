"""``python -m bot.migrate``: an SQLite file's books copied whole into PostgreSQL. The copy
and its refusal of a full target run the real command; the other refusals run its same
``main`` in this process (a process start is half a second of CPU)."""

import ast
import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.lockfile import hold
from bot.migrate import main
from bot.models import Change, NewRecord, Operation, SheetRow, Undo
from bot.store import Store
from bot.store.copy import copy
from tests.support.postgres import Server

ROOT = Path(__file__).resolve().parents[2]


async def migrate(*args: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.migrate",
        *args,
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def migrate_here(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command's ``main`` in this process, in a thread: it runs its own event loop
    (``asyncio.run``), which cannot start inside the test's."""
    status = await asyncio.to_thread(main, list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


async def books(path: Path) -> Path:
    """An SQLite file with a bit of everything: two tables, pools, an undo, rolls, a reveal."""
    store = await Store.open(path)
    for channel in (1, 2):
        await store.apply(Operation(channel, 10 + channel, 7, "test", (Change("impulso", 5, cap=6),)))
        await store.apply(Operation(channel, 20 + channel, 8, "test", (Change("amenaza", 3, owner_id=8),)))
        await store.apply(
            Operation(
                channel,
                30 + channel,
                8,
                "test",
                (Change("impulso", -2),),
                new_record=NewRecord(8, "dune", {}),
            )
        )
        await store.apply(Operation(channel, 40 + channel, 7, "test", undo=Undo()))
    roll = await store.save_record(1, 99, 7, "tirar", {"expresion": "1d20", "task_id": 3})
    await store.claim_reveal(555, roll, 7)
    await store.set_meta("commands_hash", "abc")
    await store.close()
    return path


async def test_everything_is_copied_and_the_books_read_the_same(tmp_path: Path, postgres_url: str) -> None:
    source = await books(tmp_path / "tirada.db")
    copied = await copy(source, postgres_url)
    assert copied.rows["ledger"] == 8 and copied.rows["records"] == 3 and copied.rows["reveals"] == 1
    before, after = await Store.open(source), await Store.open(postgres_url)
    try:
        for channel in (1, 2):
            assert await after.pools(channel) == await before.pools(channel)
            assert await after.ledger(channel) == await before.ledger(channel)
            assert await after.ledger_sums(channel) == await before.ledger_sums(channel)
            assert await after.table(channel) == await before.table(channel)
        assert await after.records(1, "tirar") == await before.records(1, "tirar")
        assert not await after.claim_reveal(555, 1, 7)
        assert await after.get_meta("commands_hash") == "abc"
        # The ids go on after the copied ones: a new change gets a new ledger row.
        await after.apply(Operation(1, 77, 7, "test", (Change("impulso", 1),)))
        assert (await after.ledger(1, limit=1))[0].id > max(r.id for r in await before.ledger(1, limit=100))
    finally:
        await before.close()
        await after.close()


async def test_the_command_copies_then_refuses_a_database_that_is_not_empty(
    tmp_path: Path, postgres_url: str
) -> None:
    source = await books(tmp_path / "tirada.db")
    status, out, _ = await migrate(str(source), postgres_url)
    assert status == 0 and "Copiadas" in out and "Copied" in out
    status, _, err = await migrate(str(source), postgres_url)
    assert status == 7 and "no está vacía" in err and "not empty" in err
    store = await Store.open(postgres_url)
    assert len(await store.ledger(1, limit=100)) == 4
    await store.close()


async def test_a_file_a_running_bot_holds_is_refused(
    tmp_path: Path, postgres: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await books(tmp_path / "tirada.db")
    async with postgres.database() as url:
        lock = hold(source)
        try:
            status, _, err = await migrate_here(capsys, str(source), url)
        finally:
            lock.close()
    assert status == 6 and "Otro proceso de Tirada" in err


async def test_wrong_arguments_say_how_to_use_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = await migrate_here(capsys, str(tmp_path / "missing.db"), "postgresql://x@127.0.0.1/y")
    assert status == 2 and "python -m bot.migrate" in err


async def test_a_nul_that_postgresql_cannot_store_is_named_with_its_row(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An SQLite file from before NULs were refused may hold one (a sheet's name, a roll's
    motivo in its JSON): the migration names the table, the row and the column, and copies
    nothing."""
    source = tmp_path / "tirada.db"
    store = await Store.open(source)
    sheet = SheetRow(0, 1, 7, False, "Lía\x00Brezo", "lia\x00brezo", "dune", {"nombre": "Lía"}, True)
    sheet_id, _ = await store.create_sheet(Operation(1, 5, 7, "test"), sheet, lambda i: ())
    await store.close()
    status, _, err = await migrate_here(capsys, str(source), postgres_url)
    assert status == 9, err
    assert f"La fila id {sheet_id} de la tabla sheets lleva un carácter NUL en «name»" in err, err
    assert f"Row id {sheet_id} of table sheets holds a NUL character in “name”" in err, err
    after = await Store.open(postgres_url)
    assert await after.sheets(1) == []
    await after.close()


async def test_a_nul_inside_a_records_json_is_named_too(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tirada.db"
    store = await Store.open(source)
    await store.save_record(1, 99, 7, "tirar", {"motivo": "a\x00b"})
    await store.close()
    status, _, err = await migrate_here(capsys, str(source), postgres_url)
    assert status == 9 and "La fila id 1 de la tabla records lleva un carácter NUL en «data»" in err, err


async def test_the_migration_does_not_import_discord() -> None:
    """The command pays for the store and the catalog, not for discord.py and aiohttp (half a
    second of CPU it never uses): the catalog's module (bot.i18n) keeps discord out."""
    script = "import sys, bot.migrate; print(sorted({n.split('.')[0] for n in sys.modules}))"
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    loaded = set(ast.literal_eval(out.decode()))
    assert "bot" in loaded and not loaded & {"discord", "aiohttp"}
