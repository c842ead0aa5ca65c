"""Sheets as embeds read at a glance, and import problems as sentences."""

from __future__ import annotations

import discord

from bot import embeds
from bot.i18n import Lang, t
from bot.models import SheetRow
from bot.panel import safe
from bot.sheets.io import Problem
from bot.sheets.models import SheetBase
from bot.systems import declared


def sheet_embed(lang: Lang, row: SheetRow, sheet: SheetBase) -> discord.Embed:
    """The sheet as ``/ficha ver`` shows it: its name and owner, then the parts its system
    declares (``Declaration.sheet_fields``)."""
    title_key = "fichas.ver.npc_title" if row.npc else "fichas.ver.title"
    embed = embeds.card(t(lang, title_key, name=safe(sheet.nombre), system=t(lang, f"system.{row.system}")))
    embed.description = t(lang, "fichas.ver.owner", owner=row.owner_id, id=row.id)
    system = declared(row.system)
    if system is not None and system.sheet_fields is not None:
        for part in system.sheet_fields(lang, sheet):
            embeds.field(embed, part.name, part.value, inline=part.inline)
    return embed


def problems_text(lang: Lang, problems: list[Problem]) -> str:
    """The first problems of a refused file, one line each."""
    return "\n".join(
        "• " + t(lang, f"fichas.problem.{p.kind}", field=safe(p.where)[:80], limit=str(p.limit)[:120])
        for p in problems
    )
