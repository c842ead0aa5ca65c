"""Bar charts of distributions as PNG, drawn to be read in Discord: on its dark theme and on
a phone. matplotlib (Agg) is imported on first use and the drawing runs in a worker
thread, so neither start-up nor the event loop pays for it.

Each bar says what it means (success, failure, critical...) and gets that meaning's colour;
a dashed line marks where success starts (the difficulty, the DC, the AC).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.i18n import Lang, number, percent

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.figure import Figure

# Discord's dark theme (the chat's background) and its own palette, which reads on it.
BACKGROUND = "#313338"
TEXT = "#DBDEE1"
GRID = "#4E5058"
COLOURS = {
    "success": "#57F287",
    "failure": "#ED4245",
    "critical": "#FEE75C",
    "fumble": "#EB459E",
    "neutral": "#5865F2",
}
# The legend's entries a row, and the room above the tallest bar for its percentage and
# for each row of the legend; the threshold line stops below the legend, never across it.
LEGEND_COLUMNS = 3
HEADROOM = 1.15
LEGEND_ROW = 0.15
# Past this many bars the x labels get smaller so that they do not run into each other.
CROWDED_BARS = 16
# Percentages are written on the bars when there are this few of them (else they crowd).
LABELLED_BARS = 14
# A bar under this share of the whole gets no percentage written on it.
LABEL_FLOOR = 0.005


@dataclass(frozen=True)
class Bar:
    label: str
    p: float
    kind: str = "neutral"


@dataclass(frozen=True)
class Chart:
    """What to draw. ``legend`` names the kinds of bar (only those drawn are shown);
    ``marker`` is the x position of the threshold line (between two bars: index - 0.5)."""

    title: str
    bars: Sequence[Bar]
    xlabel: str
    ylabel: str
    legend: Mapping[str, str] = field(default_factory=dict)
    marker: float | None = None
    marker_label: str = ""
    note: str = ""


def figure(lang: Lang, chart: Chart) -> Figure:
    """The chart itself, in the reader's number notation."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    drawing = Figure(figsize=(6.4, 3.6), dpi=150, facecolor=BACKGROUND)
    axes = drawing.subplots()
    axes.set_facecolor(BACKGROUND)
    positions = range(len(chart.bars))
    heights = [100 * b.p for b in chart.bars]
    axes.bar(positions, heights, color=[COLOURS[b.kind] for b in chart.bars], width=0.8, zorder=2)
    if len(chart.bars) <= LABELLED_BARS:
        for x, bar in zip(positions, chart.bars, strict=True):
            if bar.p >= LABEL_FLOOR:
                axes.annotate(
                    percent(lang, bar.p, 0),
                    (x, 100 * bar.p),
                    textcoords="offset points",
                    xytext=(0, 2),
                    ha="center",
                    va="bottom",
                    fontsize=9,
                    color=TEXT,
                )
    small = len(chart.bars) > CROWDED_BARS
    axes.set_xticks(list(positions), [b.label for b in chart.bars], fontsize=8 if small else 10, color=TEXT)
    axes.tick_params(colors=TEXT, labelsize=10)
    axes.yaxis.set_major_formatter(lambda value, _position: number(lang, value))
    axes.set_title(chart.title, fontsize=13, color=TEXT, loc="left", fontweight="bold")
    axes.set_xlabel(chart.xlabel, fontsize=11, color=TEXT)
    axes.set_ylabel(chart.ylabel, fontsize=11, color=TEXT)
    axes.grid(axis="y", color=GRID, linewidth=0.6, zorder=0)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        axes.spines[side].set_color(GRID)
    handles: list[Artist] = [
        Patch(color=COLOURS[k], label=text) for k, text in chart.legend.items() if _drawn(chart, k)
    ]
    if chart.marker is not None and chart.marker_label:
        handles.append(_line(chart.marker_label))
    if chart.note:
        handles.append(Patch(color="none", label=chart.note))
    headroom = HEADROOM + LEGEND_ROW * -(-len(handles) // LEGEND_COLUMNS)
    axes.set_ylim(0, max(heights, default=1) * headroom)
    if chart.marker is not None:
        axes.axvline(chart.marker, ymax=1 / headroom, color=TEXT, linestyle="--", linewidth=1.4, zorder=3)
    if handles:
        columns = min(len(handles), LEGEND_COLUMNS)
        legend = axes.legend(
            handles=handles, fontsize=9, loc="upper left", frameon=False, labelcolor=TEXT, ncols=columns
        )
        legend.set_zorder(4)
    drawing.tight_layout()
    return drawing


def _drawn(chart: Chart, kind: str) -> bool:
    return any(b.kind == kind for b in chart.bars)


def _line(label: str) -> Artist:
    from matplotlib.lines import Line2D

    return Line2D([], [], color=TEXT, linestyle="--", linewidth=1.2, label=label)


def _draw(lang: Lang, chart: Chart) -> bytes:
    buffer = io.BytesIO()
    figure(lang, chart).savefig(buffer, format="png", facecolor=BACKGROUND)
    return buffer.getvalue()


async def bar_chart(lang: Lang, chart: Chart) -> bytes:
    return await asyncio.to_thread(_draw, lang, chart)


def _draw_against(lang: Lang, chart: Chart, expected: Sequence[float], label: str) -> bytes:
    """``chart``'s bars (what came up) with a dashed step at what a fair die gives."""
    drawing = figure(lang, chart)
    axes = drawing.axes[0]
    heights = [100 * p for p in expected]
    axes.step(range(len(heights)), heights, where="mid", color=TEXT, linestyle="--", linewidth=1.2, zorder=3)
    axes.legend(handles=[_line(label)], fontsize=9, loc="upper left", frameon=False, labelcolor=TEXT)
    buffer = io.BytesIO()
    drawing.savefig(buffer, format="png", facecolor=BACKGROUND)
    return buffer.getvalue()


async def against_chart(lang: Lang, chart: Chart, expected: Sequence[float], label: str) -> bytes:
    """Observed shares (the chart's bars) against expected ones (``/estadisticas``), as PNG,
    drawn in a worker thread."""
    return await asyncio.to_thread(_draw_against, lang, chart, list(expected), label)
