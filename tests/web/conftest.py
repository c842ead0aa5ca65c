"""Every web server a test starts is closed after it, before its bot is."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.web.support import STARTED


@pytest_asyncio.fixture(autouse=True)
async def close_servers() -> AsyncIterator[None]:
    yield
    while STARTED:
        await STARTED.pop().close()
