"""``GET /healthz``: 200 only while the gateway is connected and the database answers.

For systemd watchdogs, container health checks and load balancers: a process that is up
but cut off from Discord, or whose database no longer answers, is not healthy.
"""

from __future__ import annotations

import asyncio
import math
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import DATABASE_ERRORS

if TYPE_CHECKING:
    from bot.client import Tirada

# Seconds the database has to answer one read.
DATABASE_TIMEOUT = 2.0


def gateway_problem(bot: Tirada) -> str | None:
    """Why the gateway is not serving (None: it is): closed, not ready yet, a shard down."""
    if bot.is_closed():
        return "closed"
    if not bot.is_ready():
        return "gateway not ready"
    if isinstance(bot, discord.AutoShardedClient):
        down = sorted(shard_id for shard_id, shard in bot.shards.items() if shard.is_closed())
        return f"shards disconnected: {down}" if down else None
    if bot.ws is None or not bot.ws.open:
        return "gateway disconnected"
    return None


async def database_problem(bot: Tirada) -> str | None:
    try:
        await asyncio.wait_for(bot.store.schema_version(), DATABASE_TIMEOUT)
    except DATABASE_ERRORS as error:
        return f"database: {type(error).__name__}"
    return None


async def health(bot: Tirada) -> tuple[int, dict[str, Any]]:
    """The status code and the small JSON body."""
    problem = gateway_problem(bot) or await database_problem(bot)
    if problem is not None:
        return 503, {"status": "unavailable", "reason": problem}
    body: dict[str, Any] = {"status": "ok", "guilds": len(bot.guilds)}
    if math.isfinite(bot.latency):
        body["latency_ms"] = round(bot.latency * 1000, 1)
    return 200, body
