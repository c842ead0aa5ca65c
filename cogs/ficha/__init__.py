"""``/ficha``: character sheets for all four systems, per player per table (one active)
and the GM's NPCs; numbers play changes go through the ledger."""

from __future__ import annotations

from bot.client import Tirada
from cogs.ficha.cog import Sheets


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Sheets(bot))
