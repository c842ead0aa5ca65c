"""A pool's change on both backends (issue 29): a pool that is there is changed by one
conditional statement; one that is not yet is made first, and a refused operation leaves
nothing behind but its outcome."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json

import pytest

from bot.models import (
    Applied,
    Change,
    NewRecord,
    Operation,
    PoolState,
    PoolValue,
    RecordUpdate,
    Refused,
    Undo,
)
from bot.store import Store, pools
from bot.store.database import Dialect
from bot.store.postgres import POSTGRES
from bot.store.sqlite import SQLITE

CHANNEL = 1


def change(interaction: int, delta: int, cap: int | None = None) -> Operation:
    return Operation(CHANNEL, interaction, 7, "r", (Change("impulso", delta, cap=cap),))


async def test_a_spend_of_a_pool_there_is_runs_its_update_and_no_insert(store: Store) -> None:
    """SQLite: BEGIN, the savepoint, the UPDATE, the ledger row, the operation (which a replay
    finds there), COMMIT (the table's row is there: its pool is). PostgreSQL counts BEGIN's lock and
    COMMIT's notification too."""
    await store.apply(change(1, 3, cap=6))
    before = store.statements.total
    outcome = await store.apply(change(2, -1))
    assert isinstance(outcome, Applied) and outcome.pools[0].value == 2
    assert store.statements.total - before == {"sqlite": 6, "postgresql": 8}[store.statements.backend]


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


async def test_a_pools_first_change_is_its_update_the_tables_row_and_one_insert(store: Store) -> None:
    """SQLite: BEGIN, the savepoint, the UPDATE that finds no pool, the table's row, the pool
    made with the change applied, the ledger row, the operation, COMMIT; PostgreSQL counts BEGIN's
    lock and COMMIT's notification too."""
    before = store.statements.total
    made = await store.apply(change(1, 4, cap=6))
    assert isinstance(made, Applied) and made.pools[0].value == 4
    assert store.statements.total - before == {"sqlite": 8, "postgresql": 10}[store.statements.backend]
    assert await store.pools(CHANNEL) == [PoolValue("impulso", 0, 4)]


@pytest.mark.parametrize(
    ("first", "value", "applied"),
    [
        (Change("impulso", 10, cap=6, clamp=True), 6, 6),
        (Change("impulso", -3, clamp=True), 0, 0),
        (Change("determinacion", owner_id=7, set_to=3), 3, 3),
    ],
)
async def test_a_pools_first_change_clamps_and_sets_as_on_a_pool_at_zero(
    store: Store, first: Change, value: int, applied: int
) -> None:
    made = await store.apply(Operation(CHANNEL, 1, 7, "r", (first,)))
    assert isinstance(made, Applied) and (made.pools[0].value, made.pools[0].delta) == (value, applied)
    assert await store.pools(CHANNEL) == [PoolValue(first.pool, first.owner_id, value)]
    assert await store.ledger_sums(CHANNEL) == ({(first.pool, first.owner_id): applied} if applied else {})


async def test_a_pools_first_change_past_its_cap_is_refused_with_that_cap(store: Store) -> None:
    refused = await store.apply(change(1, 7, cap=6))
    assert isinstance(refused, Refused)
    assert (refused.key, refused.cap, refused.delta) == ("pool.over_cap", 6, 7)
    assert await store.pools(CHANNEL) == []


async def test_a_roll_alone_is_written_without_a_replay_check_and_its_replay_answers_the_first(
    store: Store,
) -> None:
    """SQLite: BEGIN, the record (which a replay finds there: its interaction's), its dice,
    COMMIT; no outcome is kept, the record answers the replay. PostgreSQL counts BEGIN's lock
    and COMMIT's notification too."""
    roll = NewRecord(7, "tirar", {}, "tirar", dice=((20, 5),))
    before = store.statements.total
    first = await store.apply(Operation(CHANNEL, 1, 7, "r", new_record=roll))
    assert isinstance(first, Applied) and first.record_id is not None and not first.replayed
    assert store.statements.total - before == {"sqlite": 4, "postgresql": 6}[store.statements.backend]
    assert await store.db.fetch_value("SELECT count(*) FROM operations") == 0  # type: ignore[attr-defined]
    again = await store.apply(Operation(CHANNEL, 1, 7, "r", new_record=roll))
    assert isinstance(again, Applied) and again.replayed and again.record_id == first.record_id
    assert await store.dice_counts("2000-01-01", channel_id=CHANNEL) == {("tirar", 20): {5: 1}}
    assert [r.id for r in await store.records(CHANNEL, "tirar")] == [first.record_id]


async def test_a_replay_whose_dice_now_cost_nothing_answers_the_first_roll_that_cost(store: Store) -> None:
    """A replay throws its dice again: a damage roll whose first delivery took PV may now
    take none, and is then a roll alone. Its answer is still the first outcome, kept."""
    await store.apply(Operation(CHANNEL, 1, 7, "r", (Change("pv", 18, owner_id=3),)))
    roll = NewRecord(7, "dano", {}, "mediana", dice=((6, 6),))
    first = await store.apply(Operation(CHANNEL, 2, 7, "d", (Change("pv", -8, owner_id=3),), new_record=roll))
    again = await store.apply(Operation(CHANNEL, 2, 7, "d", new_record=roll))
    assert isinstance(first, Applied) and isinstance(again, Applied) and again.replayed
    assert (again.pools, again.record_id) == (first.pools, first.record_id)
    assert await store.pool(CHANNEL, "pv", 3) == 10


async def test_a_replay_whose_dice_now_cost_answers_the_first_roll_alone_and_takes_nothing(
    store: Store,
) -> None:
    """The other way: a first delivery alone (no outcome kept) and a replay that would take
    PV: the record answers, and the PV stay."""
    await store.apply(Operation(CHANNEL, 1, 7, "r", (Change("pv", 18, owner_id=3),)))
    roll = NewRecord(7, "dano", {}, "mediana", dice=((6, 1),))
    first = await store.apply(Operation(CHANNEL, 2, 7, "d", new_record=roll))
    again = await store.apply(Operation(CHANNEL, 2, 7, "d", (Change("pv", -8, owner_id=3),), new_record=roll))
    assert isinstance(first, Applied) and isinstance(again, Applied) and again.replayed
    assert (again.pools, again.record_id) == ((), first.record_id)
    assert await store.pool(CHANNEL, "pv", 3) == 18
    assert len(await store.ledger(CHANNEL)) == 1


async def test_a_replay_of_a_roll_alone_whose_change_is_now_refused_answers_the_first_roll(
    store: Store,
) -> None:
    """A first delivery alone, and a replay whose change the books refuse (a Dune roll that
    now finds a raise waiting the first did not): refused, it went back before its record
    could meet the first's, so nothing told it a replay; the record answers it, and a third
    delivery too, and no refusal is kept (review11c)."""
    await store.apply(Operation(CHANNEL, 1, 7, "r", (Change("pv", 18, owner_id=3),)))
    roll = NewRecord(7, "dano", {}, "mediana", dice=((6, 1),))
    first = await store.apply(Operation(CHANNEL, 2, 7, "d", new_record=roll))
    costly = Operation(CHANNEL, 2, 7, "d", (Change("pv", -100, owner_id=3),), new_record=roll)
    again = await store.apply(costly)
    third = await store.apply(Operation(CHANNEL, 2, 7, "d", new_record=roll))
    assert isinstance(first, Applied)
    for answer in (again, third):
        assert isinstance(answer, Applied) and answer.replayed and answer.record_id == first.record_id
    assert await store.pool(CHANNEL, "pv", 3) == 18
    assert await store.db.fetch_value("SELECT count(*) FROM operations WHERE interaction_id = 2") == 0  # type: ignore[attr-defined]


async def test_a_replay_of_a_roll_that_cost_whose_change_is_now_refused_answers_the_first_outcome(
    store: Store,
) -> None:
    """The first delivery took PV and kept its outcome; the replay's dice would now take more
    than is left: its answer is the first outcome, with the pool it changed."""
    await store.apply(Operation(CHANNEL, 1, 7, "r", (Change("pv", 18, owner_id=3),)))
    roll = NewRecord(7, "dano", {}, "mediana", dice=((6, 6),))
    first = await store.apply(Operation(CHANNEL, 2, 7, "d", (Change("pv", -8, owner_id=3),), new_record=roll))
    again = await store.apply(
        Operation(CHANNEL, 2, 7, "d", (Change("pv", -100, owner_id=3),), new_record=roll)
    )
    assert isinstance(first, Applied) and isinstance(again, Applied) and again.replayed
    assert (again.pools, again.record_id) == (first.pools, first.record_id)
    assert await store.pool(CHANNEL, "pv", 3) == 10


async def test_a_new_record_under_the_interaction_of_a_saved_record_is_answered_by_it(store: Store) -> None:
    """A record ``save_record`` wrote is its interaction's sign as a roll alone's is: a new
    record applied under that id (no command does both: play never gets here) is answered
    by it and writes nothing, where it raised ``LookupError`` while every roll kept an outcome."""
    saved = await store.save_record(CHANNEL, 4, 7, "tarea", {"name": "x"})
    roll = NewRecord(7, "tirar", {}, "tirar", dice=((20, 5),))
    again = await store.apply(Operation(CHANNEL, 4, 7, "r", new_record=roll))
    assert isinstance(again, Applied) and again.replayed and again.record_id == saved
    assert await store.records(CHANNEL, "tirar") == []
    assert await store.dice_counts("2000-01-01", channel_id=CHANNEL) == {}


async def test_concurrent_replays_of_a_roll_alone_write_it_once(store: Store) -> None:
    roll = Operation(CHANNEL, 9, 7, "r", new_record=NewRecord(7, "tirar", {}, "tirar", dice=((20, 5),)))
    outcomes = await asyncio.gather(*(store.apply(roll) for _ in range(10)))
    assert sum(not o.replayed for o in outcomes) == 1
    assert len({o.record_id for o in outcomes if isinstance(o, Applied)}) == 1
    assert len(await store.records(CHANNEL, "tirar")) == 1
    assert await store.dice_counts("2000-01-01", channel_id=CHANNEL) == {("tirar", 20): {5: 1}}


async def test_a_set_expecting_a_value_checks_a_pool_not_made_yet_as_at_zero(store: Store) -> None:
    """A form drawn at 0 sets a pool never made; one drawn at 2 finds it moved (it is at 0)
    and makes nothing."""
    moved = await store.apply(Operation(CHANNEL, 1, 7, "r", (Change("impulso", 0, set_to=3, expect=2),)))
    assert isinstance(moved, Refused) and (moved.key, moved.value) == ("pool.moved", 0)
    assert await store.pools(CHANNEL) == []
    made = await store.apply(Operation(CHANNEL, 2, 7, "r", (Change("impulso", 0, set_to=3, expect=0),)))
    assert isinstance(made, Applied) and (made.pools[0].value, made.pools[0].delta) == (3, 3)
    moved = await store.apply(Operation(CHANNEL, 3, 7, "r", (Change("impulso", 0, set_to=1, expect=0),)))
    assert isinstance(moved, Refused) and (moved.key, moved.value) == ("pool.moved", 3)
    assert await store.ledger_sums(CHANNEL) == {("impulso", 0): 3}


async def test_a_replay_of_a_records_change_answers_the_first_and_changes_nothing(store: Store) -> None:
    """The first change moved the record's version: its replay finds the record changed since it
    was read, which is a replay's sign there too (not a stale read to retry)."""
    rolled = await store.apply(Operation(CHANNEL, 1, 7, "r", new_record=NewRecord(7, "dune", {"n": 0})))
    assert rolled.record_id is not None
    pressed = Operation(
        CHANNEL, 2, 7, "b", (Change("impulso", 1),), record_update=RecordUpdate(rolled.record_id, 0, {"n": 1})
    )
    first, again = await store.apply(pressed), await store.apply(pressed)
    assert isinstance(first, Applied) and isinstance(again, Applied) and again.replayed
    record = await store.record(rolled.record_id)
    assert record is not None and (record.version, record.data) == (1, {"n": 1})
    assert await store.ledger_sums(CHANNEL) == {("impulso", 0): 1}


async def test_a_replayed_undo_reverts_once(store: Store) -> None:
    for interaction in (1, 2):
        await store.apply(change(interaction, 2))
    undo = Operation(CHANNEL, 3, 7, "u", undo=Undo())
    first, again = await store.apply(undo), await store.apply(undo)
    assert isinstance(first, Applied) and isinstance(again, Applied) and again.replayed
    assert again.pools == first.pools and await store.pool(CHANNEL, "impulso") == 2


@pytest.mark.parametrize(
    "outcome",
    [
        Applied(
            (PoolState("impulso", 0, 4, 1, 1), PoolState("determinacion", 7, 0, -1, -1)),
            record_id=9,
            retired=2,
        ),
        Applied((), replayed=True),
        Refused("pool.not_enough", "impulso", 0, 1, -2),
        Refused("pool.over_cap", "amenaza", 0, 6, 1, cap=6),
    ],
)
def test_an_outcome_is_kept_as_asdict_wrote_it_without_asdicts_deep_copy(
    outcome: Applied | Refused, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replay rows written before read the same: the text is ``asdict``'s, field for field;
    it is built without ``asdict`` (a recursive deep copy, on aiosqlite's thread, per write)."""
    kind = "applied" if isinstance(outcome, Applied) else "refused"
    expected = json.dumps({"kind": kind, **dataclasses.asdict(outcome)})

    def refused(value: object) -> None:
        raise AssertionError("asdict called")

    monkeypatch.setattr(pools, "asdict", refused, raising=False)
    assert pools.encode_outcome(outcome) == expected
    assert pools.decode_outcome(expected) == dataclasses.replace(outcome, replayed=True)


@pytest.mark.parametrize("dialect", [SQLITE, POSTGRES], ids=["sqlite", "postgresql"])
def test_a_pool_changes_statement_is_written_once_per_shape(dialect: Dialect) -> None:
    """Its values are parameters: two changes of one shape (a set, a clamp, an expected
    value) share one text, the one written for the first; every shape has its own."""
    texts = set()
    for set_to, clamp, expect in itertools.product((None, 3), (False, True), (None, 2)):
        first = Change("impulso", 1, cap=6, clamp=clamp, set_to=set_to, expect=expect)
        other = Change(
            "amenaza",
            -4,
            owner_id=9,
            clamp=clamp,
            set_to=None if set_to is None else 8,
            expect=None if expect is None else 5,
        )
        assert pools.changed_pool(dialect, other) is pools.changed_pool(dialect, first)
        assert pools.new_pool(dialect, other) is pools.new_pool(dialect, first)
        texts.add(pools.changed_pool(dialect, first))
    # A set puts the pool at its value whether or not it would clamp: six texts.
    assert len(texts) == 6
