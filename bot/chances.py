"""One-line odds for the roll embeds, where the choice was made before rolling: a Dune
test with 0 to 3 bought dice, a Donjon test with and without the banked dice, a D&D test
with and without advantage. The figures come from ``rules.odds`` (cached per question).

A table may turn these lines off (``/mesa ajustes``). The decision is taken here, once, for
every system: each line below takes ``shown`` (the roll's ``Record.shows_odds``, its
table's setting, passed by the render) and is empty when it is false, an empty line that
``embeds.field`` leaves out.
"""

from __future__ import annotations

from bot.i18n import Lang, percent, t
from rules import odds
from rules.dnd5e import checks
from rules.dnd5e import odds as dnd5e_odds
from rules.donjon import odds as donjon_odds
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


def dnd_modes_line(lang: Lang, modifier: int, target: int, attack: bool, *, shown: bool) -> str:
    """The chance to succeed without, with advantage and with disadvantage, in one line."""
    if not shown:
        return ""
    p = {
        m.value: percent(
            lang, dnd5e_odds.dnd_distribution(modifier, target, m.value, attack).p_success or 0.0
        )
        for m in checks.Mode
    }
    return t(lang, "odds.dnd.modes", normal=p["normal"], advantage=p["ventaja"], disadvantage=p["desventaja"])


def donjon_bank_line(lang: Lang, dice: int, bank: int, against: int, sides: int) -> str:
    """The chance to win with and without the banked dice put in, in one line."""
    with_bank = donjon_odds.donjon_distribution(
        min(dice, odds.MAX_POOL), min(against, odds.MAX_POOL), sides
    ).win("a")
    without = donjon_odds.donjon_distribution(
        min(dice - bank, odds.MAX_POOL), min(against, odds.MAX_POOL), sides
    ).win("a")
    return t(
        lang,
        "odds.donjon.bank",
        without=percent(lang, without),
        bank=bank,
        with_bank=percent(lang, with_bank),
    )


def donjon_line(lang: Lang, dice: int, bank: int, against: int, sides: int, *, shown: bool) -> str | None:
    """None when a pool is past what the odds engine takes (40 dice) or the die past d100,
    or when the table hides odds."""
    if not shown:
        return None
    if dice > odds.MAX_POOL or against > odds.MAX_POOL or sides > 100:
        return None
    if bank:
        return donjon_bank_line(lang, dice, bank, against, sides)
    return t(
        lang,
        "odds.donjon.plain",
        p=percent(lang, donjon_odds.donjon_distribution(dice, against, sides).win("a")),
    )
