"""Many tables at once through the interaction harness: throughput, latency, size, memory.

Run: ``python bench/bench_load.py [tables ...]`` (default 20 200 2000). Each size starts a
fresh bot on a fresh database file, sets up the tables (a GM and five players each, the
four systems in turn, and a live board each), then plays two bursts per table in batches
of 25 tables at once; the board edits that load causes are counted once they caught up.
Latency runs from feeding INTERACTION_CREATE to the first answer sent to Discord. The
database is measured as the load leaves it, then as retention leaves it 31 days later (the
bytes its live pages hold, and the file after a VACUUM).
"""

from __future__ import annotations

import asyncio
import resource
import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import heap
from bot.client import retention
from bot.store import Store
from tests.support.harness import Harness
from tests.support.load import check_invariants, make_tables, run_load


async def measure(count: int) -> str:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.db"
        harness = Harness(db, seed=count)
        await harness.start()
        heap.settle()  # as `python -m bot` does once logged in
        tables = make_tables(count)
        report = await run_load(harness, tables, rounds=2, batch=25, boards=True)
        problems = await check_invariants(harness, tables, report)
        assert harness.bot is not None
        board_edits = harness.bot.boards.edits - len(tables)  # each board's first post is not an edit
        await harness.close()
        size = database_size(Path(folder))
        in_use, vacuumed = await after_retention(db)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return (
        f"| {count} | {report.interactions} | {report.rate:,.0f}/s | {report.p50:.1f} ms | "
        f"{report.percentile(0.99):.1f} ms | {size / 1e6:.1f} MB | {in_use / 1e6:.1f} MB / "
        f"{vacuumed / 1e6:.1f} MB | {peak:.0f} MB | {100 * board_edits / report.interactions:.0f} | "
        f"{'all hold' if not problems else f'{len(problems)} broken'} |"
    )


async def after_retention(db: Path) -> tuple[int, int]:
    """Prune as the bot would 31 days later; the bytes still in use, and the file after VACUUM."""
    kept = retention()
    later = datetime.now(UTC) + kept.records + timedelta(days=1)
    store = await Store.open(db, clock=lambda: later)
    await store.prune(kept)
    await store.close()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size, pages, free = (
            conn.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("page_size", "page_count", "freelist_count")
        )
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # VACUUM wrote every page to the WAL
    return (pages - free) * page_size, database_size(db.parent)


def database_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.glob("load.db*"))


def main(sizes: list[int]) -> None:
    """One process per size, so each peak memory (max RSS) is that size's alone."""
    print(
        "| tables | interactions | throughput | p50 | p99 | database | after retention (in use / vacuumed) "
        "| peak RSS | board edits per 100 interactions | invariants |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for count in sizes:
        row = subprocess.run(
            [sys.executable, __file__, "--one", str(count)], capture_output=True, text=True, check=True
        )
        print(row.stdout.strip(), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(asyncio.run(measure(int(sys.argv[2]))))
    else:
        main([int(a) for a in sys.argv[1:]] or [20, 200, 2000])
