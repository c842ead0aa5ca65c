"""Tests of ``cogs.donjon.components``: the narration of the Ley de los Éxitos as the
end-to-end fake Discord judges it, the message discord.py renders from ``narration_view``
at its bounds, posted then edited (the harness judges the rest, in test_cog.py)."""

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from cogs.donjon import components
from rules.donjon import law as donjon_law
from tests.support.fake_discord import FakeDiscord
from tests.support.payloads import GUILD_ID

COMPONENTS_V2 = 1 << 15


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


def longest(count: int) -> donjon_law.Law:
    """``count`` facts of 200 characters that markdown escapes to twice as many, all told."""
    law = donjon_law.Law(winner_id=1, narrator_id=2, successes=count)
    for n in range(count):
        law = donjon_law.narrate(law, 1, f"{n:03d}" + "*" * 197)
    return law


def body(law: donjon_law.Law, lang: str = "es") -> dict[str, Any]:
    view = components.narration_view(lang, 1, law)
    return {"flags": COMPONENTS_V2, "components": view.to_components()}


async def test_the_fake_discord_takes_the_narration_at_its_bounds(fake: FakeDiscord) -> None:
    law = longest(12)
    base = f"{fake.api_base}/channels/{GUILD_ID + 1}/messages"
    async with aiohttp.ClientSession() as session:
        async with session.post(base, json=body(law, "en")) as posted:
            assert posted.status == 200, await posted.json()
            message = await posted.json()
        for position in range(12):
            law = donjon_law.mark_narrated(law, position)
            async with session.patch(f"{base}/{message['id']}", json=body(law)) as edited:
                assert edited.status == 200, await edited.json()
    assert not fake.refused


async def test_one_fact_more_at_once_would_be_refused(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound is Discord's: a tenth fact of that length passes its 4,000 characters."""
    monkeypatch.setattr(components, "FACTS_SHOWN", components.FACTS_SHOWN + 1)
    base = f"{fake.api_base}/channels/{GUILD_ID + 1}/messages"
    async with aiohttp.ClientSession() as session, session.post(base, json=body(longest(12))) as posted:
        assert posted.status == 400
