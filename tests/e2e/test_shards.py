"""Sharded ``python -m bot`` processes against the fake Discord (issue #20)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.models import Change, Operation
from bot.store import Store
from tests.e2e.test_process import board_shows, command, start_bot
from tests.support.fake_discord import FakeDiscord, Request, shard_of
from tests.support.payloads import (
    ADMIN,
    CHANNEL_ID,
    GUILD_ID,
    PLAYER,
    User,
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


def dune(path: list[str], amount: int, user: User, guild: int, channel: int) -> dict[str, object]:
    data = command(["dune", *path], [{"type": 4, "name": "cantidad", "value": amount}])
    return interaction_payload(2, data, user=user, locale="es-ES", channel_id=channel, guild_id=guild)


def players(count: int) -> list[User]:
    return [User(940000000000000000 + i, f"Jugadora {i}") for i in range(count)]


def burst(guild: int, channel: int) -> list[dict[str, object]]:
    """Many players at one table: Impulso spends (6 can pass) between Amenaza additions."""
    return [
        dune(["impulso", "gastar"] if i % 2 else ["amenaza", "añadir"], 1, user, guild, channel)
        for i, user in enumerate(players(30))
    ]


def answered(fake: FakeDiscord, payloads: list[dict[str, object]]) -> set[int]:
    """The interactions of ``payloads`` the bot answered publicly (a change it made)."""
    ids = {str(p["id"]) for p in payloads}
    return {
        int(r.path.split("/")[2])
        for r in list(fake.requests)
        if r.method == "POST" and r.path.endswith("/callback") and r.path.split("/")[2] in ids and public(r)
    }


def public(request: Request) -> bool:
    data = request.body.get("data") or {}
    return request.body["type"] == 4 and not (data.get("flags") or 0) & 64


async def stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.communicate(), timeout=30)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()


async def test_two_shard_processes_on_one_postgresql_lose_nothing_when_one_is_killed(
    fake: FakeDiscord, tmp_path: Path, postgres_url: str
) -> None:
    """Shards 0 and 1 of 2 in two processes on one PostgreSQL; a table in a guild of each;
    30 players at each table at once; SIGKILL the shard-1 process mid-burst, restart it,
    and deliver its whole burst again (as replays): ledger equals pools at both tables,
    every publicly answered change is in the ledger, and none is there twice."""
    env = {"TIRADA_DB": postgres_url, "TIRADA_SHARD_COUNT": "2"}
    tables = {0: (GUILD_ID, CHANNEL_ID), 1: (SHARD_1_GUILD, SHARD_1_CHANNEL)}
    shard = {i: await start_bot(fake, tmp_path, TIRADA_SHARD_IDS=str(i), **env) for i in (0, 1)}
    restarted = None
    try:
        await fake.wait_ready(0)
        await fake.wait_ready(1)
        for guild, channel in tables.values():
            setup = dune(["impulso", "añadir"], 6, ADMIN, guild, channel)
            await fake.dispatch("INTERACTION_CREATE", setup)
            await fake.wait_for("POST", rf"^/interactions/{setup['id']}/")
        bursts = {i: burst(*tables[i]) for i in tables}
        for pair in zip(bursts[0], bursts[1], strict=True):
            for payload in pair:
                await fake.dispatch("INTERACTION_CREATE", payload)
        await fake.wait_for("POST", rf"^/interactions/{bursts[1][3]['id']}/")
        shard[1].kill()
        await shard[1].wait()
        await fake.wait_for("POST", rf"^/interactions/{bursts[0][-1]['id']}/")
        before_restart = answered(fake, bursts[1])

        readies = len(fake.ready)
        restarted = await start_bot(fake, tmp_path, TIRADA_SHARD_IDS="1", **env)
        async with asyncio.timeout(30), fake.changed:
            await fake.changed.wait_for(lambda: len(fake.ready) > readies)
        for payload in bursts[1]:
            await fake.dispatch("INTERACTION_CREATE", payload)
        await fake.wait_for("POST", rf"^/interactions/{bursts[1][-1]['id']}/")
        for payload in bursts[1]:
            await fake.wait_for("POST", rf"^/interactions/{payload['id']}/")
    finally:
        for process in (shard[0], shard[1], restarted):
            if process is not None:
                await stop(process)
    assert shard[0].returncode == 0 and restarted is not None and restarted.returncode == 0

    store = await Store.open(postgres_url)
    try:
        for i, (_, channel) in tables.items():
            rows = await store.ledger(channel, limit=1000)
            sums = await store.ledger_sums(channel)
            for pool in await store.pools(channel):
                assert sums.get((pool.pool, pool.owner_id), 0) == pool.value
            keys = [(r.interaction_id, r.pool, r.owner_id) for r in rows]
            assert len(keys) == len(set(keys)), "a change was applied twice"
            in_ledger = {r.interaction_id for r in rows}
            assert answered(fake, bursts[i]) <= in_ledger
            spent = sum(1 for r in rows if r.pool == "impulso" and r.delta < 0)
            assert spent == 6 and await store.pool(channel, "impulso") == 0
        assert before_restart <= {r.interaction_id for r in await store.ledger(SHARD_1_CHANNEL, limit=1000)}
    finally:
        await store.close()


async def test_a_change_made_by_another_process_redraws_the_board_this_one_holds(
    fake: FakeDiscord, tmp_path: Path, postgres_url: str
) -> None:
    """Shard 0's process holds the board of a table in its guild; another process (this
    test's own store) changes the table: the board is edited to show it, long before the
    five-minute sweep (LISTEN/NOTIFY)."""
    env = {"TIRADA_DB": postgres_url, "TIRADA_SHARD_COUNT": "2", "TIRADA_SHARD_IDS": "0"}
    process = await start_bot(fake, tmp_path, **env)
    store = await Store.open(postgres_url)
    try:
        await fake.wait_ready(0)
        for path, options in (
            (["mesa", "dj"], []),
            (["mesa", "sistema"], [{"type": 3, "name": "sistema", "value": "dune"}]),
            (["mesa", "tablero"], []),
        ):
            data = command(path, options)
            payload = interaction_payload(2, data, user=ADMIN, locale="es-ES", channel_id=CHANNEL_ID)
            await fake.dispatch("INTERACTION_CREATE", payload)
            await fake.wait_for("POST", rf"^/webhooks/\d+/{payload['token']}|^/interactions/{payload['id']}/")
        pinned = await fake.wait_for("PUT", rf"^/channels/{CHANNEL_ID}/messages/pins/\d+$")
        await store.apply(
            Operation(CHANNEL_ID, snowflake(), ADMIN.id, "otro proceso", (Change("impulso", 4, cap=6),))
        )
        await board_shows(fake, pinned.path.rsplit("/", 1)[1], "**4**/6")
    finally:
        await store.close()
        await stop(process)
    assert process.returncode == 0
