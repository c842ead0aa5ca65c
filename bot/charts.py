"""Bar charts of distributions as PNG. matplotlib (Agg) is imported on first use and the
drawing runs in a worker thread, so neither start-up nor the event loop pays for it."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence


def _draw(title: str, labels: Sequence[str], values: Sequence[float], xlabel: str, ylabel: str) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 3.2), dpi=100)
    axes = figure.subplots()
    axes.bar(range(len(values)), [100 * v for v in values], color="#5865F2")
    axes.set_xticks(range(len(labels)), labels, fontsize=8)
    axes.set_title(title, fontsize=11)
    axes.set_xlabel(xlabel, fontsize=9)
    axes.set_ylabel(ylabel, fontsize=9)
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


async def bar_chart(
    title: str, labels: Sequence[str], values: Sequence[float], xlabel: str, ylabel: str
) -> bytes:
    return await asyncio.to_thread(_draw, title, list(labels), list(values), xlabel, ylabel)
