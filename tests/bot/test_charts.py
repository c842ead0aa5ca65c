import subprocess
import sys
from pathlib import Path

import pytest

from bot.charts import COLOURS, Bar, Chart, bar_chart, figure


def chart(bars: list[Bar], **extra: object) -> Chart:
    return Chart("t", bars, "x", "y", **extra)  # type: ignore[arg-type]


ROOT = Path(__file__).resolve().parents[2]


def y_ticks(lang: str, values: list[float]) -> list[str]:
    drawn = figure(lang, chart([Bar(str(i), v) for i, v in enumerate(values)]))
    drawn.canvas.draw()
    return [label.get_text() for label in drawn.axes[0].get_yticklabels()]


@pytest.mark.parametrize(("lang", "tick"), [("es", "0,4"), ("en", "0.4")])
def test_the_percentage_axis_is_written_in_the_readers_notation(lang: str, tick: str) -> None:
    assert tick in y_ticks(lang, [0.002, 0.008, 0.015])


async def test_a_chart_is_a_png() -> None:
    assert (await bar_chart("es", chart([Bar("1", 0.5)]))).startswith(b"\x89PNG")


def test_each_bar_has_the_colour_of_what_it_means_and_the_legend_names_only_those_drawn() -> None:
    from matplotlib.colors import to_hex

    bars = [Bar("1", 0.2, "failure"), Bar("2", 0.5, "success"), Bar("3", 0.3, "critical")]
    legend = {"success": "superas", "failure": "fallas", "fumble": "pifia", "critical": "crítico"}
    drawn = figure("es", chart(bars, legend=legend, marker=0.5, marker_label="dificultad 2"))
    axes = drawn.axes[0]
    colours = [to_hex(p.get_facecolor()).upper() for p in axes.patches]
    assert colours == [COLOURS["failure"], COLOURS["success"], COLOURS["critical"]]
    texts = [t.get_text() for t in axes.get_legend().get_texts()]
    assert texts == ["superas", "fallas", "crítico", "dificultad 2"]
    assert [line.get_xdata()[0] for line in axes.get_lines()] == [0.5]


def test_few_bars_carry_their_percentage_in_the_readers_notation() -> None:
    drawn = figure("es", chart([Bar("1", 0.25), Bar("2", 0.75), Bar("3", 0.001)]))
    labels = [t.get_text() for t in drawn.axes[0].texts]
    assert labels == ["25\N{NO-BREAK SPACE}%", "75\N{NO-BREAK SPACE}%"]


def test_the_chart_is_drawn_for_discords_dark_theme() -> None:
    from matplotlib.colors import to_hex

    drawn = figure("en", chart([Bar("1", 1.0)]))
    assert to_hex(drawn.get_facecolor()).upper() == "#313338"
    drawn.canvas.draw()
    assert to_hex(drawn.axes[0].get_xticklabels()[0].get_color()).upper() == "#DBDEE1"


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


async def test_the_statistics_chart_is_a_png() -> None:
    from bot.charts import against_chart

    shares = [0.2, 0.1, 0.2, 0.2, 0.1, 0.2]
    png = await against_chart(
        "es", chart([Bar(str(i), p) for i, p in enumerate(shares, 1)]), [1 / 6] * 6, "justo"
    )
    assert png.startswith(b"\x89PNG")
