"""The stream overlay (issue 32) without a browser: its secret links, its streams, and
that it never shows what the table hides or another table's state."""

from __future__ import annotations

import asyncio
import json
import re

import aiohttp
import pytest

from bot.web import server, tokens
from bot.web.overlay import STREAMS_PER_TABLE, Stream
from bot.web.tokens import Overlay
from tests.support.harness import Harness
from tests.support.payloads import (
    CHANNEL_ID,
    GM,
    GM_CHANNEL_ID,
    OTHER,
    OTHER_CHANNEL_ID,
    PLAYER,
    text_channel,
)
from tests.test_hidden import dnd_session, dune_session, number
from tests.web.support import Events, overlay, serve, shown, stream, table, web_of


@pytest.fixture
async def dune(harness: Harness) -> Harness:
    await serve(harness)
    await table(harness, "dune")
    return harness


async def get(url: str, **headers: str) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        return response.status, await response.text(), dict(response.headers)


# -- the link ----------------------------------------------------------------------------------


async def test_the_gm_gets_a_long_link_privately_and_its_token_is_stored_only_hashed(dune: Harness) -> None:
    url = await overlay(dune)
    token = url.rsplit("/", 1)[1]
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
    assert dune.bot is not None
    stored = await dune.bot.store.meta_with_prefix("overlay")
    assert stored and all(token not in key and token not in value for key, value in stored.items())
    assert tokens.digest(token) in stored[tokens.TABLE_PREFIX + str(CHANNEL_ID)]
    status, html, _ = await get(url)
    assert status == 200 and 'lang="es"' in html


async def test_only_the_gm_gets_a_link(dune: Harness) -> None:
    refused = await dune.slash("mesa overlay", user=PLAYER)
    assert refused.ephemeral and "/overlay/" not in refused.text
    assert dune.bot is not None
    assert not await dune.bot.store.meta_with_prefix(tokens.TABLE_PREFIX)


async def test_without_the_web_server_the_command_says_how_to_turn_it_on(harness: Harness) -> None:
    await table(harness, "dune")
    refused = await harness.slash("mesa overlay", user=GM)
    assert refused.ephemeral and "TIRADA_WEB_PORT" in refused.text


async def test_a_new_link_replaces_the_old_and_revoking_stops_both_page_and_stream(dune: Harness) -> None:
    old = await overlay(dune)
    new = await overlay(dune)
    assert (await get(old))[0] == 404
    async with stream(new) as events:
        await events.next()
        revoked = await dune.slash("mesa overlay", user=GM, revocar=True)
        assert revoked.ephemeral and "anulado" in revoked.text
        assert (await events.next())[0] == "revoked"
        with pytest.raises(EOFError):
            await events.next()
    assert (await get(new))[0] == 404
    again = await dune.slash("mesa overlay", user=GM, revocar=True)
    assert "no tenía enlace" in again.text


async def test_a_link_asked_in_english_draws_the_overlay_in_english(dune: Harness) -> None:
    url = await overlay(dune, locale="en-US")
    async with stream(url) as events:
        _, snapshot = await events.next()
    assert snapshot["lang"] == "en"
    assert "Table board" in shown(snapshot)


# -- hostile requests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/overlay/" + "A" * 43,
        "/overlay/" + "A" * 43 + "/events",
        "/overlay/short",
        "/overlay/%00%0a" + "A" * 40,
        "/overlay/" + "A" * 5000,
        "/nothing",
    ],
)
async def test_wrong_and_malformed_tokens_get_a_bare_404(dune: Harness, path: str) -> None:
    status, body, headers = await get(web_of(dune).base + path)
    assert (status, body) == (404, "") or status in (400, 431), (status, body)
    assert "Access-Control-Allow-Origin" not in headers


async def test_every_answer_has_strict_headers_and_no_cors(dune: Harness) -> None:
    url = await overlay(dune)
    for path in (url, url + "/events", url.split("/overlay/")[0] + "/overlay.js"):
        async with (
            aiohttp.ClientSession() as session,
            session.get(path, headers={"Origin": "https://evil.example"}) as response,
        ):
            headers = response.headers
            assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
            assert "script-src 'self'" in headers["Content-Security-Policy"]
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert not [h for h in headers if h.lower().startswith("access-control-")]
    async with aiohttp.ClientSession() as session, session.options(url) as response:
        assert response.status == 405
        assert not [h for h in response.headers if h.lower().startswith("access-control-")]


async def test_open_streams_per_table_are_bounded(dune: Harness) -> None:
    url = await overlay(dune)
    async with aiohttp.ClientSession() as session:
        opened = [await session.get(url + "/events") for _ in range(STREAMS_PER_TABLE)]
        assert all(r.status == 200 for r in opened)
        extra = await session.get(url + "/events")
        assert extra.status == 429
        for response in [*opened, extra]:
            response.close()


async def test_a_stream_sends_at_most_four_events_a_second(dune: Harness) -> None:
    url = await overlay(dune)
    async with stream(url) as events:
        await events.next()
        started = asyncio.get_running_loop().time()
        for _ in range(6):
            await dune.slash("dune impulso añadir", user=GM, cantidad=1)
            await dune.slash("dune impulso gastar", user=GM, cantidad=1)
        seen = await drain(events)
        elapsed = asyncio.get_running_loop().time() - started
    assert 1 <= seen <= elapsed * 4 + 1, (seen, elapsed)


async def drain(events: Events) -> int:
    """How many events arrive until the stream is quiet for a second."""
    seen = 0
    try:
        while True:
            await events.next(within=1.0)
            seen += 1
    except TimeoutError:
        return seen


# -- what the page shows ---------------------------------------------------------------------------


async def test_a_change_reaches_an_open_page_within_a_second(dune: Harness) -> None:
    url = await overlay(dune)
    async with stream(url) as events:
        _, first = await events.next()
        assert "Impulso\n0/6" in shown(first), shown(first)
        loop = asyncio.get_running_loop()
        started = loop.time()
        await dune.slash("dune impulso añadir", user=GM, cantidad=2)
        await events.until("Impulso\n2/6", within=1.0)
        assert loop.time() - started < 1.0


async def test_the_last_public_roll_is_shown_and_a_private_one_never(dune: Harness) -> None:
    url = await overlay(dune)
    async with stream(url) as events:
        await events.next()
        dune.script(4, 9)
        await dune.slash("dune tirada", habilidad=6, motivacion=6, motivo="Salto del gusano")
        snapshot = await events.until("Salto del gusano")
        assert snapshot["last"] == "Última tirada"
        dune.script(555)
        await dune.slash("tirar", user=OTHER, expresion="1d999", privada=True, motivo="Diario ámbar")
        dune.script(7)
        await dune.slash("tirar", expresion="1d20", motivo="Puerta cerrada")
        later = shown(await events.until("Puerta cerrada"))
    assert "Diario ámbar" not in later and not re.search(number(555), later)


async def test_an_overlay_never_shows_what_the_table_hides(harness: Harness) -> None:
    """Dune's hidden Amenaza of 93, secret rolls before their reveal, a private roll, and
    D&D NPCs' hit points: none of them reaches either table's overlay."""
    await serve(harness)
    await dune_session(harness)
    await dnd_session(harness)
    pages = []
    for channel_id in (CHANNEL_ID, OTHER_CHANNEL_ID):
        async with stream(await overlay(harness, channel_id)) as events:
            pages.append(shown((await events.next())[1]))
    dune_page, dnd_page = pages
    for secret in ("Emboscada zafiro", "Diario ámbar"):
        assert secret not in dune_page
    for value in (93, 777, 555, 617, 583, 641, 606, 659):
        assert not re.search(number(value), dune_page), (value, dune_page)
        assert not re.search(number(value), dnd_page), (value, dnd_page)


async def test_a_roll_in_the_gm_channel_never_reaches_the_overlay(dune: Harness) -> None:
    gm_channel = next(c for c in dune.channels if int(c["id"]) == GM_CHANNEL_ID)
    await dune.slash("mesa canal-dj", user=GM, canal=gm_channel)
    url = await overlay(dune)
    async with stream(url) as events:
        await events.next()
        dune.script(31)
        await dune.slash("tirar", user=GM, expresion="1d40", motivo="Emboscada", channel_id=GM_CHANNEL_ID)
        dune.script(5)
        await dune.slash("tirar", expresion="1d6", motivo="Visible")
        page = shown(await events.until("Visible"))
    assert "Emboscada" not in page


async def test_one_tables_link_never_shows_another_tables_state(harness: Harness) -> None:
    await serve(harness)
    await table(harness, "dune")
    await table(harness, "mediana", OTHER_CHANNEL_ID)
    await harness.slash("dune impulso añadir", user=GM, cantidad=5)
    harness.script(4)
    await harness.slash("tirar", expresion="1d6", motivo="Solo en la otra", channel_id=OTHER_CHANNEL_ID)
    async with stream(await overlay(harness, OTHER_CHANNEL_ID)) as events:
        page = shown((await events.next())[1])
    assert "Solo en la otra" in page
    assert "Impulso" not in page and "Dune" not in page


# -- load ----------------------------------------------------------------------------------------


async def test_forty_overlays_on_ten_tables_all_end_on_the_final_state(harness: Harness) -> None:
    """The suite's small load test (bench/bench_overlay.py runs 200 on 50): pages read
    while play goes on (each interaction must still finish on its own), and every page ends
    showing its own table's last Impulso."""
    channels = [CHANNEL_ID + 100 + n for n in range(10)]
    harness.channels += [text_channel(c, f"mesa-{c}") for c in channels]
    await harness.restart()
    await serve(harness)
    urls = {}
    for channel_id in channels:
        await table(harness, "dune", channel_id)
        urls[channel_id] = await overlay(harness, channel_id)
    latest: dict[tuple[int, int], str] = {}
    arrived = asyncio.Event()

    async def read(key: tuple[int, int], response: aiohttp.ClientResponse) -> None:
        async for raw in response.content:
            if raw.startswith(b"data: "):
                latest[key] = shown(json.loads(raw[6:]))
                arrived.set()

    async with aiohttp.ClientSession() as session:
        responses = {(c, n): await session.get(urls[c] + "/events") for c in channels for n in range(4)}
        readers = [asyncio.create_task(read(key, response)) for key, response in responses.items()]
        for _ in range(3):
            await asyncio.gather(
                *(harness.slash("dune impulso añadir", user=GM, cantidad=1, channel_id=c) for c in channels)
            )
        async with asyncio.timeout(5):
            while not all("Impulso\n3/6" in latest.get(key, "") for key in responses):
                arrived.clear()
                await arrived.wait()
        for task in readers:
            task.cancel()
        for response in responses.values():
            response.close()
    assert web_of(harness).overlays.open_streams <= 40


async def test_a_secret_roll_shows_only_once_revealed_and_a_button_updates_the_last_roll(
    dune: Harness,
) -> None:
    gm_channel = next(c for c in dune.channels if int(c["id"]) == GM_CHANNEL_ID)
    await dune.slash("mesa canal-dj", user=GM, canal=gm_channel)
    url = await overlay(dune)
    async with stream(url) as events:
        await events.next()
        dune.script(7)
        secret = await dune.slash("tirar", user=GM, expresion="1d20", secreta=True, motivo="Trampa")
        await dune.slash("dune impulso añadir", user=GM, cantidad=1)
        assert "Trampa" not in shown(await events.until("Impulso\n1/6"))
        copy = next(m for m in secret.messages if m.channel_id == GM_CHANNEL_ID)
        reveal = next(c for c in copy.custom_ids if c.startswith("secreta:revelar:"))
        await dune.click(copy, reveal, user=GM)
        await events.until("Trampa")
        dune.script(1, 1)
        rolled = await dune.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
        before = await events.until("Superado")
        save = next(c for c in rolled.message.custom_ids if c.startswith("dune:guardar"))
        await dune.click(rolled.message, save)
        after = await events.until("Impulso\n4/6")
    assert before["card"] != after["card"]


async def test_a_waiting_page_holds_no_task_of_its_own() -> None:
    """A page waiting for its next snapshot is one task (its request's), not two: a task
    per wait (``asyncio.wait_for``) started during an interaction outlives it, and the
    harness, like the bot's shutdown drain, waits for such tasks (the bench stalled so)."""
    page = Stream(Overlay(CHANNEL_ID, "es"))
    before = len(asyncio.all_tasks())
    waiting = asyncio.create_task(page.next(5.0))
    await asyncio.sleep(0)
    assert len(asyncio.all_tasks()) == before + 1
    page.offer("{}")
    assert await waiting == "{}"


async def test_a_link_revoked_elsewhere_stops_the_stream_at_its_next_check(
    dune: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process sharing the database revokes the link: this one's open page learns
    it when its quiet stream next checks the link, and stops."""
    monkeypatch.setattr(server, "KEEPALIVE", 0.2)
    url = await overlay(dune)
    async with stream(url) as events:
        await events.next()
        assert dune.bot is not None
        await tokens.revoke(dune.bot.store, CHANNEL_ID)  # the store alone, as another process
        assert (await events.next())[0] == "revoked"


async def test_each_process_hands_out_links_to_itself_under_its_own_address(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With several processes (docs/escalar.md) each has its own port and address; the
    link ``/mesa overlay`` gives leads to the process that answered it, the one posting that
    table's rolls (the last roll lives in its memory). Behind a proxy's path prefix the
    page still finds its script, style and stream: it names them relatively."""
    assert harness.bot is not None
    shard = harness.bot.settings.model_copy(update={"tirada_web_url": "https://tirada.example.org/s1"})
    monkeypatch.setattr(harness.bot, "settings", shard)
    web = await serve(harness)
    await table(harness, "dune")
    url = await overlay(harness)
    assert url.startswith("https://tirada.example.org/s1/overlay/")
    local = f"http://127.0.0.1:{web.port}/overlay/" + url.rsplit("/", 1)[1]
    status, html, _ = await get(local)
    assert status == 200
    assert 'href="../overlay.css"' in html and 'src="../overlay.js"' in html
