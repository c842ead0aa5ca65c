"""Mediana's section of the table's board: the open combat's order this round (rolled
again each round), ▶ on whoever acts, and PV as the table's setting shows them.

A player's PV come from their active Mediana sheet, else from their PV sheet
(``/mediana pv ficha``); an NPC's are not on the board.
"""

from __future__ import annotations

import discord

from bot import embeds
from bot.board import hp
from bot.board.render import fit_more, order_line
from bot.i18n import Lang, t
from bot.models import BoardHitPoints, Record, Table
from bot.store import Store
from cogs.mediana.sheet_model import physique_of
from cogs.mediana.state import COMBAT_KIND, SHEET_KIND, WOUNDS
from rules.mediana import combat as mediana_combat
from rules.mediana import health as mediana_health

# The system's stored id, its declaration's name (cogs/mediana/system.py): the sheets it reads.
SYSTEM = "mediana"
PV = hp.Unit("board.hp.pv", None, "board.hp.pv_state")


async def part(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """The open combat's order this round (rolled again each round), ▶ on whoever acts, and
    PV as the table's setting shows them."""
    record = next(
        (r for r in await store.records(table.channel_id, COMBAT_KIND, 5) if not r.data["ended"]), None
    )
    if record is None:
        embeds.field(embed, t(lang, "board.initiative"), t(lang, "board.no_combat"), inline=False)
        return
    combat = mediana_combat.combat_from_data(record.data)
    acting = combat.acting
    setting = table.settings.board_hit_points
    kept_sheets = {} if setting is BoardHitPoints.HIDDEN else await pv_sheets(store, table)
    lines = []
    for f in combat.order:
        shown_points = (
            None if setting is BoardHitPoints.HIDDEN else await fighter_hp(store, table, f, kept_sheets)
        )
        shown = hp.hp_text(lang, setting, shown_points, player(f) is not None)
        lines.append(order_line(lang, f.name, f.total, 1, acting is not None and f.key == acting.key, shown))
    text = fit_more(lang, lines) or t(lang, "board.nobody")
    embeds.field(embed, t(lang, "board.round", n=combat.round), text, inline=False)


def points(physique: int, maximum: int, current: int) -> hp.Hp:
    """Mediana's PV and their word: the rules' malherido (PV ≤ Físico), inconsciente (0)
    and muerto (−Físico × 6); above malherido, Ileso at the maximum, else Herido."""
    health = mediana_health.Health(physique, maximum, current)
    state = health.state
    if state == "bien":
        state = "ileso" if current >= maximum else "herido"
    return hp.Hp(current, maximum, state, PV)


def player(fighter: mediana_combat.Fighter) -> int | None:
    """The player a fighter is (``u{user id}``; an NPC's key is ``n…``)."""
    digits = fighter.key[1:]
    return int(digits) if fighter.key.startswith("u") and digits.isdigit() else None


async def pv_sheets(store: Store, table: Table) -> dict[int, Record]:
    """Each player's newest PV sheet (``/mediana pv ficha``), read once for a whole board."""
    return await store.latest_records(table.channel_id, SHEET_KIND)


async def fighter_hp(
    store: Store, table: Table, fighter: mediana_combat.Fighter, kept_sheets: dict[int, Record]
) -> hp.Hp | None:
    """A player's PV: from their active Mediana sheet (``pv.maximos`` less the player's
    wounds pool), else from their PV sheet in ``kept_sheets`` (:func:`pv_sheets`; the same
    pool). None for an NPC and for a player with neither."""
    user_id = player(fighter)
    if user_id is None:
        return None
    data = await hp.sheet_data(store, table, user_id, SYSTEM)
    if data is not None:
        pv = data["pv"]
        return points(physique_of(data), int(pv["maximos"]), int(pv["actuales"]))
    record = kept_sheets.get(user_id)
    if record is None:
        return None
    kept = record.data
    wounds = await store.pool(table.channel_id, WOUNDS, user_id)
    # A PV sheet from before the wounds pool kept its current PV itself.
    current = int(kept["current"]) if "current" in kept else int(kept["maximum"]) - wounds
    return points(int(kept["physique"]), int(kept["maximum"]), current)
