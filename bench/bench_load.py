"""Many tables at once through the interaction harness: throughput, latency, size, memory.

Run: ``python bench/bench_load.py [tables ...]`` (default 20 200 2000). Each size starts a
fresh bot on a fresh database file, sets up the tables (a GM and five players each, the
four systems in turn), then plays two bursts per table in batches of 25 tables at once.
Latency runs from feeding INTERACTION_CREATE to the first answer sent to Discord.
"""

from __future__ import annotations

import asyncio
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.harness import Harness
from tests.support.load import check_invariants, make_tables, run_load


async def measure(count: int) -> str:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.db"
        harness = Harness(db, seed=count)
        await harness.start()
        tables = make_tables(count)
        report = await run_load(harness, tables, rounds=2, batch=25)
        problems = await check_invariants(harness, tables, report)
        await harness.close()
        size = database_size(Path(folder))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return (
        f"| {count} | {report.interactions} | {report.rate:,.0f}/s | {report.p50:.1f} ms | "
        f"{report.percentile(0.99):.1f} ms | {size / 1e6:.1f} MB | {peak:.0f} MB | "
        f"{'all hold' if not problems else f'{len(problems)} broken'} |"
    )


def database_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.glob("load.db*"))


def main(sizes: list[int]) -> None:
    """One process per size, so each peak memory (max RSS) is that size's alone."""
    print("| tables | interactions | throughput | p50 | p99 | database | peak RSS | invariants |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
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
