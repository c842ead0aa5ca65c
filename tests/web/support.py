"""A harness bot with its web server on a free port, and a reader of its overlay streams."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from bot.web.server import Web
from tests.support.harness import Harness, Reply
from tests.support.payloads import ADMIN, CHANNEL_ID, GM

# Servers started by a test, closed after it (tests/web/conftest.py).
STARTED: list[Web] = []


# The overlay's pacing where a test does not measure it: a change is drawn 10 ms after the
# table went quiet, 50 ms at most, instead of QUIET and SETTLE (0.3 s and 0.7 s) of waiting
# in real time for each. The tests of the pacing itself serve with ``paced``.
QUICK_QUIET, QUICK_SETTLE = 0.01, 0.05


async def serve(h: Harness, *, paced: bool = False) -> Web:
    """Start the web server of the harness's bot, as ``TIRADA_WEB_PORT`` would; its
    overlays paced as in production only if ``paced``."""
    assert h.bot is not None
    web = Web(h.bot)
    if not paced:
        web.overlays.quiet, web.overlays.settle = QUICK_QUIET, QUICK_SETTLE
    await web.start("127.0.0.1", 0)
    STARTED.append(web)
    return web


def web_of(h: Harness) -> Web:
    assert h.bot is not None
    web = Web.of(h.bot)
    assert web is not None
    return web


async def table(h: Harness, system: str, channel_id: int = CHANNEL_ID) -> None:
    await h.slash("mesa dj", user=ADMIN, miembro=GM, channel_id=channel_id)
    await h.slash("mesa sistema", user=GM, sistema=system, channel_id=channel_id)


def link(reply: Reply) -> str:
    """The overlay link in the GM's private answer to /mesa overlay."""
    assert reply.ephemeral, reply.text
    found = next(word for word in reply.text.split() if "/overlay/" in word)
    return found.rstrip(".")


async def overlay(h: Harness, channel_id: int = CHANNEL_ID, locale: str = "es-ES") -> str:
    return link(await h.slash("mesa overlay", user=GM, channel_id=channel_id, locale=locale))


def flat(view: dict[str, Any]) -> str:
    """An embed's view (bot.web.view) as the text the page shows, a line a line."""
    lines = ["".join(text for text, _ in view["title"])]
    lines += ["".join(text for text, _ in spans) for spans in view["lines"]]
    for field in view["fields"]:
        lines.append("".join(text for text, _ in field["name"]))
        lines += ["".join(text for text, _ in spans) for spans in field["lines"]]
    return "\n".join(line for line in lines if line)


def shown(snapshot: dict[str, Any]) -> str:
    """Everything a snapshot puts on the page: the board, then the last card."""
    return "\n".join([flat(snapshot["board"]), *(flat(card) for card in snapshot["card"])])


class Events:
    """One overlay stream, read event by event."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self, within: float = 5.0) -> tuple[str, dict[str, Any]]:
        """The next event's name (``message`` or ``revoked``) and data; comments skipped."""
        async with asyncio.timeout(within):
            name, data = "message", ""
            while True:
                raw = await self.response.content.readline()
                if not raw:
                    raise EOFError("the stream ended")
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    data = line.removeprefix("data: ")
                elif line == "" and data:
                    return name, json.loads(data)

    async def until(self, text: str, within: float = 5.0) -> dict[str, Any]:
        """The first snapshot whose page shows ``text``."""
        async with asyncio.timeout(within):
            while True:
                name, snapshot = await self.next(within)
                assert name == "message", name
                if text in shown(snapshot):
                    return snapshot


@asynccontextmanager
async def stream(url: str) -> AsyncIterator[Events]:
    async with aiohttp.ClientSession() as session, session.get(url + "/events") as response:
        assert response.status == 200, response.status
        yield Events(response)
