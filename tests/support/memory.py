"""Where the tests' throwaway files go: memory (``/dev/shm``) when the machine has room.

This machine's disk costs the kernel more CPU than the work itself for the files the tests
make and throw away: a PostgreSQL database's creation took the server 250 ms of CPU on it
and 12 to 16 ms in memory; the harness's tests (a SQLite database each) 22 to 24 s of CPU
against 19 s (tests/README.md, "The twelfth session"). Nothing written there is meant to
survive the session.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

MEMORY = Path("/dev/shm")


def in_memory(needed: int) -> Path | None:
    """``/dev/shm`` when it is a writable folder with ``needed`` bytes free, else None (the
    usual temporary folder, on disk). Docker gives /dev/shm 64 MB: too little, so disk."""
    try:
        room = shutil.disk_usage(MEMORY).free
    except OSError:
        return None
    return MEMORY if room >= needed and os.access(MEMORY, os.W_OK) else None


def filesystem(path: Path) -> str:
    """The type of the filesystem ``path`` is on (its longest mount point), for the tests
    that check where these files went."""
    mounts = [line.split()[1:3] for line in Path("/proc/mounts").read_text().splitlines()]
    above = [(point, kind) for point, kind in mounts if path.resolve().is_relative_to(point)]
    return max(above, key=lambda mount: len(mount[0]))[1]
