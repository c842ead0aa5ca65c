"""Where a roll was posted (issue 29): remembered in one statement, its own ledger rows linked
to it through the record, and kept on those rows when retention forgets the record."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.models import Applied, Change, NewRecord, Operation
from bot.store import Store
from bot.store.retention import Retention

CHANNEL = 1


@pytest.fixture
async def clock() -> list[datetime]:
    return [datetime(2026, 11, 1, tzinfo=UTC)]


@pytest.fixture
async def store(db_target: Path | str, clock: list[datetime]) -> AsyncIterator[Store]:
    s = await Store.open(db_target, clock=lambda: clock[0])
    yield s
    await s.close()


async def paid_roll(store: Store, interaction: int, secret: bool = False) -> int:
    """A roll that spends a point of Impulso: its ledger row is written before its message."""
    await store.apply(Operation(CHANNEL, interaction - 1, 7, "r", (Change("impulso", 1),)))
    made = await store.apply(
        Operation(
            CHANNEL,
            interaction,
            7,
            "r",
            (Change("impulso", -1),),
            new_record=NewRecord(7, "tirar", {}, secret=secret),
        )
    )
    assert isinstance(made, Applied) and made.record_id is not None
    return made.record_id


async def test_a_public_rolls_message_is_one_statement_and_links_its_ledger_rows(store: Store) -> None:
    """SQLite: BEGIN, the UPDATE, COMMIT; PostgreSQL: the UPDATE alone (one statement is its
    own transaction). It returns nothing of the record: the caller posted it."""
    record_id = await paid_roll(store, 2)
    before = store.statements.total
    assert await store.set_record_message(record_id, 555) is None
    assert store.statements.total - before == {"sqlite": 3, "postgresql": 1}[store.statements.backend]
    posted = await store.record(record_id)
    assert posted is not None and posted.message_id == 555
    assert [r.message_id for r in await store.ledger(CHANNEL)] == [555, None]


async def test_a_secret_rolls_rows_link_nowhere_until_it_is_revealed(store: Store) -> None:
    record_id = await paid_roll(store, 2, secret=True)
    await store.set_record_message(record_id, 555, secret=True)
    assert [r.message_id for r in await store.ledger(CHANNEL)] == [None, None]
    revealed = await store.set_record_message(record_id, 777, system="tirar", dice=((20, 4),))
    assert revealed is not None and not revealed.secret
    assert [r.message_id for r in await store.ledger(CHANNEL)] == [777, None]


async def test_a_forgotten_rolls_rows_keep_their_link_and_a_secret_ones_still_none(
    store: Store, clock: list[datetime]
) -> None:
    public = await paid_roll(store, 2)
    await store.set_record_message(public, 555)
    secret = await paid_roll(store, 4, secret=True)
    await store.set_record_message(secret, 666, secret=True)
    clock[0] += timedelta(days=31)
    pruned = await store.prune(Retention(kinds=("tirar",)))
    assert pruned.records == 2 and await store.record(public) is None
    assert [r.message_id for r in await store.ledger(CHANNEL)] == [None, None, 555, None]


async def test_a_forgotten_secret_rolls_message_leaves_every_row_that_carried_it(
    store: Store, clock: list[datetime]
) -> None:
    """A button on the secret card writes its rows with the card's message, which only the
    record hid: when retention forgets the record unrevealed, those rows link nowhere too."""
    secret = await paid_roll(store, 4, secret=True)
    await store.set_record_message(secret, 666, secret=True)
    pressed = Operation(CHANNEL, 9, 7, "b", (Change("impulso", 1),), message_id=666)
    assert isinstance(await store.apply(pressed), Applied)
    assert [r.message_id for r in await store.ledger(CHANNEL)] == [None, None, None]
    clock[0] += timedelta(days=31)
    pruned = await store.prune(Retention(kinds=("tirar",)))
    assert pruned.records == 1 and await store.record(secret) is None
    assert [r.message_id for r in await store.ledger(CHANNEL)] == [None, None, None]
