"""What the overlay page draws, made from what Discord shows: an embed as plain data.

The page never reads Markdown or HTML: the server turns each line of an embed into spans
(``[text, style]``: ``""`` plain, ``"b"`` bold, ``"s"`` struck out, ``"c"`` code) with
mentions as names, and the page sets them as text. So a player's name or a fact they typed
can never become markup on the stream.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bot.i18n import Lang, t

Span = list[str]
Line = list[Span]
# Discord's inline tokens the bot's texts use: escapes, bold, struck out, code, mentions of
# users, roles and channels, timestamps and custom emoji.
TOKEN = re.compile(
    r"\\(?P<escaped>.)|(?P<bold>\*\*)|(?P<strike>~~)|`(?P<code>[^`]*)`"
    r"|<@!?(?P<user>\d{1,20})>|<@&(?P<role>\d{1,20})>|<#(?P<channel>\d{1,20})>"
    r"|<t:(?P<time>-?\d{1,12})(?::[tTdDfFR])?>|<a?:(?P<emoji>\w{1,32}):\d{1,20}>",
    re.DOTALL,
)
# Names the page shows for a mention: a user's, a role's or a channel's, None if unknown.
Namer = Callable[[str, int], str | None]


def spans(lang: Lang, text: str, name: Namer) -> Line:
    """One line of Discord text as styled spans; a mention becomes ``@name``."""
    out: Line = []
    bold = strike = False

    def add(piece: str, style: str | None = None) -> None:
        if not piece:
            return
        shown = style if style is not None else ("b" if bold else "s" if strike else "")
        if out and out[-1][1] == shown:
            out[-1][0] += piece
        else:
            out.append([piece, shown])

    at = 0
    for match in TOKEN.finditer(text):
        add(text[at : match.start()])
        at = match.end()
        kind = match.lastgroup
        value = match.group(kind) if kind else ""
        if kind == "bold":
            bold = not bold
        elif kind == "strike":
            strike = not strike
        elif kind == "code":
            add(value, "c")
        elif kind in ("user", "role", "channel"):
            sign = "#" if kind == "channel" else "@"
            add(sign + (name(kind, int(value)) or t(lang, f"overlay.unknown_{kind}")))
        elif kind == "time":
            add(datetime.fromtimestamp(int(value), UTC).strftime("%Y-%m-%d %H:%M"))
        elif kind == "emoji":
            add(f":{value}:")
        else:
            add(value)
    add(text[at:])
    return out


def lines(lang: Lang, text: str, name: Namer) -> list[Line]:
    return [spans(lang, line, name) for line in text.splitlines() if line.strip()]


def embed_view(lang: Lang, embed: dict[str, Any], name: Namer) -> dict[str, Any]:
    """An embed (as Discord receives it) as the page draws it: title, lines, fields."""
    return {
        "title": spans(lang, str(embed.get("title") or ""), name),
        "lines": lines(lang, str(embed.get("description") or ""), name),
        "fields": [
            {"name": spans(lang, str(f.get("name") or ""), name), "lines": lines(lang, str(f["value"]), name)}
            for f in embed.get("fields", [])
        ],
        "footer": spans(lang, str((embed.get("footer") or {}).get("text") or ""), name),
    }
