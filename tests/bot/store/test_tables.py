"""A table's row as the store reads it (``bot.store.tables``): its settings, stored as JSON
text, are parsed once per text however often the row is read."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.models import TableSettings
from bot.store import Store

CHANNEL = 1


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each settings text parsed from now on."""
    texts: list[str] = []
    original = TableSettings.model_validate_json

    def counting(text: str, **kwargs: Any) -> TableSettings:
        texts.append(text)
        return original(text, **kwargs)

    monkeypatch.setattr(TableSettings, "model_validate_json", counting)
    return texts


async def test_a_tables_settings_are_parsed_once_however_often_it_is_read(
    store: Store, parsed: list[str]
) -> None:
    settings = TableSettings(roll_odds=False, donjon_sides=8)  # type: ignore[call-arg]
    await store.set_settings(CHANNEL, 5, settings)
    await store.set_settings(CHANNEL + 1, 5, settings)
    context = await store.context(CHANNEL, 5)
    tables = [await store.table(CHANNEL), context.own, await store.table(CHANNEL + 1)]
    assert [t.settings if t else None for t in tables] == [settings] * 3
    assert len(parsed) <= 1


async def test_changed_settings_are_read_as_changed(store: Store) -> None:
    await store.set_settings(CHANNEL, 5, TableSettings(roll_odds=False))
    assert (await store.table_or_default(CHANNEL, 5)).settings.roll_odds is False
    await store.set_settings(CHANNEL, 5, TableSettings(roll_odds=True, board_hides_threat=True))
    read = (await store.table_or_default(CHANNEL, 5)).settings
    assert (read.roll_odds, read.board_hides_threat) == (True, True)


async def test_a_read_no_timer_listens_to_is_the_adapters_own(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every read and transaction passes through the store's timing: with no timer (no
    /metrics) it is the adapter's awaitable itself, not one more coroutine around it; with
    one, the time is told."""
    sql = "SELECT channel_id FROM tables WHERE channel_id = :channel"
    pending = store.db.fetch_all(sql, {"channel": 1})
    monkeypatch.setattr(store.db, "fetch_all", lambda *args: pending)
    assert store.timers == []
    assert store._fetchall(sql, {"channel": 1}) is pending  # type: ignore[attr-defined]
    assert await pending == []
    told: list[float] = []
    store.timers.append(told.append)
    monkeypatch.setattr(store.db, "fetch_all", lambda *args: asyncio.sleep(0, result=[]))
    assert await store._fetchall(sql, {"channel": 1}) == []  # type: ignore[attr-defined]
    assert len(told) == 1
