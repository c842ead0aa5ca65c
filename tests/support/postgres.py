"""A throwaway PostgreSQL server for the tests: one ``initdb`` a session, a database a test.

The server lives in a temporary directory, listens on 127.0.0.1 (a free port) and on a
Unix socket in that directory, trusts local connections and skips every fsync: the data
is thrown away, and durability is PostgreSQL's job, not ours to re-test. ``initdb`` and
``postgres`` refuse to run as root, so as root they run as the ``postgres`` user (created
when missing) on a directory that user owns.

A test gets a database of its own with ``CREATE DATABASE ... TEMPLATE``: copying a
template is milliseconds, a second ``initdb`` would be seconds.

The cluster lives in memory (``tests/support/memory.py``) where the machine has room: on
this machine's disk a database's creation cost the server 250 ms of CPU, the kernel's,
writing its catalog files (the suite creates about 140); in memory, 12 to 16 ms.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg

from tests.support.memory import in_memory

SUPERUSER = "tirada"
OS_USER = "postgres"
# The server's settings for a throwaway cluster: no fsync, no waiting for the WAL.
FAST = ("fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=200")
# The room a cluster in memory may take, with margin: initdb's 40 MB, the few databases
# alive at once (7.5 MB each) and the WAL's 16 MB segments, about 150 MB a cluster.
MEMORY_NEEDED = 1 << 30


class Unavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine (``apt-get install postgresql``)."""


def binary(name: str) -> str:
    """``name`` from PATH, else from Debian's versioned folder (the newest version)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_version)
    if not candidates:
        raise Unavailable(f"{name} not found: install PostgreSQL (apt-get install postgresql)")
    return candidates[-1]


def _version(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user() -> list[str]:
    """The command prefix that runs the server's binaries: root may not run them."""
    if os.geteuid() != 0:
        return []
    if subprocess.run(["id", "-u", OS_USER], capture_output=True, check=False).returncode != 0:
        subprocess.run(["useradd", "--system", "--no-create-home", OS_USER], check=True)
    return ["runuser", "-u", OS_USER, "--"]


def _strategy(admin: asyncpg.Connection) -> str:
    """FILE_COPY for a cluster in memory, where the server has strategies (PostgreSQL 15
    on): it copies the template's files and logs a few WAL records, where the default
    (WAL_LOG) writes every page of it to the WAL (4.3 MB a database, 600 MB in a whole run),
    which in memory stays there until a checkpoint. Older servers only copy files. A
    cluster on disk keeps the default, as before."""
    return " STRATEGY FILE_COPY" if admin.get_server_version().major >= 15 else ""


class Server:
    """One PostgreSQL cluster in a temporary directory, started once and stopped once."""

    def __init__(self, settings: tuple[str, ...] = FAST) -> None:
        self.settings = settings
        # Only a throwaway cluster (no fsync) goes to memory: a durable one's fsync must reach
        # a disk, or its commits would not cost what they cost (bench/bench_backends.py
        # measures exactly that, on disk as before).
        memory = in_memory(MEMORY_NEEDED) if "fsync=off" in settings else None
        self.in_memory = memory is not None
        self.root = Path(tempfile.mkdtemp(prefix="tirada-pg-", dir=memory))
        self.port = _free_port()
        self._prefix = _as_server_user()
        self._names = itertools.count(1)

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        if self._prefix:
            shutil.chown(self.root, OS_USER)
        data = str(self.data)
        self._run(binary("initdb"), "-D", data, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-sync")
        log = str(self.root / "server.log")
        self._run(binary("pg_ctl"), "-D", data, "-l", log, "-w", "-s", "start", "-o", self._options())

    def _options(self) -> str:
        settings = ("listen_addresses=127.0.0.1", f"port={self.port}", f"unix_socket_directories={self.root}")
        return " ".join(f"-c {s}" for s in (*settings, *self.settings))

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, Unavailable):
            self._run(binary("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "-s", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def _run(self, *command: str) -> None:
        result = subprocess.run([*self._prefix, *command], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise subprocess.CalledProcessError(result.returncode, command, result.stdout, result.stderr)

    def log(self) -> str:
        path = self.root / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    async def create(self, template: str = "template1") -> str:
        """A new empty database (a copy of ``template``); its URL."""
        name = f"t{next(self._names)}"
        admin = await asyncpg.connect(self.url())
        try:
            strategy = _strategy(admin) if self.in_memory else ""
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"{strategy}')
        finally:
            await admin.close()
        return self.url(name)

    async def drop(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    @contextlib.asynccontextmanager
    async def database(self) -> AsyncIterator[str]:
        url = await self.create()
        try:
            yield url
        finally:
            await self.drop(url)
