"""Dune's section of the table's board: Impulso n/6, Amenaza (or hidden), each player's
Determinación, the scene's traits and assets, open tasks, +1 dificultad."""

from __future__ import annotations

import discord
from discord.utils import escape_markdown

from bot import embeds
from bot.board.render import SHOWN, fit, more
from bot.errors import pool_name
from bot.hidden import threat_hidden
from bot.i18n import Lang, t
from bot.models import Table
from bot.store import Store
from cogs.dune.state import (
    AMENAZA,
    ASSET,
    DETERMINACION,
    DIFICULTAD_EXTRA,
    IMPULSO,
    KIND,
    TASK_KIND,
    TRAIT,
    counted,
)
from rules.dune import pools, skill_test
from rules.dune import tasks as dune_tasks

# Dune's pools named for one scene: its traits and created assets.
SCENE = (TRAIT, ASSET)


async def part(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """Impulso n/6, Amenaza (or hidden), each player's Determinación, open tasks, +1 dificultad."""
    values = {(p.pool, p.owner_id): p.value for p in await store.pools(table.channel_id)}
    embeds.field(
        embed, t(lang, "board.dune.impulso"), f"**{values.get((IMPULSO, 0), 0)}**/{pools.MOMENTUM_CAP}"
    )
    threat = str(values.get((AMENAZA, 0), 0))
    hidden = threat_hidden(table)
    embeds.field(
        embed, t(lang, "board.dune.amenaza"), t(lang, "board.dune.hidden") if hidden else f"**{threat}**"
    )
    extra = values.get((DIFICULTAD_EXTRA, 0), 0)
    if extra:
        embeds.field(embed, t(lang, "board.dune.extra"), t(lang, "board.dune.extra_value", n=extra))
    holders = sorted((owner, v) for (pool, owner), v in values.items() if pool == DETERMINACION and owner)
    lines = [
        t(lang, "board.dune.determinacion_line", user=owner, value=v, cap=pools.DETERMINATION_CAP)
        for owner, v in holders[:SHOWN]
    ]
    if lines:
        embeds.field(embed, t(lang, "board.dune.determinacion"), fit(more(lang, lines, len(holders))), False)
    scene = sorted((pool, owner, v) for (pool, owner), v in values.items() if pool.startswith(SCENE) and v)
    if scene:
        shown = [scene_line(lang, pool, owner, v) for pool, owner, v in scene[:SHOWN]]
        embeds.field(embed, t(lang, "board.dune.scene"), fit(more(lang, shown, len(scene))), False)
    await tasks(store, lang, table, embed)


def scene_line(lang: Lang, pool: str, owner: int, value: int) -> str:
    """A scene trait with its count ("Rasgo «humo denso» 2"), or an asset and whose."""
    if owner:
        return t(lang, "board.dune.asset", asset=pool_name(lang, pool), owner=owner)
    return t(lang, "board.dune.trait", trait=pool_name(lang, pool), value=value)


async def tasks(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """The open extended tasks with the points their rolls scored so far."""
    open_tasks = [
        r for r in await store.records(table.channel_id, TASK_KIND, limit=100) if not r.data.get("done")
    ]
    if not open_tasks:
        return
    shown = list(reversed(open_tasks))[:SHOWN]
    points = dict.fromkeys((task.id for task in shown), 0)
    looming = {task.id for task in shown if task.data.get("opposing")}
    for record in counted(await store.linked_records(table.channel_id, KIND, "task_id", list(points))):
        roll = skill_test.from_data(record.data)
        if roll.task_id in points:
            # A looming problem fills with failures and complications ("desde la dirección opuesta").
            count = dune_tasks.opposing_task_points if roll.task_id in looming else dune_tasks.task_points
            points[roll.task_id] += count(roll)
    lines = [
        t(
            lang,
            "board.dune.task",
            name=escape_markdown(task.data["name"]),
            points=points[task.id],
            requirement=task.data["requirement"],
        )
        for task in shown
    ]
    embeds.field(embed, t(lang, "board.dune.tasks"), fit(more(lang, lines, len(open_tasks))), inline=False)
