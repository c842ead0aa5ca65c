"""Charts: matplotlib is paid for by the first chart, not by every start."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LOADS_THE_BOT = """
import importlib, sys
import bot.__main__
from bot.client import EXTENSIONS
for extension in EXTENSIONS:
    importlib.import_module(extension)
print(sorted(name for name in sys.modules if name.split(".")[0] == "matplotlib"))
"""


def test_starting_the_bot_does_not_import_matplotlib() -> None:
    result = subprocess.run(
        [sys.executable, "-c", LOADS_THE_BOT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


async def test_the_first_chart_imports_it_and_draws_a_png() -> None:
    from bot import charts

    png = await charts.bar_chart("t", ["1", "2"], [0.25, 0.75], "x", "y")
    assert png.startswith(b"\x89PNG")
