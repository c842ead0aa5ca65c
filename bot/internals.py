"""Every reach into a library's private internals, in one place.

discord.py and aiosqlite have no public API for four things the bot needs; each function
here is the one use of a private name, and ``tests/bot/test_internals.py`` checks each still
exists and behaves, so a library upgrade that breaks one fails the suite instead of the bot.
(d20's ``random`` stays in ``rules/expression.py``: ``rules/`` may not import ``bot/``, and
the rolls must stay seeded when the rules are used alone. Its test is beside this one's.)
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Container
from typing import Any, TypeVar

import aiosqlite
import discord

T = TypeVar("T")

# The names discord.py gives the tasks it starts for an interaction: a slash command's
# (``app_commands/tree.py``) and a button's, select's or form's (``ui/view.py``, ``ui/modal.py``).
IN_FLIGHT_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-")


def in_flight_interactions() -> list[asyncio.Task[Any]]:
    """The interactions discord.py is still running (besides the caller): closing waits for
    them. discord.py keeps no list of its own; its tasks are known only by their names."""
    current = asyncio.current_task()
    return [
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(IN_FLIGHT_TASK_PREFIXES)
    ]


def open_forms(client: discord.Client) -> Container[str]:
    """The custom_ids of the forms (modals) discord.py is waiting for: its own registry,
    which has no public accessor. A submission not in it was opened before a restart."""
    modals: Container[str] = client._connection._view_store._modals
    return modals


def connection_of(db: aiosqlite.Connection) -> sqlite3.Connection:
    """The sqlite3 connection aiosqlite drives on its thread, for the event loop to use while
    that thread has nothing of it to do (``bot.store.sqlite``; opened with
    ``check_same_thread=False``)."""
    connection: sqlite3.Connection = db._conn
    return connection


async def run_on_connection(db: aiosqlite.Connection, fn: Callable[..., T], *args: Any) -> T:
    """``fn(connection, *args)`` on aiosqlite's thread, queued as one job.

    aiosqlite hops to its thread once per statement; its private ``_execute`` queues a whole
    function instead, so no other coroutine's statement can slip between a transaction's
    (the version is pinned below 0.23). One thread runs the queue in order.
    """
    result: T = await db._execute(fn, connection_of(db), *args)
    return result
