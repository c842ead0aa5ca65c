"""Rolls per second: the engine, raw d20 as the reference, and /tirar end to end.

Run: ``python bench/bench_roll.py`` (from the repository root, test extras installed).
Raw ``d20`` is measured first, before ``rules.expression`` replaces d20's global RNG with
our injected one, so the reference is the library exactly as published.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import statistics
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path

import d20

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

EXPRESSION = "4d6kh3+2"


def per_second(fn: Callable[[], object], seconds: float = 1.0) -> float:
    timer = timeit.Timer(fn)
    count, _ = timer.autorange()
    best = min(timer.repeat(repeat=5, number=max(count, int(count * seconds / 0.2))))
    return max(count, int(count * seconds / 0.2)) / best


async def interactions(n: int) -> tuple[float, float, float]:
    harness_module = importlib.import_module("tests.support.harness")
    with tempfile.TemporaryDirectory() as folder:
        harness = harness_module.Harness(Path(folder) / "bench.db")
        await harness.start()
        latencies = []
        started = time.perf_counter()
        for _ in range(n):
            t0 = time.perf_counter()
            await harness.slash("tirar", expresion=EXPRESSION)
            latencies.append(time.perf_counter() - t0)
        elapsed = time.perf_counter() - started
        await harness.close()
    latencies.sort()
    return n / elapsed, statistics.median(latencies) * 1000, latencies[int(n * 0.99) - 1] * 1000


def main() -> None:
    raw = per_second(lambda: d20.roll(EXPRESSION))
    dice = importlib.import_module("rules.dice")
    expression = importlib.import_module("rules.expression")
    rng = random.Random(1)
    pool = per_second(lambda: dice.roll_pool(rng, 10, 20))
    ours = per_second(lambda: expression.roll_expression(EXPRESSION, rng))
    rate, p50, p99 = asyncio.run(interactions(1000))
    rows = [
        ("`rules.dice.roll_pool` 10d20", f"{pool:,.0f} pools/s"),
        (f"raw `d20.roll('{EXPRESSION}')` (reference)", f"{raw:,.0f} rolls/s"),
        (
            f"`rules.expression.roll_expression('{EXPRESSION}')`",
            f"{ours:,.0f} rolls/s ({ours / raw:.2f}× d20)",
        ),
        (
            f"`/tirar {EXPRESSION}` through discord.py (harness, 1000 in a row)",
            f"{rate:,.0f} interactions/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms",
        ),
    ]
    print("| what | rate |\n| --- | --- |")
    for what, rate_text in rows:
        print(f"| {what} | {rate_text} |")


if __name__ == "__main__":
    main()
