"""A small load in CI: many tables at once, then the invariants (issue: nothing is lost)."""

from pathlib import Path

import pytest

from tests.support.harness import Harness
from tests.support.load import check_invariants, make_tables, run_load

# Each test starts a bot of its own (its own seed and database): a loop of its own too.
pytestmark = pytest.mark.asyncio(loop_scope="function")


async def test_a_small_load_keeps_every_invariant(db_target: Path | str) -> None:
    h = Harness(db_target, seed=7)
    await h.start()
    tables = make_tables(12)
    report = await run_load(h, tables, rounds=2, batch=12)
    assert report.interactions > 100
    assert await check_invariants(h, tables, report) == []
    await h.close()


async def test_with_a_board_at_every_table_each_ends_showing_the_final_pools(tmp_path: Path) -> None:
    """Boards keep up with a load: they end up showing the final state, in fewer edits than
    there were interactions (coalesced), and no interaction is slowed into failing."""
    h = Harness(tmp_path / "boards.db", seed=5)
    await h.start()
    tables = make_tables(8)
    report = await run_load(h, tables, rounds=2, batch=8, boards=True)
    assert await check_invariants(h, tables, report) == []
    assert h.bot is not None
    assert len(h.bot.boards.spots) == 8
    assert h.bot.boards.edits - len(tables) < report.interactions
    await h.close()


async def test_every_reason_the_load_writes_to_the_ledger_reads_as_a_sentence(tmp_path: Path) -> None:
    """/mesa historial shows why each pool changed; a reason without a sentence in the
    catalog would show as a code."""
    import sqlite3

    from bot.i18n import CATALOG

    h = Harness(tmp_path / "reasons.db", seed=3)
    await h.start()
    tables = make_tables(8)
    await run_load(h, tables, rounds=4, batch=8)
    # Which rolls make Impulso depends on how the concurrent load interleaves its draws of
    # the one RNG: one scripted roll at a Dune table saves and spends some, whatever the load did.
    dune = next(t for t in tables if t.system == "dune")
    player = dune.players[0]
    h.script(1, 1)
    roll = await h.slash(
        "dune tirada", user=player, channel_id=dune.channel_id, habilidad=6, motivacion=6, dificultad=0
    )
    save = next(c for c in roll.messages[0].custom_ids if c.startswith("dune:guardar"))
    await h.click(roll.messages[0], save, user=player)
    await h.slash("dune impulso gastar", user=player, channel_id=dune.channel_id)
    await h.close()
    with sqlite3.connect(tmp_path / "reasons.db") as db:
        reasons = {r for (r,) in db.execute("SELECT DISTINCT reason FROM ledger")}
    assert len(reasons) >= 5
    assert {r for r in reasons if f"ledger.{r}" not in CATALOG.entries} == set()
