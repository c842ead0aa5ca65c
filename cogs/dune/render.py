"""Dune's embeds and texts: the roll card, the pools, opposed tests and assistance."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds, render
from bot.client import Tirada
from bot.errors import pool_name
from bot.i18n import Lang, t
from bot.models import Applied, Record
from bot.seen import PoolValues
from cogs.dune.odds import dune_assisted_line, dune_bought_line
from cogs.dune.state import (
    AMENAZA,
    DETERMINACION,
    DIFICULTAD_EXTRA,
    IMPULSO,
    RollSpec,
    roll_task_points,
    task_progress,
)
from rules.dune import opposition as dune_opposition
from rules.dune import pools as dune_pools
from rules.dune import successes
from rules.dune.skill_test import DuneRoll

# -- rendering ----------------------------------------------------------------------------


def pools_text(
    lang: Lang,
    values: PoolValues,
    user_id: int | None,
    gm_id: int | None = None,
    *,
    hide_threat: bool = False,
) -> str:
    """The table's pools, from the values the interaction read (``bot.seen``: the panel is
    redrawn on every press); a player's Determinación, never the GM's (the GM has none);
    Amenaza "oculta" where the GM hides it from the players (``hide_threat``: bot/hidden.py)."""
    threat = t(lang, "board.dune.hidden") if hide_threat else values.get((AMENAZA, 0), 0)
    parts = [
        t(lang, "dune.pools.impulso", value=values.get((IMPULSO, 0), 0), cap=dune_pools.MOMENTUM_CAP),
        t(lang, "dune.pools.amenaza", value=threat),
    ]
    if user_id is not None and user_id != gm_id:
        value = values.get((DETERMINACION, user_id), 0)
        parts.append(
            t(lang, "dune.pools.determinacion", user=user_id, value=value, cap=dune_pools.DETERMINATION_CAP)
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
    """The leader's dice, then one line per helper (a helper's one die is never rerolled),
    saying where the helper's target came from when a sheet or their scores gave it."""
    test = roll.test
    lines = [render.dice(test.dice)]
    sources = roll.extra.get("helpers") or [{}] * len(roll.helpers)
    for helper, die, parts in zip(roll.helpers, test.helper_dice, sources, strict=True):
        face = render.die(die)
        if "skill" in parts:
            keys = ("dune.roll.helper_from", "dune.roll.helper_as")
            lines.append(sourced(lang, parts, helper.target, *keys, user=helper.user_id, die=face))
        else:
            lines.append(t(lang, "dune.roll.helper", user=helper.user_id, die=face))
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
    if roll.extra.get("scene"):
        embeds.field(embed, t(lang, "dune.trait.title"), scene_text(lang, roll.extra["scene"]), inline=False)
    if progress:
        embeds.field(embed, t(lang, "dune.roll.task"), progress, inline=False)
    embeds.field(embed, t(lang, "dune.roll.odds"), odds_line(lang, roll, record.shows_odds), inline=False)
    embeds.field(embed, t(lang, "dune.roll.pools"), pools, inline=False)
    spec = roll.extra.get("spec", {})
    return embeds.titled(embed, spec.get("motivo"))


def scene_text(lang: Lang, scene: list[list[Any]]) -> str:
    """The traits and assets this roll's spends set, as written: "Rasgo «humo denso»: 2"."""
    return "\n".join(
        t(lang, "dune.trait.now" if value else "dune.trait.gone", pool=pool_name(lang, pool), value=value)
        for pool, _, value in scene
    )


def header_lines(lang: Lang, record: Record, roll: DuneRoll) -> list[str]:
    """Who rolled, what the target is made of, what the bought dice cost and what raised
    the difficulty: the roll explains itself."""
    spec = roll.extra.get("spec", {})
    lines = [by_line(lang, record.user_id, spec.get("character"))]
    if spec.get("skill") is not None and spec.get("drive") is not None:
        lines.append(target_line(lang, spec, roll.target))
    if roll.focus_skill is not None and spec.get("focus"):
        lines.append(t(lang, "dune.roll.focus_named", name=safe(spec["focus"]), skill=roll.focus_skill))
    elif roll.focus_skill is not None:
        lines.append(t(lang, "dune.roll.focus", skill=roll.focus_skill))
    bought = spec.get("bought", 0)
    if bought:
        lines.append(paid_text(lang, bought, roll.extra.get("paid", {}), roll.npc))
    if spec.get("determination"):
        lines.append(t(lang, "dune.roll.determination_before"))
    if spec.get("challenge"):
        drive = t(lang, f"fichas.dune.drive.{spec['drive_key']}")
        lines.append(t(lang, "dune.roll.challenge", drive=drive))
    raised = roll.extra.get("raised", 0)
    if raised:
        lines.append(t(lang, "dune.roll.raised", value=raised))
    return lines


def by_line(lang: Lang, user_id: int, character: str | None) -> str:
    """Who rolled, and as which character when the numbers came from a sheet."""
    if character:
        return t(lang, "fichas.roll.as", user=user_id, name=safe(character))
    return t(lang, "dune.roll.by", user=user_id)


def safe(name: str) -> str:
    """A character's name as typed on a sheet, shown without formatting or pings."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def sourced(lang: Lang, parts: dict[str, Any], total: int, key: str, as_key: str, **values: Any) -> str:
    """A sentence around where a target came from ("Se opone **Guardia**: Combate 6 +
    Deber 5 = 11."), naming the character (``as_key``) when a sheet gave the numbers."""
    source = target_line(lang, parts, total)
    if parts.get("character"):
        return t(lang, as_key, name=safe(parts["character"]), source=source, **values)
    return t(lang, key, source=source, **values)


def rival_source(lang: Lang, rival: dict[str, Any]) -> list[str]:
    """The opponent's skill and drive, when they were given (not just a target number)."""
    if "skill" not in rival:
        return []
    return [sourced(lang, rival, rival["target"], "dune.opposed.rival_source", "dune.opposed.rival_as")]


def target_line(lang: Lang, spec: dict[str, Any], target: int) -> str:
    """What the target is made of, by name when a sheet gave the numbers."""
    skill = t(lang, f"fichas.dune.skill.{spec['skill_key']}") if spec.get("skill_key") else None
    drive = t(lang, f"fichas.dune.drive.{spec['drive_key']}") if spec.get("drive_key") else None
    if skill is None and drive is None:
        return t(lang, "dune.roll.target", skill=spec["skill"], drive=spec["drive"], target=target)
    return t(
        lang,
        "fichas.dune.from",
        skill=skill or t(lang, "fichas.dune.skill_word"),
        skill_value=spec["skill"],
        drive=drive or t(lang, "fichas.dune.drive_word"),
        drive_value=spec["drive"],
        total=target,
    )


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
            lang,
            "dune.roll.saved_lost",
            saved=state.delta,
            lost=state.lost_to_cap,
            cap=dune_pools.MOMENTUM_CAP,
        )
    return t(lang, "dune.roll.saved_all", saved=state.delta)


def rival_test(rival: dict[str, Any], complication_range: int) -> successes.Test:
    """The opposition's roll as it was thrown, its helpers' dice with it (their successes
    count only if the opponent scores one, as on any test)."""
    helpers = [
        successes.Helper(0, target, None, successes.Slot((value,)))
        for target, value in zip(rival.get("helpers", ()), rival.get("helper_dice", ()), strict=True)
    ]
    return successes.evaluate(
        rival["dice"], rival["target"], rival["focus"], complication_range, 0, helpers=helpers
    )


def rival_dice(lang: Lang, test: successes.Test) -> str:
    """The opponent's dice, then their helpers' ("ayuda del rival: **7**✓ **14**")."""
    if not test.helper_dice:
        return render.dice(test.dice)
    helped = t(lang, "dune.opposed.rival_helpers", dice=render.dice(test.helper_dice))
    return f"{render.dice(test.dice)} · {helped}"


def opponent_text(lang: Lang, opponent: dict[str, Any], roll: DuneRoll) -> str:
    rival = rival_test(opponent, roll.complication_range)
    text = t(
        lang,
        "dune.opposed.rival",
        dice=rival_dice(lang, rival),
        successes=rival.successes,
        hindrances=opponent["hindrances"],
        difficulty=opponent.get("difficulty", roll.difficulty),
    )
    gained = dune_opposition.opponent_momentum(roll.difficulty, roll.test.successes)
    if not roll.test.passed and gained:
        text += "\n" + t(lang, "dune.opposed.gains", momentum=gained)
    return "\n".join([*rival_source(lang, opponent), text])


async def task_line(bot: Tirada, lang: Lang, record: Record, roll: DuneRoll) -> str:
    """What this roll (``record``'s) added to its extended task, by the task's name, and where
    it stands: with the roll's own points even while it is secret (its card is its roller's
    alone until the reveal), never another secret roll's."""
    task = roll.extra.get("task")
    if roll.task_id is None or task is None:
        return ""
    task_record = await bot.store.record(roll.task_id)
    if task_record is None:
        return ""
    secret_seen = record.id if record.secret else None
    progress = await task_progress(bot, task_record.channel_id, [task_record.id], secret_seen)
    points = progress[task_record.id]
    requirement = task_record.data["requirement"]
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
    opposition = rival_test(rival, spec.complication_range)
    lines = [t(lang, "dune.contra.help", user=record.user_id)]
    if spec.skill is not None and spec.drive is not None:
        keys = ("dune.contra.actor", "dune.contra.actor_as")
        lines.append(sourced(lang, record.data["spec"], spec.target, *keys))
    embed = embeds.card(t(lang, "dune.contra.title", difficulty=spec.difficulty), "\n".join(lines))
    text = t(
        lang,
        "dune.opposed.rival",
        dice=rival_dice(lang, opposition),
        successes=opposition.successes,
        hindrances=rival["hindrances"],
        difficulty=rival["difficulty"],
    )
    if rival.get("adjust"):
        text += "\n" + t(lang, "dune.opposed.adjusted", adjust=rival["adjust"], difficulty=spec.difficulty)
    if spec.raised:
        text += "\n" + t(lang, "dune.roll.raised", value=spec.raised)
    text = "\n".join([*rival_source(lang, rival), text])
    embeds.field(embed, t(lang, "dune.roll.opponent"), text, inline=False)
    helpers = [helper_line(lang, h) for h in record.data.get("helpers", ())]
    if helpers:
        embeds.field(embed, t(lang, "dune.ayuda.helpers"), "\n".join(helpers), inline=False)
    if record.data.get("rolled"):
        embed.set_footer(text=t(lang, "dune.ayuda.rolled"))
    return embeds.titled(embed, spec.motivo)


def progress_bar(points: int, requirement: int, width: int = 10) -> str:
    filled = min(width, points * width // max(requirement, 1))
    return "▰" * filled + "▱" * (width - filled)


# -- assistance -----------------------------------------------------------------------------------


def assist_embed(lang: Lang, record: Record) -> discord.Embed:
    spec = RollSpec(**record.data["spec"])
    help_lines = [t(lang, "dune.ayuda.help", user=record.user_id)]
    if spec.raised:
        help_lines.append(t(lang, "dune.roll.raised", value=spec.raised))
    embed = embeds.card(
        t(lang, "dune.ayuda.title", target=spec.target, difficulty=spec.difficulty), "\n".join(help_lines)
    )
    lines = [helper_line(lang, h) for h in record.data["helpers"]]
    embeds.field(
        embed, t(lang, "dune.ayuda.helpers"), "\n".join(lines) or t(lang, "dune.ayuda.nobody"), inline=False
    )
    if record.data.get("rolled"):
        embed.set_footer(text=t(lang, "dune.ayuda.rolled"))
    return embeds.titled(embed, spec.motivo)


def helper_line(lang: Lang, helper: dict[str, Any]) -> str:
    """A helper who joined, and where their target came from when they gave their scores."""
    if "skill" in helper:
        keys = ("dune.ayuda.helper_from", "dune.ayuda.helper_as")
        return sourced(lang, helper, helper["target"], *keys, user=helper["user"])
    return t(lang, "dune.ayuda.helper", user=helper["user"], target=helper["target"])
