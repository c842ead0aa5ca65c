"""The PostgreSQL adapter's own connections (bot/store/postgres_pool.py): lent one caller at a
time, up to their number, and never lent again once a statement failed half way on one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from bot.store import Store
from bot.store.postgres_pool import Connections


@pytest.fixture
async def connections(postgres_url: str) -> AsyncIterator[Connections]:
    lent = Connections(postgres_url, 2)
    yield lent
    await lent.close()


async def test_a_read_lends_a_connection_without_a_task_of_its_own(postgres_url: str) -> None:
    """asyncpg's pool took a connection back in a task of its own (``asyncio.shield``), the
    larger part of the 40 µs a read paid for its connection."""
    store = await Store.open(postgres_url)
    made: list[Any] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        made.append(coro)
        return asyncio.Task(coro, loop=loop, **kwargs)

    loop = asyncio.get_running_loop()
    loop.set_task_factory(factory)
    try:
        await store.pool(1, "impulso")
        await store.pool(1, "impulso")
    finally:
        loop.set_task_factory(None)
        await store.close()
    assert made == []


async def test_a_connection_goes_back_and_is_lent_again(connections: Connections) -> None:
    first = await connections.take()
    connections.give(first)
    assert await connections.take() is first


async def test_past_their_number_a_caller_waits_for_one_given_back(connections: Connections) -> None:
    lent = [await connections.take(), await connections.take()]
    waiting = asyncio.create_task(connections.take())
    await asyncio.sleep(0)
    assert not waiting.done()
    connections.give(lent[1])
    assert await waiting is lent[1]


async def test_a_place_freed_by_a_closed_connection_opens_another_for_who_waits(
    connections: Connections,
) -> None:
    lent = [await connections.take(), await connections.take()]
    waiting = asyncio.create_task(connections.take())
    await asyncio.sleep(0)
    lent[0].terminate()
    connections.give(lent[0])
    fresh = await waiting
    assert fresh not in lent and not fresh.is_closed()


async def test_a_statement_cut_off_closes_its_connection_and_an_error_of_the_server_does_not(
    connections: Connections,
) -> None:
    with pytest.raises(asyncpg.PostgresError):
        await connections.fetchval("SELECT 1 / 0")
    [kept] = connections._idle
    reading = asyncio.create_task(connections.fetchval("SELECT pg_sleep(1)"))
    await asyncio.sleep(0.05)
    reading.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reading
    assert kept.is_closed() and connections._idle == []
    assert await connections.fetchval("SELECT 2") == 2
