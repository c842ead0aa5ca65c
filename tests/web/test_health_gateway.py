"""``/healthz`` against a real gateway connection: the harness's bot connected to the
offline Discord's gateway (tests/support/fake_discord.py), then cut off from it.

Nothing about the gateway is stubbed: the states are discord.py's own, reached as they are
in production (READY, a connection the gateway closes, a shard that cannot come back).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from aiohttp import web

from bot.client import ShardedTirada, Tirada
from tests.support.fake_discord import FakeDiscord
from tests.support.harness import Harness
from tests.support.payloads import GUILD_ID, guild_payload, text_channel
from tests.web.support import STARTED, serve

# A guild on shard 1 of 2 (GUILD_ID is on shard 0).
SHARD_1_GUILD = GUILD_ID + (1 << 22)
# Seconds discord.py waits after the last GUILD_CREATE before READY counts (2 by default).
GUILD_READY = 0.05


class Outage(FakeDiscord):
    """The offline Discord, whose gateway can go down: it closes a connection as Discord
    does (close code 4000, "unknown error": discord.py resumes) and refuses new ones, so
    the bot stays disconnected for as long as the test looks."""

    down = False

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        if self.down:
            raise web.HTTPServiceUnavailable
        return await super()._gateway(request)

    async def cut(self, shard_id: int) -> None:
        self.down = True
        for ws, pair in list(self._sockets.items()):
            if pair is not None and pair[0] == shard_id:
                await ws.close(code=4000)


class QuickShards(ShardedTirada):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """The offline gateway has no identify rate limit: no 5 s wait before shard 1."""


class Connected(Harness):
    """The harness's bot, sharded in two or not, that connects to the gateway."""

    def __init__(self, db_path: Path, *, shards: int | None) -> None:
        super().__init__(db_path)
        self.shards = shards

    def build(self) -> Tirada:
        if self.shards is None:
            return Tirada(self.settings(), guild_ready_timeout=GUILD_READY)
        return QuickShards(self.settings(), shard_count=self.shards, guild_ready_timeout=GUILD_READY)


@pytest.fixture
async def outage() -> AsyncIterator[Outage]:
    server = Outage(shards=2)
    server.guilds.append(guild_payload([text_channel(SHARD_1_GUILD + 1, "mesa-b")], guild_id=SHARD_1_GUILD))
    await server.start()
    yield server
    await server.stop()


@asynccontextmanager
async def connected(
    outage: Outage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shards: int | None
) -> AsyncIterator[tuple[Tirada, str]]:
    """A bot logged in (REST to the harness's recorder), its web server listening, and its
    gateway connected to ``outage`` until READY."""
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(outage.gateway_url))
    harness = Connected(tmp_path / "tirada.db", shards=shards)
    bot = await harness.start()
    web_server = await serve(harness)
    running = asyncio.create_task(bot.connect())
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 20)
        yield bot, web_server.base + "/healthz"
    finally:
        STARTED.remove(web_server)
        await web_server.close()
        await harness.close()
        await asyncio.wait_for(running, 20)


async def healthz(url: str) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, json.loads(await response.text())


async def unhealthy(url: str) -> dict[str, Any]:
    """The body of the first 503: the bot notices a closed connection when it reads it."""
    async with asyncio.timeout(10):
        while True:
            status, body = await healthz(url)
            if status == 503:
                return body
            await asyncio.sleep(0.02)


async def test_connected_to_the_gateway_health_is_200_with_its_json(
    outage: Outage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with connected(outage, tmp_path, monkeypatch, shards=None) as (bot, url):
        status, body = await healthz(url)
        assert bot.ws is not None and bot.ws.open
    assert status == 200, body
    assert body == {"status": "ok", "guilds": 2, "latency_ms": body["latency_ms"]}
    assert 0 <= body["latency_ms"] < 10_000


async def test_the_gateway_closed_after_ready_is_503_gateway_disconnected(
    outage: Outage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with connected(outage, tmp_path, monkeypatch, shards=None) as (bot, url):
        assert (await healthz(url))[0] == 200
        await outage.cut(0)
        body = await unhealthy(url)
        assert bot.is_ready() and not bot.is_closed()
    assert body == {"status": "unavailable", "reason": "gateway disconnected"}


async def test_one_shard_down_is_503_naming_it(
    outage: Outage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with connected(outage, tmp_path, monkeypatch, shards=2) as (bot, url):
        assert isinstance(bot, discord.AutoShardedClient) and sorted(bot.shards) == [0, 1]
        assert (await healthz(url))[0] == 200
        await outage.cut(1)
        body = await unhealthy(url)
        assert not bot.shards[0].is_closed()
    assert body == {"status": "unavailable", "reason": "shards disconnected: [1]"}
