"""D&D's embeds: the d20 test card and its verdict."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds, render
from bot.chances import dnd_modes_line
from bot.i18n import Lang, t
from bot.models import RollRecord
from cogs.dnd5e.state import ability_name, skill_name, test_from
from rules import dnd5e
from rules.dnd5e import D20Test


def verdict(lang: Lang, test: D20Test) -> str:
    if test.critical:
        return t(lang, "dnd.verdict.critical")
    if test.fumble:
        return t(lang, "dnd.verdict.fumble")
    if test.success is None:
        return t(lang, "dnd.verdict.total", total=test.total)
    key = (
        ("dnd.verdict.hit" if test.success else "dnd.verdict.miss")
        if test.attack
        else ("dnd.verdict.success" if test.success else "dnd.verdict.failure")
    )
    return t(lang, key, total=test.total, target=test.target)


def title(lang: Lang, data: dict[str, Any]) -> str:
    what = data["what"]
    if data["kind"] == "ataque":
        return t(lang, "dnd.title.attack")
    if what.get("skill"):
        return t(
            lang,
            f"dnd.title.{data['kind']}_skill",
            skill=skill_name(lang, what["skill"]),
            ability=ability_name(lang, what["ability"]),
        )
    if what.get("ability"):
        return t(lang, f"dnd.title.{data['kind']}_ability", ability=ability_name(lang, what["ability"]))
    return t(lang, f"dnd.title.{data['kind']}")


def roll_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    data = record.data
    test = test_from(data["test"])
    colour = embeds.NEUTRAL if test.success is None else (embeds.SUCCESS if test.success else embeds.FAILURE)
    embed = embeds.card(title(lang, data), t(lang, "dnd.roll.by", user=record.user_id), colour)
    mode_text = t(lang, f"dnd.mode.{test.mode.value}")
    modifier = f"{test.modifier:+d}"
    embeds.field(
        embed,
        t(lang, "dnd.roll.dice", mode=mode_text),
        f"{render.dice(test.dice)} {modifier} = **{test.total}**",
        inline=False,
    )
    embeds.field(embed, t(lang, "dnd.roll.verdict"), verdict(lang, test), inline=False)
    if test.target is not None and test.target <= dnd5e.MAX_TARGET:
        line = dnd_modes_line(lang, test.modifier, test.target, test.attack)
        embeds.field(embed, t(lang, "dnd.roll.odds"), line, inline=False)
    damage = data.get("damage_roll")
    if damage:
        key = "dnd.roll.damage_critical" if test.critical else "dnd.roll.damage"
        embeds.field(embed, t(lang, key), f"{damage['text']} = **{damage['total']}**", inline=False)
    if test.inspired:
        embed.set_footer(text=t(lang, "dnd.roll.inspired"))
    return embed
