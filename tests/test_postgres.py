"""The PostgreSQL server the tests start (tests/support/postgres.py) is real and isolated."""

import os
import shutil
import tempfile
from pathlib import Path

import asyncpg
import pytest

from tests.support import postgres as support
from tests.support.memory import filesystem
from tests.support.postgres import Server


async def test_each_test_gets_an_empty_database_of_its_own(postgres: Server, postgres_url: str) -> None:
    other = await postgres.create()
    try:
        first = await asyncpg.connect(postgres_url)
        second = await asyncpg.connect(other)
        await first.execute("CREATE TABLE t (x int)")
        tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        assert await first.fetchval(tables) == 1
        assert await second.fetchval(tables) == 0
        assert await first.fetchval("SHOW fsync") == "off"
        await first.close()
        await second.close()
    finally:
        await postgres.drop(other)


def test_the_cluster_lives_in_memory_where_there_is_room(
    postgres: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database's creation on this machine's disk cost the server 250 ms of CPU; in memory,
    15 ms. Without room in ``/dev/shm`` a cluster goes to the temporary folder."""
    memory = Path("/dev/shm")
    if not memory.is_dir() or shutil.disk_usage(memory).free < 1 << 30 or not os.access(memory, os.W_OK):
        pytest.skip("no room for a cluster in /dev/shm here")
    assert filesystem(postgres.root) == "tmpfs"
    monkeypatch.setattr(support, "MEMORY_NEEDED", 1 << 62)
    elsewhere = Server()
    shutil.rmtree(elsewhere.root)
    assert elsewhere.root.parent == Path(tempfile.gettempdir())


def test_a_durable_cluster_stays_on_disk() -> None:
    """A cluster that fsyncs (bench/bench_backends.py's) is not put in memory, where its
    commits would cost nothing of what they cost."""
    durable = Server(settings=("fsync=on", "synchronous_commit=on", "full_page_writes=on"))
    shutil.rmtree(durable.root)
    assert not durable.in_memory
    assert durable.root.parent == Path(tempfile.gettempdir())


async def test_a_new_database_is_copied_as_files_not_through_the_wal(postgres: Server) -> None:
    """WAL_LOG (the default) writes every page of the template to the WAL (4.3 MB a
    database), which in memory stays there until a checkpoint; FILE_COPY logs a few records."""
    if not postgres.in_memory:
        pytest.skip("a cluster on disk keeps the default strategy")
    admin = await asyncpg.connect(postgres.url())
    try:
        if admin.get_server_version().major < 15:
            pytest.skip("a server without CREATE DATABASE strategies copies files")
        before = await admin.fetchval("SELECT pg_current_wal_lsn()")
        url = await postgres.create()
        written = await admin.fetchval("SELECT pg_current_wal_lsn() - $1::pg_lsn", before)
        await postgres.drop(url)
    finally:
        await admin.close()
    assert written < 1 << 20, written
