"""Mediana's hit points through the table's ledger: every PV change is a change of the
player's wounds pool, so ``/mesa historial`` lists it and ``/mesa deshacer`` reverts it."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot import rolls
from bot.client import Tirada
from bot.errors import Refusal
from bot.models import Applied, Change, NewRecord, SheetRow, Table
from bot.sheets.live import live_field
from cogs.mediana.sheet_model import MedianaSheet
from cogs.mediana.state import SHEET_KIND, WOUNDS, health_of, sheet, wounds_cap
from rules.mediana.health import Health


async def set_sheet(
    bot: Tirada, interaction: discord.Interaction, table: Table, user_id: int, health: Health
) -> None:
    """Record Físico and maximum on a new sheet and put the wounds at what the PV say."""
    data = {"physique": health.physique, "maximum": health.maximum}
    wounds = Change(
        WOUNDS,
        owner_id=user_id,
        cap=wounds_cap(health.physique, health.maximum),
        set_to=health.maximum - health.current,
    )
    await rolls.change(
        bot.store,
        interaction,
        table,
        "mediana.pv.set",
        wounds,
        new_record=NewRecord(user_id, SHEET_KIND, data),
    )


async def change_health(
    bot: Tirada,
    interaction: discord.Interaction,
    table: Table,
    user_id: int,
    change: Callable[[Health], Health],
    reason: str,
) -> Health:
    """Apply a rule (hurt, heal, rest) to a player's PV as one change of their wounds,
    bounded by the store (never below full health, never past death)."""
    record = await sheet(bot, table.channel_id, user_id)
    before = await health_of(bot, table.channel_id, user_id, record)
    if record is None or before is None:
        raise Refusal("mediana.pv.no_sheet", user=user_id)
    after = change(before)
    cap = wounds_cap(before.physique, before.maximum)
    wounds = Change(WOUNDS, before.current - after.current, user_id, cap=cap, clamp=True)
    new_record = None
    if "current" in record.data:
        # A sheet from before the wounds pool: its PV move into the pool with this change.
        wounds = Change(WOUNDS, owner_id=user_id, cap=cap, set_to=after.maximum - after.current)
        data = {"physique": before.physique, "maximum": before.maximum}
        new_record = NewRecord(user_id, SHEET_KIND, data)
    outcome = await rolls.change(bot.store, interaction, table, reason, wounds, new_record=new_record)
    left = outcome.get(WOUNDS, user_id).value
    return Health(before.physique, before.maximum, before.maximum - left)


def wound(row: SheetRow, amount: int) -> Change | None:
    """The change that takes ``amount`` PV off the target ``row``: its player's wounds pool
    (clamped at death, as ``/mediana pv daño``), or None when its PV are not in play (an
    NPC's or an inactive sheet's stay in its file)."""
    live = live_field(row, "pv.actuales")
    if live is None:
        return None
    return Change(live.pool, amount, live.owner(row), cap=live.cap(row.data), clamp=True)


def wounded(row: SheetRow, target: MedianaSheet, outcome: Applied) -> tuple[Health, Health]:
    """The target's PV before and after, as the operation wrote them (its pool's value and
    what actually moved), so the card announces exactly the books' change."""
    state = outcome.get(WOUNDS, row.owner_id)
    maximum, physique = target.pv.maximos, target.physique
    after = Health(physique, maximum, maximum - state.value)
    return Health(physique, maximum, after.current + state.delta), after
