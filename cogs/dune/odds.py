"""Dune's odds line under a test's card, where the choice was made before rolling: the
chance to pass with 0 to 3 bought dice. The figures come from ``rules.dune.odds``.

A table may turn these lines off (``/mesa ajustes``): ``rolls.load`` copies its setting into
the roll (``Record.shows_odds``), the render passes it as ``shown`` and the line is then empty,
an empty line that ``embeds.field`` leaves out (docs/decisiones.md, "La línea de
probabilidades"). ``/probabilidad`` always shows it (``shown=True``).
"""

from __future__ import annotations

from bot.i18n import Lang, percent, t
from rules.dune import odds as dune_odds
from rules.dune import pools


def dune_bought_line(
    lang: Lang,
    target: int,
    dice: int,
    focus: int | None,
    rng: int,
    difficulty: int,
    ones: int,
    *,
    shown: bool,
) -> str:
    """The chance to pass with 0 to 3 bought dice, side by side, in one line."""
    if not shown:
        return ""
    chances = [
        percent(
            lang,
            dune_odds.dune_distribution(
                target, 2 + bought, focus, rng, difficulty, min(ones, 2 + bought)
            ).p_pass,
        )
        for bought in range(pools.MAX_BOUGHT + 1)
    ]
    return t(lang, "odds.dune.bought", zero=chances[0], one=chances[1], two=chances[2], three=chances[3])


def dune_assisted_line(
    lang: Lang,
    target: int,
    focus: int | None,
    difficulty: int,
    ones: int,
    helpers: tuple[tuple[int, int | None], ...],
    *,
    shown: bool,
) -> str:
    """The same line for an assisted test: the helpers' dice count when the leader succeeds."""
    if not shown:
        return ""
    chances = [
        percent(
            lang,
            float(
                dune_odds.dune_assisted_pass(
                    target, 2 + bought, helpers, focus, difficulty, min(ones, 2 + bought)
                )
            ),
        )
        for bought in range(pools.MAX_BOUGHT + 1)
    ]
    return t(lang, "odds.dune.bought", zero=chances[0], one=chances[1], two=chances[2], three=chances[3])
