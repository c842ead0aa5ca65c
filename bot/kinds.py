"""Which pools a character sheet owns, by their name alone (the store needs it, and may not
read the systems' declarations).

A sheet's live numbers are pools owned by the sheet's id, named ``ficha_…`` by the system
that declares them (bot/systems.py ``Live``): named "of sheet no. N" in the history, kept
by a table reset, the GM's own when the sheet is an NPC's. tests/bot/sheets/test_io.py checks
that every declared sheet pool, and no other, carries the prefix.
"""

from __future__ import annotations

from collections.abc import Container

SHEET_POOL_PREFIX = "ficha_"


class SheetPools(Container[str]):
    """``pool in SHEET_POOLS``: whether a sheet owns the pool."""

    def __contains__(self, pool: object) -> bool:
        return isinstance(pool, str) and pool.startswith(SHEET_POOL_PREFIX)


SHEET_POOLS = SheetPools()
