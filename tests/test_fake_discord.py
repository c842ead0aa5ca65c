"""The offline Discord shards as Discord does (tests/support/fake_discord.py)."""

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.support.fake_discord import FakeDiscord, shard_of
from tests.support.payloads import GUILD_ID, PLAYER, guild_payload, interaction_payload, text_channel

# A guild of shard 1 of 2 (GUILD_ID is on shard 0).
OTHER_GUILD = GUILD_ID + (1 << 22)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(shards=2)
    server.guilds.append(guild_payload([text_channel(OTHER_GUILD + 1, "mesa-b")], guild_id=OTHER_GUILD))
    await server.start()
    yield server
    await server.stop()


async def identify(session: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int] | None) -> Any:
    ws = await session.ws_connect(fake.gateway_url)
    assert (await ws.receive_json())["op"] == 10
    await ws.send_str(json.dumps({"op": 2, "d": {"token": "x"} | ({"shard": shard} if shard else {})}))
    return ws


async def events(ws: Any, count: int) -> list[tuple[str, dict[str, Any]]]:
    return [(frame["t"], frame["d"]) for frame in [await ws.receive_json() for _ in range(count)]]


def command_in(guild: int) -> dict[str, Any]:
    data = {"id": "1", "name": "tirar", "type": 1}
    return interaction_payload(2, data, user=PLAYER, locale="es-ES", channel_id=guild + 1, guild_id=guild)


def test_the_owner_of_a_guild_is_discords_formula() -> None:
    assert (shard_of(GUILD_ID, 2), shard_of(OTHER_GUILD, 2)) == (0, 1)
    assert shard_of(OTHER_GUILD, 1) == 0


async def test_each_shard_gets_its_pair_its_guilds_and_only_their_interactions(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        zero = await identify(session, fake, [0, 2])
        one = await identify(session, fake, [1, 2])
        ready_zero, ready_one = await events(zero, 2), await events(one, 2)
        assert ready_zero[0][1]["shard"] == [0, 2] and ready_one[0][1]["shard"] == [1, 2]
        assert [g["id"] for g in ready_zero[0][1]["guilds"]] == [str(GUILD_ID)]
        assert ready_one[1] == ("GUILD_CREATE", fake.guilds[1])

        for guild in (OTHER_GUILD, GUILD_ID):
            await fake.dispatch("INTERACTION_CREATE", command_in(guild))
        assert (await events(zero, 1))[0][1]["guild_id"] == str(GUILD_ID)
        assert (await events(one, 1))[0][1]["guild_id"] == str(OTHER_GUILD)
        await zero.close()
        await one.close()


async def test_a_connection_without_shard_holds_every_guild(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await identify(session, fake, None)
        ready = await events(ws, 3)
        assert ready[0][1]["shard"] == [0, 1]
        assert [name for name, _ in ready] == ["READY", "GUILD_CREATE", "GUILD_CREATE"]
        await ws.close()


async def test_a_components_v2_message_keeps_its_flag_and_its_rules(fake: FakeDiscord) -> None:
    """Discord's component reference: once sent with IS_COMPONENTS_V2 the flag "can't be
    removed from that message", and such a message takes no content or embeds."""
    base = f"{fake.api_base}/channels/{GUILD_ID + 1}/messages"
    layout = {"flags": 1 << 15, "components": [{"type": 10, "content": "Heridas: 2"}]}
    async with aiohttp.ClientSession() as session:
        async with session.post(base, json=layout) as posted:
            assert posted.status == 200
            message = await posted.json()
        assert message["flags"] & (1 << 15)
        edit = f"{base}/{message['id']}"
        for body, status in [
            ({"components": [{"type": 10, "content": "Heridas: 3"}]}, 200),
            ({"flags": 0, "components": [{"type": 10, "content": "Heridas: 3"}]}, 400),
            ({"content": "Heridas: 3"}, 400),
            ({"components": [{"type": 10, "content": "x" * 4001}]}, 400),
        ]:
            async with session.patch(edit, json=body) as answer:
                assert answer.status == status, (body, await answer.json())
        async with session.post(base, json={"content": "x", "components": layout["components"]}) as classic:
            assert classic.status == 400  # a layout needs the flag
    assert len(fake.refused) == 4
