"""A system's roll form opened from its sheet: by a press on the character panel, or by the
roll command typed with no options. Apart from ``bot.panel``, which the systems' declarations
name (a leaf), because opening a form reads the table and the roller's sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord

from bot.checks import current_table
from bot.errors import Refusal
from bot.i18n import Lang, lang_for
from bot.models import Table
from bot.panel import Press, Rollable, Roller
from bot.sheets import access
from bot.sheets.models import SheetBase
from bot.store import Store

# A system's form for one rollable of a sheet (None: the command typed bare, and the form
# asks what to roll), for whoever rolls; the sheet is None for a form that asks the numbers.
Form = Callable[[Lang, Rollable | None, Any, Roller], discord.ui.Modal]
S = TypeVar("S", bound=SheetBase)


def form_press(form: Form, kind: type[SheetBase]) -> Press:
    """A panel press that opens the system's ``form`` for what was pressed, on the sheet read
    as its system's ``kind``."""

    async def press(interaction: discord.Interaction, item: Rollable, sheet: SheetBase, who: Roller) -> None:
        lang = lang_for(interaction.locale)
        await interaction.response.send_modal(form(lang, item, access.of_kind(sheet, kind), who))

    return press


async def open_bare(
    interaction: discord.Interaction,
    store: Store,
    form: Form,
    kind: type[SheetBase],
    *,
    sheetless: bool = False,
) -> None:
    """A roll command typed with no options: its ``form``, from the roller's active sheet.
    A roller without one is refused, unless the system's form can ask the numbers instead
    (``sheetless``: the form then gets no sheet, None)."""
    table = await current_table(interaction)
    sheet = await active_of_kind(store, table, interaction.user.id, kind)
    if sheet is None and not sheetless:
        raise Refusal("fichas.no_active")
    lang = lang_for(interaction.locale)
    await interaction.response.send_modal(form(lang, None, sheet, Roller(None, False)))


async def active_of_kind(store: Store, table: Table, user_id: int, kind: type[S]) -> S | None:
    """The user's active sheet at ``table`` read as its system's ``kind``, which a form
    asks from; None without one. A sheet of another system is refused, as a roll by name
    refuses it."""
    row = await store.active_sheet(table.channel_id, user_id)
    if row is None:
        return None
    _, found = await access.of_system(store, table, row)
    return access.of_kind(found, kind)
