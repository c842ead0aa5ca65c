"""One process per SQLite file: an exclusive lock on a file beside the database.

SQLite itself would let a second process open the file and then fail its writes with
"database is locked" mid-game; refusing at start says what is wrong before anyone plays.
The kernel drops the lock when the process dies, even by SIGKILL, so a crash never leaves
a stale lock behind and the file is never deleted (deleting a lock file races).
"""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO


class AlreadyRunning(Exception):
    """Another process holds the lock of this database file."""

    def __init__(self, database: Path) -> None:
        super().__init__(str(database))
        self.database = database


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


def hold(database: Path) -> IO[bytes]:
    """Lock ``database`` for this process; keep the returned file open as long as it runs."""
    database.parent.mkdir(parents=True, exist_ok=True)
    handle = lock_path(database).open("ab")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise AlreadyRunning(database) from None
    return handle
