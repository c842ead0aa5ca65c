"""D&D's section of the table's board: the open combat's order, an arrow on whoever acts,
the round, and hit points as the table's setting shows them.

Where a combatant's hit points come from: a character sheet's (a player's, or an NPC's the
tracker links), else what the tracker keeps of a monster (bot/board/hp.py says how much
of them everyone sees).
"""

from __future__ import annotations

import discord

from bot import embeds
from bot.board import hp
from bot.board.render import fit_more, order_line
from bot.i18n import Lang, t
from bot.models import BoardHitPoints, Table
from bot.sheets.live import played
from bot.store import Store
from cogs.dnd5e.state import COMBAT_KIND
from rules.dnd5e import death, initiative
from rules.dnd5e import tracker as dnd5e_tracker
from rules.dnd5e.conditions import EXHAUSTION, Affliction
from rules.dnd5e.death import Fate
from rules.dnd5e.hit_points import Condition, HitPoints

# The system's stored id, its declaration's name (cogs/dnd5e/system.py): the sheets it reads.
SYSTEM = "dnd5e"
PG = hp.Unit("board.hp.pg", "board.hp.pg_temp", "board.hp.pg_state")


async def part(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """The open combat's order, an arrow on whoever acts, the round, and hit points as the
    table's setting shows them."""
    record = next(
        (r for r in await store.records(table.channel_id, COMBAT_KIND, 5) if not r.data["ended"]), None
    )
    if record is None:
        embeds.field(embed, t(lang, "board.initiative"), t(lang, "board.no_combat"), inline=False)
        return
    tracker = dnd5e_tracker.tracker_from_data(record.data)
    acting = tracker.acting
    setting = table.settings.board_hit_points
    lines = []
    for c in tracker.order:
        points = () if setting is BoardHitPoints.HIDDEN else await combatant_hp(store, table, c, tracker)
        shown = hp.group_text(lang, setting, points, player(c))
        shown = with_conditions(lang, tracker, c, shown)
        lines.append(
            order_line(lang, c.name, c.initiative, c.count, acting is not None and c.key == acting.key, shown)
        )
    title = t(lang, "board.round", n=tracker.round) if tracker.started else t(lang, "board.not_started")
    embeds.field(embed, title, fit_more(lang, lines) or t(lang, "board.nobody"), inline=False)


def points(
    current: int, maximum: int, temporary: int = 0, fate: Fate | None = None, *, dies_at_zero: bool = False
) -> hp.Hp:
    """D&D hit points and their word: Ensangrentado ("Bloodied") at half the maximum or
    less (SRD 5.2, "Daño y curación"); at 0, what the tracker knows (``fate``): Muerto,
    Estable, or Inconsciente with its death saving throws (a monster without a sheet dies
    at 0)."""
    fate = fate or Fate()
    standing = death.standing(HitPoints(max(current, 0), maximum), fate, dies_at_zero=dies_at_zero)
    if standing is not Condition.UP:
        saves = (fate.successes, fate.failures) if standing is Condition.UNCONSCIOUS else (0, 0)
        return hp.Hp(current, maximum, standing.value, PG, temporary, saves)
    if current * 2 <= maximum:
        state = "ensangrentado"
    elif current < maximum:
        state = "herido"
    else:
        state = "ileso"
    return hp.Hp(current, maximum, state, PG, temporary)


def player(combatant: initiative.Combatant) -> bool:
    """A player's character (``u{user id}``), whose numbers the table sees."""
    return combatant.user_id is not None and not combatant.monster


async def combatant_hp(
    store: Store, table: Table, combatant: initiative.Combatant, tracker: dnd5e_tracker.Tracker | None = None
) -> tuple[hp.Hp, ...]:
    """Each creature's hit points, one per member of a group, with its fate on ``tracker``
    (its death saving throws, stable, dead). A combatant linked to a
    sheet (``sheet_id``: a player's character or an NPC's sheet) reads it: current (pool
    ``ficha_pg``) and temporary (``ficha_pg_temp``), both owned by the sheet, and the
    file's maximum; a player of a tracker from before the link reads their active sheet.
    A monster without a sheet, or a player who joined without one, has what the tracker
    keeps (nothing until the GM notes it)."""
    if combatant.sheet_id is not None:
        row = await store.sheet(table.channel_id, combatant.sheet_id)
        data = await played(store, row) if row is not None else None
    elif player(combatant) and not combatant.hp:
        assert combatant.user_id is not None
        data = await hp.sheet_data(store, table, combatant.user_id, SYSTEM)
    else:
        return tuple(
            points(
                m.hp.current,
                m.hp.maximum,
                m.hp.temporary,
                tracker.fate(m.target) if tracker else None,
                dies_at_zero=combatant.monster,
            )
            for m in combatant.members
            if m.hp
        )
    if data is None:
        return ()
    pg = data["pg"]
    fate = tracker.fate(combatant.key) if tracker else None
    return (points(int(pg["actuales"]), int(pg["maximos"]), int(pg.get("temporales") or 0), fate),)


def condition_name(lang: Lang, affliction: Affliction) -> str:
    """A condition's name; Exhaustion's with its level ("Agotamiento 2")."""
    if affliction.condition == EXHAUSTION:
        return t(lang, "dnd.condition.agotamiento_level", level=affliction.level)
    return t(lang, f"dnd.condition.{affliction.condition}")


def with_conditions(
    lang: Lang, tracker: dnd5e_tracker.Tracker, combatant: initiative.Combatant, shown: str | None
) -> str | None:
    """The hit points the board shows, then each member's conditions the GM set (the table
    already sees them on the tracker's panel): "7/7 PG · Aturdido"."""
    names = [
        ", ".join(condition_name(lang, a) for a in tracker.conditions(m.target)) for m in combatant.members
    ]
    tags = [
        text if combatant.count == 1 else t(lang, "board.dnd.member_conditions", name=m.name, conditions=text)
        for m, text in zip(combatant.members, names, strict=True)
        if text
    ]
    return " · ".join([shown, *tags] if shown else tags) or None
