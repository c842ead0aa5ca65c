"""The load measured on the bot, not on the offline Discord: what the harness does that the
real Discord does for free, switched off for a benchmark run only, and the bot's CPU told apart.

Run: ``python bench/switches.py TREE SCRIPT [ARGS ...]``: ``SCRIPT`` (``bench/bench_load.py
--one 200``) of the source tree ``TREE`` (this one, or a read-only checkout of an older
commit), with the same switches whatever the tree, so a before/after pair pays the same:

- **No schema validation.** The offline Discord checks every body against Discord's limits
  (``tests/support/discord_schema.check``, jsonschema): Discord's own work, and in the profile
  of a 200-table load the largest single cost (24 s of 114 s). The tests keep it.
- **Settling by descent.** After each interaction the harness waits for the tasks it started:
  it scanned every task of the process (``asyncio.all_tasks``, the other tables' included)
  each time round (18 s). Here a task factory notes which task started each task, and
  settling waits for the live descendants of the task that fed the interaction, those that
  did not exist before it was fed (known by the order the factory made them in, where the
  harness copied the set of every task): the tasks the interaction started, found without a
  scan (a task the bot started outside them would show as an interaction without its
  answer: an invariant broken, not a faster row).
- **Forgetting what a finished batch's interactions left in the offline Discord.** The load
  already calls ``Discord.forget`` after each batch (its calls and unpinned messages); here
  forgetting also drops the records it keeps per interaction token (when each was delivered
  and created, whether it was answered, which message its answer posted), which otherwise
  grow by some 0.3 KB an interaction, for the whole run. A finished interaction's token is
  never used again by the load, so nothing the harness checks while a batch runs changes.

Then it prints, to standard error, the play's CPU (set-up excluded) per interaction: the event
loop's thread, the other threads (aiosqlite's), and with ``--profile`` before the tree a cProfile
of the play attributed by where the time is spent (our code, discord.py, the harness…) and
its function calls per interaction.
"""

from __future__ import annotations

import asyncio
import cProfile
import pstats
import resource
import runpy
import sys
import time
import types
import weakref
from collections.abc import Coroutine, Iterator
from contextvars import Context
from pathlib import Path
from typing import Any


class Descent:
    """Which live task started which, kept by the loop's task factory, and in what order the
    tasks were made (``born``)."""

    def __init__(self) -> None:
        self.made = 0
        self.born: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = weakref.WeakKeyDictionary()
        self.children: dict[asyncio.Task[Any] | None, set[asyncio.Task[Any]]] = {}
        self.parent: dict[asyncio.Task[Any], asyncio.Task[Any] | None] = {}

    def factory(
        self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], context: Context | None = None
    ) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, context=context)
        parent = asyncio.current_task(loop)
        self.made += 1
        self.born[task] = self.made
        self.parent[task] = parent
        self.children.setdefault(parent, set()).add(task)
        task.add_done_callback(self._ended)
        return task

    def _ended(self, task: asyncio.Task[Any]) -> None:
        """A finished task's live children belong to its parent from now on."""
        parent = self.parent.pop(task)
        self.children[parent].discard(task)
        for child in self.children.pop(task, set()):
            self.parent[child] = parent
            self.children.setdefault(parent, set()).add(child)

    def descendants(self, task: asyncio.Task[Any] | None) -> Iterator[asyncio.Task[Any]]:
        for child in list(self.children.get(task, ())):
            yield child
            yield from self.descendants(child)


class Before:
    """The tasks made before a moment, as ``feed`` asks ``asyncio.all_tasks()`` for them, known
    by their birth order instead of a copy of every task of the process."""

    def __init__(self, descent: Descent) -> None:
        self.descent = descent
        self.made = descent.made

    def __contains__(self, task: object) -> bool:
        return self.descent.born.get(task, 0) <= self.made  # type: ignore[call-overload]


class HarnessAsyncio(types.ModuleType):
    """``asyncio`` as the harness module sees it: all of it, but ``all_tasks`` answers a
    :class:`Before` (the harness only asks which tasks existed before it fed one)."""

    def __init__(self, descent: Descent) -> None:
        super().__init__("asyncio")
        self.descent = descent

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    def all_tasks(self, loop: asyncio.AbstractEventLoop | None = None) -> Before:
        return Before(self.descent)


DESCENT = Descent()


def install(harness: Any) -> None:
    """The three switches, on ``tests.support.harness`` of whichever tree was imported."""
    is_view_timer = harness._is_view_timer

    async def settle(before: set[asyncio.Task[Any]], limit: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while True:
            current = asyncio.current_task()
            pending = [
                t
                for t in DESCENT.descendants(current)
                if t not in before and not t.done() and not is_view_timer(t)
            ]
            if not pending:
                return
            remaining = deadline - loop.time()
            assert remaining > 0, f"interaction still running after {limit}s: {pending}"
            await asyncio.wait(pending, timeout=remaining)

    start = harness.Harness.start

    async def started(self: Any) -> Any:
        asyncio.get_running_loop().set_task_factory(DESCENT.factory)  # type: ignore[arg-type]
        return await start(self)

    forget = harness.Discord.forget

    def forget_tokens(self: Any) -> None:
        forget(self)
        # An older tree's offline Discord keeps fewer of these records (07b58e5's has no
        # ``_originals``): each it keeps is cleared.
        for name in ("_delivered", "_created", "_acknowledged", "_originals"):
            getattr(self, name, {}).clear()

    harness.asyncio = HarnessAsyncio(DESCENT)
    harness.Discord.forget = forget_tokens
    harness.check = lambda *args, **kwargs: None
    harness.settle = settle
    harness.Harness.start = started


class PlayCpu:
    """The CPU the play takes, from the end of the tables' set-up to the end of the load."""

    def __init__(self, profile: bool) -> None:
        self.profiler = cProfile.Profile(time.thread_time) if profile else None
        self.start = (0.0, 0.0)
        self.spent = (0.0, 0.0)
        self.interactions = 0
        # The process's peak resident memory when the play ends (MB), before the load's
        # retention pass and VACUUM.
        self.peak = 0.0

    @staticmethod
    def now() -> tuple[float, float]:
        """(the main thread's CPU, the whole process's), in seconds."""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return time.thread_time(), usage.ru_utime + usage.ru_stime

    def wrap(self, load: Any) -> None:
        setup, run = load.setup_tables, load.run_load

        async def setup_tables(*args: Any, **kwargs: Any) -> None:
            await setup(*args, **kwargs)
            self.start = self.now()
            if self.profiler:
                self.profiler.enable()

        async def run_load(*args: Any, **kwargs: Any) -> Any:
            report = await run(*args, **kwargs)
            if self.profiler:
                self.profiler.disable()
            main, process = self.now()
            self.spent = (main - self.start[0], process - self.start[1])
            self.peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            self.interactions = report.interactions
            return report

        load.setup_tables, load.run_load = setup_tables, run_load

    def told(self, tree: Path) -> str:
        per = max(self.interactions, 1)
        main, process = self.spent
        lines = [
            f"play CPU per interaction: {1000 * process / per:.2f} ms "
            f"(event loop {1000 * main / per:.2f} ms, other threads {1000 * (process - main) / per:.2f} ms)",
            f"peak RSS at the play's end: {self.peak:.0f} MB",
        ]
        if self.profiler:
            stats = pstats.Stats(self.profiler)
            lines += attributed(stats, tree, per)
            # The same play makes the same calls, whatever else the machine runs: the figure
            # to compare when CPU time is this machine's noise.
            lines.append(f"  function calls per interaction: {stats.total_calls / per:.0f}")  # type: ignore[attr-defined]
        return "\n".join(lines)


CATEGORIES = (
    ("ours (bot/, cogs/, rules/)", ("/bot/", "/cogs/", "/rules/")),
    ("harness (tests/, jsonschema)", ("/tests/", "/jsonschema/", "/referencing/")),
    ("discord.py, aiohttp", ("/discord/", "/aiohttp/", "/yarl/", "/multidict/")),
    ("aiosqlite, sqlite3", ("/aiosqlite/", "sqlite3")),
    ("asyncio", ("/asyncio/", "_asyncio")),
)


def attributed(stats: pstats.Stats, tree: Path, per: int) -> list[str]:
    """Each category's own time (cProfile's tottime, profiling overhead included) per
    interaction, by the file of the function that spent it."""
    spent = dict.fromkeys([name for name, _ in CATEGORIES] + ["the rest (libraries, built-ins)"], 0.0)
    for (file, _, function), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{file} {function}"
        if where.startswith(str(tree)) or not where.startswith("/"):
            where = where.removeprefix(str(tree))
        name = next((n for n, marks in CATEGORIES if any(m in where for m in marks)), None)
        spent[name or "the rest (libraries, built-ins)"] += own
    total = sum(spent.values())
    return [f"  {name}: {1000 * s / per:.2f} ms ({100 * s / total:.0f} %)" for name, s in spent.items()]


def main(argv: list[str]) -> None:
    profile = argv[:1] == ["--profile"]
    tree_arg, script, *args = argv[1:] if profile else argv
    tree = Path(tree_arg).resolve()
    sys.path.insert(0, str(tree))
    import tests.support.harness as harness
    import tests.support.load as load

    install(harness)
    cpu = PlayCpu(profile)
    cpu.wrap(load)
    sys.argv = [str(tree / script), *args]
    runpy.run_path(str(tree / script), run_name="__main__")
    print(cpu.told(tree), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
