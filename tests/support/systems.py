"""Every game system's declaration (bot/systems.py), for tests that read the registry
without starting a bot (a bot registers them as its cogs load)."""

from __future__ import annotations

from bot import systems
from cogs.dnd5e.system import SYSTEM as DND5E
from cogs.donjon.system import SYSTEM as DONJON
from cogs.dune.system import SYSTEM as DUNE
from cogs.mediana.system import SYSTEM as MEDIANA

DECLARATIONS = (DONJON, DUNE, DND5E, MEDIANA)


def declare_all() -> tuple[systems.Declaration, ...]:
    """Register every system, as loading the cogs does (registering again is no change)."""
    for declaration in DECLARATIONS:
        systems.register(declaration, by=f"cogs.{declaration.name}")
    return DECLARATIONS
