"""The stream overlay under load (issue 32): 200 pages open on 50 tables while play goes on.

Run: ``python bench/bench_overlay.py [rounds]`` (default 2 rounds of each phase). A phase is
a fresh bot on a fresh database file with 50 tables (the four systems in turn, a live board
each), through the interaction harness, then two bursts of play at every table, 25 tables
at once (``tests/support/load.py``, as ``bench_load.py``). With overlays, four pages a
table (200 server-sent-event streams, read by aiohttp clients in the same process: their
reading costs the bot's own loop, so the figures are an upper bound) are open before play
starts. Phases without and with overlays alternate, so the machine's load falls on both.

Reported per phase: interactions and their p50/p99 (feeding INTERACTION_CREATE to the first
answer), the store's operations (reads and transactions) and the boards' drawings from the
start of play until every board and page has drawn its last change, whether every page
ended on its table's final snapshot, the update latency (a public ``/tirar`` at each table
in turn, from feeding it to each of the table's pages receiving the snapshot that shows
it), and the process's resident memory before and after the 200 pages opened (VmRSS).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from bot.web import tokens
from bot.web.server import Web
from tests.support.harness import Harness
from tests.support.load import make_tables, run_load

TABLES = 50
PAGES = 4


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Page:
    """One open overlay: the last snapshot it received, and when."""

    channel_id: int
    latest: str = ""
    received: list[tuple[float, str]] = field(default_factory=list)


# Set on each snapshot any page receives (one per phase: an event belongs to one loop).
ARRIVED: list[asyncio.Event] = []


async def read(response: aiohttp.ClientResponse, page: Page) -> None:
    async for raw in response.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("data: "):
            page.latest = line.removeprefix("data: ")
            page.received.append((time.perf_counter(), page.latest))
            ARRIVED[-1].set()


async def until(done: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Wait for the pages' snapshots to satisfy ``done``, waking on each one received."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while not done():
                ARRIVED[-1].clear()
                await ARRIVED[-1].wait()
    return done()


def showing(pages: list[Page], marker: str) -> bool:
    return all(any(marker in text for _, text in p.received) for p in pages)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


async def phase(overlays: bool) -> dict[str, Any]:
    ARRIVED.append(asyncio.Event())
    with tempfile.TemporaryDirectory() as folder:
        harness = Harness(Path(folder) / "bench.db")
        tables = make_tables(TABLES)
        bot = await harness.start()
        web = Web(bot)
        await web.start("127.0.0.1", 0)
        before = rss_mb()
        pages: list[Page] = []
        readers: list[asyncio.Task[None]] = []
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        if overlays:
            for table in tables:
                token = await tokens.issue(bot.store, table.channel_id, "es")
                for _ in range(PAGES):
                    response = await session.get(web.link(token) + "/events")
                    assert response.status == 200, response.status
                    page = Page(table.channel_id)
                    pages.append(page)
                    readers.append(asyncio.create_task(read(response, page)))
            await until(lambda: all(p.latest for p in pages))
        opened = rss_mb()
        operations: list[float] = []
        bot.store.timers.append(operations.append)
        drawn = bot.boards.drawings.made
        report = await run_load(harness, tables, rounds=2, batch=25, boards=True)
        await settled(web)
        bot.store.timers.remove(operations.append)
        result: dict[str, Any] = {
            "overlays": len(pages),
            "interactions": report.interactions,
            "p50": report.p50,
            "p99": report.percentile(0.99),
            "operations": len(operations),
            "drawings": bot.boards.drawings.made - drawn,
            "rss_before": before,
            "rss_open": opened,
        }
        if overlays:
            result |= await final_and_latency(harness, web, tables, pages)
        for task in readers:
            task.cancel()
        await session.close()
        await web.close()
        await harness.close()
    return result


async def settled(web: Web) -> None:
    """Until every board and every overlay has drawn the play's last change."""
    await web.bot.boards.settled()
    while drawing := [hub.task for hub in web.overlays.hubs.values() if hub.task is not None]:
        await asyncio.wait(drawing)
    await web.bot.boards.settled()


async def final_and_latency(
    harness: Harness, web: Web, tables: list[Any], pages: list[Page]
) -> dict[str, Any]:
    """Every page on its table's final snapshot; then one public roll a table, timed."""
    expected = {}
    for table in tables:
        overlay = tokens.Overlay(table.channel_id, "es")
        expected[table.channel_id] = await web.overlays.snapshot(overlay)
    await until(lambda: all(p.latest == expected[p.channel_id] for p in pages))
    final = sum(p.latest == expected[p.channel_id] for p in pages)
    latencies = []
    for n, table in enumerate(tables):
        mine = [p for p in pages if p.channel_id == table.channel_id]
        marker = f"Medida {n}"
        sent = time.perf_counter()
        await harness.slash(
            "tirar", user=table.gm, channel_id=table.channel_id, expresion="1d6", motivo=marker
        )
        await until(functools.partial(showing, mine, marker))
        for p in mine:
            got = next(at for at, text in p.received if marker in text)
            latencies.append((got - sent) * 1000)
    return {
        "final": f"{final}/{len(pages)}",
        "update_p50": statistics.median(latencies),
        "update_p99": percentile(latencies, 0.99),
        "update_max": max(latencies),
    }


def main(rounds: int) -> None:
    print(
        "| overlays | interactions | p50 | p99 | store operations / drawings | pages on the final state "
        "| update p50 / p99 / max | RSS before → with pages open |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for _ in range(rounds):
        for overlays in (False, True):
            r = asyncio.run(phase(overlays))
            update = (
                f"{r['update_p50']:.0f} / {r['update_p99']:.0f} / {r['update_max']:.0f} ms"
                if overlays
                else "—"
            )
            print(
                f"| {r['overlays']} | {r['interactions']} | {r['p50']:.1f} ms | {r['p99']:.1f} ms | "
                f"{r['operations']} / {r['drawings']} | {r.get('final', '—')} | {update} | "
                f"{r['rss_before']:.0f} → {r['rss_open']:.0f} MB |",
                flush=True,
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
