"""Dune: Aventuras en el Imperio — skill tests with a panel of buttons, and the pools.

The cog reads the interaction, asks ``rules.dune`` what happens and writes the roll and
the pools in one store operation. Every button carries the roll's id, so panels keep
working after a restart until the roll is settled.
"""

from __future__ import annotations

from bot import systems
from bot.client import Tirada
from cogs.dune.cog import Dune
from cogs.dune.system import SYSTEM


async def setup(bot: Tirada) -> None:
    systems.register(SYSTEM, by=__name__)
    await bot.add_cog(Dune(bot))
