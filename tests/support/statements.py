"""Ordinary play, counted in SQL statements: the scenario ``bench/bench_statements.py``
prints and ``tests/test_statement_budget.py`` holds to issue 29's budget (at most 10 data
statements and one read of ``tables`` per interaction), so the figures and the test can
never describe two different plays.

SQLite's own trace callback (``sqlite3.Connection.set_trace_callback``, called once per
statement the library runs, on the connection's thread) counts every statement between
feeding an interaction and the bot having finished with it. A board is posted first, as a
table playing has one. Its redraw is its own unit of work (one per burst of changes, however
many interactions the burst holds), so it is counted apart: the board's wait is held shut
while the interaction runs and opened after. Each interaction is measured once the table is
warm (run once before, so first-use work such as creating a pool's row is not counted).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store import Store
from tests.support.harness import Harness, Reply
from tests.support.payloads import GM, PLAYER

# BEGIN/COMMIT and PRAGMAs are statements SQLite runs too; they are counted apart.
CONTROL = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b", re.IGNORECASE)
READS_TABLES = re.compile(r"\bFROM\s+tables\b", re.IGNORECASE)


@contextlib.contextmanager
def reads_of(store: Store) -> Iterator[list[str]]:
    """While open, the text of every read ``store`` runs outside a transaction (each part's
    ``_fetchall``): a test counts what one call or interaction read."""
    seen: list[str] = []
    read = store._fetchall  # type: ignore[attr-defined]

    async def counted(sql: str, params: Any = ()) -> Any:
        seen.append(sql)
        return await read(sql, params)

    store._fetchall = counted  # type: ignore[attr-defined]
    try:
        yield seen
    finally:
        store._fetchall = read  # type: ignore[attr-defined]


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
    """One interaction's statements, and its board redraw's."""

    what: str
    statements: list[str]
    board: list[str]

    def row(self) -> str:
        data, board = data_statements(self.statements), data_statements(self.board)
        selects = sum(1 for s in data if s.lstrip().upper().startswith(("SELECT", "WITH")))
        control = len(self.statements) - len(data)
        return (
            f"| {self.what} | {len(data)} | {selects} | {tables_read(data)} | {control} "
            f"| {len(board)} | {tables_read(board)} |"
        )


def data_statements(statements: list[str]) -> list[str]:
    return [s for s in statements if not CONTROL.match(s)]


def tables_read(statements: list[str]) -> int:
    return sum(1 for s in statements if READS_TABLES.search(s))


class Gate:
    """The boards' wait (``Boards.sleep``), shut while an interaction is counted."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        await self.opened.wait()


def first(reply: Reply, prefix: str) -> str:
    return next(c for c in reply.messages[0].custom_ids if c.startswith(prefix))


async def measure(h: Harness, trace: Trace, what: str, action: Callable[[], Awaitable[Any]]) -> Count:
    """Run ``action`` once to warm up, then once counted; the board redrawn after each
    (an action that sets up its own state first takes the trace itself before acting)."""
    assert h.bot is not None
    gate = Gate()
    h.bot.boards.sleep = gate
    await action()
    gate.opened.set()
    await h.bot.boards.settled()
    gate.opened.clear()
    trace.take()
    reply = await action()
    assert not reply.ephemeral, f"{what} was refused: {reply.text}"
    statements = trace.take()
    gate.opened.set()
    await h.bot.boards.settled()
    return Count(what, statements, trace.take())


async def play(h: Harness, trace: Trace) -> list[Count]:
    """One table per system (a channel each), a board each, then ordinary play."""
    counts: list[Count] = []
    await h.slash("mesa dj", user=GM)
    await h.slash("mesa tablero", user=GM)

    async def system(name: str) -> None:
        await h.slash("mesa sistema", user=GM, sistema=name)

    async def repeat(command: str, **options: Any) -> Reply:
        """*Repetir* on a roll just made (the roll itself not counted)."""
        roll = await h.slash(command, **options)
        trace.take()
        return await h.click(roll.messages[0], first(roll, "rep:repetir"))

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
    counts.append(await measure(h, trace, "Donjon *Repetir* press", lambda: repeat("donjon prueba", dados=5)))
    await system("dnd5e")
    counts.append(
        await measure(
            h, trace, "`/dnd prueba`", lambda: h.slash("dnd prueba", modificador=3, habilidad="sigilo", cd=12)
        )
    )

    async def inspiration() -> Reply:
        await h.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
        roll = await h.slash("dnd prueba", modificador=0, desventaja=True, cd=10)
        trace.take()
        return await h.click(roll.messages[0], first(roll, "dnd:insp0"))

    counts.append(await measure(h, trace, "D&D *Inspiración* press", inspiration))
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
    counts.append(
        await measure(
            h,
            trace,
            "Mediana *Repetir* press",
            lambda: repeat("mediana tirada", atributo=5, habilidad=4, dificultad=12),
        )
    )
    return counts


async def count_play(path: Path) -> list[Count]:
    """Ordinary play on a new bot over the SQLite file ``path``, each interaction counted."""
    h = Harness(path)
    await h.start()
    assert h.bot is not None
    trace = Trace()
    # The sqlite3 connection under aiosqlite (the callback runs where it does: on the event
    # loop, or on aiosqlite's thread), and the one that reads on the loop while the thread works.
    raw = h.bot.store.db.connection._conn
    await h.bot.store.db.connection._execute(raw.set_trace_callback, trace)
    h.bot.store.db.reader.connection.set_trace_callback(trace)
    try:
        return await play(h, trace)
    finally:
        await h.close()
