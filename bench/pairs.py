"""Before and after, side by side: the load of two source trees, alternating, with the same
switches (``bench/switches.py``), each row its own process, the load average read at each.

Run: ``python bench/pairs.py BEFORE AFTER [--tables N] [--passes P]``, where ``BEFORE`` and
``AFTER`` are source trees (a ``git archive`` of each commit, so editing a tree cannot change
what runs). Each pass runs ``bench/bench_load.py --one N`` of ``BEFORE``, then of ``AFTER``,
both through ``bench/switches.py`` of this tree; a row gives the load's own figures, the
play's CPU per interaction and peak memory when the play ends (before the load's retention
pass and its VACUUM, which the last peak includes), and the one-minute load average read just
before it started.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

SWITCHES = Path(__file__).resolve().with_name("switches.py")


def row(label: str, tree: Path, tables: int) -> str:
    load = os.getloadavg()[0]
    run = subprocess.run(
        [sys.executable, str(SWITCHES), str(tree), "bench/bench_load.py", "--one", str(tables)],
        capture_output=True,
        text=True,
        check=True,
    )
    cells = [c.strip() for c in run.stdout.strip().strip("|").split("|")]
    told = run.stderr.strip().splitlines()
    cpu = next(line for line in told if line.startswith("play CPU")).split(": ", 1)[1]
    played = next(line for line in told if line.startswith("peak RSS")).split(": ", 1)[1]
    _, interactions, rate, p50, p99, _, _, peak, edits, invariants = cells
    return (
        f"| {label} | {load:.1f} | {tables} | {interactions} | {rate} | {p50} | {p99} | {played} "
        f"| {peak} | {edits} | {cpu} | {invariants} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    print(
        "| code | load average | tables | interactions | throughput | p50 | p99 | peak RSS at the play's end "
        "| peak RSS | board edits per 100 | play CPU per interaction | invariants |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for _ in range(args.passes):
        for label, tree in (("before", args.before), ("after", args.after)):
            print(row(label, tree.resolve(), args.tables), flush=True)


if __name__ == "__main__":
    main()
