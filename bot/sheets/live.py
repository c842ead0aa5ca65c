"""The numbers play changes (hit points, Heridas, Provisiones, Riqueza): each lives in a
ledger pool, so ``/mesa historial`` lists every change and ``/mesa deshacer`` reverts it.
The stored file keeps the other fields; reading a sheet puts the pools' values back in.

Most pools are owned by the sheet (its id). Mediana's PV are the player's wounds pool that
``/mediana pv`` already keeps (``mediana_heridas``, owned by the player, PV lost rather than
PV left), so the active Mediana sheet and ``/mediana pv`` are one and the same; an NPC's or
an inactive sheet's PV stay in the file until the sheet is chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.kinds import MEDIANA_SHEET, MEDIANA_WOUNDS, SHEET_POOLS
from bot.models import Change, NewRecord, SheetRow
from bot.sheets.models import DuneDrives, SheetBase, physique_of
from rules.donjon import contest
from rules.mediana import health

Data = dict[str, Any]


@dataclass(frozen=True)
class Live:
    """A field whose value is pool ``pool``, at most ``cap(sheet)``. ``full`` marks a pool
    of what was lost: the field is ``full(sheet)`` less the pool. ``by_player``: the pool is
    the player's (the active sheet's), not the sheet's own. ``gm_edits``: only the GM edits
    the field by hand (a rule gives the change to the GM)."""

    path: str
    pool: str
    cap: Callable[[Data], int]
    full: Callable[[Data], int] | None = None
    by_player: bool = False
    gm_edits: bool = False

    def owner(self, row: SheetRow) -> int:
        return row.owner_id if self.by_player else row.id

    def field(self, data: Data, pool_value: int) -> int:
        return pool_value if self.full is None else self.full(data) - pool_value

    def pool_value(self, data: Data, value: int) -> int:
        return value if self.full is None else self.full(data) - value


def _wounds_cap(data: Data) -> int:
    """From the maximum down to death at −Físico × 6 (``cogs/mediana``'s own bound)."""
    return int(data["pv"]["maximos"]) + physique_of(data) * health.DEATH_FACTOR


LIVE: dict[str, tuple[Live, ...]] = {
    "dnd5e": (
        Live("pg.actuales", "ficha_pg", lambda d: int(d["pg"]["maximos"])),
        Live("pg.temporales", "ficha_pg_temp", lambda d: 999),
    ),
    "donjon": tuple(
        Live(name, f"ficha_{name}", lambda d: contest.MAX_POOL)
        for name in ("heridas", "provisiones", "riqueza")
    ),
    # Recovering a drive is the GM's ("puedes solicitar al Director que permita a tu
    # personaje recuperar una motivación"): a player may not edit the mark away.
    # Nor the mark of a drive defied this adventure (which only a new adventure clears).
    "dune": tuple(
        Live(f"motivaciones.{drive}.{mark}", f"ficha_{mark}_{drive}", lambda d: 1, gm_edits=True)
        for drive in DuneDrives.model_fields
        for mark in ("tachada", "desafiada")
    ),
    "mediana": (Live("pv.actuales", MEDIANA_WOUNDS, _wounds_cap, lambda d: int(d["pv"]["maximos"]), True),),
}
# The pools a sheet owns: declared in bot.kinds (the store reads them); tests/bot/test_sheets.py
# checks that they are exactly the fields' own.
POOLS = SHEET_POOLS


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
    return tuple(live for live in LIVE[row.system] if not live.by_player or (row.active and not row.npc))


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
    """The record ``/mediana pv`` reads (Físico and maximum) for the active Mediana sheet."""
    if row.system != "mediana" or not lives(row):
        return None
    data = sheet.model_dump(mode="json")
    return NewRecord(
        row.owner_id, MEDIANA_SHEET, {"physique": physique_of(data), "maximum": data["pv"]["maximos"]}
    )


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
