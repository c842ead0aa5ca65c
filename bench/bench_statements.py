"""SQL statements per interaction of ordinary play, and how often each reads the table's row.

Run: ``python bench/bench_statements.py``. A bot on a fresh SQLite file, through the
interaction harness; SQLite's own trace callback (``sqlite3.Connection.set_trace_callback``,
called once per statement the library runs, on the connection's thread) counts every
statement between feeding an interaction and the bot having finished with it, live-board
redraws included (a board is posted first, as a table playing has one). Counted, not timed:
the figures are the same on a busy machine and on an idle one, so a change's before and
after compare exactly (issue 29's budget: at most 10 statements and one read of ``tables``).

Each row is measured once the table is warm (the same interaction run once before, so
first-use work such as creating a pool's row is not what is counted), as a table in the
middle of a session sees it.
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.harness import Harness, Reply
from tests.support.payloads import GM

# BEGIN/COMMIT and PRAGMAs are statements SQLite runs too; they are counted apart.
CONTROL = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b", re.IGNORECASE)
READS_TABLES = re.compile(r"\bFROM\s+tables\b", re.IGNORECASE)


@dataclass
class Trace:
    """Statements seen since the last :meth:`take`."""

    statements: list[str] = field(default_factory=list)

    def __call__(self, sql: str) -> None:
        self.statements.append(sql)

    def take(self) -> list[str]:
        taken, self.statements = self.statements, []
        return taken


@dataclass(frozen=True)
class Count:
    what: str
    data: int
    control: int
    selects: int
    tables: int

    def row(self) -> str:
        return f"| {self.what} | {self.data} | {self.selects} | {self.tables} | {self.control} |"


def count(what: str, statements: list[str]) -> Count:
    data = [s for s in statements if not CONTROL.match(s)]
    return Count(
        what,
        data=len(data),
        control=len(statements) - len(data),
        selects=sum(1 for s in data if s.lstrip().upper().startswith(("SELECT", "WITH"))),
        tables=sum(1 for s in data if READS_TABLES.search(s)),
    )


def first(reply: Reply, prefix: str) -> str:
    return next(c for c in reply.messages[0].custom_ids if c.startswith(prefix))


async def measure(h: Harness, trace: Trace, what: str, action: Callable[[], Awaitable[Any]]) -> Count:
    """Run ``action`` once to warm up, then once counted (boards settled in both)."""
    assert h.bot is not None
    await action()
    await h.bot.boards.settled()
    trace.take()
    reply = await action()
    await h.bot.boards.settled()
    assert not reply.ephemeral, f"{what} was refused: {reply.text}"
    return count(what, trace.take())


async def play(h: Harness, trace: Trace) -> list[Count]:
    """One table per system (a channel each), a board each, then ordinary play."""
    counts: list[Count] = []
    await h.slash("mesa dj", user=GM)
    await h.slash("mesa tablero", user=GM)

    async def system(name: str) -> None:
        await h.slash("mesa sistema", user=GM, sistema=name)

    await system("dune")
    await h.slash("dune aventura", user=GM)
    counts.append(await measure(h, trace, "`/mesa estado`", lambda: h.slash("mesa estado")))
    counts.append(await measure(h, trace, "`/tirar 1d20+5`", lambda: h.slash("tirar", expresion="1d20+5")))
    counts.append(
        await measure(
            h,
            trace,
            "`/dune tirada`",
            lambda: h.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1),
        )
    )

    async def save_impulso() -> Reply:
        h.script(1, 1)
        roll = await h.slash("dune tirada", habilidad=6, motivacion=6, dificultad=0)
        assert h.bot is not None
        h.bot.rng = random.Random(1)
        trace.take()
        return await h.click(roll.messages[0], first(roll, "dune:guardar"))

    counts.append(await measure(h, trace, "Dune *Guardar Impulso* press", save_impulso))
    counts.append(
        await measure(h, trace, "`/dune impulso gastar` (pool spend)", lambda: h.slash("dune impulso gastar"))
    )
    await system("donjon")
    counts.append(
        await measure(h, trace, "`/donjon prueba`", lambda: h.slash("donjon prueba", dados=5, contra=4))
    )
    await system("dnd5e")
    counts.append(
        await measure(
            h, trace, "`/dnd prueba`", lambda: h.slash("dnd prueba", modificador=3, habilidad="sigilo", cd=12)
        )
    )
    counts.append(
        await measure(
            h,
            trace,
            "`/dnd ataque`",
            lambda: h.slash("dnd ataque", bonificador=5, ca=14, **{"daño": "1d8+3"}),
        )
    )
    await system("mediana")
    counts.append(
        await measure(
            h,
            trace,
            "`/mediana tirada`",
            lambda: h.slash("mediana tirada", atributo=5, habilidad=4, dificultad=12),
        )
    )
    return counts


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        h = Harness(Path(folder) / "statements.db")
        await h.start()
        assert h.bot is not None
        trace = Trace()
        # The sqlite3 connection under aiosqlite; the callback runs on its thread.
        raw = h.bot.store.db.connection._conn
        await h.bot.store.db.connection._execute(raw.set_trace_callback, trace)
        counts = await play(h, trace)
        await h.close()
    print("| interaction | SQL statements | of them SELECT | reads of `tables` | BEGIN/COMMIT/PRAGMA |")
    print("| --- | --- | --- | --- | --- |")
    for c in counts:
        print(c.row())


if __name__ == "__main__":
    asyncio.run(main())
