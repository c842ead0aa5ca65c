"""The stores the bot's tests open, closed after the test: ``store`` on each backend the
test is parametrised with (``db_target``, tests/conftest.py), ``sqlite_store`` on SQLite
alone (what tests only SQLite's adapter)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store


@pytest.fixture
async def store(db_target: Path | str) -> AsyncIterator[Store]:
    s = await Store.open(db_target)
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "store.db")
    yield s
    await s.close()
