"""A pool's change on both backends (issue 29): a pool that is there is changed by one
conditional statement; one that is not yet is made first, and a refused operation leaves
nothing behind but its outcome."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.models import Applied, Change, Operation, Refused
from bot.store import Store

CHANNEL = 1


@pytest.fixture
async def store(db_target: Path | str) -> AsyncIterator[Store]:
    s = await Store.open(db_target)
    yield s
    await s.close()


def change(interaction: int, delta: int, cap: int | None = None) -> Operation:
    return Operation(CHANNEL, interaction, 7, "r", (Change("impulso", delta, cap=cap),))


async def test_a_spend_of_a_pool_there_is_runs_its_update_and_no_insert(store: Store) -> None:
    """SQLite: BEGIN, the savepoint, the replay check, the UPDATE, the ledger row, the
    operation, COMMIT (the table's row is there: its pool is). PostgreSQL counts BEGIN's lock and
    COMMIT's notification too."""
    await store.apply(change(1, 3, cap=6))
    before = store.statements.total
    outcome = await store.apply(change(2, -1))
    assert isinstance(outcome, Applied) and outcome.pools[0].value == 2
    assert store.statements.total - before == {"sqlite": 7, "postgresql": 9}[store.statements.backend]


async def test_a_pools_first_change_makes_it_with_its_cap(store: Store) -> None:
    made = await store.apply(change(1, 2, cap=6))
    assert isinstance(made, Applied) and (made.pools[0].value, made.pools[0].delta) == (2, 2)
    over = await store.apply(change(2, 5))
    assert isinstance(over, Refused) and (over.key, over.cap, over.value) == ("pool.over_cap", 6, 2)
    assert await store.ledger_sums(CHANNEL) == {("impulso", 0): 2}
    assert await store.table(CHANNEL) is not None


async def test_a_refused_first_change_leaves_no_pool_and_keeps_its_outcome(store: Store) -> None:
    refused = await store.apply(change(1, -1))
    assert isinstance(refused, Refused) and (refused.key, refused.value) == ("pool.not_enough", 0)
    assert await store.pools(CHANNEL) == [] and await store.table(CHANNEL) is None
    again = await store.apply(change(1, -1))
    assert isinstance(again, Refused) and again.replayed
    assert await store.ledger_sums(CHANNEL) == {}
