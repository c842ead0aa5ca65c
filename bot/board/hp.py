"""Hit points on the board's initiative, read from the store.

Where a combatant's hit points come from is one small function of each system's board
section (``cogs/<system>/board.py``), which builds an :class:`Hp`. How much of them everyone
sees is the table's setting (``TableSettings.board_hit_points``, docs/decisiones.md): nothing; the players'
numbers and, for everyone else, only a word (a monster's numbers are the GM's secret); or
every number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bot import systems
from bot.hidden import ledger_rows
from bot.i18n import Lang, t
from bot.models import BoardHitPoints, LedgerRow, Table
from bot.sheets.live import played
from bot.store import Store
from bot.systems import Data

# The states the rules name, said after a player's numbers too (each changes play): Mediana's
# malherido, inconsciente and muerto; D&D's inconsciente, estable and muerto.
NAMED_STATES = frozenset({"malherido", "inconsciente", "estable", "muerto"})


def hp_pools() -> frozenset[str]:
    """The pools that hold hit points (the live fields of a system whose are: a D&D sheet's
    PG and temporary PG, a player's Mediana wounds): the board's ledger lines would tell
    their numbers."""
    return frozenset(live.pool for system in systems.every() if system.hit_points for live in system.live)


@dataclass(frozen=True)
class Unit:
    """How a system's hit points read (PG, PV): the catalog keys of the numbers alone, with
    temporary points (None: the system has none) and with a named state."""

    plain: str
    temporary: str | None
    state: str


@dataclass(frozen=True)
class Hp:
    """A combatant's hit points as play has left them, and the word for their state
    (``board.hp.state.*``)."""

    current: int
    maximum: int
    state: str
    unit: Unit
    temporary: int = 0
    # D&D's death saving throws so far (successes, failures), told beside "Inconsciente".
    saves: tuple[int, int] = (0, 0)


def state_text(lang: Lang, hp: Hp) -> str:
    """The state's word, with the death saving throws counted when there are any."""
    if any(hp.saves):
        return t(lang, "board.hp.state.dying", successes=hp.saves[0], failures=hp.saves[1])
    return t(lang, f"board.hp.state.{hp.state}")


def hp_text(lang: Lang, setting: BoardHitPoints, hp: Hp | None, player: bool) -> str | None:
    """What the board says of one combatant's hit points (None: nothing)."""
    if hp is None or setting is BoardHitPoints.HIDDEN:
        return None
    if setting is BoardHitPoints.STATE and not player:
        return state_text(lang, hp)
    if hp.temporary and hp.unit.temporary:
        return t(lang, hp.unit.temporary, current=hp.current, maximum=hp.maximum, temporary=hp.temporary)
    if hp.state in NAMED_STATES:
        state = state_text(lang, hp)
        return t(lang, hp.unit.state, current=hp.current, maximum=hp.maximum, state=state)
    return t(lang, hp.unit.plain, current=hp.current, maximum=hp.maximum)


def secret(table: Table) -> Callable[[LedgerRow], bool]:
    """Which ledger rows the board leaves out: every row a player may not read
    (bot/hidden.py), and every hit point pool's when the table hides hit points."""
    hidden = ledger_rows(table)
    if table.settings.board_hit_points is BoardHitPoints.HIDDEN:
        pools = hp_pools()
        return lambda row: row.pool in pools or hidden(row)
    return hidden


async def sheet_data(store: Store, table: Table, user_id: int, system: str) -> Data | None:
    """The player's active sheet of ``system`` as play has left it, if they have one."""
    row = await store.active_sheet(table.channel_id, user_id)
    if row is None or row.system != system:
        return None
    return await played(store, row)


def group_text(lang: Lang, setting: BoardHitPoints, points: tuple[Hp, ...], player: bool) -> str | None:
    """A group's hit points on one line, member by member ("7/15 PG, 0/15 PG"); in words,
    alike ones counted ("Ileso ×2, Muerto"), so twenty goblins stay one short line."""
    texts = [text for p in points if (text := hp_text(lang, setting, p, player)) is not None]
    if not texts:
        return None
    if setting is BoardHitPoints.STATE and not player:
        counted = Counter(texts)
        return ", ".join(
            w if n == 1 else t(lang, "board.order.group", name=w, n=n) for w, n in counted.items()
        )
    return ", ".join(texts)
