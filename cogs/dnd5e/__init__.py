"""D&D 5e (SRD 5.2): d20 tests, saves and attacks with heroic inspiration, an initiative
tracker, and a plain roller with advantage.

Every roll shows both d20s when there is advantage or disadvantage, which one counted,
and the verdict against the DC or AC. A holder of heroic inspiration gets buttons on
their own rolls to reroll one d20.
"""

from __future__ import annotations

from bot import systems
from bot.client import Tirada
from cogs.dnd5e.cog import Dnd
from cogs.dnd5e.system import SYSTEM


async def setup(bot: Tirada) -> None:
    systems.register(SYSTEM, by=__name__)
    await bot.add_cog(Dnd(bot))
