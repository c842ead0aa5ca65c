"""Donjon's embeds and texts: tests, the Ley de los Éxitos, narration and attributes."""

from __future__ import annotations

import discord

from bot import embeds, render
from bot.chances import donjon_line
from bot.i18n import Lang, t
from bot.models import RollRecord
from cogs.donjon.state import GM, who
from rules import donjon
from rules.dice import Die, Mark
from rules.donjon import Contest, DonjonRoll, Law

# -- rendering ----------------------------------------------------------------------------


def side_text(lang: Lang, dice: tuple[Die, ...], label: str) -> str:
    return t(lang, "donjon.pool_line", label=label, count=len(dice), dice=render.dice(dice))


def contest_lines(lang: Lang, test: Contest, label_a: str, label_b: str) -> list[str]:
    first = test.first
    lines = [side_text(lang, first.a, label_a), side_text(lang, first.b, label_b)]
    for x, y in test.extra:
        lines.append(t(lang, "donjon.tie_round", a=x, b=y))
    return lines


def labels(lang: Lang, roll: DonjonRoll, roller: int) -> tuple[str, str]:
    rival = roll.details.get("rival")
    return f"<@{roller}>", (f"<@{rival}>" if rival else t(lang, "donjon.the_gm"))


def roll_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    roll = donjon.from_data(record.data)
    test = roll.test
    label_a, label_b = labels(lang, roll, record.user_id)
    won = test.winner == "a"
    embed = embeds.card(
        t(lang, f"donjon.title.{roll.kind}"), "\n".join(contest_lines(lang, test, label_a, label_b))
    )
    embed.colour = embeds.SUCCESS if won else embeds.FAILURE
    winner = label_a if won else label_b
    embeds.field(embed, t(lang, "donjon.result"), outcome_text(lang, roll, winner), inline=False)
    law = roll.law
    if law is not None:
        embeds.field(embed, t(lang, "donjon.law"), law_text(lang, law), inline=False)
    if roll.kind in ("prueba", "enfrentada"):
        line = donjon_line(lang, len(test.a), roll.details.get("bank_spent", 0), len(test.b), test.sides)
        if line:
            embeds.field(embed, t(lang, "donjon.roll.odds"), line, inline=False)
    if roll.details.get("bank_spent"):
        embeds.field(
            embed, t(lang, "donjon.bank_used"), t(lang, "donjon.bank_used_n", n=roll.details["bank_spent"])
        )
    return embed


def outcome_text(lang: Lang, roll: DonjonRoll, winner: str) -> str:
    test, details = roll.test, roll.details
    key = f"donjon.outcome.{roll.kind}.{'won' if test.winner == 'a' else 'lost'}"
    return t(lang, key, winner=winner, successes=test.successes, **details.get("params", {}))


def law_text(lang: Lang, law: Law) -> str:
    lines = [
        t(lang, "donjon.law.left", left=law.left, successes=law.successes, winner=who(lang, law.winner_id))
    ]
    for number, fact in enumerate(law.facts, start=1):
        lines.append(t(lang, "donjon.law.fact", n=number, text=discord.utils.escape_markdown(fact.text)))
    for owner in law.banked:
        lines.append(t(lang, "donjon.law.banked", owner=who(lang, owner)))
    if law.allocated:
        key = "donjon.law.narrated" if law.narrated else "donjon.law.to_narrate"
        lines.append(t(lang, key, narrator=who(lang, law.narrator_id or GM)))
    return "\n".join(lines)


def narration_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    law = donjon.from_data(record.data).law
    assert law is not None
    facts = "\n".join(
        t(lang, "donjon.law.fact", n=n, text=discord.utils.escape_markdown(f.text))
        for n, f in enumerate(law.facts, 1)
    )
    narrator = who(lang, law.narrator_id or GM)
    body = facts or t(lang, "donjon.narrate.no_facts")
    embed = embeds.card(
        t(lang, "donjon.narrate.title"), f"{t(lang, 'donjon.narrate.who', narrator=narrator)}\n{body}"
    )
    if law.narrated:
        embed.set_footer(text=t(lang, "donjon.narrate.done"))
    return embed


def median_dice(rolled: tuple[int, int, int]) -> str:
    """The three d6 with the median kept and the other two struck through."""
    middle = sorted(range(3), key=lambda i: rolled[i])[1]
    return render.dice(
        Die(6, v, frozenset() if i == middle else frozenset({Mark.DROPPED})) for i, v in enumerate(rolled)
    )


def attributes_embed(lang: Lang, method: str, roll: donjon.AttributeRoll) -> discord.Embed:
    lines = []
    for index, (rolled, median) in enumerate(zip(roll.rolls, roll.medians, strict=True)):
        dice = median_dice(rolled)
        if method == "eleccion":
            lines.append(t(lang, "donjon.attr.free", n=index + 1, dice=dice, value=median))
        else:
            lines.append(t(lang, f"donjon.attr.{donjon.ATTRIBUTES[index]}", value=median) + f" · {dice}")
    footer = t(lang, "donjon.attr.total", total=roll.total)
    if method == "mejorado" and roll.may_reroll:
        footer = t(lang, "donjon.attr.may_reroll", total=roll.total)
    embed = embeds.card(t(lang, f"donjon.metodo.{method}"), "\n".join(lines))
    embed.set_footer(text=footer)
    return embed
