"""The shared answer helpers: what discord.py keeps after an answer with buttons."""

from __future__ import annotations

import asyncio

from tests.support.harness import Harness
from tests.support.payloads import ADMIN, CHANNEL_ID, GM


def view_timers() -> list[asyncio.Task[object]]:
    return [
        t
        for t in asyncio.all_tasks()
        if not t.done() and t.get_coro().__qualname__.endswith("__timeout_task_impl")  # type: ignore[union-attr]
    ]


async def test_private_buttons_leave_no_view_or_timer_behind(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    await harness.slash("mesa sistema", user=GM, sistema="dune")
    asked = await harness.slash("mesa reiniciar", user=GM)
    assert asked.ephemeral and f"mesa:reiniciar:no:{CHANNEL_ID}" in asked.message.custom_ids
    assert harness.bot is not None
    views = harness.bot._connection._view_store
    assert view_timers() == []
    assert not views._views and not views._synced_message_views
    await harness.click(asked.message, f"mesa:reiniciar:no:{CHANNEL_ID}", user=GM)
    assert "No se ha reiniciado nada" in harness.current(asked.message).data["embeds"][0]["title"]
