"""Mediana's embeds and texts: tests, opposed tests, effects and hit points."""

from __future__ import annotations

import discord

from bot import embeds, render
from bot.i18n import Lang, t
from bot.models import RollRecord
from cogs.mediana.state import test_from
from rules import mediana
from rules.mediana import Health, Test

# -- rendering ---------------------------------------------------------------------------------


def throws_text(test: Test) -> str:
    """Each 1o3d10 with its objective die bold and the other two struck; a chain of
    explosions reads left to right."""
    return " → ".join(render.dice(x.marked) for x in test.throws)


def verdict(lang: Lang, test: Test) -> str:
    if test.difficulty is None:
        return t(lang, "mediana.verdict.total", total=test.total)
    if test.fumble:
        return t(lang, "mediana.verdict.fumble", total=test.total, difficulty=test.difficulty)
    if test.success is False and test.skill_test and test.natural_one:
        return t(lang, "mediana.verdict.natural_one", total=test.total, difficulty=test.difficulty)
    if test.critical:
        return t(
            lang,
            "mediana.verdict.critical",
            total=test.total,
            difficulty=test.difficulty,
            degrees=test.degrees,
        )
    if test.success:
        return t(
            lang,
            "mediana.verdict.success",
            total=test.total,
            difficulty=test.difficulty,
            degrees=test.degrees,
        )
    return t(lang, "mediana.verdict.failure", total=test.total, difficulty=test.difficulty)


def test_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    data = record.data
    test = test_from(data["test"])
    colour = embeds.NEUTRAL if test.success is None else (embeds.SUCCESS if test.success else embeds.FAILURE)
    embed = embeds.card(
        t(lang, f"mediana.title.{data['kind']}"), t(lang, "mediana.roll.by", user=record.user_id), colour
    )
    rank_line = t(lang, "mediana.roll.rank", rank=t(lang, f"mediana.rank.{test.first.rank}"))
    reasons = [t(lang, f"mediana.reason.{r}") for r in data.get("reasons", [])]
    if reasons:
        rank_line += " · " + ", ".join(reasons)
    embeds.field(embed, t(lang, "mediana.roll.dice"), f"{throws_text(test)}\n{rank_line}", inline=False)
    embeds.field(
        embed,
        t(lang, "mediana.roll.sum"),
        t(lang, "mediana.roll.sum_value", score=test.score, rolled=test.rolled, total=test.total),
    )
    embeds.field(embed, t(lang, "mediana.roll.verdict"), verdict(lang, test), inline=False)
    damage = data.get("damage")
    if damage:
        embeds.field(embed, t(lang, "mediana.roll.damage"), damage, inline=False)
    return embed


def effect_text(lang: Lang, effect: mediana.Effect) -> str:
    chains = " ".join(render.dice(chain) for chain in effect.chains)
    parts = [t(lang, "mediana.effect.rolled", dice=chains, bonus=f"{effect.bonus:+d}", rolled=effect.rolled)]
    if effect.critical:
        parts.append(t(lang, "mediana.effect.doubled", value=effect.rolled * 2))
    if effect.absorption:
        parts.append(t(lang, "mediana.effect.absorbed", absorption=effect.absorption))
    parts.append(t(lang, "mediana.effect.total", total=effect.total))
    return " · ".join(parts)


def health_text(lang: Lang, user_id: int, health: Health) -> str:
    return t(
        lang,
        "mediana.pv.line",
        user=user_id,
        current=health.current,
        maximum=health.maximum,
        physique=health.physique,
        state=t(lang, f"mediana.pv.state.{health.state}"),
    )


# -- opposed tests -----------------------------------------------------------------------------------


def opposed_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    data = record.data
    a, b = test_from(data["a"]), test_from(data["b"])
    rival = f"<@{data['rival']}>" if data.get("rival") else t(lang, "mediana.opposed.rival")
    winner = mediana.opposed_winner(a, b)
    embed = embeds.card(t(lang, "mediana.title.enfrentada"), t(lang, "mediana.roll.by", user=record.user_id))
    embeds.field(
        embed, f"<@{record.user_id}>", f"{throws_text(a)}\n{t(lang, 'mediana.opposed.total', total=a.total)}"
    )
    embeds.field(embed, rival, f"{throws_text(b)}\n{t(lang, 'mediana.opposed.total', total=b.total)}")
    if winner is None:
        key = "mediana.opposed.tie_accepted" if data.get("settled") else "mediana.opposed.tie"
        text = t(lang, key)
    else:
        text = t(lang, "mediana.opposed.wins", winner=f"<@{record.user_id}>" if winner == "a" else rival)
    embeds.field(embed, t(lang, "mediana.roll.verdict"), text, inline=False)
    return embed
