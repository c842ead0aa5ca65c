"""Donjon's section of the table's board: the facts awaiting narration, everyone's banked
dice and the GM's, the Donjon level."""

from __future__ import annotations

import discord
from discord.utils import escape_markdown

from bot import embeds
from bot.board.render import SHOWN, fit, more
from bot.i18n import Lang, t
from bot.models import Table
from bot.store import Store
from cogs.donjon.settings import donjon_settings
from cogs.donjon.state import BANK, GM_BANK, pending_laws
from rules.donjon import law as donjon_law

FACT_SHOWN = 80


def level(table: Table) -> int:
    """The table's Donjon level."""
    return donjon_settings(table).donjon_level


async def part(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """The facts awaiting narration, everyone's banked dice and the GM's, the Donjon level."""
    embeds.field(embed, t(lang, "board.donjon.level"), f"**{level(table)}**")
    banks = [p for p in await store.pools(table.channel_id) if p.value and p.pool in (BANK, GM_BANK)]
    banks.sort(key=lambda p: (p.pool != GM_BANK, p.owner_id))
    lines = [bank_line(lang, p.pool, p.owner_id, p.value) for p in banks[:SHOWN]]
    text = fit(more(lang, lines, len(banks))) if lines else t(lang, "board.donjon.no_bank")
    embeds.field(embed, t(lang, "board.donjon.bank"), text)
    pending = [law for _, law in await pending_laws(store, table.channel_id)]
    if not pending:
        return
    lines = [fact_line(lang, law) for law in reversed(pending[:SHOWN])]
    embeds.field(embed, t(lang, "board.donjon.facts"), fit(more(lang, lines, len(pending))), inline=False)


def bank_line(lang: Lang, pool: str, owner: int, value: int) -> str:
    if pool == GM_BANK:
        return t(lang, "board.donjon.gm_bank", n=value)
    return t(lang, "board.donjon.player_bank", user=owner, n=value)


def fact_line(lang: Lang, law: donjon_law.Law) -> str:
    """The facts of one test still waiting to be narrated."""
    facts = " · ".join(escape_markdown(embeds.clip(law.facts[i].text, FACT_SHOWN)) for i in law.pending)
    if law.narrator_id:
        return t(lang, "board.donjon.fact", narrator=law.narrator_id, facts=facts)
    return t(lang, "board.donjon.fact_gm", facts=facts)
