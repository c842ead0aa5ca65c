"""The character panel: a sheet as a Components V2 message with a button beside each thing
it can roll.

The sheet's numbers at a glance head it (the same text ``/ficha crear`` and ``editar``
show), then one section per rollable with a *Tirar* button as its accessory. Discord allows
40 components in a message, nested ones counted: a section is three (itself, its text, its
button), so a panel shows :data:`PAGE_SIZE` rollables a page and turns pages with two
buttons (docs/decisiones.md, issue 31: "Páginas de diez"). Every button is a
``DynamicItem`` that names the sheet, never the message: after a restart a press reads the
sheet from the database again, and a page is drawn anew from it. The live board's *Fichas*
opens the panel of a sheet whoever presses may read; every panel drawn is kept open to
redraw (``cogs/ficha/opened.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot import systems
from bot.board.render import SHEETS_BUTTON
from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.errors import Refusal, send
from bot.i18n import Lang, lang_for, number, signed, t
from bot.models import SheetRow, Table
from bot.panel import (
    TITLE_LIMIT,
    Game,
    Roller,
    Words,
    clip,
    labelled,
    number_picked,
    number_select,
)
from bot.sheets import access
from bot.sheets.live import get, live_fields
from bot.sheets.models import SheetBase
from bot.store import Store
from bot.systems import Live
from bot.ui import Guarded, Modal, selected
from cogs.ficha.opened import OpenPanels
from cogs.ficha.render import safe, sheet_embed

PREFIX = "ficha"
# Sections a page: 10 (30 components) with the container, the sheet's text, a separator,
# the page line and a row of two buttons make 36 of Discord's 40. The numbers play changes
# (hit points, Heridas…) come first on every page; the rollables fill the rest.
PAGE_SIZE = 10
# The sheet's text at the head of the panel; with ten lines beside the buttons it stays
# under the 4,000 characters a V2 message may show.
HEADER_LIMIT = 2400
LINE_LIMIT = 140


def game(system: str) -> Game:
    """The system's part of the panel, as the system declared it (bot/systems.py)."""
    declaration = systems.declared(system)
    if declaration is None or declaration.panel is None:
        raise Refusal("fichas.panel.no_system")
    return declaration.panel


def may_roll(table: Table, interaction: discord.Interaction, row: SheetRow) -> bool:
    """The GM rolls from any sheet; a player from their own active one (the one the typed
    commands read), never from an NPC's."""
    if is_gm(table, interaction):
        return True
    return row.owner_id == interaction.user.id and not row.npc and row.active


def roller(table: Table, interaction: discord.Interaction, row: SheetRow) -> Roller:
    """Who presses, as the typed command would name the sheet; refused for anyone else."""
    if is_gm(table, interaction):
        return Roller(str(row.id), row.npc)
    if row.npc or row.owner_id != interaction.user.id:
        raise Refusal("fichas.panel.not_yours")
    if not row.active:
        raise Refusal("fichas.panel.not_active", name=safe(row.name))
    return Roller(None, False)


def header(lang: Lang, row: SheetRow, sheet: SheetBase, status: str = "") -> str:
    """The sheet at a glance, as its embed reads (title, owner, then each field), and the
    system's ``status`` line."""
    embed = sheet_embed(lang, row, sheet)
    parts = [f"### {embed.title}", embed.description or ""]
    parts += [f"**{field.name}**\n{field.value}" for field in embed.fields]
    return clip("\n".join(p for p in [*parts, status] if p), HEADER_LIMIT)


def changeable(row: SheetRow) -> list[Live]:
    """The numbers a panel changes: those play changes, save the marks only the GM edits."""
    return [live for live in live_fields(row.system) if not live.gm_edits]


def live_sections(lang: Lang, row: SheetRow, sheet: SheetBase) -> list[discord.ui.Section[Any]]:
    data = sheet.model_dump(mode="json")
    return [
        discord.ui.Section(
            f"**{t(lang, f'fichas.panel.live.{live.path}')}** {get(data, live.path)}",
            accessory=LiveButton(row.id, i, t(lang, "fichas.panel.change")),
        )
        for i, live in enumerate(changeable(row))
    ]


def panel_view(
    lang: Lang, row: SheetRow, sheet: SheetBase, page: int, rolls: bool, edits: bool, status: str = ""
) -> discord.ui.LayoutView:
    """The panel's page ``page`` (kept within the pages there are); ``rolls``: whether the
    reader may roll from it, ``edits`` whether they may change its numbers (without either,
    it shows the sheet alone)."""
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        discord.ui.TextDisplay(header(lang, row, sheet, status))
    )
    live = live_sections(lang, row, sheet) if edits else []
    rollables = game(row.system).rollables(lang, sheet) if rolls else []
    size = PAGE_SIZE - len(live)
    pages = max(1, -(-len(rollables) // size))
    page = min(max(page, 0), pages - 1)
    if live or rollables:
        container.add_item(discord.ui.Separator())
    for section in live:
        container.add_item(section)
    for item in rollables[page * size : (page + 1) * size]:
        button = RollButton(row.id, item.key, item.check, t(lang, "fichas.panel.roll"))
        container.add_item(discord.ui.Section(clip(item.text, LINE_LIMIT), accessory=button))
    if pages > 1:
        container.add_item(discord.ui.TextDisplay(t(lang, "fichas.panel.page", page=page + 1, pages=pages)))
        container.add_item(
            discord.ui.ActionRow(
                PageButton(row.id, max(page - 1, 0), t(lang, "fichas.panel.previous"), page == 0),
                PageButton(row.id, min(page + 1, pages - 1), t(lang, "fichas.panel.next"), page == pages - 1),
            )
        )
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    view.stop()  # made of DynamicItems: rendered, never kept (bot.delivery.plain_components)
    return view


@dataclass(frozen=True)
class Played:
    """A sheet as play has left it and its status line: read once, however many readers
    have its panel open, then drawn for each (``drawn``)."""

    row: SheetRow
    sheet: SheetBase
    status: Words


async def played(store: Store, row: SheetRow) -> Played:
    return Played(row, await access.content(store, row), await game(row.system).status(store, row))


def drawn(
    interaction: discord.Interaction, table: Table, played: Played, page: int = 0
) -> discord.ui.LayoutView:
    """The panel of ``played`` for whoever asked: what they may do with it, in their language."""
    row = played.row
    edits = access.writable(is_gm(table, interaction), interaction.user.id, row)
    lang = lang_for(interaction.locale)
    rolls = may_roll(table, interaction, row)
    return panel_view(lang, row, played.sheet, page, rolls, edits, played.status(lang))


async def panel_for(
    interaction: discord.Interaction, table: Table, row: SheetRow, page: int = 0
) -> discord.ui.LayoutView:
    """The panel of ``row`` for whoever asked, from the sheet as play has left it."""
    return drawn(interaction, table, await played(interaction.client.store, row), page)  # type: ignore[attr-defined]


def open_panels(interaction: discord.Interaction) -> OpenPanels[Played]:
    """The open panels the ``/ficha`` cog keeps, to redraw (found by name, since the cog's
    module imports this one)."""
    found = getattr(interaction.client.get_cog("Sheets"), "panels", None)  # type: ignore[attr-defined]
    assert isinstance(found, OpenPanels)
    return found


async def show(interaction: discord.Interaction, table: Table, row: SheetRow) -> None:
    """The panel of ``row`` as a new private message, kept open to redraw it."""
    view = await panel_for(interaction, table, row)
    message_id = await send(
        interaction, view=view, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )
    open_panels(interaction).keep(interaction, row, message_id, 0, view)


class SheetItem(Guarded):
    """A panel component: its sheet must be one of the table it is pressed at (a sheet is
    only ever looked up within the table, so an id from elsewhere finds nothing)."""

    sheet_id: int

    async def record_table(self, interaction: discord.Interaction) -> int:
        table = await current_table(interaction)
        return table.channel_id

    async def sheet_here(self, interaction: discord.Interaction[Tirada]) -> tuple[Table, SheetRow]:
        table = await current_table(interaction)
        row = await interaction.client.store.sheet(table.channel_id, self.sheet_id)
        if row is None:
            raise Refusal("fichas.panel.gone")
        if not access.readable(table, is_gm(table, interaction), interaction.user.id, row):
            raise Refusal("fichas.panel.not_yours")
        return table, row


class RollButton(
    SheetItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"{PREFIX}:tirar:(?P<sheet>[0-9]{{1,20}}):(?P<key>[a-z]:[a-z0-9_]{{1,40}}):(?P<check>[0-9a-f]{{8}})",
):
    """*Tirar* beside one rollable: the system rolls it (or opens its form) for the sheet's
    owner or the GM; a button drawn before the sheet changed is refused, never rerouted."""

    def __init__(self, sheet_id: int, key: str, check: str, label: str = "") -> None:
        custom_id = f"{PREFIX}:tirar:{sheet_id}:{key}:{check}"
        style = discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label or key, style=style, custom_id=custom_id))
        self.sheet_id, self.key, self.check = sheet_id, key, check

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RollButton:
        return cls(int(match["sheet"]), match["key"], match["check"])

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        table, row = await self.sheet_here(interaction)
        who = roller(table, interaction, row)
        sheet = await access.content(interaction.client.store, row)
        part = game(row.system)
        lang = lang_for(interaction.locale)
        found = next(
            (r for r in part.rollables(lang, sheet) if r.key == self.key and r.check == self.check), None
        )
        if found is None:
            raise Refusal("fichas.panel.stale")
        await part.press(interaction, found, sheet, who)


class PageButton(
    SheetItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"{PREFIX}:pagina:(?P<sheet>[0-9]{{1,20}}):(?P<page>[0-9]{{1,3}})",
):
    """Another page of the panel, drawn from the sheet as it is now."""

    def __init__(self, sheet_id: int, page: int, label: str = "", disabled: bool = False) -> None:
        custom_id = f"{PREFIX}:pagina:{sheet_id}:{page}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or str(page), custom_id=custom_id, disabled=disabled
        )
        super().__init__(button)
        self.sheet_id, self.page = sheet_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        return cls(int(match["sheet"]), int(match["page"]))

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        table, row = await self.sheet_here(interaction)
        view = await panel_for(interaction, table, row, self.page)
        # Not bot.delivery.update: its "Revelar" keeper reads messages as classic views.
        await interaction.response.edit_message(view=view)
        message_id = interaction.message.id if interaction.message else None
        open_panels(interaction).keep(interaction, row, message_id, self.page, view)


class LiveButton(
    SheetItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"{PREFIX}:cambiar:(?P<sheet>[0-9]{{1,20}}):(?P<live>[0-9]{{1,2}})",
):
    """*Cambiar* beside a number play changes: a form asks the new value, which goes
    through ``/ficha editar`` (the ledger, the book's bounds, *deshacer*) as if typed."""

    def __init__(self, sheet_id: int, live: int, label: str = "") -> None:
        custom_id = f"{PREFIX}:cambiar:{sheet_id}:{live}"
        super().__init__(discord.ui.Button(label=label or str(live), custom_id=custom_id))
        self.sheet_id, self.live = sheet_id, live

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LiveButton:
        return cls(int(match["sheet"]), int(match["live"]))

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        table, row = await self.sheet_here(interaction)
        if not access.writable(is_gm(table, interaction), interaction.user.id, row):
            raise Refusal("fichas.panel.not_yours")
        fields = changeable(row)
        if self.live >= len(fields):
            raise Refusal("fichas.panel.stale")
        sheet = await access.content(interaction.client.store, row)
        live, data = fields[self.live], sheet.model_dump(mode="json")
        low, high = sorted((live.field(data, 0), live.field(data, live.cap(data))))
        current = int(get(data, live.path))
        form = ChangeForm(
            lang_for(interaction.locale), row.id, live.path, current, offered_values(current, low, high)
        )
        await interaction.response.send_modal(form)


# How far from the current value a change form offers to go, each way: the small steps a
# turn of play makes one by one, then the larger ones of a big hit or a long rest. With the
# current value and the two bounds, at most Discord's 25 options of a select.
STEPS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20)


def offered_values(current: int, low: int, high: int) -> list[int]:
    """The values a *Cambiar* form offers, lowest first: the current one, those
    :data:`STEPS` away from it and the field's two bounds (empty pool, full hit points),
    all within ``low``..``high``."""
    near = {current + sign * step for step in STEPS for sign in (-1, 1)}
    return sorted(v for v in near | {current, low, high} if low <= v <= high)


class ChangeForm(Modal):
    """The new value of one number, picked among :func:`offered_values` (each with how far
    it moves): ``/ficha editar campo valor ficha`` with it, so nothing is typed, and
    refused by the write itself if the number moved from ``current`` meanwhile."""

    def __init__(self, lang: Lang, sheet_id: int, path: str, current: int, values: list[int]) -> None:
        title = t(lang, "fichas.form.change.title", name=t(lang, f"fichas.panel.live.{path}"))
        super().__init__(title=clip(title, TITLE_LIMIT), custom_id="ficha:cambiar")
        self.sheet_id, self.path, self.current = sheet_id, path, current
        self.value = number_select(
            "valor", values, label=lambda v: value_label(lang, v, current), default=current
        )
        self.add_item(labelled(t(lang, "fichas.form.change.value"), self.value))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        value = str(number_picked(self.value))
        await editor(interaction).edit(interaction, self.path, value, str(self.sheet_id), was=self.current)


class Editor(Protocol):
    """The ``/ficha`` cog as a change form uses it: ``/ficha editar`` with the number the
    form was drawn at (``cogs.ficha.cog.Sheets.edit``)."""

    async def edit(
        self, interaction: discord.Interaction, campo: str, valor: str, ficha: str | None, was: int | None
    ) -> None: ...


def editor(interaction: discord.Interaction) -> Editor:
    """The ``/ficha`` cog (found by name, since the cog's module imports this one)."""
    found = interaction.client.get_cog("Sheets")  # type: ignore[attr-defined]
    assert found is not None
    return cast(Editor, found)


def value_label(lang: Lang, value: int, current: int) -> str:
    """``9 (−3)``: a value a change form offers and how far it moves the number."""
    if value == current:
        return t(lang, "fichas.form.change.current", value=number(lang, value))
    return t(
        lang, "fichas.form.change.option", value=number(lang, value), delta=signed(lang, value - current)
    )


class BoardButton(SheetItem, discord.ui.DynamicItem[discord.ui.Button], template=SHEETS_BUTTON):
    """*Fichas* under the live board (``bot.board.render.board_view``): the panel of a
    character whoever presses may see, privately; straight away when there is one only,
    else a menu of them (the first 25, players' sheets before the NPCs)."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="-", custom_id=SHEETS_BUTTON))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardButton:
        return cls()

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        table = await current_table(interaction)
        if table.system is None:
            raise Refusal("fichas.no_system")
        store = interaction.client.store
        found = await access.readable_sheets(store, table, is_gm(table, interaction), interaction.user.id)
        if not found:
            raise Refusal("fichas.board.none")
        if len(found) == 1:
            await show(interaction, table, found[0])
            return
        lang = lang_for(interaction.locale)
        options = [discord.SelectOption(label=option_label(lang, row), value=str(row.id)) for row in found]
        view = discord.ui.View(timeout=None)
        view.add_item(SheetChoice(options, t(lang, "fichas.board.placeholder")))
        await send(interaction, content=t(lang, "fichas.board.choose"), view=view, ephemeral=True)


def option_label(lang: Lang, row: SheetRow) -> str:
    """A sheet in the board's menu: its name, and whether it is an NPC (a select's option
    shows plain text: no markdown, no mention)."""
    return clip(t(lang, "fichas.board.npc", name=row.name) if row.npc else row.name, 100)


class SheetChoice(SheetItem, discord.ui.DynamicItem[discord.ui.Select], template=rf"{PREFIX}:panel"):
    """The board's menu of sheets: the one chosen opens its panel, if this user may read it
    (a client may send any value, or a sheet made private since)."""

    def __init__(self, options: list[discord.SelectOption] | None = None, placeholder: str = "") -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{PREFIX}:panel", options=options, placeholder=placeholder or None
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SheetChoice:
        return cls(item.options if isinstance(item, discord.ui.Select) else [])

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        values = selected(interaction)
        if len(values) != 1 or not (values[0].isascii() and values[0].isdigit()) or len(values[0]) > 20:
            raise Refusal("fichas.form.bad_choice")
        self.sheet_id = int(values[0])
        table, row = await self.sheet_here(interaction)
        await show(interaction, table, row)


COMPONENTS = (RollButton, PageButton, LiveButton, BoardButton, SheetChoice)
