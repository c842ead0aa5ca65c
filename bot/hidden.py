"""What a player never sees, decided here once (docs/fiabilidad.md, "Lo oculto sigue oculto").

Every output a player can read asks this module, rather than each deciding for itself:

- a secret roll before its reveal and a private roll are marked so by the store as they
  are written (``records.secret``, ``dice_counts.private``): the chronicle and
  ``/estadisticas`` read only what the table saw;
- an NPC sheet's numbers (its hit points, Heridas, Provisiones and Riqueza) are the GM's:
  each ledger row that tells one says so itself (``LedgerRow.gm_only``), unless the table
  shows every number (``/mesa ajustes vida_tablero:exactos``);
- Dune's Amenaza, when the GM hides it (``/mesa tablero ocultar_amenaza``): its value, and
  the ledger rows that would tell it (each system declares which of its pools the GM may
  hide: bot/systems.py ``hideable``).
"""

from __future__ import annotations

from collections.abc import Callable

from bot import systems
from bot.models import BoardHitPoints, LedgerRow, Table


def threat_hidden(table: Table) -> bool:
    """Whether the GM keeps the table's Amenaza from the players."""
    return table.settings.board_hides_threat


def ledger_rows(table: Table) -> Callable[[LedgerRow], bool]:
    """The ledger rows of ``table`` a player may not read (the GM reads them all)."""
    npc_numbers = table.settings.board_hit_points is not BoardHitPoints.EXACT
    hidden = hidden_pools(table)
    return lambda row: (npc_numbers and bool(row.gm_only)) or row.pool in hidden


def hidden_pools(table: Table) -> frozenset[str]:
    """The pools whose value the GM keeps from the players now (Dune's Amenaza, when hidden)."""
    if not threat_hidden(table):
        return frozenset()
    return frozenset(pool for system in systems.every() for pool in system.hideable)
