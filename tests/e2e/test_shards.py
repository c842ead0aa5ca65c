"""Sharded ``python -m bot`` processes against the fake Discord (issue #20)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.test_process import start_bot
from tests.support.fake_discord import FakeDiscord, shard_of
from tests.support.payloads import (
    GUILD_ID,
    PLAYER,
    guild_payload,
    interaction_payload,
    snowflake,
    text_channel,
)

# A guild on shard 1 of 2 (GUILD_ID is on shard 0), and a channel in it.
SHARD_1_GUILD = GUILD_ID + (1 << 22)
SHARD_1_CHANNEL = SHARD_1_GUILD + 7


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(shards=2)
    channel = text_channel(SHARD_1_CHANNEL, "mesa-b", guild_id=SHARD_1_GUILD)
    server.guilds.append(guild_payload([channel], guild_id=SHARD_1_GUILD))
    await server.start()
    yield server
    await server.stop()
    assert not server.refused, "; ".join(map(str, server.refused))


def roll_in(guild: int, channel: int) -> dict[str, object]:
    data = {
        "id": str(snowflake()),
        "name": "tirar",
        "type": 1,
        "options": [{"type": 3, "name": "expresion", "value": "1d6"}],
    }
    return interaction_payload(2, data, user=PLAYER, locale="es-ES", channel_id=channel, guild_id=guild)


async def test_a_process_running_shard_1_serves_its_guild_and_does_not_sync(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    assert shard_of(SHARD_1_GUILD, 2) == 1
    process = await start_bot(fake, tmp_path, TIRADA_SHARD_COUNT="2", TIRADA_SHARD_IDS="1")
    try:
        await fake.wait_ready(1)
        assert fake.ready == [(1, 2)]
        payload = roll_in(SHARD_1_GUILD, SHARD_1_CHANNEL)
        await fake.dispatch("INTERACTION_CREATE", payload)
        callback = await fake.wait_for("POST", rf"^/interactions/{payload['id']}/[^/]+/callback$")
        assert callback.body["type"] == 4
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.communicate(), timeout=30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0
    assert not [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
