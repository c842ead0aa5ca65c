"""A realistic load on many tables at once, and the invariants that must hold after it.

Each table is a channel playing one of the four systems, with a GM and five players
firing a mix of what a session does: rolls of every system, Impulso spends and saves,
Amenaza spends, Ley de los Éxitos allocations, initiative steps, generic rolls. Batches of
interactions are fed at once, so they interleave on the event loop and the database like
real traffic. ``bench/bench_load.py`` reports the figures; ``tests/test_load.py`` runs a
small load in CI and checks the invariants.
"""

from __future__ import annotations

import asyncio
import random
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from tests.support.harness import Harness, Reply
from tests.support.payloads import MANAGE_PERMISSIONS, PLAYER_PERMISSIONS, User

SYSTEMS = ("dune", "donjon", "dnd5e", "mediana")
BASE_CHANNEL = 950_000_000_000_000_000
CAPS = {"impulso": 6, "determinacion": 3, "inspiracion": 1}

Action = Callable[[], Awaitable[Reply]]


@dataclass
class Table:
    channel_id: int
    system: str
    gm: User
    players: list[User]


@dataclass
class Report:
    """What the load measured and broke, kept per interaction as it comes: a latency and
    any violation, not the replies themselves (at 2,000 tables those would be most of the
    process's memory)."""

    tables: int
    latencies: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, reply: Reply) -> None:
        """Every interaction got exactly one answer, and none was "something failed"."""
        self.latencies.append(reply.latency)
        if len(reply.callbacks) != 1:
            self.problems.append(f"{len(reply.callbacks)} answers to one interaction: {reply.calls[:2]}")
        if "Algo ha fallado" in str(reply.calls):
            self.problems.append(f"unexpected error: {reply.calls[:1]}")

    @property
    def interactions(self) -> int:
        return len(self.latencies)

    @property
    def latencies_ms(self) -> list[float]:
        return sorted(1000 * latency for latency in self.latencies)

    def percentile(self, q: float) -> float:
        values = self.latencies_ms
        return values[min(int(q * len(values)), len(values) - 1)]

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies_ms)

    @property
    def rate(self) -> float:
        return self.interactions / self.seconds


def make_tables(count: int, players: int = 5) -> list[Table]:
    tables = []
    for index in range(count):
        base = 960_000_000_000_000_000 + index * 10
        gm = User(base, f"DJ{index}", MANAGE_PERMISSIONS)
        crew = [User(base + 1 + p, f"J{index}-{p}", PLAYER_PERMISSIONS) for p in range(players)]
        tables.append(Table(BASE_CHANNEL + index, SYSTEMS[index % len(SYSTEMS)], gm, crew))
    return tables


async def setup_tables(h: Harness, tables: list[Table], boards: bool = False) -> None:
    for table in tables:
        await h.slash("mesa dj", user=table.gm, channel_id=table.channel_id)
        await h.slash("mesa sistema", user=table.gm, channel_id=table.channel_id, sistema=table.system)
        if boards:
            await h.slash("mesa tablero", user=table.gm, channel_id=table.channel_id)


def first_button(reply: Reply, prefix: str) -> str | None:
    if not reply.messages:
        return None
    return next((c for c in reply.messages[0].custom_ids if c.startswith(prefix)), None)


async def session_step(h: Harness, table: Table, rng: random.Random) -> list[Reply]:
    """One burst of play at a table: a roll and what its players do with it."""
    player = rng.choice(table.players)
    ch = table.channel_id
    replies: list[Reply] = []
    if table.system == "dune":
        roll = await h.slash(
            "dune tirada", user=player, channel_id=ch, habilidad=6, motivacion=6, dificultad=1
        )
        replies.append(roll)
        for prefix in ("dune:info", "dune:guardar"):
            button = first_button(roll, prefix)
            if button:
                replies.append(await h.click(roll.messages[0], button, user=player))
        replies.append(await h.slash("dune impulso gastar", user=rng.choice(table.players), channel_id=ch))
        replies.append(await h.slash("dune amenaza añadir", user=player, channel_id=ch, cantidad=2))
        replies.append(await h.slash("dune amenaza gastar", user=table.gm, channel_id=ch, uso="casa_rival"))
    elif table.system == "donjon":
        test = await h.slash("donjon prueba", user=player, channel_id=ch, dados=5, contra=4)
        replies.append(test)
        bank = first_button(test, "donjon:ley:dado")
        if bank:
            for who in (player, table.gm):
                reply = await h.click(h.current(test.messages[0]), bank, user=who)
                replies.append(reply)
                if not reply.ephemeral:
                    break
    elif table.system == "dnd5e":
        replies.append(
            await h.slash("dnd prueba", user=player, channel_id=ch, modificador=3, habilidad="sigilo", cd=12)
        )
        replies.append(
            await h.slash("dnd ataque", user=player, channel_id=ch, bonificador=5, ca=14, **{"daño": "1d8+3"})
        )
    else:
        replies.append(
            await h.slash(
                "mediana tirada", user=player, channel_id=ch, atributo=5, habilidad=4, dificultad=12
            )
        )
    replies.append(await h.slash("tirar", user=player, channel_id=ch, expresion="2d20kh1+4"))
    return replies


async def initiative_step(h: Harness, table: Table) -> list[Reply]:
    """Open a Donjon combat, two join by the slash-less form, and the countdown moves."""
    if table.system != "donjon":
        return []
    panel = await h.slash("donjon iniciativa", user=table.gm, channel_id=table.channel_id)
    replies = [panel]
    for player in table.players[:2]:
        form = await h.click(
            h.current(panel.messages[0]), first_button(panel, "donjon:ini:unirme") or "", user=player
        )
        replies.append(form)
        replies.append(
            await h.submit(form.modal_id, {"dados": ["3"]}, user=player, message=h.current(panel.messages[0]))
        )
    step = next((c for c in h.current(panel.messages[0]).custom_ids if "siguiente" in c), None)
    if step:
        replies.append(await h.click(h.current(panel.messages[0]), step, user=table.gm))
    return replies


async def run_load(
    h: Harness, tables: list[Table], rounds: int = 2, batch: int = 25, seed: int = 1, boards: bool = False
) -> Report:
    """Set the tables up (with a live board each, when ``boards``), then play ``rounds``
    bursts at every table, ``batch`` tables at once."""
    rng = random.Random(seed)
    await setup_tables(h, tables, boards)
    report = Report(len(tables))
    loop = asyncio.get_running_loop()
    started = loop.time()
    for round_ in range(rounds):
        for start in range(0, len(tables), batch):
            group = tables[start : start + batch]
            steps = [session_step(h, table, random.Random(rng.random())) for table in group]
            if round_ == 0:
                steps += [initiative_step(h, table) for table in group]
            for replies in await asyncio.gather(*steps):
                for reply in replies:
                    report.add(reply)
            h.discord.forget()
    report.seconds = loop.time() - started
    return report


async def check_invariants(h: Harness, tables: list[Table], report: Report) -> list[str]:
    """Every pool equals its ledger, no bound is broken, every interaction got exactly one
    answer. Returns the violations (empty when all hold)."""
    assert h.bot is not None
    problems = list(report.problems)
    for table in tables:
        sums = await h.bot.store.ledger_sums(table.channel_id)
        for pool in await h.bot.store.pools(table.channel_id):
            if sums.get((pool.pool, pool.owner_id), 0) != pool.value:
                problems.append(
                    f"{table.channel_id}: {pool} != ledger {sums.get((pool.pool, pool.owner_id))}"
                )
            if not 0 <= pool.value <= CAPS.get(pool.pool, 10**6):
                problems.append(f"{table.channel_id}: {pool} out of bounds")
        for (name, owner), total in sums.items():
            # A deleted sheet's pools too, which the table's pools leave out.
            if (value := await h.bot.store.pool(table.channel_id, name, owner)) != total:
                problems.append(f"{table.channel_id}: {name}/{owner} at {value} != ledger {total}")
    problems += await board_problems(h, tables)
    return problems


async def board_problems(h: Harness, tables: list[Table]) -> list[str]:
    """Once the boards have caught up, each Dune board shows its table's final Impulso."""
    assert h.bot is not None
    boards = h.bot.boards
    await boards.settled()
    problems = []
    for table in tables:
        spot = boards.spots.get(table.channel_id)
        if spot is None or table.system != "dune":
            continue
        shown = str(h.discord.messages[spot.message_id].data["embeds"])
        impulso = await h.bot.store.pool(table.channel_id, "impulso")
        if f"**{impulso}**/6" not in shown:
            problems.append(f"{table.channel_id}: the board does not show Impulso {impulso}")
    return problems
