"""The stream overlay under load (issue 32): 200 pages open on 50 tables while play goes on.

Run: ``python bench/bench_overlay.py [rounds]`` (default 2 rounds of each phase). A phase is
a fresh bot on a fresh database file with 50 tables (the four systems in turn, a live board
each), through the interaction harness, then two bursts of play at every table, 25 tables
at once (``tests/support/load.py``, as ``bench_load.py``). With overlays, four pages a
table (200 server-sent-event streams) are open before play starts, read over HTTP by
*another process* (``--read``: the browsers, as OBS would be), so the bot's figures carry
the server's cost only. Phases without and with overlays alternate, so the machine's load
falls on both.

Reported per phase: interactions and their p50/p99 (feeding INTERACTION_CREATE to the first
answer), the store's operations (reads and transactions) and the boards' drawings from the
start of play until every board and page has drawn its last change, whether every page
ended on its table's final snapshot, the update latency (a public ``/tirar`` at each table
in turn, from feeding it to each of the table's pages receiving the snapshot that shows
it: both processes read the same monotonic clock), the bot process's resident memory
before and after the 200 pages opened (VmRSS), and the seconds the harness spent listing
the tasks started during play (``PlayTasks``: the harness's cost, not the server's).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Iterator
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
READ = "--read"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class PlayTasks:
    """The loop's tasks as the harness lists them, narrowed to those started since play
    began, and the time spent listing them.

    The harness lists every task of the loop after each step of an interaction, to know
    when it is finished (``settle`` in ``tests/support/harness.py``). Each open page is two
    tasks of aiohttp's, started before play and never an interaction's, yet listing them
    costs the bot's loop at every step: 200 pages took that listing from about 1 s to 4 s
    a phase, more than the server's own work, and charged it to the server. Tasks started
    before play are never waited for anyway (they are in every "before"), so leaving them
    out changes no wait; it leaves the figures with the server's cost alone.
    """

    def __init__(self) -> None:
        self.seconds = 0.0
        self.born: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        self.real = asyncio.all_tasks

    def factory(self, loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, **options)
        self.born.add(task)
        return task

    def __call__(self, loop: asyncio.AbstractEventLoop | None = None) -> set[asyncio.Task[Any]]:
        started = time.perf_counter()
        try:
            return {task for task in self.born if not task.done()}
        finally:
            self.seconds += time.perf_counter() - started

    @contextlib.contextmanager
    def installed(self) -> Iterator[PlayTasks]:
        loop = asyncio.get_running_loop()
        loop.set_task_factory(self.factory)
        asyncio.all_tasks = self
        try:
            yield self
        finally:
            asyncio.all_tasks = self.real
            loop.set_task_factory(None)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


# -- the browsers' process -------------------------------------------------------------------


@dataclass
class Page:
    """One open overlay: the last snapshot it received, and when each arrived."""

    channel_id: int
    latest: str = ""
    received: list[tuple[float, str]] = field(default_factory=list)


class Browsers:
    """The pages, in the reading process; it answers the bot process's questions about them."""

    def __init__(self) -> None:
        self.pages: list[Page] = []
        self.arrived = asyncio.Event()
        self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        self.readers: list[asyncio.Task[None]] = []

    async def read(self, response: aiohttp.ClientResponse, page: Page) -> None:
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                page.latest = line.removeprefix("data: ")
                page.received.append((time.monotonic(), page.latest))
                self.arrived.set()

    async def until(self, done: Callable[[], bool], seconds: float = 10.0) -> bool:
        """Wait for the pages' snapshots to satisfy ``done``, waking on each one received."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                while not done():
                    self.arrived.clear()
                    await self.arrived.wait()
        return done()

    async def open(self, links: list[list[Any]]) -> dict[str, Any]:
        for channel_id, url in links:
            response = await self.session.get(url)
            assert response.status == 200, response.status
            page = Page(channel_id)
            self.pages.append(page)
            self.readers.append(asyncio.create_task(self.read(response, page)))
        return {"opened": await self.until(lambda: all(p.latest for p in self.pages))}

    async def final(self, expected: dict[str, str]) -> dict[str, Any]:
        def on_final(page: Page) -> bool:
            return page.latest == expected[str(page.channel_id)]

        await self.until(lambda: all(map(on_final, self.pages)))
        return {"final": sum(map(on_final, self.pages)), "pages": len(self.pages)}

    async def showing(self, channel_id: int, marker: str) -> dict[str, Any]:
        """When each page of the table first received a snapshot showing ``marker``."""
        mine = [p for p in self.pages if p.channel_id == channel_id]

        def first(page: Page) -> float | None:
            return next((at for at, text in page.received if marker in text), None)

        await self.until(lambda: all(first(p) is not None for p in mine))
        return {"at": [first(p) for p in mine]}

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        await self.session.close()


async def browse() -> None:
    """The reading process: one JSON command a line on stdin, one JSON answer a line."""
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
    browsers = Browsers()
    try:
        while line := await commands.readline():
            command = json.loads(line)
            if command["do"] == "open":
                answer = await browsers.open(command["links"])
            elif command["do"] == "final":
                answer = await browsers.final(command["expected"])
            else:
                answer = await browsers.showing(command["channel"], command["marker"])
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    finally:
        await browsers.close()


class Remote:
    """The bot process's end of the reading process."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls) -> Remote:
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, READ, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        return cls(process)

    async def ask(self, **command: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(command).encode() + b"\n")
        await self.process.stdin.drain()
        answer: dict[str, Any] = json.loads(await self.process.stdout.readline())
        return answer

    async def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


# -- the bot's process -------------------------------------------------------------------------


async def phase(overlays: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        harness = Harness(Path(folder) / "bench.db")
        tables = make_tables(TABLES)
        bot = await harness.start()
        web = Web(bot)
        await web.start("127.0.0.1", 0)
        remote = await Remote.start()
        before = rss_mb()
        if overlays:
            links = []
            for table in tables:
                token = await tokens.issue(bot.store, table.channel_id, "es")
                links += [[table.channel_id, web.link(token) + "/events"]] * PAGES
            assert (await remote.ask(do="open", links=links))["opened"]
        opened = rss_mb()
        operations: list[float] = []
        bot.store.timers.append(operations.append)
        drawn = bot.boards.drawings.made
        with PlayTasks().installed() as lists:
            report = await run_load(harness, tables, rounds=2, batch=25, boards=True)
        await settled(web)
        bot.store.timers.remove(operations.append)
        result: dict[str, Any] = {
            "overlays": web.overlays.open_streams,
            "interactions": report.interactions,
            "p50": report.p50,
            "p99": report.percentile(0.99),
            "operations": len(operations),
            "drawings": bot.boards.drawings.made - drawn,
            "rss_before": before,
            "rss_open": opened,
            "task_lists": lists.seconds,
        }
        if overlays:
            result |= await final_and_latency(harness, web, remote, tables)
        await remote.close()
        await web.close()
        await harness.close()
    return result


async def settled(web: Web) -> None:
    """Until every board and every overlay has drawn the play's last change."""
    await web.bot.boards.settled()
    while drawing := [hub.task for hub in web.overlays.hubs.values() if hub.task is not None]:
        await asyncio.wait(drawing)
    await web.bot.boards.settled()


async def final_and_latency(harness: Harness, web: Web, remote: Remote, tables: list[Any]) -> dict[str, Any]:
    """Every page on its table's final snapshot; then one public roll a table, timed."""
    expected = {}
    for table in tables:
        overlay = tokens.Overlay(table.channel_id, "es")
        expected[str(table.channel_id)] = await web.overlays.snapshot(overlay)
    final = await remote.ask(do="final", expected=expected)
    latencies = []
    for n, table in enumerate(tables):
        marker = f"Medida {n}"
        sent = time.monotonic()
        await harness.slash(
            "tirar", user=table.gm, channel_id=table.channel_id, expresion="1d6", motivo=marker
        )
        arrived = await remote.ask(do="showing", channel=table.channel_id, marker=marker)
        latencies += [(at - sent) * 1000 for at in arrived["at"]]
    return {
        "final": f"{final['final']}/{final['pages']}",
        "update_p50": statistics.median(latencies),
        "update_p99": percentile(latencies, 0.99),
        "update_max": max(latencies),
    }


def main(rounds: int) -> None:
    print(
        "| overlays | interactions | p50 | p99 | store operations / drawings | pages on the final state "
        "| update p50 / p99 / max | RSS before → with pages open | harness's task listing | load average |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
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
                f"{r['rss_before']:.1f} → {r['rss_open']:.1f} MB | {r['task_lists']:.2f} s | "
                f"{os.getloadavg()[0]:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    if sys.argv[1:] == [READ]:
        asyncio.run(browse())
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
