"""Shared fixtures: a started harness on a temporary database file (never :memory:,
so WAL and reopening behave as in production)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.harness import Harness


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path / "tirada.db")
    await h.start()
    yield h
    await h.close()
