"""A small load in CI: many tables at once, then the invariants (issue: nothing is lost)."""

from pathlib import Path

from tests.support.harness import Harness
from tests.support.load import check_invariants, make_tables, run_load


async def test_a_small_load_keeps_every_invariant(tmp_path: Path) -> None:
    h = Harness(tmp_path / "load.db", seed=7)
    await h.start()
    tables = make_tables(12)
    report = await run_load(h, tables, rounds=2, batch=12)
    assert len(report.replies) > 100
    assert await check_invariants(h, tables, report) == []
    await h.close()
