"""The harness's one bot a test module: each test must find it as if it had just started on
a database of its own, or the tests of a module would depend on their order."""

from __future__ import annotations

import gc
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.client import COMMANDS_HASH
from bot.i18n import CATALOG, t
from tests import conftest
from tests.support.harness import Harness
from tests.support.memory import filesystem
from tests.support.payloads import GM


async def test_a_reset_keeps_the_bot_and_gives_the_next_test_a_new_table(
    module_bot: Harness, tmp_path: Path
) -> None:
    h = module_bot
    bot = await h.reset(tmp_path / "first.db")
    await h.table_for("dune")
    h.script(3, 4)
    rolled = await h.slash("dune tirada", habilidad=6, motivacion=6)
    form = await h.click(
        rolled.message, next(c for c in rolled.message.custom_ids if c.startswith("dune:rasgo"))
    )
    await bot.store.set_meta("left", "behind")

    assert await h.reset(tmp_path / "second.db") is bot
    assert h.discord.calls == [] and h.discord.messages == {}
    assert h.discord.commands, "Discord still holds the commands the bot synced"
    assert await bot.store.get_meta("left") is None
    assert await bot.store.get_meta(COMMANDS_HASH) is not None, "the new database's bot synced them"
    assert bot.rng.getstate() == random.Random(1).getstate()
    assert "Sin elegir" in (await h.slash("mesa estado")).text
    # The previous test's form is gone, as after a restart.
    stale = await h.submit(
        form.modal_id, {"rasgo": "x", "cuenta": "1", "sustituye": ""}, message=rolled.message
    )
    assert stale.text == t("es", "error.form_gone")


async def test_a_bot_the_test_restarted_is_replaced(module_bot: Harness, tmp_path: Path) -> None:
    h = module_bot
    bot = await h.reset(tmp_path / "first.db")
    await h.restart(seed=5)
    restarted = h.bot
    fresh = await h.reset(tmp_path / "second.db")
    assert fresh is not bot and fresh is not restarted and h.seed == 1
    await h.table_for("donjon")
    assert "Donjon" in (await h.slash("mesa estado", user=GM)).text


async def test_a_command_sentence_a_test_changed_is_translated_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each distinct command tree is translated once a process (``translated_once``): a
    catalog sentence of the tree changed since is a distinct tree."""
    first = Harness(tmp_path / "first.db")
    await first.start()
    await first.close()
    monkeypatch.setitem(CATALOG.entries, "tirar.cmd", {"es": "tirar", "en": "throw"})
    second = Harness(tmp_path / "second.db")
    await second.start()
    await second.close()

    def roll(h: Harness) -> dict[str, Any]:
        return next(c for c in h.discord.commands if c["name"] == "tirar")

    assert roll(first)["name_localizations"]["en-US"] == "roll"
    assert roll(second)["name_localizations"]["en-US"] == "throw"


async def test_a_new_bot_reuses_the_extensions_an_earlier_one_loaded(tmp_path: Path) -> None:
    """A bot's start reuses the extension modules (``_load_kept``), and their ``setup``
    gives the new bot its own cogs and commands."""
    h = Harness(tmp_path / "t.db")
    first = await h.start()
    try:
        mesa, cog = sys.modules["cogs.mesa"], first.get_cog("Mesa")
        second = await h.restart()
        assert sys.modules["cogs.mesa"] is mesa and second.extensions["cogs.mesa"] is mesa
        assert second.get_cog("Mesa") not in (None, cog)
        assert "Sin elegir" in (await h.slash("mesa estado")).text
    finally:
        await h.close()


class _Item:
    """What the ordering reads of a collected test: its node id."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_each_workers_first_share_starts_with_long_tests_and_every_test_stays(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--dist worksteal`` gives the first worker ``1/n`` of the collection, the next
    ``1/(n-1)`` of the rest...: each share starts with long tests (none runs after another
    of them on one worker), each module's together, and no test is lost or doubled."""
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", str(workers))
    long = list(conftest.LONGEST_FIRST)
    items = [_Item(f"tests/a/test_{i}.py::test_{i}") for i in range(200)]
    items[50:50] = [_Item(f"{path}::test_{n}") for path in long if "::" not in path for n in range(3)]
    items[120:120] = [_Item(path) for path in long if "::" in path]
    given = list(items)
    conftest.pytest_collection_modifyitems(items)
    assert sorted(map(id, items)) == sorted(map(id, given))
    starts, left = [0], len(items)
    for share in range(workers - 1):
        left -= left // (workers - share)
        starts.append(len(items) - left)
    heads = [items[start].nodeid for start in starts]
    assert all(any(head == path or head.startswith(f"{path}::") for path in long) for head in heads)
    modules = [item.nodeid.split("::")[0] for item in items]
    for path in (p for p in long if "::" not in p):
        at = [i for i, module in enumerate(modules) if module == path]
        assert at == list(range(at[0], at[0] + 3))
    ordinary = [item.nodeid for item in items if item.nodeid.startswith("tests/a/")]
    assert ordinary == [f"tests/a/test_{i}.py::test_{i}" for i in range(200)]


@pytest.mark.parametrize("workers", [2, 3, 6])
def test_a_selection_of_long_tests_alone_is_ordered_whole(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pytest -n 2 tests/test_hostile.py``: the shares are the long tests' alone, with no
    ordinary test to fill them (the ordering ran past its end, and collection stopped)."""
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", str(workers))
    long = [path for path in conftest.LONGEST_FIRST if "::" not in path]
    items = [_Item(f"{path}::test_{n}") for path in long for n in range(11)]
    given = list(items)
    conftest.pytest_collection_modifyitems(items)
    assert sorted(map(id, items)) == sorted(map(id, given))


def test_a_run_forgets_the_folders_of_runs_that_ended_and_keeps_those_still_going(tmp_path: Path) -> None:
    """tests/conftest.py: memory holds no failed or killed run's files past the next run."""
    ended = subprocess.run(["sh", "-c", "echo $$"], capture_output=True, text=True, check=True)
    gone = tmp_path / f"tirada-tests-{int(ended.stdout)}-abc_1"
    going = tmp_path / f"tirada-tests-{os.getpid()}-abc_2"
    other = tmp_path / "something-else"
    for folder in (gone, going, other):
        (folder / "pytest-0").mkdir(parents=True)
    conftest.forget_ended_runs(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([going.name, other.name])


def test_a_process_of_the_run_freezes_its_heap_before_it_exits(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/conftest.py: the interpreter's exit does not walk a worker's whole heap."""
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    conftest.pytest_unconfigure(SimpleNamespace(stash=pytest.Stash()))  # type: ignore[arg-type]
    assert frozen == [True]


def test_the_collector_rarely_reaches_the_whole_heap() -> None:
    """tests/conftest.py: the youngest generation is collected every 10,000 allocations."""
    assert gc.get_threshold()[0] == 10_000


def test_a_tests_temporary_folder_is_in_memory_where_there_is_room(tmp_path: Path, disk_path: Path) -> None:
    """tests/conftest.py: ``tmp_path`` in ``/dev/shm`` (the harness tests' CPU 22-24 s on
    this disk, 19 s there); ``disk_path`` on disk, for what only a disk does."""
    memory = Path("/dev/shm")
    if not memory.is_dir() or shutil.disk_usage(memory).free < 2 << 30 or not os.access(memory, os.W_OK):
        pytest.skip("no room for the tests' files in /dev/shm here")
    assert filesystem(tmp_path) == "tmpfs"
    assert filesystem(disk_path) == filesystem(Path(os.environ.get("TMPDIR", "/tmp")))
