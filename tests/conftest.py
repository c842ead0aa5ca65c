"""Shared fixtures: a started harness on a temporary database file (never :memory:,
so WAL and reopening behave as in production), one bot a test module, and a PostgreSQL
server for the session."""

from __future__ import annotations

import gc
import importlib
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.support.harness import Harness
from tests.support.memory import in_memory
from tests.support.postgres import Server, Unavailable

# The longest tests, with their CPU seconds on a clean clone (tests/README.md): mypy cold,
# each locale of the sweep, hostile input, the end-to-end processes (most of their wall time
# is waiting on the processes they start). Each heads the share of the tests that a worker
# is given first (``pytest_collection_modifyitems``), so that none of them runs late, after
# another, on one worker while the others end on short tests.
LONGEST_FIRST = {
    "tests/test_sweep.py::test_everything_the_bot_sends_fits_discords_limits[en-US]": 31.0,
    "tests/test_sweep.py::test_everything_the_bot_sends_fits_discords_limits[es-ES]": 30.0,
    "tests/e2e/test_process.py": 18.0,
    "tests/test_types.py": 18.0,
    "tests/test_hostile.py": 10.0,
    "tests/e2e/test_shards.py": 9.0,
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (README's test command) starts one worker more than the machine has
    cores: about a fifth of the run is tests waiting on another process (the bot's, the
    PostgreSQL server's, Chromium's) or on a real-time pace, and a third worker fills those
    waits. On this project's 2 cores: 182 s with two workers, 167 s with three, same tree,
    same quiet machine (tests/README.md, CI). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still
    decides when set (None leaves it to xdist's own hook)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1


# The cyclic garbage collector runs its youngest generation every 10,000 allocations instead
# of 700, so that it rarely gets to the whole heap (every module the tests import, the bot,
# its records): one locale of the sweep did 8 full collections (0.95 s of its 26 s of CPU)
# and now does 1 (0.15 s); the permission and anywhere tests, 5 (0.4 s) and now none. Each
# process of the run reads this (the workers, the controller); the bot's own processes keep
# Python's default.
gc.set_threshold(10_000, *gc.get_threshold()[1:])

TESTS = Path(__file__).resolve().parent

# The room the tests' temporary folders may take in memory, with margin: a whole run
# writes about 300 MB there.
FILES_NEEDED = 2 << 30
IN_MEMORY = pytest.StashKey[Path]()
PASSED = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    """The tests' temporary folders (``tmp_path``) in memory where the machine has room
    (``tests/support/memory.py``): each harness test writes a SQLite database and its WAL,
    and on this machine's disk the kernel's share of that was a fifth of those tests' CPU.
    pytest makes its numbered folders under ``PYTEST_DEBUG_TEMPROOT``, here a folder of
    this run's own; under xdist the controller chooses, and hands each worker a folder
    inside it. A ``--basetemp`` or the variable already set decides instead."""
    if config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    memory = in_memory(FILES_NEEDED)
    if memory is not None:
        forget_ended_runs(memory)
        root = Path(tempfile.mkdtemp(prefix=f"tirada-tests-{os.getpid()}-", dir=memory))
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(root)
        config.stash[IN_MEMORY] = root


def forget_ended_runs(memory: Path) -> None:
    """Removes the folders of earlier runs whose controller has ended (a failed run's, kept
    to read, or a killed one's), so that memory holds at most the last of them besides
    the runs still going: the controller's process id is in each folder's name."""
    for folder in memory.glob("tirada-tests-*-*"):
        pid = folder.name.split("-")[2]
        if pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config.stash[PASSED] = exitstatus == 0


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """A run that passed takes its folders out of memory; a failed run's stay, to read,
    until the next run starts (``forget_ended_runs``), as pytest's policy "failed" keeps
    the failed tests' folders.

    Then the heap is frozen, the last thing each process of the run does: the interpreter's
    exit ran the cyclic collector over everything a worker had imported and kept, 0.8 to
    1.5 s of CPU in each worker and in the controller, which waits for the workers to end.
    Frozen, the exit takes 0.1 s; nothing is left to free, the process is ending."""
    root = config.stash.get(IN_MEMORY, None)
    if root is not None and config.stash.get(PASSED, False):
        shutil.rmtree(root, ignore_errors=True)
    gc.freeze()


def pytest_collection(session: pytest.Session) -> None:
    """Each xdist worker imports the test modules it is about to collect starting from its
    own share of the list (the second worker a third of the way in, and so on), then
    collects as usual. On a clean clone pytest's cache of rewritten asserts is empty, and
    workers collecting in step each rewrote every module (7 s of CPU a worker); started
    apart, each rewrites about its share and reads the rest from the cache the others wrote
    (three workers collecting a clean clone: 29.2 s of CPU before, 23.1 s after).
    A module that fails to import is left to the collection to report."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if not worker.startswith("gw") or count < 2:
        return
    files = sorted(f for arg in session.config.args for f in test_files(Path(arg.split("::")[0])))
    start = len(files) * int(worker[2:]) // count
    for path in files[start:] + files[:start]:
        try:
            importlib.import_module(".".join(path.relative_to(TESTS.parent).with_suffix("").parts))
        except Exception:  # the collection reports it, in pytest's own words
            continue


def test_files(arg: Path) -> list[Path]:
    """The test modules under a path given to pytest (all of ``tests/`` by default)."""
    path = arg.resolve()
    if path.is_file():
        return [path] if path.name.startswith("test_") and path.is_relative_to(TESTS) else []
    return [f for f in path.rglob("test_*.py") if f.is_relative_to(TESTS)] if path.is_dir() else []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each worker's first share of the tests starts with some of :data:`LONGEST_FIRST`.

    ``--dist worksteal`` hands the collection out in consecutive shares, the first worker
    a ``1/n`` of it, the next a ``1/(n-1)`` of what is left, and so on; a worker runs its
    share from the start, and one that runs out takes half of the end of the longest queue.
    Collected in the tree's order, or all at the front, the long tests made one worker's
    chain (mypy, then both locales of the sweep, then hostile input, then the processes:
    101.7 s of CPU on a clean clone, the others 79 s). Each is put at the head of the
    share that has least of them so far (longest first), each module's tests together and
    in their order; every other test keeps its place. Without workers, they go first."""
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    heads: list[list[pytest.Item]] = [[] for _ in range(count)]
    load = [0.0] * count
    taken: set[int] = set()
    for prefix, seconds in sorted(LONGEST_FIRST.items(), key=lambda entry: -entry[1]):
        share = load.index(min(load))
        group = [item for item in items if _under(item.nodeid, prefix) and id(item) not in taken]
        taken |= {id(item) for item in group}
        heads[share] += group
        load[share] += seconds
    rest = iter([item for item in items if id(item) not in taken])
    ordered: list[pytest.Item] = []
    left = len(items)
    for share, head in enumerate(heads):
        size = max(left // (count - share), len(head))
        ordered += head + list(itertools.islice(rest, max(0, min(size, left) - len(head))))
        left -= size
    items[:] = ordered + list(rest)


def _under(nodeid: str, prefix: str) -> bool:
    """Whether a test is ``prefix`` or one of the tests of the module ``prefix`` names."""
    return nodeid == prefix or nodeid.startswith(f"{prefix}::")


@pytest.fixture(scope="module")
async def module_bot(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Harness]:
    """One bot for a test module: starting one (its command tree translated, synced and
    checked) is most of a short test's time. Tests take it through ``harness``."""
    h = Harness(tmp_path_factory.mktemp("bot") / "tirada.db")
    yield h
    await h.close()


@pytest.fixture
async def harness(module_bot: Harness, tmp_path: Path) -> Harness:
    """The module's bot on this test's own new database, with a new recorder and dice."""
    await module_bot.reset(tmp_path / "tirada.db")
    return module_bot


@pytest.fixture
def thawed() -> Iterator[None]:
    """This worker's objects go back to the collector after the test, at the thresholds it
    had: a test that runs ``bot.heap.settle`` (directly, or through ``bot.__main__.run``)
    freezes the worker's heap and raises the collector's threshold, and the tests after it
    on the same worker (``tests/test_harness.py`` checks the threshold) must not inherit it."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.fixture
def disk_path() -> Iterator[Path]:
    """A temporary folder on disk, for a test of what a disk does that memory does not
    (``tmp_path`` may be in memory: tmpfs lets SQLite write through ``chattr +i``)."""
    folder = Path(tempfile.mkdtemp(prefix="tirada-disk-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a store lives, once per backend: a test taking it runs on SQLite and on
    PostgreSQL (the server starts only when a PostgreSQL test first needs it)."""
    if request.param == "sqlite":
        return tmp_path / "tirada.db"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(scope="session")
def postgres() -> Iterator[Server]:
    """One PostgreSQL server for the whole session, started on first use.

    Without the server binaries the PostgreSQL tests are skipped on a workstation and fail
    in CI (``CI=true``), where ``.ci/run`` installs them: a backend nobody tested is not done.
    """
    server = Server()
    try:
        server.start()
    except (Unavailable, subprocess.CalledProcessError) as error:
        server.stop()
        detail = getattr(error, "stderr", "") or str(error)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL could not start: {detail}")
        pytest.skip(f"PostgreSQL could not start: {detail}")
    yield server
    server.stop()


@pytest.fixture
async def postgres_url(postgres: Server) -> AsyncIterator[str]:
    """A fresh, empty database on the session's server, dropped after the test."""
    async with postgres.database() as url:
        yield url
