"""What one write changed at a table, by meaning: what the store's listeners hear with the
table's channel id (``Part._changed``).

A listener that shows a part of a table (its live board, its overlay pages) redraws only
when the write may have changed that part: a D&D board reads the open combat and the
sheets, so a new roll of a kind it never reads leaves it as it was. What a write cannot
tell (an undo, a reset, another process's notification, a resync) is :data:`ANYTHING`.
A leaf module: value types only, so that every listener may read it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from bot.models import Operation


@dataclass(frozen=True, slots=True)
class Touched:
    """What a write changed: the table's row (its system, GM, settings), its pools with their
    ledger rows, its sheets (a file, a name, which is active), and records of which kinds
    (``kinds`` None: of any kind, a write that does not know which it changed)."""

    table: bool = False
    ledger: bool = False
    sheets: bool = False
    kinds: frozenset[str] | None = frozenset()


ANYTHING = Touched(table=True, ledger=True, sheets=True, kinds=None)
TABLE = Touched(table=True)
SHEETS = Touched(sheets=True)


@functools.lru_cache(maxsize=256)
def touched(ledger: bool = False, sheets: bool = False, kind: str | None = None) -> Touched:
    """The notice of a write that changed pools (``ledger``), sheets, or one record of
    ``kind``: one object for each such write, made once (every operation asks)."""
    return Touched(ledger=ledger, sheets=sheets, kinds=frozenset(() if kind is None else (kind,)))


def by_operation(op: Operation) -> Touched:
    """What an applied operation changed. An undo or a reset is :data:`ANYTHING` (which
    pools an undo reverts, which records a reset retires, the operation does not say); a
    record's update names no kind (``RecordUpdate`` carries its id alone): records of any."""
    if op.undo is not None or op.reset is not None:
        return ANYTHING
    sheets = op.sheet_update is not None
    if op.record_update is not None:
        return Touched(ledger=bool(op.changes), sheets=sheets, kinds=None)
    kind = op.new_record.kind if op.new_record is not None else None
    return touched(bool(op.changes), sheets, kind)
