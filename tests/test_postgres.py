"""The PostgreSQL server the tests start (tests/support/postgres.py) is real and isolated."""

import asyncpg

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
