"""Discord failing our answers: a change already made is announced once, never twice."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from discord.webhook import async_ as webhook_async
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.store import sqlite as store_module
from tests.support.harness import TIMEOUT, Harness
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, PLAYER, interaction_payload
from tests.support.postgres import Server


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
    assert len(await table.bot.store.records(CHANNEL_ID, "dune")) == 1
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


def immutable(path: Path, on: bool) -> None:
    """``chattr +i``: even root may not write the file (file modes do not bite root)."""
    subprocess.run(["chattr", "+i" if on else "-i", str(path)], check=True, capture_output=True)


def chattr_works(folder: Path) -> bool:
    probe = folder / "probe"
    probe.write_text("x")
    try:
        immutable(probe, True)
        immutable(probe, False)
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


async def test_a_database_file_that_turns_read_only(
    disk_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The file stops accepting writes while the bot runs: a clear answer in the user's
    language, a clear log line, nothing changed, no crash; it works again once writable."""
    if not chattr_works(disk_path):
        pytest.skip("this filesystem has no immutable attribute (chattr)")
    h = Harness(disk_path / "ro.db")
    await h.start()
    try:
        await h.table_for("dune")
        await h.slash("dune amenaza añadir", cantidad=2)
        files = [disk_path / "ro.db", disk_path / "ro.db-wal"]
        for f in files:
            immutable(f, True)
        try:
            with caplog.at_level(logging.ERROR):
                refused = await h.slash("dune amenaza añadir", cantidad=3, locale="en-US")
            assert refused.ephemeral
            assert "I can't save anything to the table's database right now" in refused.text
            assert any("cannot be written" in r.getMessage() for r in caplog.records)
            again = await h.slash("dune amenaza añadir", cantidad=3)
            assert "no puedo guardar nada" in again.text
        finally:
            for f in files:
                immutable(f, False)
        assert await h.pool("amenaza") == 2
        works = await h.slash("dune amenaza añadir", cantidad=3)
        assert not works.ephemeral and await h.pool("amenaza") == 5
        await h.assert_ledger_matches()
    finally:
        await h.close()


async def test_a_database_sqlite_opens_read_only(tmp_path: Path) -> None:
    """SQLite's own read-only answer (SQLITE_READONLY), as for a file opened read-only."""
    h = Harness(tmp_path / "query-only.db")
    await h.start()
    try:
        await h.slash("mesa dj", user=ADMIN, miembro=GM)
        assert h.bot is not None
        await h.bot.store.db.connection.execute("PRAGMA query_only = 1")
        refused = await h.slash("mesa sistema", user=GM, sistema="dune")
        assert refused.ephemeral and "no puedo guardar nada" in refused.text
        await h.bot.store.db.connection.execute("PRAGMA query_only = 0")
        done = await h.slash("mesa sistema", user=GM, sistema="dune")
        assert "Dune" in done.text
    finally:
        await h.close()


# -- discord.py's own webhook adapter, retrying over a fake HTTP session ----------------------


class _HTTPResponse:
    """What aiohttp would hand discord.py's adapter: a status, headers and a body."""

    def __init__(self, status: int, body: object, headers: dict[str, str]) -> None:
        self.status = status
        self.reason = "fake"
        self.headers = {"content-type": "application/json", **headers}
        self._body = json.dumps(body)

    async def text(self, encoding: str = "utf-8") -> str:
        return self._body

    async def __aenter__(self) -> _HTTPResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _HTTPSession:
    """An aiohttp session for one request: the first requests fail with ``statuses`` at
    the HTTP layer, then the request reaches the fake Discord."""

    def __init__(self, discord_: object, statuses: list[int], route: object, kwargs: dict) -> None:
        self.discord, self.statuses, self.route, self.kwargs = discord_, statuses, route, kwargs

    def request(self, method: str, url: str, **kwargs: object) -> _AsyncResult:
        return _AsyncResult(self)

    async def answer(self) -> _HTTPResponse:
        if self.statuses:
            status = self.statuses.pop(0)
            ATTEMPTS.append(status)
            if status == 429:  # Discord's own rate limit (Cloudflare's has no Via header)
                return _HTTPResponse(
                    429, {"retry_after": 0.01, "global": False, "message": "slow"}, {"Via": "1.1 google"}
                )
            return _HTTPResponse(status, {"message": "fake", "code": 0}, {})
        ATTEMPTS.append(200)
        body = await self.discord.webhook(self.route, **self.kwargs)  # type: ignore[attr-defined]
        return _HTTPResponse(200, body, {})


class _AsyncResult:
    def __init__(self, session: _HTTPSession) -> None:
        self.session = session
        self.response: _HTTPResponse | None = None

    async def __aenter__(self) -> _HTTPResponse:
        self.response = await self.session.answer()
        return self.response

    async def __aexit__(self, *exc: object) -> None:
        return None


ATTEMPTS: list[int] = []


class _RealAdapter(AsyncWebhookAdapter):
    """discord.py's adapter, unchanged, over the fake HTTP session."""

    def __init__(self, discord_: object, statuses: list[int]) -> None:
        super().__init__()
        self.discord, self.statuses = discord_, statuses

    async def request(self, route, session, **kwargs):  # type: ignore[no-untyped-def, override]
        fake = _HTTPSession(self.discord, self.statuses, route, kwargs)
        return await super().request(route, fake, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py waits 1 s, 3 s, 5 s... between 5xx retries; the waits are not the point."""
    real_sleep = asyncio.sleep

    async def sleep(delay: float, *args: object) -> object:
        return await real_sleep(min(delay, 0.01), *args)

    monkeypatch.setattr(webhook_async.asyncio, "sleep", sleep)


async def test_discordpy_retries_a_500_and_a_429_and_the_answer_arrives_once(
    table: Harness, quick_retries: None
) -> None:
    ATTEMPTS.clear()
    table.adapter = _RealAdapter(table.discord, [500, 429])
    reply = await table.slash("dune amenaza añadir", cantidad=2)
    assert ATTEMPTS == [500, 429, 200]
    assert len(reply.callbacks) == 1 and not channel_posts(reply)
    assert f"<@{PLAYER.id}> añade 2 de Amenaza." in reply.text
    assert await table.pool("amenaza") == 2
    await table.assert_ledger_matches()


async def test_when_discordpy_gives_up_the_change_is_announced_once_through_the_channel(
    table: Harness, quick_retries: None
) -> None:
    ATTEMPTS.clear()
    table.adapter = _RealAdapter(table.discord, [502] * 5)
    reply = await table.slash("dune amenaza añadir", cantidad=2)
    assert ATTEMPTS == [502] * 5
    assert reply.callbacks == []
    [post] = channel_posts(reply)
    assert f"<@{PLAYER.id}> añade 2 de Amenaza." in json.dumps(post.payload, ensure_ascii=False)
    assert await table.pool("amenaza") == 2


# -- the database file deleted or replaced, the disk full -------------------------------------


def remove_database(path: Path, *, replace: bool) -> None:
    """Delete the database's files (and put an empty database in its place)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if replace:
        sqlite3.connect(path).close()


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_database_file_deleted_while_running_refuses_changes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    """SQLite keeps writing to a deleted file (gone at the restart): the store notices that
    the path no longer names its file (device and inode), refuses changes with a clear
    answer and logs an ERROR saying how to recover. Reads still answer."""
    path = tmp_path / "gone.db"
    h = Harness(path)
    await h.start()
    try:
        await h.table_for("dune")
        await h.slash("dune amenaza añadir", cantidad=2)
        remove_database(path, replace=how == "replaced")
        with caplog.at_level(logging.ERROR):
            refused = await h.slash("dune amenaza añadir", cantidad=4)
        assert refused.ephemeral and "se ha borrado o sustituido" in refused.text
        assert "añade" not in refused.text
        assert any("put the database back" in r.getMessage() for r in caplog.records)
        english = await h.slash("dune amenaza añadir", cantidad=4, locale="en-US")
        assert "was deleted or replaced while the bot was running" in english.text
        shown = await h.slash("dune amenaza ver")
        assert "Amenaza" in shown.text and await h.pool("amenaza") == 2
    finally:
        await h.close()


async def test_a_full_disk_answers_like_read_only_and_is_logged(
    table: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLITE_FULL ("database or disk is full"), made real by capping the file's pages."""
    await table.slash("mesa sistema", user=GM, sistema="dune")
    assert table.bot is not None
    db = table.bot.store.db.connection
    async with db.execute("PRAGMA page_count") as cursor:
        (pages,) = await cursor.fetchone()  # type: ignore[misc]
    await (await db.execute(f"PRAGMA max_page_count = {pages}")).close()
    with caplog.at_level(logging.ERROR):
        for n in range(200):
            reply = await table.slash("tirar", expresion=f"{n + 1}d6 + {'1' * 40}")
            if reply.ephemeral:
                break
    assert reply.ephemeral and "no puedo guardar nada" in reply.text, reply.text
    assert any("cannot be written" in r.getMessage() for r in caplog.records)


async def test_a_postgresql_server_that_goes_away_mid_game_gets_a_clear_answer(postgres: Server) -> None:
    """A server of its own (the session's one, ``postgres``, must stay up), stopped under
    the bot: the next change is answered "I can't reach the table's database" in the
    player's language, not "something failed"."""
    server = Server()
    server.start()
    try:
        h = Harness(await server.create())
        await h.start()
        await h.slash("mesa dj", user=ADMIN, miembro=GM)
        server.stop()
        refused = await h.slash("dune impulso añadir", user=GM, cantidad=2, locale="en-US")
        assert refused.ephemeral
        assert "I can't reach the table's database right now." in refused.text
        await h.close()
    finally:
        server.stop()
