"""How the bot reacts when Discord refuses what it sends (bot/errors.py), and what discord.py
keeps after an answer with buttons."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.i18n import CATALOG
from tests.support.harness import Harness
from tests.support.payloads import CHANNEL_ID, GM, PLAYER, interaction_payload

# The book's second example: the player wins with four successes (two tied pairs).
PLAYER_WINS = [3, 11, 12, 13, 15, 5, 8, 10, 13, 15]


@pytest.fixture
async def donjon(harness: Harness) -> Harness:
    await harness.table_for("donjon")
    return harness


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("es-ES", "Discord no ha aceptado lo que iba a mostrarte"), ("en-US", "Discord did not accept")],
)
async def test_a_form_discord_refuses_is_answered_in_the_players_language(
    donjon: Harness,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    locale: str,
    expected: str,
) -> None:
    donjon.script(*PLAYER_WINS)
    panel = (await donjon.slash("donjon prueba", dados=5, contra=5)).message
    too_long = {"es": "x" * 46, "en": "x" * 46}
    monkeypatch.setitem(CATALOG.entries, "donjon.fact.label", too_long)
    with donjon.discord.expect_refusals() as refused, caplog.at_level(logging.ERROR):
        reply = await donjon.click(panel, "donjon:ley:hecho:1", locale=locale)
    assert [r.body["code"] for r in refused] == [50035]
    label = refused[0].body["errors"]["data"]["components"]["0"]["components"]["0"]["label"]
    assert label["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"
    answer = reply.message  # the form was refused, so the answer is the only message
    assert answer.ephemeral and expected in str(answer.data)
    assert "Algo ha fallado" not in str(answer.data)
    assert any("Discord refused" in r.getMessage() for r in caplog.records)


async def test_a_duplicate_delivery_refused_with_40060_is_a_replay_logged_at_info(
    donjon: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    donjon.script(*PLAYER_WINS)
    panel = (await donjon.slash("donjon prueba", dados=5, contra=5)).message
    payload = interaction_payload(
        3,
        {"custom_id": "donjon:ley:dado:1", "component_type": 2},
        user=PLAYER,
        locale="es-ES",
        channel_id=panel.channel_id,
        message=panel.payload(),
        channels=donjon.channels,
    )
    await donjon.feed(payload)
    with caplog.at_level(logging.INFO):
        await donjon.feed(dict(payload))
    assert [r.body["code"] for r in donjon.discord.refusals] == [40060]
    replays = [r for r in caplog.records if "replayed interaction" in r.getMessage()]
    assert [r.levelno for r in replays] == [logging.INFO]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert await donjon.pool("dados", PLAYER.id) == 1


def view_timers() -> list[asyncio.Task[object]]:
    return [
        t
        for t in asyncio.all_tasks()
        if not t.done() and t.get_coro().__qualname__.endswith("__timeout_task_impl")  # type: ignore[union-attr]
    ]


async def test_private_buttons_leave_no_view_or_timer_behind(harness: Harness) -> None:
    await harness.table_for("dune")
    asked = await harness.slash("mesa reiniciar", user=GM)
    assert asked.ephemeral and f"mesa:reiniciar:no:{CHANNEL_ID}" in asked.message.custom_ids
    assert harness.bot is not None
    views = harness.bot._connection._view_store
    assert view_timers() == []
    assert not views._views and not views._synced_message_views
    await harness.click(asked.message, f"mesa:reiniciar:no:{CHANNEL_ID}", user=GM)
    assert "No se ha reiniciado nada" in harness.current(asked.message).data["embeds"][0]["title"]
