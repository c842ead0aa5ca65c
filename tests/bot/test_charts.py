import pytest

from bot.charts import bar_chart, figure


def y_ticks(lang: str, values: list[float]) -> list[str]:
    chart = figure(lang, "t", ["1", "2", "3"], values, "x", "y")
    chart.canvas.draw()
    return [label.get_text() for label in chart.axes[0].get_yticklabels()]


@pytest.mark.parametrize(("lang", "tick"), [("es", "0,4"), ("en", "0.4")])
def test_the_percentage_axis_is_written_in_the_readers_notation(lang: str, tick: str) -> None:
    assert tick in y_ticks(lang, [0.002, 0.008, 0.015])


async def test_a_chart_is_a_png() -> None:
    assert (await bar_chart("es", "t", ["1"], [0.5], "x", "y")).startswith(b"\x89PNG")


async def test_the_statistics_chart_is_a_png() -> None:
    from bot.charts import against_chart

    png = await against_chart(
        "es", "d6", list("123456"), [0.2, 0.1, 0.2, 0.2, 0.1, 0.2], [1 / 6] * 6, "veces (%)"
    )
    assert png.startswith(b"\x89PNG")
