"""What Mediana keeps at a table: the record kinds, the PV sheets and their wounds pool."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.client import Tirada
from bot.models import Record
from cogs.mediana.sheet_model import physique_of
from rules.mediana import health as mediana_health
from rules.mediana import ranks as mediana_ranks
from rules.mediana.health import Health

KIND = "mediana"
COMBAT_KIND = "mediana_combate"
EFFECT_KIND = "mediana_efecto"
# A player's PV sheet (``/mediana pv ficha``: Físico and maximum), kept by a table reset.
SHEET_KIND = "mediana_ficha"
# PV lost, per player: a pool, so every change is in the ledger and /mesa deshacer reverts it
# (shared with the player's active character sheet: bot.sheets.live).
WOUNDS = "mediana_heridas"


def wounds_cap(physique: int, maximum: int) -> int:
    """The most PV a character can lose: from the maximum down to death (−Físico × 6)."""
    return maximum + physique * mediana_health.DEATH_FACTOR


def health_from(record: Record | None, wounds: int) -> Health | None:
    """A sheet's PV: the maximum less the wounds pool. A sheet stored before the pool
    existed kept its ``current`` in the sheet itself (and has no wounds yet)."""
    if record is None:
        return None
    data = record.data
    current = data["current"] if "current" in data else data["maximum"] - wounds
    return Health(data["physique"], data["maximum"], current)


async def sheets(bot: Tirada, channel_id: int) -> dict[int, Record]:
    """Every character's PV sheet at this table: the newest one recorded for each player."""
    return await bot.store.latest_records(channel_id, SHEET_KIND)


async def sheet(bot: Tirada, channel_id: int, user_id: int) -> Record | None:
    return (await bot.store.latest_records(channel_id, SHEET_KIND, user_id)).get(user_id)


async def health(bot: Tirada, channel_id: int, user_id: int) -> Health | None:
    """A player's PV from their PV record and wounds pool, with the Físico of their active
    Mediana sheet when they have one: its attribute, where a record written from a sheet
    stored before the sheet kept one Físico may carry the other."""
    return await health_of(bot, channel_id, user_id, await sheet(bot, channel_id, user_id))


async def health_of(bot: Tirada, channel_id: int, user_id: int, record: Record | None) -> Health | None:
    """:func:`health` from the player's PV ``record`` already read (None: they have none)."""
    known = health_from(record, await bot.store.pool(channel_id, WOUNDS, user_id))
    if known is None:
        return None
    row = await bot.store.active_sheet(channel_id, user_id)
    if row is None or row.system != "mediana":
        return known
    return replace(known, physique=physique_of(row.data))


async def badly_hurt(bot: Tirada, channel_id: int, user_id: int) -> bool:
    """Malherido by the PV sheet (False without one)."""
    known = await health(bot, channel_id, user_id)
    return bool(known and known.badly_hurt)


async def current_ranks(bot: Tirada, channel_id: int, keys: list[str]) -> dict[str, str]:
    """The initiative rank each player in the fight rolls at now: medio, or bajo when their
    PV sheet says malherido (players' keys are ``u{user id}``; NPCs keep theirs)."""
    players = {key: int(key[1:]) for key in keys if key.startswith("u")}
    if not players:
        return {}
    known = await sheets(bot, channel_id)
    ranks = {}
    for key, user_id in players.items():
        hp = await health_of(bot, channel_id, user_id, known.get(user_id))
        ranks[key] = mediana_ranks.effective_rank(badly_hurt=bool(hp and hp.badly_hurt))
    return ranks


async def open_combat(bot: Tirada, channel_id: int) -> Record | None:
    """The table's combat panel while its fight lasts (None out of combat)."""
    return next((r for r in await bot.store.records(channel_id, COMBAT_KIND, 5) if not r.data["ended"]), None)


def options_of(data: dict[str, Any]) -> dict[str, Any]:
    """The options a roll was asked with (empty for a roll stored before they were kept)."""
    return dict(data.get("options") or {})
