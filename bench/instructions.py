"""The play's instructions per interaction, thread by thread: a figure the machine's load does
not move, where CPU time moves ±15 % with the neighbours' work on the same two cores.

Run: ``python bench/instructions.py TREE [--update-with-message]``. It runs
``bench/switches.py TREE bench/bench_load.py --one 200`` under Valgrind's callgrind with
collection off, switches it on when the tables' set-up ends and off when the play ends
(``callgrind_control -i``), and prints the instructions each thread ran in the play per
interaction (the first is the event loop's, the second aiosqlite's) and, of the event
loop's, those spent collecting garbage (CPython's ``gc_collect_main``, inclusive; a
collection falls at a different moment from run to run, so this part varies by ~1 % of the
loop between runs of one tree). A run takes ~3 minutes (the play runs ~50 times slower), so
the offline Discord's 3-second answer window is lifted; the rest of the load is as it is.

``--update-with-message``: the offline Discord answers an update (``UPDATE_MESSAGE``) with the
updated message, as Discord does (``resource.message``, with ``with_response``), where it
leaves it out otherwise.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _toggle(flag: str) -> None:
    subprocess.run(["callgrind_control", "-i", flag, str(os.getpid())], capture_output=True, check=True)


def _with_message(harness: Any) -> None:
    callback = harness.Discord._callback

    def answered(
        self: Any, interaction_id: int, channel_id: int, message_id: int | None, body: Any, token: str
    ) -> Any:
        answer = callback(self, interaction_id, channel_id, message_id, body, token)
        if body.get("type") == 7 and message_id in self.messages:
            answer["interaction"]["response_message_id"] = str(message_id)
            answer["resource"] = {"type": 7, "message": self.messages[message_id].payload()}
        return answer

    harness.Discord._callback = answered


def inside(argv: list[str]) -> None:
    """The run under Valgrind: ``switches.main`` with collection around the play only."""
    sys.path.insert(0, str(HERE))
    import switches

    wrap = switches.PlayCpu.wrap

    def wrapped(cpu: Any, load: Any) -> None:
        wrap(cpu, load)
        harness = sys.modules["tests.support.harness"]
        harness.ANSWER_SECONDS = 1e9
        if os.environ.get("UPDATE_WITH_MESSAGE"):
            _with_message(harness)
        setup, run = load.setup_tables, load.run_load

        async def setup_tables(*args: Any, **kwargs: Any) -> None:
            await setup(*args, **kwargs)
            _toggle("on")

        async def run_load(*args: Any, **kwargs: Any) -> Any:
            report = await run(*args, **kwargs)
            _toggle("off")
            return report

        load.setup_tables, load.run_load = setup_tables, run_load

    switches.PlayCpu.wrap = wrapped  # type: ignore[method-assign]
    switches.main(argv)


def total(path: Path, function: str | None = None) -> int:
    """A thread's instructions, or one function's, inclusive (``callgrind_annotate``)."""
    if function is None:
        return int(re.search(r"^totals: (\d+)", path.read_text(), re.M).group(1))  # type: ignore[union-attr]
    shown = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", str(path)], capture_output=True, text=True, check=True
    ).stdout
    found = re.search(rf"^\s*([\d,]+) .*:{function} ", shown, re.M)
    return int(found.group(1).replace(",", "")) if found else 0


def main(argv: list[str]) -> None:
    tree, *flags = argv
    env = os.environ | ({"UPDATE_WITH_MESSAGE": "1"} if "--update-with-message" in flags else {})
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                "--separate-threads=yes",
                f"--callgrind-out-file={out}/cg.%p",
                sys.executable,
                __file__,
                "--inside",
                tree,
                "bench/bench_load.py",
                "--one",
                "200",
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        row = next(line for line in run.stdout.splitlines() if line.startswith("|"))
        interactions = int(row.strip("|").split("|")[1])
        print(row)
        threads = sorted(p for p in Path(out).iterdir() if re.search(r"-\d+$", p.name))
        for number, path in enumerate(t for t in threads if total(t)):
            line = (
                f"thread {number + 1}: {total(path) / interactions / 1e6:.3f} M instructions per interaction"
            )
            if number == 0:
                line += f" (collecting garbage {total(path, 'gc_collect_main') / interactions / 1e6:.3f} M)"
            print(line)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--inside"]:
        inside(sys.argv[2:])
    else:
        main(sys.argv[1:])
