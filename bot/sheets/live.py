"""The numbers play changes (hit points, Heridas, Provisiones, Riqueza): each lives in a
ledger pool, so ``/mesa historial`` lists every change and ``/mesa deshacer`` reverts it.
The stored file keeps the other fields; reading a sheet puts the pools' values back in.

Which fields live in pools is each system's declaration (bot/systems.py ``Live``). Most
pools are owned by the sheet (its id). Mediana's PV are the player's wounds pool that
``/mediana pv`` already keeps (owned by the player, PV lost rather than PV left), so the
active Mediana sheet and ``/mediana pv`` are one and the same; an NPC's or an inactive
sheet's PV stay in the file until the sheet is chosen.
"""

from __future__ import annotations

from typing import Any

from bot import systems
from bot.models import Change, NewRecord, SheetRow
from bot.sheets.models import SheetBase
from bot.store import Store
from bot.systems import Data, Live


def live_fields(system: str) -> tuple[Live, ...]:
    """Every field of ``system``'s sheets that lives in a pool."""
    declaration = systems.declared(system)
    return declaration.live if declaration is not None else ()


def sheet_pools() -> frozenset[str]:
    """The pools a sheet owns (its id), of every system: kept by a table reset, never a
    player's (bot/kinds.py tells them by name)."""
    return frozenset(live.pool for s in systems.every() for live in s.live if not live.by_player)


def get(data: Data, path: str) -> Any:
    for key in path.split("."):
        data = data[key]
    return data


def put(data: Data, path: str, value: Any) -> Data:
    """A copy of ``data`` with ``path`` set to ``value`` (the rest shared, unchanged)."""
    head, _, rest = path.partition(".")
    new = dict(data)
    new[head] = put(data[head], rest, value) if rest else value
    return new


def lives(row: SheetRow) -> tuple[Live, ...]:
    """The live fields of this sheet: a player's pool only for their active sheet."""
    return tuple(
        live for live in live_fields(row.system) if not live.by_player or (row.active and not row.npc)
    )


def live_field(row: SheetRow, path: str) -> Live | None:
    return next((live for live in lives(row) if live.path == path), None)


def opening(row: SheetRow, sheet: SheetBase) -> tuple[Change, ...]:
    """Put the pools of ``row`` (just stored, or just chosen) at the file's values."""
    data = sheet.model_dump(mode="json")
    return tuple(
        Change(
            live.pool,
            owner_id=live.owner(row),
            cap=live.cap(data),
            set_to=live.pool_value(data, int(get(data, live.path))),
        )
        for live in lives(row)
    )


def companion(row: SheetRow, sheet: SheetBase) -> NewRecord | None:
    """The record the system keeps beside an active sheet, if it keeps one (the Físico and
    maximum ``/mediana pv`` reads)."""
    declaration = systems.declared(row.system)
    if declaration is None or declaration.companion is None or not lives(row):
        return None
    return declaration.companion(row, sheet.model_dump(mode="json"))


def with_pools(row: SheetRow, values: dict[str, int]) -> Data:
    """The sheet as play has left it: each live field at its pool's value."""
    data = row.data
    for live in lives(row):
        if live.pool in values:
            data = put(data, live.path, live.field(data, values[live.pool]))
    return data


def as_stored(row: SheetRow, after: Data) -> Data:
    """What the store keeps of an edited sheet: live fields as first stored (their values
    are the pools')."""
    for live in lives(row):
        after = put(after, live.path, get(row.data, live.path))
    return after


async def played(store: Store, row: SheetRow) -> Data:
    """The sheet as play has left it, as plain data, unvalidated: the live board reads it
    and must draw even a sheet whose pool has left the file's bounds."""
    values = {live.pool: await store.pool(row.channel_id, live.pool, live.owner(row)) for live in lives(row)}
    return with_pools(row, values)
