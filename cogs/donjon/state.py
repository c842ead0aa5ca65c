"""What Donjon keeps at a table: the record kinds, the banks of dice and how they change."""

from __future__ import annotations

from bot.i18n import Lang, t
from bot.models import Change

KIND = "donjon"
COMBAT_KIND = "donjon_combate"
ATTRIBUTES_KIND = "donjon_atributos"
BANK = "dados"
GM_BANK = "dados_dj"
GM = 0  # the owner id that stands for "the GM" in a Law (and the GM's bank)


def bank_change(owner: int, delta: int) -> Change:
    return Change(GM_BANK, delta) if owner == GM else Change(BANK, delta, owner_id=owner)


def who(lang: Lang, user_id: int) -> str:
    return t(lang, "donjon.the_gm") if user_id == GM else f"<@{user_id}>"
