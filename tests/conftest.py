"""Shared fixtures: a started harness on a temporary database file (never :memory:,
so WAL and reopening behave as in production), and a PostgreSQL server for the session."""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.support.harness import Harness
from tests.support.postgres import Server, Unavailable


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path / "tirada.db")
    await h.start()
    yield h
    await h.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a store lives, once per backend: a test taking it runs on SQLite and on
    PostgreSQL (the server starts only when a PostgreSQL test first needs it)."""
    if request.param == "sqlite":
        return tmp_path / "tirada.db"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(scope="session")
def postgres() -> Iterator[Server]:
    """One PostgreSQL server for the whole session, started on first use.

    Without the server binaries the PostgreSQL tests are skipped on a workstation and fail
    in CI (``CI=true``), where ``.ci/run`` installs them: a backend nobody tested is not done.
    """
    server = Server()
    try:
        server.start()
    except (Unavailable, subprocess.CalledProcessError) as error:
        server.stop()
        detail = getattr(error, "stderr", "") or str(error)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL could not start: {detail}")
        pytest.skip(f"PostgreSQL could not start: {detail}")
    yield server
    server.stop()


@pytest.fixture
async def postgres_url(postgres: Server) -> AsyncIterator[str]:
    """A fresh, empty database on the session's server, dropped after the test."""
    async with postgres.database() as url:
        yield url
