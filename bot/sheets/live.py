"""The numbers play changes (hit points, Heridas, Provisiones, Riqueza): each lives in a
ledger pool owned by the sheet's id, so ``/mesa historial`` lists every change and
``/mesa deshacer`` reverts it. The stored file keeps the other fields; reading a sheet puts
the pools' values back in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.models import Change
from bot.sheets.models import SheetBase
from rules import donjon


@dataclass(frozen=True)
class Live:
    """A field whose value is pool ``pool`` (owner: the sheet), at most ``cap(sheet)``."""

    path: str
    pool: str
    cap: Callable[[dict[str, Any]], int]


LIVE: dict[str, tuple[Live, ...]] = {
    "dnd5e": (
        Live("pg.actuales", "ficha_pg", lambda d: int(d["pg"]["maximos"])),
        Live("pg.temporales", "ficha_pg_temp", lambda d: 999),
    ),
    "donjon": tuple(
        Live(name, f"ficha_{name}", lambda d: donjon.MAX_POOL)
        for name in ("heridas", "provisiones", "riqueza")
    ),
    "dune": (),
    "mediana": (),
}
POOLS = frozenset(live.pool for fields in LIVE.values() for live in fields)


def get(data: dict[str, Any], path: str) -> Any:
    for key in path.split("."):
        data = data[key]
    return data


def put(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``data`` with ``path`` set to ``value`` (the rest shared, unchanged)."""
    head, _, rest = path.partition(".")
    new = dict(data)
    new[head] = put(data[head], rest, value) if rest else value
    return new


def live_field(system: str, path: str) -> Live | None:
    return next((live for live in LIVE[system] if live.path == path), None)


def opening(sheet: SheetBase, sheet_id: int) -> tuple[Change, ...]:
    """A new sheet's pools, put at the file's values (each a ledger row)."""
    data = sheet.model_dump(mode="json")
    return tuple(
        Change(live.pool, owner_id=sheet_id, cap=live.cap(data), set_to=int(get(data, live.path)))
        for live in LIVE[data["sistema"]]
    )


def with_pools(data: dict[str, Any], values: dict[str, int]) -> dict[str, Any]:
    """The sheet as play has left it: each live field at its pool's value."""
    for live in LIVE[data["sistema"]]:
        if live.pool in values:
            data = put(data, live.path, values[live.pool])
    return data
