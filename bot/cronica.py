"""The session's chronicle (``/mesa cronica``): what happened at a table, as files.

Built from what the store already keeps: the rolls (each read back by bot/readers.py:
who, what, how it went; a secret roll only once revealed, a private one never), the
Donjon facts narrated, and every pool change of the ledger the players may read (an NPC
sheet's numbers and a hidden Amenaza stay the GM's: bot/hidden.py). Written as Markdown for
reading, or CSV for a spreadsheet, and split into parts so that a long session still fits
one Discord message (at most :data:`MAX_FILES` attachments of :data:`PART_BYTES` each).
Everything read is bounded (:data:`MAX_ROWS` rolls and ledger rows); past the bound the
chronicle says it stops early rather than growing without end.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import discord

from bot import embeds
from bot.checks import in_gm_channel
from bot.errors import Refusal
from bot.hidden import ledger_rows
from bot.i18n import CATALOG, Lang, lang_for, t
from bot.models import LedgerRow, Record, Table
from bot.readers import read
from bot.store import Store
from rules.donjon import posted

MAX_ROWS = 5000
MAX_FILES = 10
# Discord takes 8 MiB a message on a server without boosts; ten parts of 512 KiB stay under.
PART_BYTES = 512 * 1024
# Without a recorded scene end, the chronicle covers this much.
DEFAULT_SPAN = timedelta(hours=24)
TIME_FORMAT = "%Y-%m-%d %H:%M"
# One event's line at most (a fact's text is the longest part of any).
LINE_LIMIT = 1000


@dataclass(frozen=True)
class Event:
    """One line of the chronicle: when (ISO, UTC), what sort, who, what, and how it went."""

    at: str
    sort: str
    who: int
    what: str
    detail: str = ""


@dataclass(frozen=True)
class Chronicle:
    """The events of [since, until]; ``truncated`` when a read reached its bound;
    ``forgotten``: rolls made until then (within the period) were pruned by retention."""

    since: str
    until: str
    events: tuple[Event, ...]
    truncated: bool
    forgotten: str | None = None


def parse_time(text: str) -> datetime:
    """``2026-11-30 18:00`` (UTC) as a time, or a refusal naming the expected form."""
    try:
        return datetime.strptime(" ".join(text.split()), TIME_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise Refusal("cronica.bad_time", text=text.strip()[:40]) from None


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


async def span(
    store: Store, channel_id: int, since: str | None, until: str | None, now: datetime
) -> tuple[str, str]:
    """The period asked for: from ``since`` (or the last scene end, or a day ago) to
    ``until`` (or now), refused when it ends before it starts."""
    end = parse_time(until) if until else now
    start = iso(parse_time(since)) if since else await store.scene_end(channel_id) or iso(end - DEFAULT_SPAN)
    if start > iso(end):
        raise Refusal("cronica.empty_span")
    return start, iso(end)


def roll_events(lang: Lang, at: str, record: Record) -> list[Event]:
    """A roll's line, then the facts narrated from it (Donjon), if any."""
    data = record.data
    if data.get("privada"):
        return []
    reading = read(lang, record.kind, data)
    motivo = data.get("motivo") or ""
    system = reading.system if reading else record.kind
    what = f"{system}: {reading.result}" if reading else system
    verdict = t(lang, reading.verdict) if reading and reading.verdict else ""
    detail = " · ".join(part for part in (motivo, verdict) if part)
    events = [Event(at, "roll", record.user_id, what, detail)]
    law = posted.from_data(data).law if record.kind == "donjon" else None
    if law is not None and law.narrated:
        for fact in law.facts:
            events.append(Event(at, "fact", fact.author, " ".join(fact.text.split())))
    return events


def ledger_event(lang: Lang, row: LedgerRow) -> Event:
    key = f"pool.name.{row.pool}"
    pool = t(lang, key) if key in CATALOG.entries else row.pool
    reason_key = f"ledger.{row.reason}"
    reason = t(lang, reason_key) if reason_key in CATALOG.entries else row.reason
    what = t(lang, "cronica.pool", pool=pool, delta=f"{row.delta:+d}", after=row.value_after)
    return Event(row.created_at, "pool", row.actor_id, what, reason)


async def build(store: Store, lang: Lang, table: Table, since: str, until: str) -> Chronicle:
    """Every event of the table in [since, until] that the table saw, in time order (the
    GM's secrets stay out: bot/hidden.py), and whether retention forgot rolls of that
    period (the ledger is kept whole; rolls are not)."""
    channel_id = table.channel_id
    rolls = await store.session_rolls(channel_id, since, until, MAX_ROWS)
    ledger = await store.session_ledger(channel_id, since, until, MAX_ROWS)
    hidden = ledger_rows(table)
    events = [e for at, record in rolls for e in roll_events(lang, at, record)]
    events += [ledger_event(lang, row) for row in ledger if not hidden(row)]
    events.sort(key=lambda e: e.at)
    forgotten = await store.forgotten_until(channel_id)
    truncated = len(rolls) == MAX_ROWS or len(ledger) == MAX_ROWS
    return Chronicle(
        since, until, tuple(events), truncated, forgotten if forgotten and forgotten >= since else None
    )


def forgotten_line(lang: Lang, chronicle: Chronicle) -> list[str]:
    """The sentence naming the rolls retention took from this period (none if it took none)."""
    if chronicle.forgotten is None:
        return []
    return [t(lang, "cronica.forgotten", until=_short(min(chronicle.forgotten, chronicle.until)))]


Name = Callable[[int], str]


# What Markdown would read as markup that renders HTML: raw HTML and autolinks (``<``,
# ``>``), links and images (``[``, ``]``), each escaped with a backslash; a backslash that
# already escapes the next character is kept with it (text made safe for Discord arrives
# so), and a lone trailing one is doubled so it escapes nothing.
_MARKUP = re.compile(r"\\.|[<>\[\]]|\\$")


def markdown_text(text: str) -> str:
    """A player's text (an expression's annotation, a ``motivo``, a fact, a name) shown as
    typed in a Markdown viewer: never an image that loads, a link, or HTML (a viewer that
    loaded ``<img src=…>`` would tell its author the reader's address)."""
    return _MARKUP.sub(lambda m: m[0] if len(m[0]) == 2 else "\\" + m[0], text)


def markdown(lang: Lang, title: str, chronicle: Chronicle, name: Name) -> list[str]:
    """The chronicle as Markdown lines: a heading, then one line per event, every text in
    it escaped (:func:`markdown_text`)."""
    lines = [
        f"# {markdown_text(title)}",
        "",
        t(lang, "cronica.period", since=_short(chronicle.since), until=_short(chronicle.until)),
        "",
    ]
    for notice in forgotten_line(lang, chronicle):
        lines += [notice, ""]
    if not chronicle.events:
        lines.append(t(lang, "cronica.nothing"))
    for event in chronicle.events:
        sort = t(lang, f"cronica.sort.{event.sort}")
        detail = f" — {markdown_text(event.detail)}" if event.detail else ""
        who, what = markdown_text(name(event.who)), markdown_text(event.what)
        lines.append(f"- {_short(event.at)} · {sort} · **{who}** · {what}{detail}")
    if chronicle.truncated:
        lines += ["", t(lang, "cronica.truncated", max=MAX_ROWS)]
    return lines


def csv_rows(lang: Lang, chronicle: Chronicle, name: Name) -> list[list[str]]:
    header = [t(lang, f"cronica.csv.{column}") for column in ("time", "sort", "who", "what", "detail")]
    rows = [
        [event.at, t(lang, f"cronica.sort.{event.sort}"), name(event.who), event.what, event.detail]
        for event in chronicle.events
    ]
    return [header] + [[_cell(value) for value in row] for row in rows]


def _cell(value: str) -> str:
    """A spreadsheet runs a cell that starts like a formula: such text is quoted."""
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def _short(moment: str) -> str:
    return datetime.fromisoformat(moment).strftime(TIME_FORMAT)


def markdown_parts(lines: list[str]) -> tuple[list[bytes], bool]:
    return _split([line[:LINE_LIMIT] + "\n" for line in lines], header="")


def csv_parts(rows: list[list[str]]) -> tuple[list[bytes], bool]:
    encoded = [_csv_line([value[:LINE_LIMIT] for value in row]) for row in rows]
    return _split(encoded[1:], header=encoded[0])


def _csv_line(row: list[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(row)
    return buffer.getvalue()


def _split(lines: list[str], header: str) -> tuple[list[bytes], bool]:
    """Lines into parts of at most :data:`PART_BYTES` each (a CSV part repeats its header),
    at most :data:`MAX_FILES` of them; False when what did not fit was left out (the
    answer says so)."""
    parts: list[bytes] = []
    current = header.encode()
    for line in lines:
        encoded = line.encode()
        if len(current) + len(encoded) > PART_BYTES:
            parts.append(current)
            if len(parts) == MAX_FILES:
                return parts, False
            current = header.encode()
        current += encoded
    parts.append(current)
    return parts, True


FORMATS = ("markdown", "csv")


async def answer(
    store: Store,
    interaction: discord.Interaction,
    table: Table,
    since: str | None,
    until: str | None,
    form: str,
) -> None:
    """``/mesa cronica``: the GM's files, privately in the table's channel (in place in the
    GM channel, which is private already), with a line saying what they cover."""
    lang = lang_for(interaction.locale)
    start, end = await span(store, table.channel_id, since, until, datetime.now(UTC))
    private = not in_gm_channel(table, interaction)
    await interaction.response.defer(ephemeral=private, thinking=True)
    chronicle = await build(store, lang, table, start, end)
    guild = interaction.guild

    def name(user_id: int) -> str:
        """A member's name as the server shows it, else the user's, else the id (the bot
        keeps no member list: names are whatever its cache holds, nothing is fetched)."""
        member = guild.get_member(user_id) if guild is not None else None
        user = member or interaction.client.get_user(user_id)
        return user.display_name if user is not None else str(user_id)

    channel = guild.get_channel(table.channel_id) if guild is not None else None
    title = t(lang, "cronica.title", table=f"#{channel.name}" if channel is not None else table.channel_id)
    if form == "csv":
        parts, whole = csv_parts(csv_rows(lang, chronicle, name))
    else:
        parts, whole = markdown_parts(markdown(lang, title, chronicle, name))
    extension = "csv" if form == "csv" else "md"
    stamp = _short(start).replace(" ", "_").replace(":", "")
    files = [
        discord.File(io.BytesIO(part), filename=f"cronica_{stamp}_{index}.{extension}")
        for index, part in enumerate(parts, start=1)
    ]
    lines = [t(lang, "cronica.sent", count=len(chronicle.events), since=_short(start), until=_short(end))]
    lines += forgotten_line(lang, chronicle)
    if not whole or chronicle.truncated:
        lines.append(t(lang, "cronica.cut"))
    await interaction.followup.send(
        embed=embeds.card(title, "\n".join(lines)), files=files, ephemeral=private
    )
