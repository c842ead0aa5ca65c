"""Issue 29's budget: no interaction of ordinary play runs more than 10 data statements, and
none reads the table's row more than once (counted with SQLite's trace callback over the
play ``bench/bench_statements.py`` reports: ``tests/support/statements.py``)."""

from __future__ import annotations

from pathlib import Path

from tests.support.statements import Count, count_play, data_statements, tables_read

BUDGET = 10


async def test_every_interaction_of_ordinary_play_stays_within_ten_statements_and_one_read_of_its_table(
    tmp_path: Path,
) -> None:
    counts = await count_play(tmp_path / "tirada.db")
    assert len(counts) == 12
    over = [f"{c.what}: {over_budget(c)}" for c in counts if over_budget(c)]
    assert over == []


def over_budget(count: Count) -> str:
    """What ``count`` spends beyond the budget ("" within it), with its statements to read."""
    data = data_statements(count.statements)
    if len(data) <= BUDGET and tables_read(data) <= 1:
        return ""
    return f"{len(data)} statements, {tables_read(data)} reads of tables: " + " | ".join(data)
