"""SQL statements per interaction of ordinary play, and how often each reads the table's row.

Run: ``python bench/bench_statements.py`` (``--statements`` prints each interaction's
statements too). The play and the counting are ``tests/support/statements.py``'s, which
``tests/test_statement_budget.py`` holds to issue 29's budget; counted, not timed, so the
figures are the same on a busy machine and on an idle one.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

# The tree measured is the one the script is run from.
sys.path.insert(0, str(Path.cwd()))

from tests.support.statements import count_play


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        counts = await count_play(Path(folder) / "statements.db")
    if "--statements" in sys.argv:
        for c in counts:
            print(f"## {c.what}", *c.statements, "-- board:", *c.board, sep="\n    ")
    print(
        "| interaction | SQL statements | of them SELECT | reads of `tables` | BEGIN/COMMIT/PRAGMA "
        "| board redraw: statements | board redraw: reads of `tables` |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for c in counts:
        print(c.row())


if __name__ == "__main__":
    asyncio.run(main())
