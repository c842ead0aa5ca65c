import ast
import asyncio
import random
import sqlite3
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.models import (
    Applied,
    Change,
    NewRecord,
    Operation,
    PoolValue,
    RecordUpdate,
    Refused,
    Reset,
    SavedRoll,
    SheetRow,
    Table,
    TableSettings,
)
from bot.store import MIGRATIONS, POOL_MAX, Pruned, Retention, SqlStore, Store
from bot.store.base import Part
from bot.store.touched import TABLE, Touched
from cogs.donjon.settings import donjon_settings
from tests.support.harness import Harness
from tests.support.postgres import Server
from tests.support.statements import reads_of

CHANNEL = 1


async def another(request: pytest.FixtureRequest) -> str:
    """One more empty PostgreSQL database on the session's server (dropped with it)."""
    server: Server = request.getfixturevalue("postgres")
    return await server.create()


def op(interaction: int, *changes: Change, channel: int = CHANNEL) -> Operation:
    return Operation(channel, interaction, actor_id=7, reason="test", changes=changes)


async def assert_ledger_matches(store: Store, channel: int = CHANNEL) -> None:
    sums = await store.ledger_sums(channel)
    for pool in await store.pools(channel):
        assert sums.get((pool.pool, pool.owner_id), 0) == pool.value
    for (name, owner), total in sums.items():
        assert await store.pool(channel, name, owner) == total


async def test_migrations_set_the_version_and_reopen_cleanly(db_target: Path | str) -> None:
    path = db_target
    first = await Store.open(path)
    assert await first.schema_version() == len(MIGRATIONS)
    await first.apply(op(1, Change("impulso", 3)))
    await first.close()
    again = await Store.open(path)
    assert await again.schema_version() == len(MIGRATIONS)
    assert await again.pool(CHANNEL, "impulso") == 3
    await again.close()


async def test_wal_and_foreign_keys_are_on(sqlite_store: Store) -> None:
    assert (await sqlite_store._fetchone("PRAGMA journal_mode"))[0] == "wal"
    assert (await sqlite_store._fetchone("PRAGMA foreign_keys"))[0] == 1


async def test_add_and_spend_write_one_ledger_row_each(store: Store) -> None:
    added = await store.apply(op(1, Change("impulso", 4, cap=6)))
    spent = await store.apply(op(2, Change("impulso", -3)))
    assert isinstance(added, Applied) and added.get("impulso").value == 4
    assert isinstance(spent, Applied) and spent.get("impulso").value == 1
    rows = await store.ledger(CHANNEL)
    assert [(r.delta, r.value_after, r.interaction_id) for r in rows] == [(-3, 1, 2), (4, 4, 1)]


async def test_spending_more_than_there_is_is_refused_and_changes_nothing(store: Store) -> None:
    await store.apply(op(1, Change("impulso", 2)))
    refused = await store.apply(op(2, Change("impulso", -3)))
    assert refused == Refused("pool.not_enough", "impulso", 0, 2, -3)
    assert refused.error().params == {"pool": "impulso", "have": 2, "need": 3}
    assert await store.pool(CHANNEL, "impulso") == 2
    assert len(await store.ledger(CHANNEL)) == 1


async def test_going_over_the_cap_is_refused(store: Store) -> None:
    await store.apply(op(1, Change("impulso", 5, cap=6)))
    refused = await store.apply(op(2, Change("impulso", 2, cap=6)))
    assert isinstance(refused, Refused) and refused.key == "pool.over_cap"
    assert await store.pool(CHANNEL, "impulso") == 5


async def test_a_pool_without_a_cap_stops_at_the_schemas_bound(store: Store) -> None:
    """The schema's CHECK (1,000,000) is refused before it is reached, naming the bound,
    instead of failing the statement."""
    await store.apply(op(1, Change("dados", POOL_MAX - 5)))
    refused = await store.apply(op(2, Change("dados", 20)))
    assert refused == Refused("pool.over_cap", "dados", 0, POOL_MAX - 5, 20, POOL_MAX)
    assert await store.pool(CHANNEL, "dados") == POOL_MAX - 5


async def test_clamped_addition_keeps_what_fits_and_reports_the_loss(store: Store) -> None:
    await store.apply(op(1, Change("impulso", 5, cap=6)))
    saved = await store.apply(op(2, Change("impulso", 4, cap=6, clamp=True)))
    assert isinstance(saved, Applied)
    state = saved.get("impulso")
    assert (state.value, state.delta, state.lost_to_cap) == (6, 1, 3)
    full = await store.apply(op(3, Change("impulso", 2, cap=6, clamp=True)))
    assert isinstance(full, Applied) and full.get("impulso").delta == 0
    await assert_ledger_matches(store)


async def test_an_operation_is_all_or_nothing(store: Store) -> None:
    await store.apply(op(1, Change("impulso", 2), Change("amenaza", 1)))
    refused = await store.apply(op(2, Change("impulso", -2), Change("amenaza", -5)))
    assert isinstance(refused, Refused) and refused.pool == "amenaza"
    assert await store.pool(CHANNEL, "impulso") == 2
    assert await store.pool(CHANNEL, "amenaza") == 1
    assert len(await store.ledger(CHANNEL)) == 2


async def test_a_replayed_interaction_returns_the_first_answer_and_changes_nothing(store: Store) -> None:
    first = await store.apply(op(1, Change("impulso", 3)))
    again = await store.apply(op(1, Change("impulso", 3)))
    assert isinstance(first, Applied) and isinstance(again, Applied)
    assert again.replayed and not first.replayed
    assert again.pools == first.pools
    assert await store.pool(CHANNEL, "impulso") == 3
    assert len(await store.ledger(CHANNEL)) == 1


async def test_a_replayed_refusal_stays_refused_even_if_it_would_now_pass(store: Store) -> None:
    refused = await store.apply(op(1, Change("impulso", -1)))
    await store.apply(op(2, Change("impulso", 5)))
    again = await store.apply(op(1, Change("impulso", -1)))
    assert isinstance(refused, Refused) and isinstance(again, Refused) and again.replayed
    assert await store.pool(CHANNEL, "impulso") == 5


async def test_twenty_concurrent_spends_of_ten_from_a_hundred(store: Store) -> None:
    await store.apply(op(1, Change("impulso", 100)))
    outcomes = await asyncio.gather(*(store.apply(op(100 + i, Change("impulso", -10))) for i in range(20)))
    assert sum(isinstance(o, Applied) for o in outcomes) == 10
    assert sum(isinstance(o, Refused) for o in outcomes) == 10
    assert await store.pool(CHANNEL, "impulso") == 0
    await assert_ledger_matches(store)


async def test_concurrent_replays_of_one_interaction_apply_once(store: Store) -> None:
    outcomes = await asyncio.gather(*(store.apply(op(5, Change("impulso", 1))) for _ in range(10)))
    assert sum(not o.replayed for o in outcomes) == 1
    assert await store.pool(CHANNEL, "impulso") == 1


async def test_player_pools_are_separate_from_the_table(store: Store) -> None:
    await store.apply(
        op(1, Change("determinacion", 1, owner_id=42, cap=3), Change("determinacion", 2, owner_id=43))
    )
    assert await store.pool(CHANNEL, "determinacion", 42) == 1
    assert await store.pool(CHANNEL, "determinacion", 43) == 2
    assert await store.pool(CHANNEL, "determinacion") == 0


async def test_the_ledger_always_sums_to_the_pools(store: Store) -> None:
    rng = random.Random(3)
    for interaction in range(1, 300):
        pool = rng.choice(["impulso", "amenaza"])
        await store.apply(
            op(interaction, Change(pool, rng.randint(-4, 4) or 1, cap=6, clamp=rng.random() < 0.3))
        )
    await assert_ledger_matches(store)
    for pool in await store.pools(CHANNEL):
        assert 0 <= pool.value <= 6


async def test_tables_remember_system_gm_and_settings(store: Store) -> None:
    assert await store.table(CHANNEL) is None
    default = await store.table_or_default(CHANNEL, 9)
    assert default.system is None and default.gm_id is None
    await store.set_system(CHANNEL, 9, "dune")
    await store.set_gm(CHANNEL, 9, 77)
    table = await store.set_settings(CHANNEL, 9, TableSettings(donjon_sides=12))
    assert (table.system, table.gm_id, donjon_settings(table).donjon_sides, table.guild_id) == (
        "dune",
        77,
        12,
        9,
    )


async def test_rolls_are_saved_once_per_interaction(store: Store) -> None:
    first = await store.save_record(CHANNEL, 555, 7, "tirar", {"expresion": "1d20"})
    again = await store.save_record(CHANNEL, 555, 7, "tirar", {"expresion": "otra"})
    assert first == again
    record = await store.record(first)
    assert record is not None and record.data == {"expresion": "1d20"}
    assert await store.record(first + 1) is None


async def test_meta_round_trips(store: Store) -> None:
    assert await store.get_meta("x") is None
    await store.set_meta("x", "1")
    await store.set_meta("x", "2")
    assert await store.get_meta("x") == "2"


async def test_setting_a_pool_to_a_value_ledgers_the_difference(store: Store) -> None:
    await store.apply(op(1, Change("amenaza", 7)))
    outcome = await store.apply(op(2, Change("amenaza", set_to=4), Change("impulso", set_to=2)))
    assert isinstance(outcome, Applied)
    assert (outcome.get("amenaza").value, outcome.get("amenaza").delta) == (4, -3)
    assert (outcome.get("impulso").value, outcome.get("impulso").delta) == (2, 2)
    await assert_ledger_matches(store)


async def test_a_new_roll_is_recorded_with_its_payment_or_not_at_all(store: Store) -> None:
    from bot.models import NewRecord

    refused = await store.apply(
        Operation(CHANNEL, 1, 7, "buy", (Change("impulso", -1),), new_record=NewRecord(7, "dune", {"a": 1}))
    )
    assert isinstance(refused, Refused)
    assert await store.records(CHANNEL, "dune") == []
    await store.apply(op(2, Change("impulso", 3)))
    paid = await store.apply(
        Operation(CHANNEL, 3, 7, "buy", (Change("impulso", -1),), new_record=NewRecord(7, "dune", {"a": 1}))
    )
    assert isinstance(paid, Applied) and paid.record_id is not None
    replay = await store.apply(
        Operation(CHANNEL, 3, 7, "buy", (Change("impulso", -1),), new_record=NewRecord(7, "dune", {"a": 1}))
    )
    assert isinstance(replay, Applied) and replay.replayed and replay.record_id == paid.record_id
    assert [r.id for r in await store.records(CHANNEL, "dune")] == [paid.record_id]
    assert await store.pool(CHANNEL, "impulso") == 2


async def test_a_stale_roll_update_is_retried_by_the_same_interaction(store: Store) -> None:
    """Two presses at once: the second read the roll before the first wrote it, is told the
    roll is stale and tries again at the new version (``bot.rolls.act``), in the same
    interaction. The stale answer is no outcome to replay, or every retry would get it."""
    from bot.models import RecordUpdate

    record_id = await store.save_record(CHANNEL, 10, 7, "dune", {"left": 2})
    await store.apply(
        Operation(CHANNEL, 11, 7, "save", record_update=RecordUpdate(record_id, 0, {"left": 1}))
    )

    def pressed(version: int) -> Operation:
        update = RecordUpdate(record_id, version, {"left": 0})
        return Operation(CHANNEL, 12, 7, "save", (Change("impulso", 2),), record_update=update)

    stale = await store.apply(pressed(0))
    assert isinstance(stale, Refused) and stale.key == "roll.stale"
    retried = await store.apply(pressed(1))
    assert isinstance(retried, Applied) and not retried.replayed
    replay = await store.apply(pressed(1))
    assert isinstance(replay, Applied) and replay.replayed
    assert await store.pool(CHANNEL, "impulso") == 2


async def test_a_roll_update_needs_the_version_it_was_read_at(store: Store) -> None:
    from bot.models import RecordUpdate

    record_id = await store.save_record(CHANNEL, 10, 7, "dune", {"left": 2})
    first = await store.apply(
        Operation(
            CHANNEL,
            11,
            7,
            "save",
            (Change("impulso", 2),),
            record_update=RecordUpdate(record_id, 0, {"left": 0}),
        )
    )
    stale = await store.apply(
        Operation(
            CHANNEL,
            12,
            7,
            "save",
            (Change("impulso", 2),),
            record_update=RecordUpdate(record_id, 0, {"left": 0}),
        )
    )
    gone = await store.apply(Operation(CHANNEL, 13, 7, "save", record_update=RecordUpdate(999, 0, {})))
    assert isinstance(first, Applied)
    assert isinstance(stale, Refused) and stale.key == "roll.stale"
    assert isinstance(gone, Refused) and gone.key == "error.roll_gone"
    record = await store.record(record_id)
    assert record is not None and (record.version, record.data) == (1, {"left": 0})
    assert await store.pool(CHANNEL, "impulso") == 2
    await store.set_record_message(record_id, 555)
    record = await store.record(record_id)
    assert record is not None and record.message_id == 555


async def test_rows_naming_a_secret_rolls_message_link_nowhere_until_its_reveal_names_the_table_one(
    store: Store,
) -> None:
    """A button pressed on the secret message writes that message on its row; the reveal
    moves every such row to the message posted at the table."""
    from dataclasses import replace

    record_id = await store.save_record(CHANNEL, 10, 7, "dune", {})
    await store.set_record_message(record_id, 555, secret=True)
    await store.apply(replace(op(11, Change("impulso", 2)), message_id=555))
    assert [r.message_id for r in await store.ledger(CHANNEL)] == [None]
    await store.set_record_message(record_id, 777)
    assert [r.message_id for r in await store.ledger(CHANNEL)] == [777]


async def test_a_clamped_spend_stops_at_zero(store: Store) -> None:
    await store.apply(op(1, Change("impulso", 1)))
    first = await store.apply(op(2, Change("impulso", -1, clamp=True)))
    second = await store.apply(op(3, Change("impulso", -1, clamp=True)))
    assert isinstance(first, Applied) and first.get("impulso").delta == -1
    assert isinstance(second, Applied) and second.get("impulso").delta == 0
    assert await store.pool(CHANNEL, "impulso") == 0


# -- the GM's side: undo, reset, reveals, GM channels ----------------------------------------


def undo(interaction: int, pool: str | None = None, owner: int | None = None) -> Operation:
    from bot.models import Undo

    return Operation(CHANNEL, interaction, actor_id=7, reason="mesa.undo", undo=Undo(pool, owner))


async def test_undo_reverts_a_whole_operation_once_with_rows_naming_what_they_revert(store: Store) -> None:
    await store.apply(op(1, Change("impulso", 2, cap=6), Change("amenaza", 1)))
    first = await store.apply(undo(2))
    assert isinstance(first, Applied)
    assert {(p.pool, p.delta, p.value) for p in first.pools} == {("impulso", -2, 0), ("amenaza", -1, 0)}
    assert await store.apply(undo(2)) == Applied(first.pools, replayed=True)
    nothing = await store.apply(undo(3))
    assert isinstance(nothing, Refused) and nothing.key == "mesa.deshacer.nothing"
    rows = await store.ledger(CHANNEL)
    assert [r.undoes for r in rows] == [2, 1, None, None]
    await assert_ledger_matches(store)


async def test_undo_respects_the_cap_the_pool_remembers(store: Store) -> None:
    """A roll paid 3 Impulso and made Amenaza; Impulso was saved back to its cap since:
    undoing the roll would give back 3 Impulso over the cap of 6."""
    await store.apply(op(1, Change("impulso", 4, cap=6)))
    await store.apply(op(2, Change("impulso", -3), Change("amenaza", 1)))
    await store.apply(op(3, Change("impulso", 5, cap=6)))
    refused = await store.apply(undo(4, pool="amenaza"))
    assert isinstance(refused, Refused) and refused.key == "pool.over_cap" and refused.cap == 6
    assert await store.pool(CHANNEL, "amenaza") == 1 and await store.pool(CHANNEL, "impulso") == 6
    back = await store.apply(undo(5))
    assert isinstance(back, Applied) and back.get("impulso").value == 1
    again = await store.apply(undo(6, pool="amenaza"))
    assert isinstance(again, Applied) and again.get("impulso").value == 4
    await assert_ledger_matches(store)


async def test_undo_by_pool_and_owner(store: Store) -> None:
    await store.apply(op(1, Change("determinacion", 1, owner_id=10)))
    await store.apply(op(2, Change("determinacion", 1, owner_id=11)))
    await store.apply(op(3, Change("amenaza", 2)))
    reverted = await store.apply(undo(4, "determinacion", 10))
    assert isinstance(reverted, Applied) and reverted.pools[0].owner_id == 10
    assert await store.pool(CHANNEL, "determinacion", 11) == 1 and await store.pool(CHANNEL, "amenaza") == 2


async def test_undo_refuses_an_operation_whose_reason_is_final(store: Store) -> None:
    """An operation that also wrote a sheet's file is not reverted by its rows alone."""
    from bot.models import Undo

    await store.apply(op(1, Change("impulso", 3)))
    await store.apply(Operation(CHANNEL, 2, 7, "dune.asset.permanent", (Change("impulso", -2),)))
    final = Undo(final=frozenset({"dune.asset.permanent"}))
    refused = await store.apply(Operation(CHANNEL, 3, 7, "mesa.undo", undo=final))
    assert isinstance(refused, Refused) and refused.key == "mesa.deshacer.final"
    assert await store.pool(CHANNEL, "impulso") == 1
    await assert_ledger_matches(store)


async def test_reset_zeroes_pools_and_retires_rolls_but_keeps_the_kinds_asked(store: Store) -> None:
    from bot.models import NewRecord, Reset

    await store.apply(op(1, Change("impulso", 3)))
    await store.apply(Operation(CHANNEL, 2, 7, "roll", new_record=NewRecord(7, "dune", {"a": 1})))
    await store.apply(Operation(CHANNEL, 3, 7, "sheet", new_record=NewRecord(7, "ficha", {"pv": 5})))
    reset = await store.apply(Operation(CHANNEL, 4, 7, "mesa.reset", reset=Reset(keep=("ficha",))))
    assert isinstance(reset, Applied) and [(p.pool, p.value) for p in reset.pools] == [("impulso", 0)]
    assert await store.record(1) is None and await store.records(CHANNEL, "dune") == []
    assert (await store.record(2)) is not None
    await assert_ledger_matches(store)


async def test_a_reveal_is_claimed_once_and_can_be_given_back(store: Store) -> None:
    assert await store.claim_reveal(50, 1, 7)
    assert not await store.claim_reveal(50, 1, 8)
    await store.release_reveal(50)
    assert await store.claim_reveal(50, 1, 8)


async def test_gm_channels_serve_the_tables_linked_to_them(store: Store) -> None:
    await store.set_gm_channel(1, 99, 500)
    await store.set_gm_channel(2, 99, 500)
    await store.set_gm_channel(3, 99, 600)
    assert [t.channel_id for t in await store.tables_served(500)] == [1, 2]
    await store.set_gm_channel(2, 99, None)
    assert [t.channel_id for t in await store.tables_served(500)] == [1]


async def test_two_processes_starting_together_migrate_once(
    request: pytest.FixtureRequest, tmp_path: Path, db_target: Path | str
) -> None:
    """Two connections (as two processes would) opening a new database at once: the second
    waits for the first's migration transaction, re-reads the version and does nothing
    (before: "table tables already exists" / "duplicate column name")."""
    for attempt in range(5):
        path = tmp_path / f"race{attempt}.db" if isinstance(db_target, Path) else await another(request)
        stores = await asyncio.gather(Store.open(path), Store.open(path))
        try:
            for store in stores:
                assert await store.schema_version() == len(MIGRATIONS)
        finally:
            for store in stores:
                await store.close()


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
async def test_a_store_that_cannot_open_closes_its_connection(tmp_path: Path, damage: str) -> None:
    """Its worker thread ends too: a thread left running keeps the process from exiting."""
    path = tmp_path / "tirada.db"
    if damage == "garbage":
        path.write_bytes(b"garbage " * 1000)
    else:
        store = await Store.open(path)
        await store.close()
        path.write_bytes(path.read_bytes()[:1500])
    before = set(threading.enumerate())
    with pytest.raises(sqlite3.DatabaseError):
        await asyncio.wait_for(Store.open(path), timeout=30)
    await asyncio.sleep(0)
    leftover = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    for thread in leftover:
        thread.join(timeout=5)
    assert not [t for t in leftover if t.is_alive()]


def test_the_time_is_written_once_a_second() -> None:
    """The text of a second is written at its first ask and given again within it; a naive
    clock (a test's) is written as it was."""
    moments = iter(
        [
            datetime(2026, 11, 1, 12, 0, 0, 100, tzinfo=UTC),
            datetime(2026, 11, 1, 12, 0, 0, 999999, tzinfo=UTC),
            datetime(2026, 11, 1, 12, 0, 1, tzinfo=UTC),
            datetime(2026, 11, 1, 12, 0, 1, 5),
        ]
    )
    part = Part(SimpleNamespace(statements=None), moments.__next__)  # type: ignore[arg-type]
    first, same, later, naive = part._now(), part._now(), part._now(), part._now()
    assert first is same and first == "2026-11-01T12:00:00+00:00"
    assert (later, naive) == ("2026-11-01T12:00:01+00:00", "2026-11-01T12:00:01")


async def test_an_operation_writes_everything_at_one_instant(db_target: Path | str) -> None:
    """A roll paid with a pool, the second before midnight, with a clock that moves at every
    read: its record, its ledger row, its outcome and its dice's day are all that second's
    (the dice were counted the next day when each write read the clock again)."""
    ticks = [datetime(2026, 11, 1, 12, tzinfo=UTC)]

    def clock() -> datetime:
        ticks.append(ticks[-1] + timedelta(seconds=1))
        return ticks[-2]

    store = await Store.open(db_target, clock=clock)
    try:
        await store.apply(op(1, Change("impulso", 3, cap=6)))
        start = datetime(2026, 11, 1, 23, 59, 59, tzinfo=UTC)
        ticks.append(start)
        roll = NewRecord(7, "tirar", {}, "tirar", dice=((20, 5),))
        await store.apply(Operation(CHANNEL, 2, 7, "r", (Change("impulso", -1, cap=6),), new_record=roll))
        db: Any = store.db
        stamp = start.isoformat(timespec="seconds")
        assert [r.created_at for r in await store.ledger(CHANNEL, limit=1)] == [stamp]
        assert await db.fetch_value("SELECT created_at FROM records WHERE interaction_id = 2") == stamp
        assert await db.fetch_value("SELECT created_at FROM operations WHERE interaction_id = 2") == stamp
        assert await db.fetch_value("SELECT day FROM dice_counts") == start.date().isoformat()
    finally:
        await store.close()


async def test_retention_forgets_replay_records_and_old_rolls_but_never_the_ledger(
    db_target: Path | str,
) -> None:
    """Operations past Discord's replay window and rolls nothing reads any more go; a Dune
    roll counting towards a task, other kinds (sheets, tasks), and the ledger stay."""
    now = [datetime(2026, 11, 1, tzinfo=UTC)]
    store = await Store.open(db_target, clock=lambda: now[0])
    try:
        await store.apply(op(1, Change("impulso", 3, cap=6)))
        await store.apply(op(2, Change("impulso", -1, cap=6)))
        plain = await store.save_record(CHANNEL, 10, 7, "tirar", {"expresion": "1d20"})
        linked = await store.save_record(CHANNEL, 11, 7, "dune", {"task_id": 99})
        sheet = await store.save_record(CHANNEL, 12, 7, "mediana_ficha", {})
        retention = Retention(kinds=("tirar", "dune"))
        now[0] += timedelta(minutes=10)
        assert await store.prune(retention) == Pruned()
        assert (await store.apply(op(1, Change("impulso", 3, cap=6)))).replayed
        now[0] += timedelta(minutes=11)
        assert await store.prune(retention) == Pruned(operations=2)
        now[0] += timedelta(days=30)
        assert await store.prune(retention) == Pruned(records=1)
        assert await store.record(plain) is None
        assert await store.record(linked) is not None and await store.record(sheet) is not None
        assert len(await store.ledger(CHANNEL)) == 2
        await assert_ledger_matches(store)
    finally:
        await store.close()


async def test_retention_remembers_until_when_each_tables_rolls_were_forgotten(db_target: Path | str) -> None:
    """The chronicle reads rolls back in time: pruning notes, per table, the newest roll it
    forgot, so the chronicle can say which rolls are gone (bot/cronica.py)."""
    now = [datetime(2026, 11, 1, tzinfo=UTC)]
    store = await Store.open(db_target, clock=lambda: now[0])
    try:
        await store.save_record(CHANNEL, 10, 7, "tirar", {})
        now[0] += timedelta(hours=1)
        await store.save_record(CHANNEL, 11, 7, "tirar", {})
        await store.save_record(CHANNEL + 1, 12, 7, "mediana_ficha", {})
        assert await store.forgotten_until(CHANNEL) is None
        now[0] += timedelta(days=31)
        assert (await store.prune(Retention(kinds=("tirar",)))).records == 2
        assert await store.forgotten_until(CHANNEL) == "2026-11-01T01:00:00+00:00"
        assert await store.forgotten_until(CHANNEL + 1) is None
        await store.save_record(CHANNEL, 13, 7, "tirar", {})
        now[0] += timedelta(days=31)
        await store.prune(Retention(kinds=("tirar",)))
        assert await store.forgotten_until(CHANNEL) == "2026-12-02T01:00:00+00:00"
    finally:
        await store.close()


async def test_retention_forgets_dice_counts_older_than_a_year(db_target: Path | str) -> None:
    """A day's dice counts go once ``Retention.dice`` has passed since that day (the
    longest /estadisticas reads), in the same pruning as the rest; younger days stay."""
    now = [datetime(2025, 11, 1, 12, tzinfo=UTC)]
    store = await Store.open(db_target, clock=lambda: now[0])
    try:
        roll = NewRecord(7, "dune", {}, system="dune", dice=((20, 3), (20, 17)))
        await store.apply(Operation(CHANNEL, 1, 7, "test", new_record=roll))
        now[0] += timedelta(days=365)
        await store.apply(Operation(CHANNEL, 2, 7, "test", new_record=roll))
        assert (await store.prune(Retention())).dice == 0
        now[0] += timedelta(days=1)
        assert (await store.prune(Retention())).dice == 2
        assert await store.dice_counts("2000-01-01") == {("dune", 20): {3: 1, 17: 1}}
    finally:
        await store.close()


async def test_pruning_runs_in_the_background(harness: Harness) -> None:
    assert harness.bot is not None and harness.bot.prune.is_running()


async def test_both_backends_migrate_to_the_same_tables_and_columns(
    tmp_path: Path, postgres_url: str
) -> None:
    """The two migration lists are one list in two dialects: version for version, the same
    tables with the same columns (PostgreSQL adds only the table holding the version)."""
    import asyncpg

    await (await Store.open(tmp_path / "schema.db")).close()
    await (await Store.open(postgres_url)).close()
    with sqlite3.connect(tmp_path / "schema.db") as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        sqlite_schema = {
            n: {c[1] for c in db.execute(f"PRAGMA table_info({n})")}
            for n in names
            if not n.startswith("sqlite_")
        }
    connection = await asyncpg.connect(postgres_url)
    rows = await connection.fetch(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
    )
    await connection.close()
    postgres_schema: dict[str, set[str]] = {}
    for row in rows:
        postgres_schema.setdefault(row[0], set()).add(row[1])
    assert postgres_schema.pop("schema_version") == {"version"}
    assert postgres_schema == sqlite_schema


async def test_two_processes_spending_on_one_table_never_overspend(postgres_url: str) -> None:
    """Two stores on one PostgreSQL database, as two shard processes: 20 spends of 10 from
    100, half through each, and a replay of each spend through the other store."""
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        await first.apply(op(1, Change("impulso", 100)))
        spends = [op(100 + i, Change("impulso", -10)) for i in range(20)]
        stores = [first, second]
        outcomes = await asyncio.gather(
            *(stores[i % 2].apply(spend) for i, spend in enumerate(spends)),
            *(stores[(i + 1) % 2].apply(spend) for i, spend in enumerate(spends)),
        )
        fresh_outcomes = [o for o in outcomes if not o.replayed]
        assert len(fresh_outcomes) == 20
        assert sum(isinstance(o, Applied) for o in fresh_outcomes) == 10
        assert await first.pool(CHANNEL, "impulso") == 0
        await assert_ledger_matches(second)
    finally:
        await first.close()
        await second.close()


def test_only_the_adapters_speak_to_a_driver() -> None:
    """The store's operations are written once, against ``bot.store.database``: no other
    module of the store imports a driver, and no PostgreSQL store inherits SQLite's."""
    drivers = {"sqlite3", "aiosqlite", "asyncpg"}
    adapters = {"sqlite.py", "postgres.py", "postgres_follow.py", "connection.py"}
    for path in sorted(Path("bot/store").glob("*.py")):
        if path.name in adapters:
            continue
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
        }
        assert not imported & drivers, path


def test_the_store_has_every_method_the_protocol_names() -> None:
    """What the type checker holds it to (``Store.open`` returns one), checked at run time too."""
    public = {name for name in vars(Store) if not name.startswith("_")} - {"open"}
    assert public - {"listeners", "path"} <= {name for name in dir(SqlStore) if not name.startswith("_")}


async def test_saved_rolls_are_bounded_named_once_and_listed_own_first(store: Store) -> None:
    def saved(name: str, scope: int = 0, owner: int = 7) -> SavedRoll:
        return SavedRoll(0, scope, owner, 7, name, "tirar", {"expresion": "1d20"})

    assert await store.save_named_roll(saved("Zeta"), 2) == "saved"
    assert await store.save_named_roll(saved("Zeta"), 2) == "exists"
    assert await store.save_named_roll(saved("ataque"), 2) == "saved"
    assert await store.save_named_roll(saved("más"), 2) == "full"
    assert await store.save_named_roll(saved("Alfa", scope=CHANNEL, owner=0), 2) == "saved"
    listed = await store.named_rolls(7, CHANNEL)
    assert [r.name for r in listed] == ["Zeta", "ataque", "Alfa"]
    assert [r.name for r in await store.named_rolls(7, CHANNEL, "aq")] == ["ataque"]
    assert [r.name for r in await store.named_rolls(7, None)] == ["Zeta", "ataque"]
    assert await store.delete_named_roll(listed[0].id)
    assert not await store.delete_named_roll(listed[0].id)


async def test_dice_are_counted_with_their_roll_once(store: Store) -> None:
    roll = NewRecord(7, "dune", {}, system="dune", dice=((20, 3), (20, 3), (20, 17)))
    for _ in range(2):
        await store.apply(Operation(CHANNEL, 5, 7, "test", new_record=roll))
    assert await store.dice_counts("2000-01-01", user_id=7) == {("dune", 20): {3: 2, 17: 1}}
    assert await store.dice_counts("2000-01-01", channel_id=CHANNEL + 1) == {}
    assert await store.latest_roll(CHANNEL, 7, ["tirar", "dune"]) is not None


async def test_dice_a_record_update_threw_are_counted_with_it_once(store: Store) -> None:
    """A contest resolved by its button: the dice go in with the update, under whoever
    resolved it; a replay or a stale update counts nothing."""
    record_id = await store.save_record(CHANNEL, 1, 7, "mediana", {"entries": []})
    resolved = RecordUpdate(record_id, 0, {"entries": [1]}, "mediana", ((10, 4), (10, 4), (10, 9)))
    for _ in range(2):
        await store.apply(Operation(CHANNEL, 2, 8, "resolve", record_update=resolved))
    stale = await store.apply(Operation(CHANNEL, 3, 8, "resolve", record_update=resolved))
    assert isinstance(stale, Refused)
    assert await store.dice_counts("2000-01-01", user_id=8) == {("mediana", 10): {4: 2, 9: 1}}
    assert await store.dice_counts("2000-01-01", user_id=7) == {}


async def test_a_secret_rolls_dice_count_at_its_reveal_and_a_private_rolls_for_its_roller(
    store: Store,
) -> None:
    """Statistics asked before and after a roll would isolate its dice: a secret roll's
    count once, when it is revealed (not when a button changes it before), and a private
    roll's only in its roller's own statistics."""
    dice = ((20, 17),)
    secret = NewRecord(7, "tirar", {}, "tirar", dice, secret=True)
    made = await store.apply(Operation(CHANNEL, 1, 7, "tirar", new_record=secret))
    assert isinstance(made, Applied) and made.record_id is not None
    changed = RecordUpdate(made.record_id, 0, {"x": 1}, "tirar", ((20, 3),))
    await store.apply(Operation(CHANNEL, 2, 7, "tirar", record_update=changed))
    assert await store.dice_counts("2000-01-01") == {}
    for _ in range(2):
        await store.set_record_message(made.record_id, 99, system="tirar", dice=dice)
    assert await store.dice_counts("2000-01-01", channel_id=CHANNEL) == {("tirar", 20): {17: 1}}
    private = NewRecord(8, "tirar", {}, "tirar", ((20, 5),), private=True)
    await store.apply(Operation(CHANNEL, 3, 8, "tirar", new_record=private))
    assert await store.dice_counts("2000-01-01", user_id=8) == {("tirar", 20): {5: 1}}
    assert await store.dice_counts("2000-01-01", channel_id=CHANNEL) == {("tirar", 20): {17: 1}}
    assert await store.dice_counts("2000-01-01") == {("tirar", 20): {17: 1}}


async def test_a_ledger_row_of_an_npc_sheets_pool_is_marked_the_gms_and_so_is_its_undo(store: Store) -> None:
    """Hiding an NPC's numbers must not depend on the sheet still existing: the row says it."""
    await store.apply(op(1, Change("impulso", 1)))
    npc = SheetRow(0, CHANNEL, 7, True, "Orco", "orco", "dnd5e", {})
    sheet_id, _ = await store.create_sheet(
        Operation(CHANNEL, 2, 7, "fichas.crear"), npc, lambda i: (Change("ficha_pg", 9, owner_id=i),)
    )
    await store.delete_sheet(CHANNEL, sheet_id)
    await store.apply(undo(3))
    rows = await store.ledger(CHANNEL)
    assert [(r.pool, r.delta, bool(r.gm_only)) for r in rows] == [
        ("ficha_pg", -9, True),
        ("ficha_pg", 9, True),
        ("impulso", 1, False),
    ]


async def test_a_deleted_sheets_pools_are_no_longer_read_with_the_tables(store: Store) -> None:
    """Its ledger rows and pools stay (undo reverts them), but neither the interaction's
    context nor the table's pools list them: a table that made and deleted many sheets read
    them all on every interaction."""
    await store.apply(op(1, Change("impulso", 2)))
    kept, _ = await store.create_sheet(op(2), a_sheet("Ana"), lambda i: (Change("ficha_pg", 9, owner_id=i),))
    gone, _ = await store.create_sheet(op(3), a_sheet("Bea"), lambda i: (Change("ficha_pg", 7, owner_id=i),))
    await store.delete_sheet(CHANNEL, gone)
    expected = [PoolValue("ficha_pg", kept, 9), PoolValue("impulso", 0, 2)]
    assert await store.pools(CHANNEL) == expected
    assert list((await store.context(CHANNEL, None)).pools) == expected
    assert await store.pool(CHANNEL, "ficha_pg", gone) == 7
    await store.apply(undo(4))
    assert await store.pool(CHANNEL, "ficha_pg", gone) == 0


async def test_the_chronicle_reads_what_the_table_saw_and_when_the_scene_ended(store: Store) -> None:
    seen = await store.save_record(CHANNEL, 10, 7, "tirar", {})
    secret = await store.apply(
        Operation(CHANNEL, 11, 7, "tirar", new_record=NewRecord(7, "tirar", {}, secret=True))
    )
    assert isinstance(secret, Applied) and secret.record_id is not None
    hidden = secret.record_id
    await store.apply(op(12, Change("impulso", 2)))
    since, until = "2000-01-01", "9999-01-01"
    assert [r.id for _, r in await store.session_rolls(CHANNEL, since, until, 10)] == [seen]
    await store.claim_reveal(99, hidden, 7)
    assert [r.id for _, r in await store.session_rolls(CHANNEL, since, until, 10)] == [seen, hidden]
    assert [r.delta for r in await store.session_ledger(CHANNEL, since, until, 10)] == [2]
    assert await store.scene_end(CHANNEL) is None
    await store.mark_scene_end(CHANNEL)
    assert await store.scene_end(CHANNEL) is not None


async def test_listeners_hear_each_change_once_and_no_replay(store: Store) -> None:
    """The live boards learn of changes through ``listeners``, on both backends, each with
    what it changed: pools, a record of its kind, the table's row."""
    heard: list[tuple[int, Touched]] = []
    store.listeners.append(lambda channel, touched: heard.append((channel, touched)))
    await store.apply(op(1, Change("impulso", 2)))
    await store.apply(op(1, Change("impulso", 2)))
    await store.save_record(CHANNEL, 2, 7, "tirar", {})
    await store.set_system(CHANNEL, 99, "dune")
    assert heard == [
        (CHANNEL, Touched(ledger=True)),
        (CHANNEL, Touched(kinds=frozenset({"tirar"}))),
        (CHANNEL, TABLE),
    ]
    await store.set_meta("x", "1")
    assert await store.meta_with_prefix("x") == {"x": "1"}
    await store.delete_meta("x")
    assert await store.meta_with_prefix("x") == {}


async def test_a_database_from_before_the_records_rename_keeps_its_records_and_replays(
    tmp_path: Path,
) -> None:
    """Schema 5 renames ``rolls`` to ``records``: a file written by schema 4 keeps its
    records (with their ids, for the buttons already posted) and its recorded outcomes."""
    path = tmp_path / "v4.db"
    with sqlite3.connect(path) as db:
        for statement in (s for migration in MIGRATIONS[:4] for s in migration):
            db.execute(statement)
        db.execute(
            "INSERT INTO rolls (id, channel_id, interaction_id, user_id, kind, data, created_at) "
            "VALUES (5, ?, 40, 7, 'dune', '{\"left\": 2}', '2026-11-30T00:00:00+00:00')",
            (CHANNEL,),
        )
        outcome = '{"kind": "applied", "pools": [], "replayed": false, "roll_id": 5, "retired": 0}'
        db.execute(
            "INSERT INTO operations (interaction_id, step, channel_id, outcome, created_at) "
            "VALUES (40, 0, ?, ?, '2099-01-01T00:00:00+00:00')",
            (CHANNEL, outcome),
        )
        db.execute("PRAGMA user_version = 4")
    store = await Store.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        record = await store.record(5)
        assert record is not None and record.data == {"left": 2}
        assert [r.id for r in await store.records(CHANNEL, "dune")] == [5]
        replay = await store.apply(Operation(CHANNEL, 40, 7, "buy", (Change("impulso", -1),)))
        assert isinstance(replay, Applied) and replay.replayed and replay.record_id == 5
        assert await store.save_record(CHANNEL, 41, 7, "dune", {}) == 6
    finally:
        await store.close()


async def active_id(store: Store, owner: int) -> int | None:
    active = await store.active_sheet(CHANNEL, owner)
    return None if active is None else active.id


def a_sheet(name: str, owner: int = 7, npc: bool = False) -> SheetRow:
    return SheetRow(0, CHANNEL, owner, npc, name, name.lower(), "dnd", {"nombre": name})


async def test_sheets_one_active_per_player_their_pools_in_the_same_operation(store: Store) -> None:
    """/ficha's store, on both backends: a sheet and its live pools are one operation,
    once per interaction; names are unique per owner; one active sheet per player."""

    def live(sheet_id: int) -> tuple[Change, ...]:
        return (Change("pg_ficha", 12, owner_id=sheet_id),)

    first, outcome = await store.create_sheet(op(1), a_sheet("Ana"), live)
    assert isinstance(outcome, Applied)
    again, replay = await store.create_sheet(op(1), a_sheet("Ana"), live)
    assert again == first and isinstance(replay, Applied) and replay.replayed
    _, clash = await store.create_sheet(op(2), a_sheet("ANA"), live)
    assert isinstance(clash, Refused) and clash.key == "fichas.exists"
    second, _ = await store.create_sheet(op(3), a_sheet("Bea"), live)
    npc, _ = await store.create_sheet(op(4), a_sheet("Orco", owner=9, npc=True), live)
    assert [s.name for s in await store.sheets(CHANNEL)] == ["Ana", "Bea", "Orco"]
    assert await active_id(store, 7) == second
    assert await store.choose_sheet(CHANNEL, 7, first)
    assert await active_id(store, 7) == first
    assert await store.active_sheet(CHANNEL, 9) is None
    assert await store.sheet(CHANNEL + 1, first) is None
    row = await store.sheet(CHANNEL, first)
    assert row is not None and await store.update_sheet(first, row.version, {"nombre": "Ana B."})
    assert not await store.update_sheet(first, row.version, {"nombre": "tarde"})
    changed = await store.sheet(CHANNEL, first)
    assert changed is not None and changed.data == {"nombre": "Ana B."}
    assert await store.pool(CHANNEL, "pg_ficha", first) == 12
    assert await store.players(CHANNEL, not_players=["pg_ficha"]) == []
    assert await store.delete_sheet(CHANNEL, npc) and not await store.delete_sheet(CHANNEL, npc)
    await store.apply(op(5, Change("impulso", 3)))
    await store.apply(replace(op(6), reset=Reset(keep_pools=("pg_ficha",))))
    assert await store.pool(CHANNEL, "pg_ficha", first) == 12 and await store.pool(CHANNEL, "impulso") == 0


async def test_a_refused_sheet_leaves_the_owners_active_sheet_as_it_was(store: Store) -> None:
    """A new sheet whose live numbers are refused is not made, and the player's sheet in
    play stays the active one (its switch is part of what the refusal takes back)."""
    first, _ = await store.create_sheet(op(1), a_sheet("Ana"), lambda i: ())
    _, refused = await store.create_sheet(
        op(2), a_sheet("Bea"), lambda i: (Change("pg_ficha", -1, owner_id=i),)
    )
    assert isinstance(refused, Refused) and refused.key == "pool.not_enough"
    assert [s.name for s in await store.sheets(CHANNEL)] == ["Ana"]
    assert await active_id(store, 7) == first
    _, replayed = await store.create_sheet(
        op(2), a_sheet("Bea"), lambda i: (Change("pg_ficha", -1, owner_id=i),)
    )
    assert isinstance(replayed, Refused) and replayed.replayed
    assert [s.name for s in await store.sheets(CHANNEL)] == ["Ana"]
    assert await active_id(store, 7) == first


async def test_a_tables_context_is_its_table_and_pools_read_in_one_statement(store: Store) -> None:
    """``Store.context``: what ``table_or_default`` and ``pools`` answer, in one statement."""
    empty = await store.context(CHANNEL, 5)
    assert empty.table == await store.table_or_default(CHANNEL, 5) and empty.pools == ()
    await store.set_gm(CHANNEL, 5, 9)
    await store.apply(op(1, Change("impulso", 3), Change("determinacion", 1, owner_id=7)))
    with reads_of(store) as statements:
        context = await store.context(CHANNEL, 5)
    assert len(statements) == 1
    assert context.table == await store.table(CHANNEL)
    assert list(context.pools) == await store.pools(CHANNEL)
    assert (
        context.pool("determinacion", 7) == 1 and context.pool("impulso") == 3 and context.pool("nada") == 0
    )


async def test_an_sqlite_transaction_that_would_wait_is_rolled_back(sqlite_store: Store) -> None:
    """SQLite runs a transaction's coroutine whole, where nothing else runs meanwhile (the
    loop, or the connection's thread: ``tests/bot/store/test_sqlite.py``): one that awaited
    anything but its own statements would let another slip in, so it is refused and nothing
    it wrote stays."""

    async def waits(tx: Any) -> None:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="awaited something other"):
        await sqlite_store.db.transact(waits)  # type: ignore[attr-defined]
    assert await sqlite_store.get_meta("k") is None


async def test_a_gm_channels_context_names_the_tables_it_serves_and_its_own_pools_only(store: Store) -> None:
    """``Store.context`` from a GM channel: no table of its own, the tables it serves (in
    channel order), and the pools of that channel alone (none), in the same one statement."""
    gm_channel = 4242
    for channel in (CHANNEL + 1, CHANNEL):
        await store.set_gm_channel(channel, 5, gm_channel)
    await store.apply(op(1, Change("impulso", 3)))
    context = await store.context(gm_channel, 5)
    assert context.own is None and context.table == Table(gm_channel, 5)
    assert context.served == (await store.table(CHANNEL), await store.table(CHANNEL + 1))
    assert context.pools == ()
    at_table = await store.context(CHANNEL, 5)
    assert at_table.own == await store.table(CHANNEL) and at_table.served == ()
    assert at_table.pools == tuple(await store.pools(CHANNEL))


async def test_a_context_asked_with_a_record_reads_it_in_the_same_one_statement(store: Store) -> None:
    """A pressed button's record comes with its channel's table and pools: what
    ``Store.record`` answers (a record of another table too; a retired one is gone), the
    rest of the context as without it."""
    await store.set_gm(CHANNEL, 5, 9)
    made = await store.apply(
        Operation(
            CHANNEL, 1, 7, "tirar", (Change("impulso", 2),), new_record=NewRecord(7, "tirar", {"d": [1, 2]})
        )
    )
    elsewhere = await store.apply(
        Operation(CHANNEL + 1, 2, 7, "tirar", new_record=NewRecord(7, "tirar", {}, secret=True))
    )
    assert isinstance(made, Applied) and isinstance(elsewhere, Applied)
    assert made.record_id is not None and elsewhere.record_id is not None
    with reads_of(store) as statements:
        context = await store.context(CHANNEL, 5, made.record_id)
        other = await store.context(CHANNEL, 5, elsewhere.record_id)
    assert len(statements) == 2
    assert context.record == await store.record(made.record_id) and context.record is not None
    assert other.record == await store.record(elsewhere.record_id) and other.record is not None
    assert other.record.secret and other.record.channel_id == CHANNEL + 1
    without = await store.context(CHANNEL, 5)
    assert without.record is None
    assert (context.own, context.served, context.pools) == (without.own, without.served, without.pools)
    assert context.pool("impulso") == 2
    await store.apply(Operation(CHANNEL, 3, 9, "mesa.reset", reset=Reset()))
    assert (
        (await store.context(CHANNEL, 5, made.record_id)).record is None is await store.record(made.record_id)
    )


async def test_a_record_says_whether_it_is_still_secret(store: Store) -> None:
    """What buttons read of a secret roll (Donjon's facts stay with the GM until its reveal):
    secret from its first write, to a button changing it, until the reveal posts it."""
    made = await store.apply(
        Operation(CHANNEL, 1, 7, "tirar", new_record=NewRecord(7, "tirar", {}, secret=True))
    )
    assert isinstance(made, Applied) and made.record_id is not None
    await store.set_record_message(made.record_id, 55, secret=True)
    await store.apply(Operation(CHANNEL, 2, 7, "tirar", record_update=RecordUpdate(made.record_id, 0, {})))
    assert [r.secret for r in await store.records(CHANNEL, "tirar")] == [True]
    await store.set_record_message(made.record_id, 99)
    assert (await store.record(made.record_id) or pytest.fail("gone")).secret is False
