"""Donjon: tests of opposed pools and the Ley de los Éxitos panel that follows them.

The winner of a test spends each success as a fact ("Narrar hecho") or a banked bonus
die ("Guardar dado", for themselves or a friend); once all are spent, the facts go to
whoever must narrate, with a "Narrado" button. Banked dice are per-player pools, spent
with ``banco`` on a later test. Every panel survives a restart.
"""

from __future__ import annotations

from bot import systems
from bot.client import Tirada
from cogs.donjon.cog import Donjon
from cogs.donjon.system import SYSTEM


async def setup(bot: Tirada) -> None:
    systems.register(SYSTEM, by=__name__)
    await bot.add_cog(Donjon(bot))
