"""The load benchmark on SQLite and on PostgreSQL, side by side in one run (issue #20).

Run: ``python bench/bench_backends.py [tables ...]`` (default 200). Needs PostgreSQL's
server binaries (``apt-get install postgresql``): a throwaway server is started in a
temporary directory, as the tests do (tests/support/postgres.py), with a production
server's durability (``fsync`` and ``synchronous_commit`` on: every commit waits for the
disk).

Each backend plays the same load (bench_load.py's: a GM and five players per table, two
bursts per table, 25 tables at a time) through one bot process, and PostgreSQL once more
through two processes at once, each with half the tables (as two shard processes would
share the database). Where the time goes: every store call is timed, so the table shows
the store's cost per interaction (the sum of store time over the interactions; calls
overlap, so it is not a share of the wall clock) and how many store calls an interaction
makes, and how many SQL statements it runs (``bench/counting.py``: SQLite's trace
callback, asyncpg's query logger; transaction control apart). A last row runs PostgreSQL
with ``synchronous_commit = off``: the guarantee SQLite gives in WAL mode with
``synchronous = NORMAL`` (a crashed process loses nothing; a power cut may lose the last
commits, never consistency), so that row is the like-for-like one.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import itertools
import json
import os
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg

from bench.counting import Statements, count_sqlite, counting_postgres
from bot import heap
from bot.store import Store
from tests.support import load, payloads
from tests.support.harness import Harness
from tests.support.load import Report, Table, check_invariants, make_tables
from tests.support.postgres import Server

# A production server's durability: the throwaway test server turns these off.
DURABLE = ("fsync=on", "synchronous_commit=on", "full_page_writes=on", "max_connections=200")


class StoreClock:
    """Times every public coroutine of a store: how long the store took, and how often."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0

    def wrap(self, store: Store) -> None:
        for name, method in inspect.getmembers(store, inspect.iscoroutinefunction):
            if not name.startswith("_"):
                setattr(store, name, self._timed(method))

    def _timed(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
                self.calls += 1

        return timed


def process_cpu() -> float:
    """This process's CPU so far (user + system, every thread), in seconds."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def server_cpu(server: Server) -> float:
    """The PostgreSQL server's CPU so far (its postmaster, its live processes and those that
    ended), in seconds: what the bots' statements cost it (the machine is shared, so CPU
    tells the configurations apart where throughput measures the neighbours too)."""
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == postmaster:
            total += sum(int(f) for f in fields[11:15])
        elif int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / tick


@contextlib.contextmanager
def play_cpu() -> Iterator[list[float]]:
    """While open, the process's CPU from the end of the tables' set-up (appended to the
    list yielded when the set-up ends), so that the play's CPU is ``process_cpu() - it[0]``."""
    setup = load.setup_tables
    marks: list[float] = []

    async def marked(*args: Any, **kwargs: Any) -> None:
        await setup(*args, **kwargs)
        marks.append(process_cpu())

    load.setup_tables = marked
    try:
        yield marks
    finally:
        load.setup_tables = setup


async def play(harness: Harness, tables: list[Table]) -> tuple[Report, list[str], float]:
    """The load on ``tables``, its invariants, and the play's CPU in this process."""
    with play_cpu() as marks:
        report = await load.run_load(harness, tables, rounds=2, batch=25)
    cpu = process_cpu() - marks[0]
    return report, await check_invariants(harness, tables, report), cpu


def cpu_cells(report: Report, bots: float, server: float | None) -> str:
    """CPU per interaction: the bots' play, the server's whole row (set-up included)."""
    per = report.interactions
    return f"{1000 * bots / per:.2f} ms | " + ("—" if server is None else f"{1000 * server / per:.2f} ms")


async def measure(name: str, target: Path | str, count: int, server: Server | None = None) -> str:
    harness = Harness(target, seed=count)
    statements = Statements()
    with contextlib.ExitStack() as counting:
        if isinstance(target, Path):
            bot = await harness.start()
            await count_sqlite(bot.store, statements)
        else:
            # The store opens its connections as the load asks: each is counted.
            counting.enter_context(counting_postgres(statements))
            bot = await harness.start()
        heap.settle()  # as `python -m bot` does once logged in
        clock = StoreClock()
        clock.wrap(bot.store)
        tables = make_tables(count)
        served = server_cpu(server) if server else 0.0
        report, problems, cpu = await play(harness, tables)
        serving = server_cpu(server) - served if server else None
        await harness.close()
    per = report.interactions
    return (
        f"| {name} | {count} | {per} | {report.rate:,.0f}/s | {report.p50:.1f} ms | "
        f"{report.percentile(0.99):.1f} ms | {cpu_cells(report, cpu, serving)} | "
        f"{clock.seconds / per * 1000:.2f} ms | {clock.calls / per:.1f} | "
        f"{(statements.total - statements.control) / per:.1f} + {statements.control / per:.1f} | "
        f"{'all hold' if not problems else f'{len(problems)} broken'} |"
    )


async def half(url: str, count: int, part: int) -> None:
    """One of two processes on one database: every other table of the load, from ``part``.
    Prints its report as JSON for the parent to merge."""
    # Discord's ids are unique across processes; the harness counts from one start in each.
    payloads._ids = itertools.count(1_000_000_000_000_000_000 + part * 10**15)
    harness = Harness(url, seed=count + part)
    await harness.start()
    heap.settle()
    report, problems, cpu = await play(harness, make_tables(count)[part::2])
    await harness.close()
    print(
        json.dumps(
            {"latencies": report.latencies, "seconds": report.seconds, "problems": len(problems), "cpu": cpu}
        )
    )


def launcher() -> list[str]:
    """The command line this script was started with, up to the script itself: run through
    ``bench/switches.py``, the halves are too, so both rows pay the same harness."""
    return sys.orig_argv[: len(sys.orig_argv) - len(sys.argv) + 1]


async def two_processes(server: Server, url: str, count: int) -> str:
    """The load split over two processes on one PostgreSQL database, started together."""
    served = server_cpu(server)
    runs = [
        await asyncio.create_subprocess_exec(
            *launcher(), "--half", url, str(count), str(part), stdout=asyncio.subprocess.PIPE
        )
        for part in (0, 1)
    ]
    halves = [json.loads((await run.communicate())[0]) for run in runs]
    serving = server_cpu(server) - served
    report = Report(count, [x for h in halves for x in h["latencies"]])
    report.seconds = max(h["seconds"] for h in halves)
    problems = sum(h["problems"] for h in halves)
    return (
        f"| PostgreSQL, 2 processes | {count} | {report.interactions} | {report.rate:,.0f}/s | "
        f"{report.p50:.1f} ms | {report.percentile(0.99):.1f} ms | "
        f"{cpu_cells(report, sum(h['cpu'] for h in halves), serving)} | — | — | — | "
        f"{'all hold' if not problems else f'{problems} broken'} |"
    )


# What a connection of the bots' was doing when sampled, from pg_stat_activity's state and
# wait event: the server waiting for the bot inside a transaction, idle in the pool, running,
# waiting for the WAL's write or fsync at commit, or for a lock (a table's advisory lock; an
# "object" lock: the one PostgreSQL takes at the commit of a transaction that notified).
WAITS = (
    ("in a transaction, waiting for the bot", lambda state, wait: state == "idle in transaction"),
    ("idle in the pool", lambda state, wait: state == "idle"),
    ("running", lambda state, wait: state == "active" and wait == "CPU:"),
    ("waiting for the WAL", lambda state, wait: state == "active" and "WAL" in wait),
    ("advisory lock", lambda state, wait: wait == "Lock:advisory"),
    ("notifying commit's lock", lambda state, wait: wait == "Lock:object"),
)


class Waits:
    """While open, samples every 10 ms what the bots' connections to ``url`` are doing, on a
    thread of its own (so it never waits for the bot's event loop): how many connections
    were in each of :data:`WAITS`, on average."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.counts: dict[str, int] = dict.fromkeys([name for name, _ in WAITS], 0)
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._sample()), daemon=True)

    def __enter__(self) -> Waits:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    async def _sample(self) -> None:
        connection = await asyncpg.connect(self.url)
        try:
            while not self._stop.is_set():
                rows = await connection.fetch(
                    "SELECT state, coalesce(wait_event_type, 'CPU') || ':' || coalesce(wait_event, '') "
                    "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
                    "AND application_name <> 'tirada-listen'"
                )
                self.samples += 1
                for state, wait in rows:
                    name = next((n for n, matches in WAITS if matches(state, wait)), None)
                    if name is not None:
                        self.counts[name] += 1
                await asyncio.sleep(0.01)
        finally:
            await connection.close()

    def row(self, name: str) -> str:
        per = max(self.samples, 1)
        return f"| {name} | " + " | ".join(f"{self.counts[n] / per:.2f}" for n, _ in WAITS) + " |"


async def no_commit_wait(server: Server, url: str) -> None:
    """``synchronous_commit = off`` for one database: what waiting for the disk costs."""
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'ALTER DATABASE "{url.rsplit("/", 1)[1]}" SET synchronous_commit = off')
    finally:
        await admin.close()


async def main(sizes: list[int]) -> None:
    server = Server(settings=DURABLE)
    server.start()
    try:
        print(
            "| backend | tables | interactions | throughput | p50 | p99 | bots' CPU per interaction "
            "| server's CPU per interaction | store time per interaction "
            "| store calls per interaction | statements per interaction (+ BEGIN/COMMIT…) | invariants |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        waits = []
        for count in sizes:
            with tempfile.TemporaryDirectory() as folder:
                print(await measure("SQLite", Path(folder) / "load.db", count), flush=True)
            async with server.database() as url:
                with Waits(url) as sampled:
                    print(await measure("PostgreSQL", url, count, server), flush=True)
                waits.append(sampled.row(f"PostgreSQL, {count}"))
            async with server.database() as url:
                with Waits(url) as sampled:
                    print(await two_processes(server, url, count), flush=True)
                waits.append(sampled.row(f"PostgreSQL, 2 processes, {count}"))
            async with server.database() as url:
                await no_commit_wait(server, url)
                print(await measure("PostgreSQL, commits not awaited", url, count, server), flush=True)
        print("\nThe bots' connections to the server, on average at each moment (sampled every 10 ms):\n")
        print("| row | " + " | ".join(name for name, _ in WAITS) + " |")
        print("| --- |" + " --- |" * len(WAITS))
        print("\n".join(waits))
    finally:
        server.stop()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--half"]:
        asyncio.run(half(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    else:
        asyncio.run(main([int(a) for a in sys.argv[1:]] or [200]))
