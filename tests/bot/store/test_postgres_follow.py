"""Other processes' changes on PostgreSQL (bot/store/postgres_follow.py, LISTEN/NOTIFY):
heard on commit, exactly the changes the writing process's own listeners hear, never one's
own twice, and heard again after the listening connection drops. No clock: every wait ends
on an event (the bound on each is a guard against hanging, not a measure), and the waits
between reconnections are injected."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

import asyncpg
import pytest

from bot.models import Change, NewRecord, Operation, SheetRow
from bot.store import Store
from bot.store.connection import Sleep
from bot.store.postgres_follow import APPLICATION, PING_SECONDS, notification
from bot.store.touched import ANYTHING, Touched
from tests.support.postgres import Server

CHANNEL, OTHER = 1, 2
# Far more than a notification on this machine takes: only a missing one gets there.
GUARD = 30.0
T = TypeVar("T")


async def soon(awaitable: Awaitable[T]) -> T:
    return await asyncio.wait_for(awaitable, GUARD)


def op(interaction: int, *changes: Change, channel: int = CHANNEL) -> Operation:
    return Operation(channel, interaction, actor_id=7, reason="test", changes=changes)


async def following(store: Store, sleep: Sleep = asyncio.sleep) -> asyncio.Queue[int]:
    """``store`` listening to the others; returns what its listeners hear, in order."""
    heard: asyncio.Queue[int] = asyncio.Queue()
    store.listeners.append(lambda channel, _touched: heard.put_nowait(channel))
    started = asyncio.Event()
    await store.follow_others(started.set, sleep)
    await soon(started.wait())
    return heard


async def test_another_process_hears_the_changes_this_one_does_once_each_on_commit(postgres_url: str) -> None:
    writer, reader = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        heard = await following(reader)
        # Another process's change is heard as one of anything: its notification names the
        # table alone, whatever the writer's own listeners heard it as.
        touched: list[Touched] = []
        reader.listeners.append(lambda channel, what: channel == CHANNEL and touched.append(what))
        mine: list[int] = []
        writer.listeners.append(lambda channel, _touched: mine.append(channel))
        await writer.set_system(CHANNEL, 99, "dune")
        await writer.apply(op(1, Change("impulso", 2)))
        await writer.apply(op(1, Change("impulso", 2)))
        await writer.apply(op(2, Change("impulso", -5)))
        await writer.save_record(CHANNEL, 3, 7, "tirar", {})
        sheet = SheetRow(0, CHANNEL, 7, False, "Ana", "ana", "dnd", {"nombre": "Ana"})
        await writer.create_sheet(op(4), sheet, lambda i: (Change("pg_ficha", 12, owner_id=i),))
        await writer.create_sheet(op(5), sheet, lambda i: ())
        [row] = await writer.sheets(CHANNEL)
        assert await writer.update_sheet(row.id, row.version, {"nombre": "Ana B."})
        assert not await writer.update_sheet(row.id, row.version, {"nombre": "tarde"})
        assert await writer.choose_sheet(CHANNEL, 7, row.id)
        assert await writer.delete_sheet(CHANNEL, row.id)
        assert not await writer.delete_sheet(CHANNEL, row.id)
        async with writer.db._pool.acquire() as db:  # type: ignore[attr-defined]
            transaction = db.transaction()
            await transaction.start()
            await db.execute(notification(OTHER, "rolled-back"))
            await transaction.rollback()
        # The writer's changes so far heard before the reader's own: a notification arrives
        # when the server sends it, the reader's own change at once.
        assert [await soon(heard.get()) for _ in range(7)] == [CHANNEL] * 7
        await reader.apply(op(6, Change("impulso", 1), channel=OTHER))
        await writer.set_gm(CHANNEL, 99, 5)
        assert mine == [CHANNEL] * 8
        assert [await soon(heard.get()) for _ in range(2)] == [OTHER, CHANNEL]
        assert heard.empty()
        assert touched == [ANYTHING] * 8
    finally:
        await writer.close()
        await reader.close()


async def test_listening_starts_again_after_its_connection_drops(
    postgres: Server, postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The server cuts the listening connection and refuses new ones for a while: the
    store tries again with growing waits, says so in the log, calls ``missed`` once it
    listens again (so every board is redrawn) and hears the next change."""
    database = postgres_url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(postgres.url())
    writer, reader = await Store.open(postgres_url), await Store.open(postgres_url)
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        if seconds == PING_SECONDS:
            await asyncio.Event().wait()
        waits.append(seconds)
        if len(waits) == 2:
            await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')

    try:
        heard: asyncio.Queue[int] = asyncio.Queue()
        reader.listeners.append(lambda channel, _touched: heard.put_nowait(channel))
        starts: asyncio.Queue[None] = asyncio.Queue()
        await reader.follow_others(lambda: starts.put_nowait(None), sleep)
        await soon(starts.get())
        await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS false')
        cut = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = $1 AND datname = $2",
            APPLICATION,
            database,
        )
        assert cut == 1
        await soon(starts.get())
        assert waits == [1.0, 2.0]
        messages = [r.getMessage() for r in caplog.records]
        assert "cannot listen to other processes' changes; trying again" in messages
        await writer.apply(op(1, Change("impulso", 2)))
        assert await soon(heard.get()) == CHANNEL
    finally:
        await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')
        await admin.close()
        await writer.close()
        await reader.close()


async def test_a_quiet_connection_is_pinged_and_kept(postgres_url: str) -> None:
    """Pings that pass keep the same connection: no wait between reconnections happens."""
    writer, reader = await Store.open(postgres_url), await Store.open(postgres_url)
    waits: list[float] = []
    third = asyncio.Event()

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            third.set()
            await asyncio.Event().wait()

    try:
        heard = await following(reader, sleep)
        await soon(third.wait())
        assert waits == [PING_SECONDS] * 3
        await writer.apply(op(1, Change("impulso", 2)))
        assert await soon(heard.get()) == CHANNEL
    finally:
        await writer.close()
        await reader.close()


def test_every_write_that_tells_the_listeners_announces_it_too() -> None:
    """A store method that calls ``_changed`` (this process's boards) also calls
    ``announce`` (the other processes', inside its transaction): a new write cannot tell
    one and forget the other."""
    for path in sorted(Path("bot/store").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef):
                called = {
                    call.func.attr
                    for call in ast.walk(node)
                    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                }
                assert "_changed" not in called or "announce" in called or node.name == "_heard", (
                    f"{path}: {node.name}"
                )


async def test_a_reveal_is_heard_once_by_every_process(postgres_url: str) -> None:
    """The end of a roll's secret changes what its table shows (bot/store/records.py
    ``set_record_message``); noting its secret message, or its message again, does not."""
    writer, reader = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        heard = await following(reader)
        secret = NewRecord(7, "tirar", {}, system="tirar", dice=((20, 7),), secret=True)
        rolled = await writer.apply(Operation(CHANNEL, 1, actor_id=7, reason="test", new_record=secret))
        assert rolled.record_id is not None
        mine: list[int] = []
        writer.listeners.append(lambda channel, _touched: mine.append(channel))
        await writer.set_record_message(rolled.record_id, 50, secret=True)
        for _ in range(2):
            await writer.set_record_message(rolled.record_id, 60, system="tirar", dice=((20, 7),))
        await reader.apply(op(2, Change("impulso", 1), channel=OTHER))
        assert mine == [CHANNEL]
        assert [await soon(heard.get()) for _ in range(3)] == [CHANNEL, CHANNEL, OTHER]
        assert heard.empty()
    finally:
        await writer.close()
        await reader.close()
