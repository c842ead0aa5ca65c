"""Mediana (1o3d10): tests with the objective die, damage, opposed tests, initiative
and hit points that lower the rank by themselves when a character is malherido.
"""

from __future__ import annotations

from bot import systems
from bot.client import Tirada
from cogs.mediana.cog import Mediana
from cogs.mediana.system import SYSTEM


async def setup(bot: Tirada) -> None:
    systems.register(SYSTEM, by=__name__)
    await bot.add_cog(Mediana(bot))
