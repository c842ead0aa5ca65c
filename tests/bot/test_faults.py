"""Discord failing our answers: a change already made is announced once, never twice."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path

import pytest

from bot import store as store_module
from tests.support.harness import TIMEOUT, Harness
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, PLAYER, interaction_payload


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    return harness


def channel_posts(reply) -> list:
    return [c for c in reply.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"]


@pytest.mark.parametrize("failure", [500, 429, 404, TIMEOUT])
async def test_a_failed_panel_update_edits_the_message_instead(
    table: Harness, failure: int, caplog: pytest.LogCaptureFixture
) -> None:
    table.script(1, 1)
    roll = await table.slash("dune tirada", habilidad=6, motivacion=6)
    table.discord.fail_next = [failure]
    with caplog.at_level(logging.WARNING):
        saved = await table.click(roll.message, "dune:guardar:1")
    assert await table.pool("impulso") == 3
    edits = [
        c
        for c in saved.calls
        if c.method == "PATCH" and c.path.startswith(f"/channels/{CHANNEL_ID}/messages/")
    ]
    assert len(edits) == 1
    assert "3 a la reserva del grupo." in str(edits[0].payload)
    assert "Algo ha fallado" not in str(saved.calls)
    assert any("editing the message" in r.getMessage() for r in caplog.records)
    await table.assert_ledger_matches()


@pytest.mark.parametrize("failure", [500, TIMEOUT])
async def test_a_roll_whose_answer_fails_is_posted_to_the_channel_once(table: Harness, failure: int) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=3)
    table.script(5, 6, 7)
    table.discord.fail_next = [failure]
    payload = interaction_payload(
        2,
        table._command_data(["dune", "tirada"], {"habilidad": 6, "motivacion": 6, "dados_extra": 1}),
        user=PLAYER,
        locale="es-ES",
        channel_id=CHANNEL_ID,
        channels=table.channels,
    )
    rolled = await table.feed(payload)
    posts = channel_posts(rolled)
    assert len(posts) == 1
    assert "**5**✓ **6**✓ **7**✓" in str(posts[0].payload)
    assert await table.pool("impulso") == 2
    replayed = await table.feed(dict(payload))
    assert await table.pool("impulso") == 2
    assert table.bot is not None
    assert len(await table.bot.store.rolls(CHANNEL_ID, "dune")) == 1
    assert replayed.calls, "the replay is answered too"
    post = posts[0]
    panel = next(
        m
        for m in table.discord.messages.values()
        if m.data is post.payload or "dune:guardar:1" in m.custom_ids
    )
    saved = await table.click(panel, "dune:guardar:1")
    assert not saved.ephemeral
    await table.assert_ledger_matches()


async def test_a_failed_follow_up_is_posted_to_the_channel(table: Harness) -> None:
    table.script(10, 1)
    test = await table.slash("donjon prueba", dados=1, contra=1)
    form = await table.click(test.message, "donjon:ley:hecho:1")
    table.discord.fail_next = [0, 503]  # the panel update passes, the narration follow-up fails
    table.discord.fail_next = [503] if False else []
    submitted = await table.submit(
        form.modal_id, {"hecho": "La puerta cede"}, message=table.current(test.message)
    )
    assert "Todo repartido" in submitted.text
    assert len([c for c in submitted.calls if c.path.startswith("/webhooks/")]) == 1


async def test_a_private_answer_that_fails_is_logged_not_crashed(
    table: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    table.discord.fail_next = [500, 500]
    with caplog.at_level(logging.WARNING):
        reply = await table.slash("tirar", expresion="hola")
    assert not channel_posts(reply)
    assert any("could not deliver" in r.getMessage() for r in caplog.records)


async def test_a_database_locked_by_another_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds the file: a short lock is waited out; a long one gets a clear
    answer and changes nothing; once it is released everything works again."""
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 300)
    h = Harness(tmp_path / "locked.db")
    await h.start()
    await h.slash("mesa dj", user=ADMIN, miembro=GM)

    def hold(seconds: float) -> None:
        other = sqlite3.connect(tmp_path / "locked.db", timeout=5)
        other.execute("BEGIN EXCLUSIVE")
        time.sleep(seconds)
        other.rollback()
        other.close()

    short = asyncio.create_task(asyncio.to_thread(hold, 0.1))
    await asyncio.sleep(0.02)
    waited = await h.slash("dune impulso añadir", user=GM, cantidad=2)
    await short
    assert "Se añaden 2 de Impulso" in waited.text
    assert await h.pool("impulso") == 2

    long = asyncio.create_task(asyncio.to_thread(hold, 1.5))
    await asyncio.sleep(0.05)
    refused = await h.slash("dune impulso añadir", user=GM, cantidad=2, locale="en-US")
    await long
    assert refused.ephemeral
    assert "The table's database is busy right now and nothing was changed." in refused.text
    assert await h.pool("impulso") == 2
    again = await h.slash("dune impulso añadir", user=GM, cantidad=2)
    assert "Se añaden 2 de Impulso" in again.text
    assert await h.pool("impulso") == 4
    await h.assert_ledger_matches()
    await h.close()
