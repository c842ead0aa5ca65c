"""``/healthz`` and ``/metrics`` (issue 32), through the harness's bot and its web server."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest
from asyncpg.connection import LoggedQuery

from bot.client import Tirada
from bot.store import SqlStore
from bot.store.sqlite import SqliteDatabase
from bot.web import health
from bot.web.server import Web
from tests.support.harness import Harness
from tests.support.payloads import GM, PLAYER
from tests.web.support import STARTED, serve, table, web_of


async def get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text(), response.headers["Content-Type"]


@pytest.fixture
async def served(harness: Harness) -> Harness:
    await serve(harness)
    return harness


def base(h: Harness) -> str:
    return web_of(h).base


async def test_health_is_503_with_the_reason_while_the_gateway_is_not_connected(served: Harness) -> None:
    status, body, kind = await get(base(served) + "/healthz")
    assert (status, kind) == (503, "application/json; charset=utf-8")
    assert '"reason": "gateway not ready"' in body


async def test_health_is_503_when_the_database_does_not_answer(
    served: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Connected, as tests/web/test_health_gateway.py connects a bot for real."""
    monkeypatch.setattr(health, "gateway_problem", lambda bot: None)
    assert served.bot is not None

    async def gone() -> int:
        raise OSError("disk gone")

    monkeypatch.setattr(served.bot.store, "schema_version", gone)
    status, body, _ = await get(base(served) + "/healthz")
    assert status == 503 and "database: OSError" in body


def sample(text: str, name: str, **labels: str) -> float:
    """One sample's value in Prometheus' text format (0 when absent)."""
    shown = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pattern = re.escape(name + (f"{{{shown}}}" if labels else "")) + r" ([0-9.e+-]+)"
    found = re.search(rf"^{pattern}$", text, re.MULTILINE)
    return float(found[1]) if found else 0.0


async def test_metrics_count_interactions_by_command_and_outcome(served: Harness) -> None:
    await table(served, "dune")
    await served.slash("dune impulso añadir", user=GM, cantidad=2)
    await served.slash("dune impulso añadir", user=PLAYER, cantidad=2)  # not the GM: refused
    served.script(4, 9)
    rolled = await served.slash("dune tirada", habilidad=6, motivacion=6)
    info = next(c for c in rolled.message.custom_ids if c.startswith("dune:info"))
    await served.click(rolled.message, info)
    status, text, kind = await get(base(served) + "/metrics")
    assert status == 200 and kind.startswith("text/plain; version=0.0.4")
    assert sample(text, "tirada_interactions_total", command="dune impulso añadir", outcome="answered") == 1
    assert sample(text, "tirada_interactions_total", command="dune impulso añadir", outcome="refused") == 1
    assert sample(text, "tirada_interactions_total", command="dune", outcome="answered") == 1
    assert sample(text, "tirada_interaction_seconds_count") == 6
    assert sample(text, "tirada_store_operation_seconds_count") > 10
    assert sample(text, "tirada_process") == 1
    assert sample(text, "tirada_shards") == 1
    assert sample(text, "process_resident_memory_bytes") > 0


async def test_metrics_count_board_edits_retention_runs_and_rate_limit_waits(served: Harness) -> None:
    assert served.bot is not None
    await table(served, "dune")
    await served.slash("mesa tablero", user=GM)
    await served.slash("dune impulso añadir", user=GM, cantidad=1)
    await served.bot.boards.settled()
    _, before, _ = await get(base(served) + "/metrics")
    await served.bot.prune()
    logging.getLogger("discord.http").warning(
        "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.", "PATCH", "/x", 1.0
    )
    _, text, _ = await get(base(served) + "/metrics")
    assert sample(text, "tirada_board_edits_total") >= 1
    assert sample(text, "tirada_board_drawings_total") >= 1
    runs = sample(text, "tirada_retention_runs_total", outcome="done")
    assert runs == sample(before, "tirada_retention_runs_total", outcome="done") + 1
    assert sample(text, "tirada_rate_limit_waits_total") == 1


async def test_a_closed_server_listens_no_more_and_hears_the_bot_no_more(harness: Harness) -> None:
    web = await serve(harness)
    assert harness.bot is not None
    await web.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(web.base + "/healthz")
    assert Web.of(harness.bot) is None
    assert web.overlays.touch not in harness.bot.store.listeners
    assert web.overlays.resync not in harness.bot.boards.resynced
    assert web.metrics.store.observe not in harness.bot.store.timers


async def test_every_store_operation_is_timed_on_both_backends(db_target: Path | str) -> None:
    """The store's reads and transactions reach ``/metrics`` whichever database it runs
    on: each one the store times is one observation, and they take time."""
    harness = Harness(db_target)
    await harness.start()
    web = await serve(harness)
    try:
        assert harness.bot is not None
        timed: list[float] = []
        harness.bot.store.timers.append(timed.append)
        # Read in the same step as the count (a scrape's await would let a board's read in).
        before = web.metrics.text().decode()
        await table(harness, "dune")
        await harness.slash("dune impulso añadir", user=GM, cantidad=2)
        harness.bot.store.timers.remove(timed.append)
        after = web.metrics.text().decode()
        count = "tirada_store_operation_seconds_count"
        assert timed and sample(after, count) - sample(before, count) == len(timed)
        total = "tirada_store_operation_seconds_sum"
        # Each timer reads the clock itself (bot/store/base.py), the histogram's first.
        assert 0 < sample(after, total) - sample(before, total) <= sum(timed)
        assert await harness.pool("impulso") == 2
    finally:
        STARTED.remove(web)
        await web.close()
        await harness.close()


class Witness:
    """The statements the database's driver itself saw: SQLite's trace callback on both
    connections (the thread's and the loop's reader: one call a statement run, each row of
    an ``executemany`` included), asyncpg's query logger on every pooled connection (a
    simple query of several, ``BEGIN`` with its lock or the notifications with ``COMMIT``,
    counts each)."""

    def __init__(self) -> None:
        self.seen = 0

    def sqlite(self, sql: str) -> None:
        self.seen += 1

    def postgres(self, logged: LoggedQuery) -> None:
        self.seen += logged.query.count("; ") + 1


async def witnessed(db_target: Path | str, witness: Witness, monkeypatch: pytest.MonkeyPatch) -> Harness:
    """A harness bot whose driver reports each statement to ``witness``."""
    create_pool = asyncpg.create_pool

    async def logged(connection: asyncpg.Connection) -> None:
        connection.add_query_logger(witness.postgres)

    monkeypatch.setattr(asyncpg, "create_pool", lambda *a, **kw: create_pool(*a, init=logged, **kw))
    harness = Harness(db_target)
    bot = await harness.start()
    database = bot.store.db
    if isinstance(database, SqliteDatabase):
        await database.connection._execute(database.connection._conn.set_trace_callback, witness.sqlite)
        database.reader.connection.set_trace_callback(witness.sqlite)
    return harness


async def test_the_store_statements_are_counted_by_backend_as_the_driver_runs_them(
    db_target: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tirada_store_statements_total`` grows, for a known interaction, by exactly the
    statements the driver saw run, on SQLite and on PostgreSQL."""
    witness = Witness()
    harness = await witnessed(db_target, witness, monkeypatch)
    web = await serve(harness)
    try:
        assert harness.bot is not None
        backend = "sqlite" if isinstance(db_target, Path) else "postgresql"
        await table(harness, "dune")
        await harness.bot.boards.settled()
        name = "tirada_store_statements_total"
        before, seen = sample(web.metrics.text().decode(), name, backend=backend), witness.seen
        await harness.slash("dune impulso añadir", user=GM, cantidad=2)
        await harness.bot.boards.settled()
        after = sample(web.metrics.text().decode(), name, backend=backend)
        assert witness.seen - seen > 3
        assert after - before == witness.seen - seen
        assert await harness.pool("impulso") == 2
    finally:
        STARTED.remove(web)
        await web.close()
        await harness.close()


# The families issue 32 names, each by its name in the scrape (a # TYPE line each; a
# counter's is its name with ``_total``).
FAMILIES = {
    "tirada_interactions": "counter",
    "tirada_interaction_seconds": "histogram",
    "tirada_store_operation_seconds": "histogram",
    "tirada_store_statements": "counter",
    "tirada_board_edits": "counter",
    "tirada_rate_limit_waits": "counter",
    "tirada_gateway_latency_seconds": "gauge",
    "tirada_retention_runs": "counter",
    "tirada_process": "gauge",
    "tirada_shards": "gauge",
}


async def test_every_family_the_issue_names_is_scraped_failures_and_gateway_latency_included(
    served: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: SqlStore, channel_id: int, **_: Any) -> list[Any]:
        raise RuntimeError("disco roto")

    await table(served, "dune")
    monkeypatch.setattr(SqlStore, "players", broken)
    failed = await served.slash("mesa estado")
    assert "referencia" in failed.text, failed.text
    monkeypatch.setattr(Tirada, "latency", property(lambda bot: 0.042))
    _, text, _ = await get(base(served) + "/metrics")
    for name, kind in FAMILIES.items():
        assert re.search(rf"^# TYPE {name}(_total)? {kind}$", text, re.MULTILINE), name
    assert sample(text, "tirada_interactions_total", command="mesa estado", outcome="failed") == 1
    assert sample(text, "tirada_gateway_latency_seconds", shard="0") == 0.042


async def test_health_is_503_when_the_database_connection_is_cut_under_its_read(
    served: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """asyncpg reports a connection cut mid-query as an InternalClientError: the database
    failed (``bot.errors.DATABASE_ERRORS``), so health says so instead of failing itself."""
    monkeypatch.setattr(health, "gateway_problem", lambda bot: None)
    assert served.bot is not None

    async def cut() -> int:
        raise asyncpg.InternalClientError("cannot switch to state 15; another operation is in progress")

    monkeypatch.setattr(served.bot.store, "schema_version", cut)
    status, body, _ = await get(base(served) + "/healthz")
    assert status == 503 and "database: InternalClientError" in body
