"""Dune's embeds and texts: the roll card, the pools, opposed tests and assistance."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds, render
from bot.chances import dune_assisted_line, dune_bought_line
from bot.client import Tirada
from bot.i18n import Lang, t
from bot.models import Applied, Record
from cogs.dune.state import (
    AMENAZA,
    DETERMINACION,
    DIFICULTAD_EXTRA,
    IMPULSO,
    RollSpec,
    roll_task_points,
    task_progress,
)
from rules import dune
from rules.dune import DuneRoll

# -- rendering ----------------------------------------------------------------------------


async def pools_text(
    bot: Tirada, lang: Lang, channel_id: int, user_id: int | None, gm_id: int | None = None
) -> str:
    """The table's pools in one read (the panel is redrawn on every press); a player's
    Determinación, never the GM's (the GM has none)."""
    values = {(p.pool, p.owner_id): p.value for p in await bot.store.pools(channel_id)}
    parts = [
        t(lang, "dune.pools.impulso", value=values.get((IMPULSO, 0), 0), cap=dune.MOMENTUM_CAP),
        t(lang, "dune.pools.amenaza", value=values.get((AMENAZA, 0), 0)),
    ]
    if user_id is not None and user_id != gm_id:
        value = values.get((DETERMINACION, user_id), 0)
        parts.append(
            t(lang, "dune.pools.determinacion", user=user_id, value=value, cap=dune.DETERMINATION_CAP)
        )
    extra = values.get((DIFICULTAD_EXTRA, 0), 0)
    if extra:
        parts.append(t(lang, "dune.pools.dificultad_extra", value=extra))
    return "\n".join(parts)


def verdict(lang: Lang, roll: DuneRoll) -> str:
    test = roll.test
    if roll.price:
        return t(lang, "dune.verdict.price", count=roll.price_complications)
    if not test.passed:
        return t(lang, "dune.verdict.failed", successes=test.successes, difficulty=test.difficulty)
    return t(
        lang,
        "dune.verdict.passed",
        successes=test.successes,
        difficulty=test.difficulty,
        momentum=test.momentum,
    )


def dice_text(lang: Lang, roll: DuneRoll) -> str:
    """The leader's dice, then one line per helper (a helper's one die is never rerolled)."""
    test = roll.test
    lines = [render.dice(test.dice)]
    for helper, die in zip(roll.helpers, test.helper_dice, strict=True):
        lines.append(t(lang, "dune.roll.helper", user=helper.user_id, die=render.die(die)))
    return "\n".join(lines)


def roll_embed(lang: Lang, record: Record, roll: DuneRoll, pools: str, progress: str = "") -> discord.Embed:
    test = roll.test
    title_key = "dune.roll.title_npc" if roll.npc else "dune.roll.title"
    colour = embeds.SUCCESS if roll.passed else embeds.FAILURE
    embed = embeds.card(
        t(lang, title_key, target=roll.target, difficulty=roll.difficulty),
        "\n".join(header_lines(lang, record, roll)),
        colour,
    )
    opponent = roll.extra.get("rival")
    if opponent:
        embeds.field(embed, t(lang, "dune.roll.opponent"), opponent_text(lang, opponent, roll), inline=False)
    embeds.field(embed, t(lang, "dune.roll.dice"), dice_text(lang, roll), inline=False)
    embeds.field(embed, t(lang, "dune.roll.verdict"), verdict(lang, roll), inline=False)
    if test.complications or roll.price:
        embeds.field(
            embed,
            t(lang, "dune.roll.complications"),
            t(lang, "dune.roll.complications_left", left=roll.complications, ignored=roll.ignored),
        )
    if roll.passed and not roll.price:
        embeds.field(embed, t(lang, "dune.roll.momentum"), momentum_text(lang, roll))
    if roll.spends:
        spent = ", ".join(t(lang, f"dune.spend.{use}") for use in roll.spends)
        embeds.field(embed, t(lang, "dune.roll.spent"), spent, inline=False)
    if progress:
        embeds.field(embed, t(lang, "dune.roll.task"), progress, inline=False)
    embeds.field(embed, t(lang, "dune.roll.odds"), odds_line(lang, roll, record.shows_odds), inline=False)
    embeds.field(embed, t(lang, "dune.roll.pools"), pools, inline=False)
    spec = roll.extra.get("spec", {})
    return embeds.titled(embed, spec.get("motivo"))


def header_lines(lang: Lang, record: Record, roll: DuneRoll) -> list[str]:
    """Who rolled, what the target is made of, what the bought dice cost and what raised
    the difficulty: the roll explains itself."""
    lines = [t(lang, "dune.roll.by", user=record.user_id)]
    spec = roll.extra.get("spec", {})
    if spec.get("skill") is not None and spec.get("drive") is not None:
        made_of = {"skill": spec["skill"], "drive": spec["drive"], "target": roll.target}
        lines.append(t(lang, "dune.roll.target", **made_of))
    if roll.focus_skill is not None:
        lines.append(t(lang, "dune.roll.focus", skill=roll.focus_skill))
    bought = spec.get("bought", 0)
    if bought:
        lines.append(paid_text(lang, bought, roll.extra.get("paid", {}), roll.npc))
    if spec.get("determination"):
        lines.append(t(lang, "dune.roll.determination_before"))
    raised = roll.extra.get("raised", 0)
    if raised:
        lines.append(t(lang, "dune.roll.raised", value=raised))
    return lines


def paid_text(lang: Lang, bought: int, paid: dict[str, int], npc: bool) -> str:
    """ "2 dados: +3 Amenaza", "3 dados: 2 Impulso y +4 Amenaza"."""
    momentum, threat = paid.get("momentum", 0), paid.get("threat", 0)
    if npc:
        return t(lang, "dune.bought.npc", count=bought, cost=-threat)
    if momentum and threat:
        return t(lang, "dune.bought.split", count=bought, momentum=momentum, threat=threat)
    if threat:
        return t(lang, "dune.bought.amenaza", count=bought, cost=threat)
    return t(lang, "dune.bought.impulso", count=bought, cost=momentum)


def odds_line(lang: Lang, roll: DuneRoll, shown: bool) -> str:
    """The chance to pass with 0 to 3 bought dice; with helpers, counting their dice
    (empty when the table hides odds: ``shown``)."""
    ones = sum(slot.fixed for slot in roll.slots)
    if roll.helpers:
        helpers = tuple((h.target, h.focus_skill) for h in roll.helpers)
        return dune_assisted_line(
            lang, roll.target, roll.focus_skill, roll.difficulty, ones, helpers, shown=shown
        )
    return dune_bought_line(
        lang,
        roll.target,
        len(roll.slots),
        roll.focus_skill,
        roll.complication_range,
        roll.difficulty,
        ones,
        shown=shown,
    )


def momentum_text(lang: Lang, roll: DuneRoll) -> str:
    if roll.closed:
        return t(lang, "dune.roll.momentum_closed")
    if roll.bonus_left:
        return t(lang, "dune.roll.momentum_left", left=roll.momentum_left, bonus=roll.bonus_left)
    return t(lang, "dune.roll.momentum_only", left=roll.momentum_left)


def saved_text(lang: Lang, applied: Applied) -> str:
    """What "Guardar Impulso" put in the group pool and what the cap of 6 took."""
    state = next((p for p in applied.pools if p.pool == IMPULSO), None)
    if state is None:
        return t(lang, "dune.roll.saved_none")
    if state.lost_to_cap:
        return t(
            lang, "dune.roll.saved_lost", saved=state.delta, lost=state.lost_to_cap, cap=dune.MOMENTUM_CAP
        )
    return t(lang, "dune.roll.saved_all", saved=state.delta)


def opponent_text(lang: Lang, opponent: dict[str, Any], roll: DuneRoll) -> str:
    rival = dune.evaluate(opponent["dice"], opponent["target"], opponent["focus"], roll.complication_range, 0)
    text = t(
        lang,
        "dune.opposed.rival",
        dice=render.dice(rival.dice),
        successes=rival.successes,
        hindrances=opponent["hindrances"],
        difficulty=opponent.get("difficulty", roll.difficulty),
    )
    gained = dune.opponent_momentum(roll.difficulty, roll.test.successes)
    if not roll.test.passed and gained:
        text += "\n" + t(lang, "dune.opposed.gains", momentum=gained)
    return text


async def task_line(bot: Tirada, lang: Lang, roll: DuneRoll) -> str:
    """What this roll added to its extended task, by the task's name, and where it stands."""
    task = roll.extra.get("task")
    if roll.task_id is None or task is None:
        return ""
    record = await bot.store.record(roll.task_id)
    if record is None:
        return ""
    points = (await task_progress(bot, record.channel_id, [record.id]))[record.id]
    requirement = record.data["requirement"]
    return t(
        lang,
        "dune.roll.task_added",
        name=task["name"],
        added=roll_task_points(roll),
        points=points,
        requirement=requirement,
        bar=progress_bar(points, requirement),
    )


def opposed_embed(lang: Lang, record: Record) -> discord.Embed:
    """The opposition's roll, posted first: the difficulty the actor now faces."""
    spec = RollSpec(**record.data["spec"])
    rival = spec.opponent or {}
    opposition = dune.evaluate(rival["dice"], rival["target"], rival["focus"], spec.complication_range, 0)
    embed = embeds.card(
        t(lang, "dune.contra.title", difficulty=spec.difficulty),
        t(lang, "dune.contra.help", user=record.user_id),
    )
    text = t(
        lang,
        "dune.opposed.rival",
        dice=render.dice(opposition.dice),
        successes=opposition.successes,
        hindrances=rival["hindrances"],
        difficulty=rival["difficulty"],
    )
    if rival.get("adjust"):
        text += "\n" + t(lang, "dune.opposed.adjusted", adjust=rival["adjust"], difficulty=spec.difficulty)
    embeds.field(embed, t(lang, "dune.roll.opponent"), text, inline=False)
    if record.data.get("rolled"):
        embed.set_footer(text=t(lang, "dune.ayuda.rolled"))
    return embeds.titled(embed, spec.motivo)


def progress_bar(points: int, requirement: int, width: int = 10) -> str:
    filled = min(width, points * width // max(requirement, 1))
    return "▰" * filled + "▱" * (width - filled)


# -- assistance -----------------------------------------------------------------------------------


def assist_embed(lang: Lang, record: Record) -> discord.Embed:
    spec = RollSpec(**record.data["spec"])
    embed = embeds.card(
        t(lang, "dune.ayuda.title", target=spec.target, difficulty=spec.difficulty),
        t(lang, "dune.ayuda.help", user=record.user_id),
    )
    helpers = record.data["helpers"]
    lines = [t(lang, "dune.ayuda.helper", user=h["user"], target=h["target"]) for h in helpers]
    embeds.field(
        embed, t(lang, "dune.ayuda.helpers"), "\n".join(lines) or t(lang, "dune.ayuda.nobody"), inline=False
    )
    if record.data.get("rolled"):
        embed.set_footer(text=t(lang, "dune.ayuda.rolled"))
    return embeds.titled(embed, spec.motivo)
