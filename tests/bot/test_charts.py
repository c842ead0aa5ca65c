import subprocess
import sys
from pathlib import Path

import pytest

from bot.charts import bar_chart, figure

ROOT = Path(__file__).resolve().parents[2]


def y_ticks(lang: str, values: list[float]) -> list[str]:
    chart = figure(lang, "t", ["1", "2", "3"], values, "x", "y")
    chart.canvas.draw()
    return [label.get_text() for label in chart.axes[0].get_yticklabels()]


@pytest.mark.parametrize(("lang", "tick"), [("es", "0,4"), ("en", "0.4")])
def test_the_percentage_axis_is_written_in_the_readers_notation(lang: str, tick: str) -> None:
    assert tick in y_ticks(lang, [0.002, 0.008, 0.015])


async def test_a_chart_is_a_png() -> None:
    assert (await bar_chart("es", "t", ["1"], [0.5], "x", "y")).startswith(b"\x89PNG")


LOADS_THE_BOT = """
import importlib, sys
import bot.__main__
from bot.client import EXTENSIONS
for extension in EXTENSIONS:
    importlib.import_module(extension)
print(sorted(name for name in sys.modules if name.split(".")[0] == "matplotlib"))
"""


def test_starting_the_bot_does_not_import_matplotlib() -> None:
    """matplotlib is paid for by the first chart, not by every start."""
    result = subprocess.run(
        [sys.executable, "-c", LOADS_THE_BOT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
