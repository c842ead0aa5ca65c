"""The PostgreSQL adapter's connections: a few asyncpg connections, each lent to one statement
or one transaction at a time (``bot.store.postgres``).

Why not asyncpg's ``Pool``: lending one of its connections and taking it back costs the bot
about 40 µs of CPU (measured on this machine: a one-row read through it 70 µs, on a held
connection 32 µs; ``bench/README.md``, pg10), more than the statement itself, and the store
lends one three or four times an interaction. Its release runs in a task of its own
(``asyncio.shield``), through a reset and a timeout, and re-arms an inactivity timer; the
store needs none of it: its connections keep no session state (its advisory locks end with
their transaction, it sets nothing, listens elsewhere), a transaction has ended (``COMMIT``
or ``ROLLBACK``) before its connection comes back, and a connection whose statement failed
half way (cancelled, cut off) is closed, never lent again. Connections open as the load asks,
up to ``size``, and stay open; one the server closed is dropped when next met.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg

T = TypeVar("T")


async def connect(url: str) -> asyncpg.Connection:
    """A new connection (the one place the store opens them; the benchmarks' counters wrap it)."""
    return await asyncpg.connect(url)


class Connections:
    """Up to ``size`` connections to ``url``; a caller past them waits for one, in turn."""

    def __init__(self, url: str, size: int) -> None:
        self._url = url
        self._size = size
        self._idle: list[asyncpg.Connection] = []
        # Connections open, or being opened, lent or idle.
        self._open = 0
        # Callers waiting, each for a connection, or for None: a place came free, open one.
        self._waiting: deque[asyncio.Future[asyncpg.Connection | None]] = deque()
        self._closed = False

    async def take(self) -> asyncpg.Connection:
        """A connection for this caller alone until :meth:`give`."""
        while True:
            if self._closed:
                raise asyncpg.InterfaceError("the store's connections are closed")
            while self._idle:
                connection = self._idle.pop()
                if not connection.is_closed():
                    return connection
                self._open -= 1
            if self._open < self._size:
                return await self._opened()
            given = await self._wait()
            if given is not None:
                return given

    async def _opened(self) -> asyncpg.Connection:
        self._open += 1
        try:
            return await connect(self._url)
        except BaseException:
            self._freed()
            raise

    async def _wait(self) -> asyncpg.Connection | None:
        waiter: asyncio.Future[asyncpg.Connection | None] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            # Handed a connection (or a place) just as it was cancelled: it goes to the next.
            if waiter.done() and not waiter.cancelled():
                given = waiter.result()
                if given is None:
                    self._freed()
                else:
                    self.give(given)
            raise

    def give(self, connection: asyncpg.Connection) -> None:
        """Take back a connection :meth:`take` lent, to the first caller waiting or the idle
        ones; one that is closed, or that the store closed meanwhile, frees its place."""
        if connection.is_closed() or self._closed:
            connection.terminate()
            self._freed()
            return
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(connection)
                return
        self._idle.append(connection)

    def _freed(self) -> None:
        """A connection's place is free: the first caller waiting opens one."""
        self._open -= 1
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def on_one(self, statement: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """``statement`` on a lent connection. A connection it failed on is closed unless the
        server answered the failure (a ``PostgresError``: the exchange ended, the connection
        is as it was); otherwise it may be half way through a reply, or cancelling one."""
        connection = await self.take()
        try:
            result = await statement(connection)
        except asyncpg.PostgresError:
            raise
        except BaseException:
            connection.terminate()
            raise
        finally:
            self.give(connection)
        return result

    async def fetchrow(self, query: str, *args: Any) -> asyncpg.Record | None:
        return await self.on_one(lambda connection: connection.fetchrow(query, *args))

    async def fetch(self, query: str, *args: Any) -> list[asyncpg.Record]:
        return await self.on_one(lambda connection: connection.fetch(query, *args))

    async def fetchval(self, query: str, *args: Any) -> Any:
        return await self.on_one(lambda connection: connection.fetchval(query, *args))

    async def close(self) -> None:
        """Close the idle connections now, the lent ones as they come back; a caller waiting
        is told the store is closed."""
        self._closed = True
        idle, self._idle = self._idle, []
        for waiter in self._waiting:
            if not waiter.done():
                waiter.set_exception(asyncpg.InterfaceError("the store's connections are closed"))
        self._waiting.clear()
        for connection in idle:
            self._open -= 1
            try:
                await connection.close()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                connection.terminate()
