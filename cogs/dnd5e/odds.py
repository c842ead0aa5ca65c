"""D&D's odds line under a d20 test's card: the chance to succeed without, with advantage
and with disadvantage. The figures come from ``rules.dnd5e.odds``.

A table may turn these lines off (``/mesa ajustes``): ``rolls.load`` copies its setting into
the roll (``Record.shows_odds``), the render passes it as ``shown`` and the line is then empty,
an empty line that ``embeds.field`` leaves out (docs/decisiones.md, "La línea de
probabilidades"). ``/probabilidad`` always shows it (``shown=True``).
"""

from __future__ import annotations

from bot.i18n import Lang, percent, t
from rules.dnd5e import checks
from rules.dnd5e import odds as dnd5e_odds


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
