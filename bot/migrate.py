"""``python -m bot.migrate <sqlite file> <postgresql URL>``: move a table's books to PostgreSQL.

Stop the bot first (the file's lock says whether it runs). Everything is copied in one
transaction that commits only when every table's row count and every pool's ledger sum
match on both sides; a target that already holds rows is refused, untouched. One line,
Spanish then English, says what happened; the exit status says it to a script:
0 copied, 2 wrong arguments, 3 a database cannot be opened, 6 the bot runs on the file,
7 the target is not empty, 8 the two sides differ after the copy (nothing committed),
9 a row holds what PostgreSQL cannot store (a NUL), named so it can be mended.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import asyncpg

from bot.i18n import t
from bot.lockfile import AlreadyRunning, hold
from bot.settings import is_postgres
from bot.store.copy import Mismatch, NotEmpty, Unstorable, copy

EXIT_USAGE, EXIT_DATABASE, EXIT_RUNNING, EXIT_NOT_EMPTY, EXIT_MISMATCH, EXIT_UNSTORABLE = 2, 3, 6, 7, 8, 9


def both(key: str, **params: str) -> str:
    return f"{t('es', key, **params)} / {t('en', key, **params)}"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not is_postgres(argv[1]) or not Path(argv[0]).is_file():
        print(both("migrate.usage"), file=sys.stderr)
        return EXIT_USAGE
    source = Path(argv[0])
    try:
        lock = hold(source)
    except AlreadyRunning:
        print(both("startup.already_running", path=str(source)), file=sys.stderr)
        return EXIT_RUNNING
    try:
        copied = asyncio.run(copy(source, argv[1]))
    except NotEmpty as error:
        print(both("migrate.not_empty", table=error.table), file=sys.stderr)
        return EXIT_NOT_EMPTY
    except Mismatch as error:
        print(both("migrate.mismatch", detail=str(error)), file=sys.stderr)
        return EXIT_MISMATCH
    except Unstorable as error:
        print(
            both("migrate.unstorable", table=error.table, row=error.row, column=error.column), file=sys.stderr
        )
        return EXIT_UNSTORABLE
    except (OSError, sqlite3.Error, asyncpg.PostgresError) as error:
        print(both("migrate.cannot_open", reason=str(error)), file=sys.stderr)
        return EXIT_DATABASE
    finally:
        lock.close()
    print(both("migrate.done", rows=str(sum(copied.rows.values())), sums=str(copied.sums)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
