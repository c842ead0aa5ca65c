"""Donjon's embeds and texts: tests, the Ley de los Éxitos, narration and attributes."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds, render
from bot.board.render import fit_more
from bot.i18n import Lang, signed, t
from bot.models import Record
from cogs.donjon.odds import donjon_line
from cogs.donjon.state import GM, who
from rules.dice import Die
from rules.donjon import expenses, posted
from rules.donjon.contest import Contest
from rules.donjon.law import Fact, Law
from rules.donjon.posted import DonjonRoll

# The characters Discord takes across a message's embeds, and the tests /donjon hechos lists.
MESSAGE_TEXT_LIMIT = 6000
PENDING_SHOWN = 20

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
    """Whose pool each side is: the test's player (the GM may roll for one, or as a
    character of a sheet) and the rival, the GM, or the GM's NPC by its sheet's name."""
    rival = roll.details.get("rival")
    player = roll.details.get("player", roller)
    mine = f"<@{player}>"
    if roll.details.get("character"):
        mine = t(lang, "fichas.donjon.as", user=player, name=safe(roll.details["character"]))
    if roll.details.get("rival_character"):
        return mine, f"**{safe(roll.details['rival_character'])}**"
    return mine, (f"<@{rival}>" if rival else t(lang, "donjon.the_gm"))


def safe(name: str) -> str:
    """A sheet's name as the card shows it: never markdown, never a ping."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def part_text(lang: Lang, name: str, value: int) -> str:
    """A term of a pool: from the catalog, or what the player named on their sheet (a
    Habilidad, an item's Peso, a weapon held in both hands)."""
    kind, _, rest = name.partition(":")
    if kind in ("nombre", "peso", "manos"):
        item = discord.utils.escape_mentions(discord.utils.escape_markdown(rest))
        if kind == "nombre":
            return f"{item} {value}"
        return t(lang, f"donjon.part.{kind}", item=item, value=value)
    if name.startswith("atributo."):
        return t(lang, "fichas.donjon.part", name=t(lang, f"fichas.donjon.attr.{name[9:]}"), value=value)
    if name.startswith("salvacion."):
        return t(lang, "fichas.donjon.part", name=t(lang, f"fichas.donjon.save.{name[10:]}"), value=value)
    return t(lang, f"donjon.part.{name}", value=value)


def terms_text(lang: Lang, parts: list[tuple[str, int]]) -> str:
    """ "Celeridad 5 − Peso de Armadura de placas 2 + …": a term taken off reads as such."""
    text = ""
    for name, value in parts:
        if name.startswith("manos:"):
            continue
        term = part_text(lang, name, abs(value))
        text += term if not text else f" {'−' if value < 0 else '+'} {term}"
    held = [part_text(lang, name, 0) for name, _ in parts if name.startswith("manos:")]
    return " ".join([text, *held]) if text else " ".join(held)


def explain(lang: Lang, label: str, parts: list[tuple[str, int]]) -> str | None:
    """Where a pool's dice come from: "Media 3 + Nivel 2 = 5 dados", "Atributo 3 + Habilidad 2
    (+ 1 guardado) = 6 dados". Zero terms are left out (but a weapon held in both hands is
    said); a pool that is just the number typed (an NPC's dice, nothing banked) needs no
    explaining."""
    shown = [(n, v) for n, v in parts if v or n.startswith("manos:")]
    if not shown or (len(shown) == 1 and shown[0][0] in ("contra", "dados")):
        return None
    total = max(sum(v for _, v in shown), 0)
    terms = terms_text(lang, [(n, v) for n, v in shown if n != "banco"])
    bank = next((v for n, v in shown if n == "banco"), 0)
    if bank:
        terms = (
            t(lang, "donjon.part.with_bank", terms=terms, value=bank)
            if terms
            else part_text(lang, "banco", bank)
        )
    return t(lang, "donjon.explain", label=label, terms=terms, total=total)


def roll_embed(lang: Lang, record: Record, roll: DonjonRoll) -> discord.Embed:
    """The test's card, drawn from ``roll``: the record's roll as decoded once for the card
    (``components.roll_card``), not decoded again here."""
    test = roll.test
    label_a, label_b = labels(lang, roll, record.user_id)
    won = test.winner == "a"
    lines = contest_lines(lang, test, label_a, label_b)
    for side, label in (("b", label_b), ("a", label_a)):
        explained = explain(lang, label, [(n, v) for n, v in roll.details.get("explain", {}).get(side, [])])
        if explained:
            lines.insert(2, explained)
    embed = embeds.card(t(lang, f"donjon.title.{roll.kind}"), "\n".join(lines))
    embed.colour = embeds.SUCCESS if won else embeds.FAILURE
    winner = label_a if won else label_b
    embeds.field(embed, t(lang, "donjon.result"), outcome_text(lang, roll, winner), inline=False)
    books = books_field(lang, roll.details)
    if books is not None:
        embeds.field(embed, *books, inline=False)
    law = roll.law
    if law is not None:
        embeds.field(embed, t(lang, "donjon.law"), law_text(lang, law), inline=False)
    if roll.kind in ("prueba", "enfrentada"):
        line = donjon_line(
            lang,
            len(test.a),
            roll.details.get("bank_spent", 0),
            len(test.b),
            test.sides,
            shown=record.shows_odds,
        )
        if line:
            embeds.field(embed, t(lang, "donjon.roll.odds"), line, inline=False)
    if roll.details.get("bank_spent"):
        embeds.field(
            embed, t(lang, "donjon.bank_used"), t(lang, "donjon.bank_used_n", n=roll.details["bank_spent"])
        )
    return embeds.titled(embed, roll.details.get("motivo"))


def outcome_text(lang: Lang, roll: DonjonRoll, winner: str) -> str:
    test = roll.test
    key = f"donjon.outcome.{roll.kind}.{'won' if test.winner == 'a' else 'lost'}"
    return t(lang, key, winner=winner, successes=test.successes)


def change_text(lang: Lang, score: str, delta: int) -> str:
    """ "Riqueza −2": the sheet's number and its change."""
    return t(lang, "donjon.sheet.change", score=t(lang, f"donjon.score.{score}"), delta=signed(lang, delta))


def entry_text(lang: Lang, score: str, delta: int, wanted: int) -> str:
    """One number the test changed on the sheet, and what its bound left out ("Provisiones +1
    (4 más no caben: el máximo es 100)")."""
    name = t(lang, f"donjon.score.{score}")
    text = change_text(lang, score, delta) if delta else t(lang, "donjon.sheet.unchanged", score=name)
    lost = abs(wanted) - abs(delta)
    if lost:
        way = "up" if wanted > 0 else "down"
        text += " " + t(lang, f"donjon.sheet.lost.{way}", n=lost, max=expenses.MAX_SCORE)
    return text


def books_field(lang: Lang, details: dict[str, Any]) -> tuple[str, str] | None:
    """What the test changed on the character, as the books hold it: the sheet's numbers
    (or why nothing was noted: the sheet is gone), or, without a sheet, what to note."""
    note = details.get("note")
    if note:
        changes = ", ".join(change_text(lang, score, wanted) for score, wanted in note)
        return t(lang, "donjon.note.title"), t(lang, "donjon.note", changes=changes)
    sheet = details.get("sheet")
    if not sheet:
        return None
    title = t(lang, "donjon.sheet.title", name=safe(sheet["name"]))
    if sheet["gone"]:
        changes = ", ".join(change_text(lang, score, wanted) for score, _, wanted in sheet["entries"])
        return title, t(lang, "donjon.sheet.gone", changes=changes)
    return title, "\n".join(entry_text(lang, *entry) for entry in sheet["entries"])


def law_text(lang: Lang, law: Law) -> str:
    lines = [
        t(lang, "donjon.law.left", left=law.left, successes=law.successes, winner=who(lang, law.winner_id))
    ]
    for number, fact in enumerate(law.facts, start=1):
        lines.append(fact_line(lang, number, fact))
    for owner in law.banked:
        lines.append(t(lang, "donjon.law.banked", owner=who(lang, owner)))
    if law.allocated:
        # Who narrates, never whether it is done: narrating does not redraw the card
        # (docs/decisiones.md, "La tarjeta no dice nada que narrar deje viejo").
        lines.append(t(lang, "donjon.law.narrator", narrator=who(lang, law.narrator_id or GM)))
    return "\n".join(lines)


def fact_line(lang: Lang, n: int, fact: Fact) -> str:
    """ "2. Está en la pared norte": the player's words, their markdown shown as typed."""
    return t(lang, "donjon.law.fact", n=n, text=discord.utils.escape_markdown(fact.text))


def narrated_line(lang: Lang, n: int, fact: Fact) -> str:
    """A fact's line, struck through and marked once it is narrated."""
    line = fact_line(lang, n, fact)
    return t(lang, "donjon.narrate.fact_done", fact=line) if fact.narrated else line


def pending_embed(lang: Lang, pending: list[tuple[Record, Law]], secret: bool = False) -> discord.Embed:
    """Tests and the facts each still awaits, oldest first (``secret``: the GM's unrevealed
    ones, so marked): whole facts while they fit a field, whole tests while they fit one
    message (its embeds' 6,000 characters), then how many more there are."""
    embed = embeds.card(t(lang, "donjon.hechos.secret.title" if secret else "donjon.hechos.title"))
    room = MESSAGE_TEXT_LIMIT - len(t(lang, "donjon.hechos.more", n=len(pending)))
    listed = 0
    for record, law in reversed(pending[:PENDING_SHOWN]):
        facts = fit_more(lang, [f"• {discord.utils.escape_markdown(law.facts[i].text)}" for i in law.pending])
        entry = "donjon.hechos.secret.entry" if secret else "donjon.hechos.entry"
        name = t(lang, entry, id=record.id, narrator=who(lang, law.narrator_id or GM))
        embeds.field(embed, name, facts, inline=False)
        if len(embed) > room:
            embed.remove_field(-1)
            break
        listed += 1
    if listed < len(pending):
        embed.set_footer(text=t(lang, "donjon.hechos.more", n=len(pending) - listed))
    return embed


def narration_header(lang: Lang, law: Law) -> str:
    """The narration's title and who narrates with these facts."""
    narrator = who(lang, law.narrator_id or GM)
    return f"### {t(lang, 'donjon.narrate.title')}\n{t(lang, 'donjon.narrate.who', narrator=narrator)}"


def narration_embed(lang: Lang, record: Record) -> discord.Embed:
    """A narration as it was posted before each fact had its own *Narrado* (an embed, which
    stays one: docs/decisiones.md, "Components V2: dónde y por qué"): each fact as the books
    hold it (one narrated in secret shown done), whole facts while they fit, then how many
    more."""
    law = posted.from_data(record.data).law
    assert law is not None
    header = t(lang, "donjon.narrate.who", narrator=who(lang, law.narrator_id or GM))
    lines = [narrated_line(lang, n, f) for n, f in enumerate(law.facts, 1)]
    room = embeds.DESCRIPTION_LIMIT - len(header) - 1
    body = fit_more(lang, lines, room) if lines else t(lang, "donjon.narrate.no_facts")
    embed = embeds.card(t(lang, "donjon.narrate.title"), f"{header}\n{body}")
    if law.narrated:
        embed.set_footer(text=t(lang, "donjon.narrate.done"))
    return embed
