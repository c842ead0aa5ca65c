"""The store the bot's tests open: on each backend the test is parametrised with
(``db_target``, tests/conftest.py), closed after the test."""

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
