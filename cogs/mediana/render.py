"""Mediana's embeds and texts: tests, opposed tests and contests, effects and hit points."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds, render
from bot.i18n import Lang, t
from bot.models import Applied, Record, SheetRow
from cogs.mediana.health import wounded
from cogs.mediana.sheet_model import MedianaSheet
from cogs.mediana.state import WOUNDS, options_of
from rules.mediana import checks, contests, effects
from rules.mediana.checks import Test
from rules.mediana.health import Health

# -- tests -----------------------------------------------------------------------------------------


def throws_text(test: Test) -> str:
    """Each 1o3d10 with its objective die bold and the other two struck; a chain of
    explosions reads left to right, and 💥 marks only a 10 that exploded."""
    return " → ".join(render.dice(test.marked(i)) for i in range(len(test.throws)))


def verdict(lang: Lang, test: Test) -> str:
    values = {"total": test.total, "difficulty": test.difficulty, "degrees": test.degrees}
    if test.difficulty is None:
        return t(lang, "mediana.verdict.total", **values)
    if test.fumble:
        return t(lang, "mediana.verdict.fumble", **values)
    if test.success is False and test.skill_test and test.natural_one:
        return t(lang, "mediana.verdict.natural_one", **values)
    if test.critical:
        return t(lang, "mediana.verdict.critical", **values)
    if test.success and test.degrees:
        return t(lang, "mediana.verdict.success_degrees", **values)
    if test.success:
        return t(lang, "mediana.verdict.success", **values)
    return t(lang, "mediana.verdict.failure", **values)


def term(lang: Lang, kind: str, value: int, name: str | None) -> str:
    """One term of the sum: "Atributo 4", or by its name on the sheet: "Destreza 4"."""
    if name:
        return t(lang, "fichas.donjon.part", name=discord.utils.escape_markdown(name), value=value)
    return t(lang, f"mediana.sum.{kind}", value=value)


def sum_text(lang: Lang, options: dict[str, Any], test: Test) -> str:
    """Attribute + skill − encumbrance + the dice = total, each term named. A roll stored
    before its options were kept shows its score as one number."""
    if "atributo" not in options:
        return t(lang, "mediana.roll.sum_value", score=test.score, rolled=test.rolled, total=test.total)
    names = options.get("nombres") or {}
    text = term(lang, "attribute", options["atributo"], names.get("atributo"))
    if options.get("habilidad") is not None:
        text += " + " + term(lang, "skill", options["habilidad"], names.get("habilidad"))
    if options.get("estorbo"):
        text += " − " + t(lang, "mediana.sum.encumbrance", value=options["estorbo"])
    text += " + " + t(lang, "mediana.sum.dice", value=test.rolled)
    return f"{text} = **{test.total}**"


def rank_text(lang: Lang, test: Test, reasons: list[str]) -> str:
    line = t(lang, "mediana.roll.rank", rank=t(lang, f"mediana.rank.{test.first.rank}"))
    if reasons:
        line += " · " + ", ".join(t(lang, f"mediana.reason.{r}") for r in reasons)
    return line


def test_embed(lang: Lang, record: Record, test: Test) -> discord.Embed:
    """The test's card, drawn from ``test``: the record's test as decoded once for the card
    (``components.test_card``), not decoded again here."""
    data = record.data
    colour = embeds.NEUTRAL if test.success is None else (embeds.SUCCESS if test.success else embeds.FAILURE)
    character = options_of(data).get("ficha")
    by = (
        t(lang, "fichas.roll.as", user=record.user_id, name=discord.utils.escape_markdown(character))
        if character
        else t(lang, "mediana.roll.by", user=record.user_id)
    )
    embed = embeds.card(t(lang, f"mediana.title.{data['kind']}"), by, colour)
    dice = f"{throws_text(test)}\n{rank_text(lang, test, data.get('reasons', []))}"
    embeds.field(embed, t(lang, "mediana.roll.dice"), dice, inline=False)
    embeds.field(embed, t(lang, "mediana.roll.sum"), sum_text(lang, options_of(data), test))
    embeds.field(embed, t(lang, "mediana.roll.verdict"), verdict(lang, test), inline=False)
    damage = data.get("damage")
    if damage:
        embeds.field(embed, t(lang, "mediana.roll.damage"), damage, inline=False)
    return embeds.titled(embed, data.get("motivo"))


def effect_text(lang: Lang, effect: effects.Effect, armour: str | None = None) -> str:
    """The effect's dice, doubling and absorption; ``armour`` names the sheet whose armour
    absorbed."""
    chains = " ".join(render.dice(chain) for chain in effect.chains)
    key = "mediana.effect.rolled_bonus" if effect.bonus else "mediana.effect.rolled"
    parts = [t(lang, key, dice=chains, bonus=f"{effect.bonus:+d}", rolled=effect.rolled)]
    if effect.critical:
        parts.append(t(lang, "mediana.effect.doubled", value=effect.rolled * 2))
    if effect.absorption and armour:
        name = discord.utils.escape_mentions(discord.utils.escape_markdown(armour))
        parts.append(t(lang, "mediana.effect.absorbed_by", absorption=effect.absorption, name=name))
    elif effect.absorption:
        parts.append(t(lang, "mediana.effect.absorbed", absorption=effect.absorption))
    parts.append(t(lang, "mediana.effect.total", total=effect.total))
    return " · ".join(parts)


def target_text(
    lang: Lang, row: SheetRow, target: MedianaSheet, outcome: Applied, untouched: str | None
) -> str:
    """A damage roll's target after it: its PV before and after as written, as they are
    when the armour absorbed everything (nothing was written), or why they did not change
    (``untouched``, :func:`cogs.mediana.flow.why_untouched`)."""
    name = discord.utils.escape_mentions(discord.utils.escape_markdown(target.nombre))
    if untouched:
        return t(lang, f"mediana.target.{untouched}", name=name)
    if not any(p.pool == WOUNDS for p in outcome.pools):
        health = Health(target.physique, target.pv.maximos, target.pv.actuales)
        return t(lang, "mediana.target.unchanged", name=name, **pv_values(lang, health))
    before, after = wounded(row, target, outcome)
    return t(lang, "mediana.target.hit", name=name, before=before.current, **pv_values(lang, after))


def pv_values(lang: Lang, health: Health) -> dict[str, Any]:
    return {
        "current": health.current,
        "maximum": health.maximum,
        "state": t(lang, f"mediana.pv.state.{health.state}"),
    }


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


# -- opposed tests and contests ------------------------------------------------------------------


def entries_of(record: Record) -> list[dict[str, Any]]:
    """A contest's sides: ``entries``, or the ``a``/``b`` of an opposed test stored before."""
    data = record.data
    if "entries" in data:
        return list(data["entries"])
    return [
        {"user": record.user_id, "test": data["a"]},
        {"user": data.get("rival"), "test": data["b"]},
    ]


def who(lang: Lang, entry: dict[str, Any]) -> str:
    """A side: a player (as the character of their sheet, when it gave the numbers), an
    NPC by name, or the rival the GM plays."""
    name = discord.utils.escape_mentions(discord.utils.escape_markdown(entry.get("name") or ""))
    if entry.get("user"):
        return t(lang, "fichas.donjon.as", user=entry["user"], name=name) if name else f"<@{entry['user']}>"
    return name or t(lang, "mediana.opposed.rival")


def tests_of(record: Record) -> list[Test] | None:
    """Every side's test, or None while a contest still waits to be rolled."""
    if record.data.get("open"):
        return None
    entries = entries_of(record)
    return [checks.roll_from_data(e["test"]) for e in entries]


def named_terms(record: Record, index: int) -> dict[str, Any] | None:
    """The terms of a side when a sheet named them ("Destreza 4 + Espadas 3"): a contest
    entry's own, or an opposed test's options (the roller's first, the rival's second)."""
    entry = entries_of(record)[index]
    if "side" in entry:
        side = entry["side"]
        return side if side.get("nombres") else None
    options = options_of(record.data)
    prefix = ("", "rival_")[index] if index < 2 else ""
    if not options.get(f"{prefix}nombres"):
        return None
    return {key: options.get(prefix + key) for key in ("atributo", "habilidad", "estorbo", "nombres")}


def side_text(lang: Lang, test: Test, terms: dict[str, Any] | None = None) -> str:
    lines = [throws_text(test), t(lang, "mediana.roll.rank", rank=t(lang, f"mediana.rank.{test.first.rank}"))]
    if terms is not None:
        lines.append(sum_text(lang, terms, test))
    lines.append(t(lang, "mediana.opposed.total", total=test.total))
    if test.fumble:
        lines.append(t(lang, "mediana.opposed.fumble"))
    elif checks.fails_outright(test):
        lines.append(t(lang, "mediana.opposed.natural_one"))
    return "\n".join(lines)


def outcome_text(lang: Lang, record: Record, tests: list[Test]) -> str:
    entries = entries_of(record)
    winners = contests.contest_winners(tests)
    if not winners:
        return t(lang, "mediana.opposed.nobody")
    if len(winners) == 1:
        return t(lang, "mediana.opposed.wins", winner=who(lang, entries[winners[0]]))
    if record.data.get("settled"):
        return t(lang, "mediana.opposed.tie_accepted")
    return t(lang, "mediana.opposed.tie")


def contest_embed(lang: Lang, record: Record, tests: list[Test] | None) -> discord.Embed:
    """An opposed test's or a contest's card, from its sides' tests as decoded once for the
    card (``tests_of``; None while a contest waits to be rolled)."""
    data = record.data
    entries = entries_of(record)
    embed = embeds.card(
        t(lang, f"mediana.title.{data['kind']}"), t(lang, "mediana.roll.by", user=record.user_id)
    )
    if tests is None:
        embed.description = t(lang, "mediana.contest.help", count=len(entries), max=contests.MAX_CONTESTANTS)
        names = "\n".join(who(lang, e) for e in entries) or "—"
        embeds.field(embed, t(lang, "mediana.contest.entrants"), names, inline=False)
        return embeds.titled(embed, data.get("motivo"))
    for index, (entry, test) in enumerate(zip(entries, tests, strict=True)):
        text = side_text(lang, test, named_terms(record, index))
        embeds.field(embed, f"{index + 1}.", f"{who(lang, entry)}\n{text}")
    embeds.field(embed, t(lang, "mediana.roll.verdict"), outcome_text(lang, record, tests), inline=False)
    return embeds.titled(embed, data.get("motivo"))
