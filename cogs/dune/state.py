"""What Dune keeps at a table: the record kinds, the pools and how they change, a test's
request, and extended tasks (their progress and the one-time "done" announcement)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot import embeds
from bot.client import Tirada
from bot.i18n import Lang, t
from bot.models import Applied, Change, Operation, RollUpdate
from rules import dune

KIND = "dune"
ASSIST_KIND = "dune_ayuda"
TASK_KIND = "dune_tarea"
IMPULSO = "impulso"
AMENAZA = "amenaza"
DETERMINACION = "determinacion"
DIFICULTAD_EXTRA = "dificultad_extra"
MAX_POINTS = 100
TASK_NAME_LIMIT = 80


def momentum_change(delta: int, *, clamp: bool = False) -> Change:
    return Change(IMPULSO, delta, cap=dune.MOMENTUM_CAP, clamp=clamp)


def threat_change(amount: int) -> Change:
    """Amenaza added, kept within the bot's cap (the rules give none)."""
    return Change(AMENAZA, amount, cap=dune.THREAT_CAP)


def determination_change(user_id: int, delta: int = 0, *, set_to: int | None = None) -> Change:
    return Change(DETERMINACION, delta, owner_id=user_id, cap=dune.DETERMINATION_CAP, set_to=set_to)


def check_bound(name: str, value: int, low: int, high: int) -> None:
    """discord.py does not enforce option ranges, so every command checks its own."""
    dune.check_range(name, value, low, high)


# -- extended tasks -------------------------------------------------------------------------


async def task_progress(bot: Tirada, channel_id: int, task_ids: list[int]) -> dict[int, int]:
    """Each task's points, from every roll linked to it, read in one query."""
    points = dict.fromkeys(task_ids, 0)
    for record in await bot.store.linked_rolls(channel_id, KIND, "task_id", task_ids):
        roll = dune.from_data(record.data)
        if roll.task_id in points:
            points[roll.task_id] += dune.task_points(roll)
    return points


async def announce_task(
    bot: Tirada, interaction: discord.Interaction, lang: Lang, task_id: int | None
) -> None:
    """Mark a task done the first time its points reach the requirement, and say so once."""
    if task_id is None:
        return
    task = await bot.store.roll(task_id)
    if task is None or task.kind != TASK_KIND or task.data.get("done"):
        return
    points = (await task_progress(bot, task.channel_id, [task_id]))[task_id]
    if points < task.data["requirement"]:
        return
    outcome = await bot.store.apply(
        Operation(
            task.channel_id,
            interaction.id,
            interaction.user.id,
            "dune.task_done",
            roll_update=RollUpdate(task.id, task.version, {**task.data, "done": True}),
            step=1,
        )
    )
    if isinstance(outcome, Applied) and not outcome.replayed:
        text = t(
            lang,
            "dune.task.done",
            name=task.data["name"],
            points=points,
            requirement=task.data["requirement"],
        )
        await interaction.followup.send(embed=embeds.card(text, colour=embeds.SUCCESS))


@dataclass(frozen=True)
class RollSpec:
    """What a test asks for, before it is paid and rolled."""

    target: int
    focus_skill: int | None = None
    difficulty: int = 1
    bought: int = 0
    payment: str = "impulso"
    complication_range: int = 1
    determination: bool = False
    bonus: int = 0
    npc: bool = False
    task_id: int | None = None
    asset_quality: int = 0
    opponent: dict[str, Any] | None = None
    secret: bool = False
