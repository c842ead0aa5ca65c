"""Hearing the changes other processes make to the same PostgreSQL database (LISTEN/NOTIFY).

Several shard processes share one database (docs/escalar.md); a table's live board is
edited by the process holding its guild's shard (``Settings.holds_guild``), but a change to
the table may be made by another (a GM channel served by another shard, ``python -m
bot.migrate``, a second bot during a rolling restart). So every write that changes a table
calls ``pg_notify`` inside its own transaction (:func:`notification`): PostgreSQL delivers a
notification only when that transaction commits, never for one rolled back, and a
transaction announcing one table twice is delivered once. Each process keeps one connection
of its own listening (:class:`Follower`) and hands each table's channel id to the store's
listeners, the boards among them, like its own changes, but as a change of anything
(``bot.store.touched.ANYTHING``): the notification names the table alone, so a board that
would skip another write of this process's redraws on one heard.

Why ``pg_notify`` in the store's transactions rather than triggers on the tables: the
processes are told of exactly the changes this process's own listeners are told of (one
place decides what is a change: where the store calls ``_changed``), with no migration and
no notification for bookkeeping writes (a message id noted, pruning).

The listening connection can drop (the server restarts, a network cuts it): it is opened
again with growing waits, logged, and every board is then redrawn (``missed``), since what
was announced meanwhile was lost. A connection silent without closing (a network that
dropped it without a word) is found by a ping. The boards' five-minute sweep stays the
safety net underneath all of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.connection import Sleep

# A connection lent by the pool: every statement runs on one (the adapter's, and the
# notification's inside its transaction).
Db: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

log = logging.getLogger(__name__)

CHANNEL = "tirada_tabla"
# How the listening connection shows in pg_stat_activity.
APPLICATION = "tirada-listen"
# Waits between attempts to open the listening connection again, the last one repeated.
BACKOFF = (1.0, 2.0, 5.0, 15.0, 60.0)
# How often a quiet listening connection is checked, and how long the check may take.
PING_SECONDS, PING_TIMEOUT = 60.0, 10.0
CONNECT_TIMEOUT = 10.0
# The name of every task listening makes (background work, never an interaction's).
TASK_PREFIX = "tirada-listen"


def notification(channel_id: int, origin: str) -> str:
    """The statement that tells every process, when the write's transaction commits, that
    the table changed; ``origin`` names this store, so it does not hear its own changes
    twice. Sent with the ``COMMIT`` as one simple query (``bot.store.postgres``), which
    takes no parameters: its values are written as literals, quoted."""
    return f"SELECT pg_notify({literal(CHANNEL)}, {literal(f'{int(channel_id)} {origin}')})"


def literal(text: str) -> str:
    """``text`` as a PostgreSQL string literal (``standard_conforming_strings``, on since
    PostgreSQL 9.1: only the quote is doubled)."""
    return "'" + text.replace("'", "''") + "'"


class Follower:
    """One listening connection, kept open while the store is: each table another store
    announces goes to ``heard``; ``missed`` is called each time listening (re)starts."""

    def __init__(
        self,
        url: str,
        origin: str,
        heard: Callable[[int], None],
        missed: Callable[[], None],
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.url = url
        self.origin = origin
        self.heard = heard
        self.missed = missed
        # Injectable so tests decide when a wait ends (no wall-clock tests).
        self.sleep = sleep
        self._task = asyncio.create_task(self._run(), name=TASK_PREFIX)

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _run(self) -> None:
        """Listen; when the connection fails or is lost, log it and listen again, waiting
        longer after each failure in a row."""
        failures = 0
        while True:
            try:
                connection = await asyncpg.connect(
                    self.url, timeout=CONNECT_TIMEOUT, server_settings={"application_name": APPLICATION}
                )
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                log.warning("cannot listen to other processes' changes; trying again", exc_info=True)
            else:
                try:
                    await connection.add_listener(CHANNEL, self._notified)
                    self.missed()
                    failures = 0
                    await self._hold(connection)
                except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                    log.warning("lost the connection listening to other processes' changes", exc_info=True)
                finally:
                    connection.terminate()
            failures += 1
            await self.sleep(BACKOFF[min(failures, len(BACKOFF)) - 1])

    async def _hold(self, connection: asyncpg.Connection) -> None:
        """Return (or raise) once the connection is gone: at once when it closes, at the
        next ping when it went silent."""
        closed = asyncio.Event()
        connection.add_termination_listener(lambda _connection: closed.set())
        while not closed.is_set():
            pause = asyncio.create_task(_waited(self.sleep(PING_SECONDS)), name=f"{TASK_PREFIX}-ping")
            waiting = asyncio.create_task(closed.wait(), name=f"{TASK_PREFIX}-closed")
            try:
                await asyncio.wait((pause, waiting), return_when=asyncio.FIRST_COMPLETED)
            finally:
                pause.cancel()
                waiting.cancel()
            if not closed.is_set():
                await connection.execute("SELECT 1", timeout=PING_TIMEOUT)
        log.warning("the connection listening to other processes' changes closed")

    def _notified(self, _connection: object, _pid: int, _channel: str, payload: object) -> None:
        channel_id, _, origin = str(payload).partition(" ")
        if origin != self.origin and channel_id.isdigit():
            self.heard(int(channel_id))


async def _waited(awaitable: Awaitable[None]) -> None:
    """An awaitable as a coroutine, so that it can be a named task."""
    await awaitable
