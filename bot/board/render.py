"""What a table's board shows, read from the store (never from a cog): one embed a table.

Each system adds its own section, which its declaration names (bot/systems.py;
``cogs/<system>/board.py``: Dune's pools and tasks, Donjon's facts and banks, the
initiative of D&D and Mediana); every board ends with the last lines of the ledger.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord
from discord.utils import escape_markdown

from bot import embeds, systems
from bot.board import hp
from bot.errors import pool_name
from bot.i18n import CATALOG, Lang, t
from bot.kinds import SHEET_POOLS
from bot.models import LedgerRow, Table
from bot.store import Store
from bot.store.touched import Touched

LEDGER_LINES = 5
# Ledger rows read to find those lines, when some tell hit points the board keeps off it.
LEDGER_READ = 50
SHOWN = 10  # tasks, facts, banks or combatants listed before "and N more"
# The board's *Fichas* button: the character panels' cog answers it (cogs/ficha/panel.py).
SHEETS_BUTTON = "ficha:tablero"


async def board_embed(store: Store, lang: Lang, table: Table) -> discord.Embed:
    """The whole board of ``table`` as it is now in the store."""
    system = t(lang, f"system.{table.system}") if table.system else t(lang, "board.no_system")
    embed = embeds.card(t(lang, "board.title"), t(lang, "board.system", system=system))
    declaration = systems.declared(table.system)
    if declaration is not None and declaration.board is not None:
        await declaration.board(store, lang, table, embed)
    hidden = hp.secret(table)
    rows = [row for row in await store.ledger(table.channel_id, limit=LEDGER_READ) if not hidden(row)]
    lines = [ledger_line(lang, row) for row in rows[:LEDGER_LINES]] or [t(lang, "board.ledger.empty")]
    embeds.field(embed, t(lang, "board.ledger"), fit(lines), inline=False)
    return embed


def shows(system: str | None, touched: Touched) -> bool:
    """Whether the board of a table playing ``system`` may show what a write ``touched``:
    every board shows the table's row (its system, its settings) and the ledger's last
    lines; the system's part, what its declaration says it reads (``board_kinds``,
    ``board_sheets``). A write of anything else leaves the board as it was."""
    if touched.table or touched.ledger:
        return True
    declaration = systems.declared(system)
    if declaration is None or declaration.board is None:
        return False
    if touched.sheets and declaration.board_sheets:
        return True
    return touched.kinds is None or not touched.kinds.isdisjoint(declaration.board_kinds)


def board_view(lang: Lang) -> discord.ui.View:
    """Under the board, *Fichas*: whoever presses gets, privately, the panel of a character
    they may see. Rendered, never kept: the button is registered by its ``custom_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t(lang, "board.sheets"), custom_id=SHEETS_BUTTON))
    view.stop()
    return view


def fit(lines: Iterable[str], limit: int = embeds.FIELD_LIMIT) -> str:
    """Whole lines up to a field's limit (a cut line would be a lie about a value)."""
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def fit_more(lang: Lang, lines: list[str], limit: int = embeds.FIELD_LIMIT) -> str:
    """Every line if they fit a field; else the first ones and "… and N more"."""
    text = fit(lines, limit)
    if len(text.splitlines()) == len(lines):
        return text
    room = limit - len(t(lang, "board.more", n=len(lines))) - 1
    return fit(more(lang, fit(lines, room).splitlines(), len(lines)), limit)


def more(lang: Lang, lines: list[str], total: int) -> list[str]:
    if total > len(lines):
        return [*lines, t(lang, "board.more", n=total - len(lines))]
    return lines


def ledger_line(lang: Lang, row: LedgerRow) -> str:
    key = f"ledger.{row.reason}"
    reason = t(lang, key) if key in CATALOG.entries else row.reason
    pool = pool_name(lang, row.pool)
    if row.pool in SHEET_POOLS:
        # Owned by a character sheet: its id is no user to mention.
        pool = t(lang, "fichas.pool_owned", pool=pool, sheet=row.owner_id)
    elif row.owner_id:
        pool = t(lang, "board.ledger.owned", pool=pool, owner=row.owner_id)
    verb = "board.ledger.gained" if row.delta > 0 else "board.ledger.spent"
    return t(
        lang, verb, actor=row.actor_id, n=abs(row.delta), pool=pool, value=row.value_after, reason=reason
    )


def order_line(
    lang: Lang, name: str, initiative: int, count: int, acting: bool, points: str | None = None
) -> str:
    """One place of the order; ``points``: the hit points the table's setting shows."""
    label = (
        escape_markdown(name)
        if count == 1
        else t(lang, "board.order.group", name=escape_markdown(name), n=count)
    )
    if points is None:
        key = "board.order.acting" if acting else "board.order.line"
        return t(lang, key, name=label, initiative=initiative)
    key = "board.order.acting_hp" if acting else "board.order.line_hp"
    return t(lang, key, name=label, initiative=initiative, hp=points)
