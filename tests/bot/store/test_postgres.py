"""PostgreSQL's round trips per transaction (issue 29): ``BEGIN`` carries the table's lock
(and the savepoint an operation that may be refused goes back to) and ``COMMIT`` carries the
notifications, so none of them is a round trip of its own; a change of a pool there is one
statement."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from typing import Any
from unittest import mock

import asyncpg
import pytest

from bot.models import Change, NewRecord, Operation, Refused
from bot.store import Store

CHANNEL = 1


@pytest.fixture
async def sent(postgres_url: str) -> AsyncIterator[tuple[Store, list[str]]]:
    """A PostgreSQL store, and every query its connections send (asyncpg's query logger)."""
    queries: list[str] = []

    async def init(connection: asyncpg.Connection) -> None:
        connection.add_query_logger(lambda record: queries.append(record.query))

    with mock.patch(
        "bot.store.postgres.asyncpg.create_pool", functools.partial(asyncpg.create_pool, init=init)
    ):
        store = await Store.open(postgres_url)
    yield store, queries
    await store.close()


def spend(interaction: int, **kwargs: Any) -> Operation:
    return Operation(CHANNEL, interaction, 7, "r", (Change("impulso", 1, cap=6),), **kwargs)


async def test_a_pool_change_opens_with_its_lock_and_savepoint_and_commits_with_its_notification(
    sent: tuple[Store, list[str]],
) -> None:
    store, queries = sent
    await store.apply(spend(1))
    queries.clear()
    await store.apply(spend(2))
    assert queries[0] == f"BEGIN; SELECT pg_advisory_xact_lock({CHANNEL}); SAVEPOINT undoable"
    assert queries[-1] == f"SELECT pg_notify('tirada_tabla', '{CHANNEL} {store.db._origin}'); COMMIT"  # type: ignore[attr-defined]
    assert len(queries) == 5, queries  # BEGIN…, the UPDATE, the ledger row, the operation, …COMMIT


async def test_a_roll_alone_takes_four_round_trips(sent: tuple[Store, list[str]]) -> None:
    store, queries = sent
    roll = NewRecord(7, "tirar", {}, dice=((20, 5),))
    await store.apply(Operation(CHANNEL, 1, 7, "r", new_record=roll))
    queries.clear()
    await store.apply(Operation(CHANNEL, 2, 7, "r", new_record=roll))
    assert len(queries) == 4, queries


async def test_a_failed_transaction_rolls_back_and_its_notification_is_never_sent(
    sent: tuple[Store, list[str]],
) -> None:
    store, queries = sent
    await store.apply(spend(1))

    async def broken(tx: Any) -> None:
        await tx.announce(CHANNEL)
        await tx.execute(
            "UPDATE pools SET value = value + 1 WHERE channel_id = :channel", {"channel": CHANNEL}
        )
        raise RuntimeError("half way")

    queries.clear()
    with pytest.raises(RuntimeError):
        await store.db.transact(broken, lock=CHANNEL)
    assert queries[-1] == "ROLLBACK" and not any("pg_notify" in q for q in queries)
    assert await store.pool(CHANNEL, "impulso") == 1
    await store.apply(spend(2))
    assert await store.pool(CHANNEL, "impulso") == 2


async def test_a_refused_change_goes_back_to_the_opening_savepoint_and_keeps_its_outcome(
    sent: tuple[Store, list[str]],
) -> None:
    store, queries = sent
    await store.apply(spend(1))
    queries.clear()
    refused = await store.apply(Operation(CHANNEL, 2, 7, "r", (Change("impulso", -5),)))
    assert isinstance(refused, Refused) and refused.key == "pool.not_enough"
    assert "ROLLBACK TO SAVEPOINT undoable" in queries and not any(q.startswith("RELEASE") for q in queries)
    replayed = await store.apply(Operation(CHANNEL, 2, 7, "r", (Change("impulso", -5),)))
    assert isinstance(replayed, Refused) and replayed.replayed
    assert await store.pool(CHANNEL, "impulso") == 1
    assert await store.ledger_sums(CHANNEL) == {("impulso", 0): 1}
