"""The store's foundation types: its clock, how it waits, and the error a replaced
database file raises."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
Sleep = Callable[[float], Awaitable[None]]


def utc_now() -> datetime:
    return datetime.now(UTC)


class DatabaseReplaced(sqlite3.DatabaseError):
    """The file at the database's path is no longer the one this connection writes (it was
    deleted or replaced while the bot ran): anything written now would be lost on restart."""
