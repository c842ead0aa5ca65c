"""D&D's embeds: the d20 test card, what its modifier is made of, and its verdict."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds, render
from bot.i18n import Lang, t
from bot.models import Record
from cogs.dnd5e.afflictions import why_lines
from cogs.dnd5e.odds import dnd_modes_line
from cogs.dnd5e.state import ability_name, damage_type_name, skill_name
from cogs.dnd5e.vitals import safe
from rules.dnd5e import checks
from rules.dnd5e.checks import D20Test, Mode


def verdict(lang: Lang, test: D20Test, aimed: dict[str, Any] | None = None) -> str:
    """Against a monster of the tracker (``aimed``, its AC hidden) the card names it
    instead of its AC; a condition's automatic failure or critical says so."""
    if test.auto_fail:
        return t(lang, "dnd.verdict.auto_fail")
    if test.critical and test.natural != 20:
        return t(lang, "dnd.verdict.critical_condition", total=test.total)
    if test.critical:
        return t(lang, "dnd.verdict.critical")
    if test.fumble:
        return t(lang, "dnd.verdict.fumble")
    if test.success is None:
        return t(lang, "dnd.verdict.total", total=test.total)
    if aimed and aimed["hidden"]:
        key = "dnd.verdict.hit_target" if test.success else "dnd.verdict.miss_target"
        return t(lang, key, name=safe(aimed["name"]), total=test.total)
    key = (
        ("dnd.verdict.hit" if test.success else "dnd.verdict.miss")
        if test.attack
        else ("dnd.verdict.success" if test.success else "dnd.verdict.failure")
    )
    return t(lang, key, total=test.total, target=test.target)


def title(lang: Lang, data: dict[str, Any]) -> str:
    what = data["what"]
    if data["kind"] == "ataque":
        if what.get("weapon"):
            return t(lang, "fichas.dnd.attack_title", weapon=discord.utils.escape_markdown(what["weapon"]))
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


def mode_text(lang: Lang, data: dict[str, Any], test: D20Test) -> str:
    """How many d20 and which counts, saying why when it is not plain."""
    if data.get("cancelled"):
        return t(lang, "dnd.mode.cancelled")
    if data.get("tool_advantage") and test.mode is Mode.ADVANTAGE:
        return t(lang, "dnd.mode.ventaja_tool")
    return t(lang, f"dnd.mode.{test.mode.value}")


def part_text(lang: Lang, part: dict[str, Any]) -> str:
    value = f"{part['value']:+d}"
    if part["part"] == "caracteristica":
        return t(lang, "dnd.part.caracteristica", ability=ability_name(lang, part["ability"]), value=value)
    if part["part"] == "cobertura":
        return t(lang, f"dnd.part.cobertura.{part['cover']}", value=value)
    return t(lang, f"dnd.part.{part['part']}", value=value)


def breakdown(lang: Lang, data: dict[str, Any], test: D20Test) -> str | None:
    """ "+6 = Destreza +3, competencia +3": only when the modifier has two parts or more."""
    parts = data.get("parts") or []
    if len(parts) < 2:
        return None
    listed = t(lang, "dnd.roll.list_separator").join(part_text(lang, p) for p in parts)
    return t(lang, "dnd.roll.breakdown", total=f"{test.modifier:+d}", parts=listed)


def dice_line(test: D20Test) -> str:
    """The d20s and the total; a modifier of 0 is left out."""
    modifier = f" {test.modifier:+d}" if test.modifier else ""
    return f"{render.dice(test.dice)}{modifier} = **{test.total}**"


def cover_line(lang: Lang, data: dict[str, Any], test: D20Test) -> str | None:
    """ "Cobertura media: la CA sube de 15 a 17." on an attack against a covered target."""
    cover = data.get("cover", "ninguna")
    if not checks.COVER.get(cover) or test.target is None:
        return None
    return t(lang, f"dnd.roll.cover_raised.{cover}", ac=data["ac"], target=test.target)


def by_line(lang: Lang, record: Record) -> str:
    """Who rolled, and as which character when the numbers came from a sheet."""
    character = record.data.get("options", {}).get("ficha")
    if character:
        name = discord.utils.escape_mentions(discord.utils.escape_markdown(character))
        return t(lang, "fichas.roll.as", user=record.user_id, name=name)
    return t(lang, "dnd.roll.by", user=record.user_id)


def inspiration_line(lang: Lang, record: Record, test: D20Test) -> str | None:
    """The spend of the roller's heroic inspiration, said in the card's body with whose it
    was: the ledger books it, so the card must say it (a footer cannot mention anyone)."""
    rerolled = (record.data.get("damage_roll") or {}).get("rerolled")
    if rerolled:
        sides, old, new = rerolled
        return t(lang, "dnd.roll.inspired_damage", user=record.user_id, sides=sides, old=old, new=new)
    if test.inspired:
        return t(lang, "dnd.roll.inspired", user=record.user_id)
    return None


def roll_embed(lang: Lang, record: Record, test: D20Test) -> discord.Embed:
    """The test's card, drawn from ``test``: the roll's test as decoded once for the card
    (``components.roll_card``), not decoded again here."""
    data = record.data
    colour = embeds.NEUTRAL if test.success is None else (embeds.SUCCESS if test.success else embeds.FAILURE)
    header = [by_line(lang, record), inspiration_line(lang, record, test)]
    embed = embeds.card(title(lang, data), "\n".join(line for line in header if line), colour)
    dice = [dice_line(test), breakdown(lang, data, test), *why_lines(lang, data.get("condiciones") or [])]
    embeds.field(
        embed,
        t(lang, "dnd.roll.dice", mode=mode_text(lang, data, test)),
        "\n".join(line for line in dice if line),
        inline=False,
    )
    aimed = data.get("options", {}).get("objetivo")
    hidden = bool(aimed and aimed["hidden"])
    result = [verdict(lang, test, aimed), None if hidden else cover_line(lang, data, test)]
    if aimed and (not hidden or test.critical or test.fumble):
        result.append(t(lang, "dnd.roll.target", name=safe(aimed["name"])))
    embeds.field(embed, t(lang, "dnd.roll.verdict"), "\n".join(line for line in result if line), inline=False)
    if test.target is not None and test.target <= checks.MAX_TARGET and not hidden:
        line = dnd_modes_line(lang, test.modifier, test.target, test.attack, shown=record.shows_odds)
        embeds.field(embed, t(lang, "dnd.roll.odds"), line, inline=False)
    damage = data.get("damage_roll")
    if damage:
        key = "dnd.roll.damage_critical" if test.critical else "dnd.roll.damage"
        kind = discord.utils.escape_markdown(damage_type_name(lang, data["what"].get("type") or ""))
        line = f"{damage['text']} = **{damage['total']}** {kind}".rstrip()
        embeds.field(embed, t(lang, key), line, inline=False)
    return embeds.titled(embed, data.get("motivo"))
