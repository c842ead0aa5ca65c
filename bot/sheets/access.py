"""Which sheet an interaction acts on, and whether it may: the one place cogs ask.

A player reads and changes their own sheets; the GM reads and changes every sheet of the
table and owns its NPCs; other players' sheets are readable only when the table makes
sheets public. A sheet is always looked up within the table, so an id from another table
finds nothing (the same answer as an id that does not exist).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import discord
from discord.app_commands import Choice

from bot.checks import current_table, is_gm, table_of
from bot.errors import Refusal
from bot.models import Record, SheetRow, Table
from bot.names import MAX_CHOICES, fold
from bot.sheets import io
from bot.sheets.live import played
from bot.sheets.models import SheetBase
from bot.store import Store

if TYPE_CHECKING:
    from bot.client import Tirada

S = TypeVar("S", bound=SheetBase)


def readable(table: Table, gm: bool, user_id: int, row: SheetRow) -> bool:
    if gm or (row.owner_id == user_id and not row.npc):
        return True
    return table.settings.public_sheets and not row.npc


def writable(gm: bool, user_id: int, row: SheetRow) -> bool:
    return gm or (row.owner_id == user_id and not row.npc)


async def content(store: Store, row: SheetRow) -> SheetBase:
    """The sheet as play has left it: the stored file with its live pools' values."""
    return io.validate(await played(store, row), stored=True)


async def find(
    store: Store, table: Table, gm: bool, user_id: int, typed: str | None, *, write: bool = False
) -> SheetRow:
    """The sheet ``typed`` names (an id from the autocomplete, or a name), else the user's
    active one; refused when there is none or the user may not read (or change) it."""
    if not typed:
        row = await store.active_sheet(table.channel_id, user_id)
        if row is None:
            raise Refusal("fichas.no_active")
        return row
    allowed = writable if write else None
    picked = typed.strip()
    sheet_id = int(picked) if picked.isascii() and picked.isdigit() and len(picked) < 19 else None
    for row in await store.named_sheets(table.channel_id, fold(typed), sheet_id):
        if readable(table, gm, user_id, row) and (allowed is None or allowed(gm, user_id, row)):
            return row
    raise Refusal("fichas.not_found", name=discord.utils.escape_markdown(typed[:60]))


async def choices(
    store: Store, table: Table, gm: bool, user_id: int, typed: str, *, npc_only: bool = False
) -> list[Choice[str]]:
    """Autocomplete: the sheets this user may read whose name contains what was typed."""
    found = await readable_sheets(store, table, gm, user_id, typed, npc_only=npc_only)
    return [Choice(name=f"{row.name} ({row.system})"[:100], value=str(row.id)) for row in found]


async def readable_sheets(
    store: Store, table: Table, gm: bool, user_id: int, typed: str = "", *, npc_only: bool = False
) -> list[SheetRow]:
    """The first sheets this user may read whose name contains ``typed``: players' before
    NPCs', then by name."""
    if gm:
        owner, npc = None, (True if npc_only else None)
    elif npc_only:
        return []
    else:
        owner, npc = (None if table.settings.public_sheets else user_id), False
    return await store.sheet_choices(table.channel_id, fold(typed), owner, npc, MAX_CHOICES)


async def for_roll(
    store: Store, table: Table, gm: bool, user_id: int, como: str | None
) -> tuple[SheetRow, SheetBase]:
    """The sheet a roll by name reads: the roller's active sheet, or, for the GM, the NPC
    ``como`` names. Refused for a sheet of another system."""
    if como and not gm:
        raise Refusal("error.not_gm")
    return await of_system(store, table, await find(store, table, gm, user_id, como))


async def of_system(store: Store, table: Table, row: SheetRow) -> tuple[SheetRow, SheetBase]:
    """A sheet a roll reads numbers from; refused when it is of another system."""
    if table.system is None or row.system != table.system:
        raise Refusal("fichas.wrong_system")
    return row, await content(store, row)


def of_kind(sheet: SheetBase, kind: type[S]) -> S:
    """The sheet as its system's model. A command of one system run at another system's
    table finds that table's sheets: refused like any sheet of another system."""
    if not isinstance(sheet, kind):
        raise Refusal("fichas.wrong_system")
    return sheet


async def check_repeat(
    interaction: discord.Interaction[Tirada],
    record: Record,
    *players: int | None,
    character: str | None = None,
) -> None:
    """*Repetir* rolls for whoever presses, but a roll made as a character (a sheet's name on
    the card) is that character's: its roller, the ``players`` it was rolled for and the GM
    repeat it; anyone else would roll as another player's character, or as the GM's NPC
    (``como`` is the GM's only). A roll as a ``character`` that is none of their own sheets
    was made as an NPC: only the GM repeats it, so a former GM no longer does."""
    table = await table_of(interaction, record)
    if is_gm(table, interaction):
        return
    allowed = {p for p in (record.user_id, *players) if p is not None}
    if interaction.user.id in allowed and (
        character is None or await played_by(interaction.client.store, table, character, allowed)
    ):
        return
    raise Refusal("fichas.repeat_not_yours")


async def played_by(store: Store, table: Table, character: str, players: set[int]) -> bool:
    """Whether ``character`` names a player sheet of one of ``players`` at the table, or no
    sheet at all any more (deleted: nobody's character to roll as, and the system's own
    repeat says what it can no longer book)."""
    rows = await store.named_sheets(table.channel_id, fold(character))
    return not rows or any(not row.npc and row.owner_id in players for row in rows)


async def named_in(interaction: discord.Interaction[Tirada], option: str, own: bool) -> SheetBase | None:
    """For a skills autocomplete: the sheet the NPC option ``option`` names in the command
    being typed, else (with ``own``) the roller's active one; None when there is none this
    user may roll from, since an autocomplete answers with no choices rather than an error."""
    npc = getattr(interaction.namespace, option, None)
    if not npc and not own:
        return None
    table = await current_table(interaction)
    try:
        _, sheet = await for_roll(
            interaction.client.store, table, is_gm(table, interaction), interaction.user.id, npc
        )
    except Refusal:
        return None
    return sheet


async def npc_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """``como``: the table's NPC sheets, offered to the GM only."""
    table = await current_table(interaction)
    if not is_gm(table, interaction):
        return []
    return await choices(interaction.client.store, table, True, interaction.user.id, current, npc_only=True)


async def sheet_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """A roll's target: the table's sheets this user may read (a player's own, everyone's
    when sheets are public, and every one, NPCs too, for the GM)."""
    table = await current_table(interaction)
    gm = is_gm(table, interaction)
    return await choices(interaction.client.store, table, gm, interaction.user.id, current)
