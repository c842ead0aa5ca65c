"""Bar charts of distributions as PNG. matplotlib (Agg) is imported on first use and the
drawing runs in a worker thread, so neither start-up nor the event loop pays for it."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n import Lang, number

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def figure(
    lang: Lang, title: str, labels: Sequence[str], values: Sequence[float], xlabel: str, ylabel: str
) -> Figure:
    """The chart itself; its percentage axis is written in the reader's notation."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    chart = Figure(figsize=(7, 3.2), dpi=100)
    axes = chart.subplots()
    axes.bar(range(len(values)), [100 * v for v in values], color="#5865F2")
    axes.set_xticks(range(len(labels)), labels, fontsize=8)
    axes.yaxis.set_major_formatter(lambda value, _position: number(lang, value))
    axes.set_title(title, fontsize=11)
    axes.set_xlabel(xlabel, fontsize=9)
    axes.set_ylabel(ylabel, fontsize=9)
    axes.grid(axis="y", alpha=0.3)
    chart.tight_layout()
    return chart


def _draw(
    lang: Lang, title: str, labels: Sequence[str], values: Sequence[float], xlabel: str, ylabel: str
) -> bytes:
    buffer = io.BytesIO()
    figure(lang, title, labels, values, xlabel, ylabel).savefig(buffer, format="png")
    return buffer.getvalue()


async def bar_chart(
    lang: Lang, title: str, labels: Sequence[str], values: Sequence[float], xlabel: str, ylabel: str
) -> bytes:
    return await asyncio.to_thread(_draw, lang, title, list(labels), list(values), xlabel, ylabel)


def _draw_against(
    lang: Lang,
    title: str,
    labels: Sequence[str],
    seen: Sequence[float],
    expected: Sequence[float],
    ylabel: str,
) -> bytes:
    """Bars for what came up, a line for what a fair die gives (``/estadisticas``)."""
    chart = figure(lang, title, labels, seen, "", ylabel)
    axes = chart.axes[0]
    axes.step(range(len(expected)), [100 * v for v in expected], where="mid", color="#ED4245", linewidth=1)
    buffer = io.BytesIO()
    chart.savefig(buffer, format="png")
    return buffer.getvalue()


async def against_chart(
    lang: Lang,
    title: str,
    labels: Sequence[str],
    seen: Sequence[float],
    expected: Sequence[float],
    ylabel: str,
) -> bytes:
    """Observed shares against expected ones, as PNG, drawn in a worker thread."""
    return await asyncio.to_thread(
        _draw_against, lang, title, list(labels), list(seen), list(expected), ylabel
    )
