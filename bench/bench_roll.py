"""Rolls per second: the engine, raw d20 as the reference, and /tirar end to end.

Run: ``python bench/bench_roll.py`` (from the repository root, test extras installed).
Each expression is timed twice, each time in a fresh process: raw ``d20.roll`` in one that
never imports ``rules`` (so d20 is the library exactly as published, its global RNG
untouched), ``rules.expression.roll_expression`` in another; the two alternate, and each
side's figure is the median over the rounds of its best-of-five timing. Those timings
count the process's own CPU time, not wall time: on a shared machine the other processes'
load then does not decide the ratio.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path

import d20

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

EXPRESSION = "4d6kh3+2"
# (ours, d20's spelling): d20 writes "explode on 10" as e10; we also accept "!".
EXPRESSIONS = [
    ("1d20+5", "1d20+5"),
    ("2d20kh1+7", "2d20kh1+7"),
    ("8d6+2d8+5", "8d6+2d8+5"),
    ("4d6kh3+2", "4d6kh3+2"),
    ("10d10!", "10d10e10"),
]
ROUNDS = 3


def per_second(
    fn: Callable[[], object], seconds: float = 1.0, clock: Callable[[], float] = time.perf_counter
) -> float:
    timer = timeit.Timer(fn, timer=clock)
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


def one_side(side: str, expression: str) -> float:
    """Rolls per second of one side on one expression, in this (fresh) process."""
    if side == "d20":
        return per_second(lambda: d20.roll(expression), 0.15, time.process_time)
    rolls = importlib.import_module("rules.expression")
    rng = random.Random(1)
    return per_second(lambda: rolls.roll_expression(expression, rng), 0.15, time.process_time)


def in_process(side: str, expression: str) -> float:
    out = subprocess.run(
        [sys.executable, __file__, "--one", side, expression], capture_output=True, text=True, check=True
    )
    return float(out.stdout)


def expressions() -> None:
    print("| expression | raw `d20.roll` | `roll_expression` | ratio |\n| --- | --- | --- | --- |")
    for ours, theirs in EXPRESSIONS:
        raw, mine = [], []
        for _ in range(ROUNDS):
            raw.append(in_process("d20", theirs))
            mine.append(in_process("ours", ours))
        r, m = statistics.median(raw), statistics.median(mine)
        shown = f"`{ours}`" if ours == theirs else f"`{ours}` (d20: `{theirs}`)"
        print(f"| {shown} | {r:,.0f}/s | {m:,.0f}/s | {m / r:.2f}× |", flush=True)


def main() -> None:
    expressions()
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
    if sys.argv[1:2] == ["--one"]:
        print(one_side(sys.argv[2], sys.argv[3]))
    elif sys.argv[1:2] == ["--expressions"]:
        expressions()
    else:
        main()
