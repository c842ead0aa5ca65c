"""Donjon's odds line under a test's card: the chance to win, with and without the banked
dice put in. The figures come from ``rules.donjon.odds`` (``donjon_win``: the chance to win
alone, counted without numpy; cached per question).

A table may turn these lines off (``/mesa ajustes``): ``rolls.load`` copies its setting into
the roll (``Record.shows_odds``), the render passes it as ``shown`` and the line is then empty,
an empty line that ``embeds.field`` leaves out (docs/decisiones.md, "La línea de
probabilidades"). ``/probabilidad`` always shows it (``shown=True``).
"""

from __future__ import annotations

from bot.i18n import Lang, percent, t
from rules import odds
from rules.donjon import odds as donjon_odds


def donjon_bank_line(lang: Lang, dice: int, bank: int, against: int, sides: int) -> str:
    """The chance to win with and without the banked dice put in, in one line."""
    with_bank = donjon_odds.donjon_win(dice, against, sides)
    without = donjon_odds.donjon_win(dice - bank, against, sides)
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
        p=percent(lang, donjon_odds.donjon_win(dice, against, sides)),
    )
