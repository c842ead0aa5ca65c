"""An open character panel redraws when its numbers change (issue #31): a press on the
panel, a typed command, a card's button or the GM; through the token of the interaction
that drew it, for 15 minutes at most, and never for a reader who may no longer see it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.models import SheetRow, Table
from bot.store.touched import ANYTHING
from cogs.ficha.opened import MARGIN_SECONDS, TOKEN_SECONDS, OpenPanels
from tests.cogs.ficha.test_cog import imported
from tests.cogs.ficha.test_panel import form, next_page, panel, roll_button, roll_ids, sections, submit
from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, OTHER, PLAYER, User


def opened(h: Harness) -> OpenPanels[Any]:
    """The cog's open panels. By the class's name: a worker that ran a test closing its own
    bot has imported ``cogs.ficha.opened`` again, so the class the cog holds may not be the
    one this module imported."""
    assert h.bot is not None
    found = getattr(h.bot.get_cog("Sheets"), "panels", None)
    assert type(found).__name__ == OpenPanels.__name__
    return cast(OpenPanels[Any], found)


def lines(h: Harness, message: Message) -> list[str]:
    """The panel's lines as Discord shows it now (each section's text)."""
    return [text for text, _ in sections(h.current(message).data)]


def text(h: Harness, message: Message) -> str:
    def walk(components: list[dict[str, Any]]) -> list[str]:
        found = []
        for component in components:
            if component.get("type") == 10:
                found.append(component["content"])
            found += walk(component.get("components") or [])
        return found

    return "\n".join(walk(h.current(message).data.get("components") or []))


async def test_a_change_pressed_on_the_panel_redraws_that_panel(harness: Harness) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    shown = await panel(harness)
    opened_form = await harness.click(shown.message, roll_button(shown.data, "**Riqueza** 3"))
    assert "3" in [o["value"] for o in form(opened_form)["components"][0]["component"]["options"]]
    await submit(harness, opened_form, shown.message, valor=["1"])
    assert "**Riqueza** 1" in lines(harness, shown.message)
    await harness.slash("mesa deshacer", user=GM)
    assert "**Riqueza** 3" in lines(harness, shown.message)


async def test_a_typed_command_redraws_every_open_panel_of_that_character(harness: Harness) -> None:
    """The player's panel and the GM's of the same sheet, each drawn for its reader (the GM's
    in English), when the GM types a new hit point value."""
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    mine = await panel(harness)
    number = int(roll_ids(mine.data)[0].split(":")[2])
    gms = await panel(harness, user=GM, locale="en-US", ficha=str(number))
    await harness.slash("ficha editar", user=GM, campo="pg.actuales", valor="20", ficha=str(number))
    assert lines(harness, mine.message)[0] == "**Puntos de golpe** 20"
    assert lines(harness, gms.message)[0] == "**Hit points** 20"
    assert roll_ids(harness.current(gms.message).data) == roll_ids(gms.data)


async def test_a_cards_button_and_the_gm_redraw_the_status_line(harness: Harness) -> None:
    """Dune's Determinación lives outside the sheet: the GM giving it, and the roll card's
    reroll spending it, redraw the line the panel shows."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    shown = await panel(harness)
    await harness.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    assert f"Determinación de <@{PLAYER.id}>: **1**/3" in text(harness, shown.message)
    harness.script(15, 16)
    card = await harness.slash("dune tirada", habilidad="combate", motivacion="deber", dificultad=1)
    repeat = next(i for i in card.message.custom_ids if i.startswith("dune:repetir:"))
    menu = await harness.click(card.message, repeat)
    picker = next(i for i in menu.message.custom_ids if i.startswith("dune:dados:"))
    harness.script(3)
    await harness.click(menu.message, picker, values=["0"], component_type=3)
    assert f"Determinación de <@{PLAYER.id}>: **0**/3" in text(harness, shown.message)


async def test_a_turned_page_is_redrawn_on_that_page(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness)
    forward = next_page(shown.data)
    assert forward is not None
    turned = await harness.click(shown.message, forward)
    second = [text for text, _ in sections(turned.data)]
    await harness.slash("ficha editar", campo="pg.actuales", valor="21")
    assert lines(harness, shown.message) == ["**Puntos de golpe** 21", *second[1:]]


async def test_a_change_that_leaves_the_panel_as_it_was_edits_nothing(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    await panel(harness)
    edits = opened(harness).edits
    await harness.slash("mesa ajustes", user=GM, vida_tablero="exactos")
    assert opened(harness).edits == edits and opened(harness).open_at(CHANNEL_ID) == 1


async def test_a_public_sheet_read_by_another_player_is_not_redrawn_once_private(harness: Harness) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    await harness.slash("ficha publicas", user=GM, publicas=True)
    number = int(roll_ids((await panel(harness)).data)[0].split(":")[2])
    theirs = await panel(harness, user=OTHER, ficha=str(number))
    await harness.slash("ficha editar", campo="riqueza", valor="2")
    assert "Riqueza 2" in text(harness, theirs.message)
    await harness.slash("ficha publicas", user=GM, publicas=False)
    await harness.slash("ficha editar", campo="riqueza", valor="1")
    assert text(harness, theirs.message) == "Ya no puedes ver esta ficha en esta mesa."
    assert opened(harness).open_at(theirs.message.channel_id) == 1  # the player's own


async def npc_panel_redrawn(harness: Harness, user: User) -> tuple[Reply, int]:
    """An NPC's panel ``user`` imported and opened, redrawn once ``user`` set its hit points
    to 30; the panel and the sheet's number."""
    await imported(harness, "dnd5e", user=user, pnj=True)
    shown = await panel(harness, user=user, ficha="Lía Brezo")
    number = int(roll_ids(shown.data)[0].split(":")[2])
    await harness.slash("ficha editar", user=user, campo="pg.actuales", valor="30", ficha=str(number))
    assert lines(harness, shown.message)[0] == "**Puntos de golpe** 30"
    return shown, number


async def test_an_npc_panel_is_redrawn_for_the_gm_only_while_they_are_the_gm(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    shown, number = await npc_panel_redrawn(harness, GM)
    await harness.slash("mesa dj", user=ADMIN, miembro=OTHER)
    await harness.slash("ficha editar", user=OTHER, campo="pg.actuales", valor="10", ficha=str(number))
    assert text(harness, shown.message) == "Ya no puedes ver esta ficha en esta mesa."


async def test_a_deleted_sheets_open_panel_says_it_is_gone(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    shown = await panel(harness, locale="en-US")
    await harness.slash("ficha borrar", ficha="Maese Tobías")
    assert text(harness, shown.message) == "That sheet is no longer at this table."
    assert opened(harness).open_at(CHANNEL_ID) == 0


async def test_a_panel_is_let_go_before_discord_takes_its_token_back(harness: Harness) -> None:
    """Fifteen minutes after the interaction that drew it, Discord refuses the edit (the
    offline Discord too): the panel is let go half a minute before, and never edited."""
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    shown = await panel(harness)
    panels = opened(harness)
    start = panels.clock()
    panels.clock = lambda: start + TOKEN_SECONDS - MARGIN_SECONDS - 1
    await harness.slash("ficha editar", campo="riqueza", valor="2")
    assert "**Riqueza** 2" in lines(harness, shown.message)
    panels.clock = lambda: start + TOKEN_SECONDS - MARGIN_SECONDS
    harness.discord.age(str(shown.message.token), TOKEN_SECONDS + 1)
    await harness.slash("ficha editar", campo="riqueza", valor="1")
    assert "**Riqueza** 2" in lines(harness, shown.message)
    assert panels.open_at(shown.message.channel_id) == 0


async def test_the_offline_discord_refuses_an_edit_through_an_expired_token(harness: Harness) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    shown = await panel(harness)
    panels = opened(harness)
    harness.discord.age(str(shown.message.token), TOKEN_SECONDS + 1)
    with harness.discord.expect_refusals() as refused:
        await harness.slash("ficha editar", campo="riqueza", valor="2")
    assert [r.status for r in refused] == [401]
    assert panels.open_at(shown.message.channel_id) == 0


# -- the registry alone, with a store and interactions of its own -----------------------------


class Books:
    """The little of a store the open panels read: its listeners, a table and a sheet."""

    def __init__(self, row: SheetRow) -> None:
        self.listeners: list[Any] = []
        self.row = row

    async def table_or_default(self, channel_id: int, guild_id: int | None) -> Table:
        return Table(channel_id, guild_id, gm_id=GM.id)

    async def sheet(self, channel_id: int, sheet_id: int) -> SheetRow | None:
        return self.row


class Reader:
    """An interaction that drew a panel: its reader, and the edits made through its token."""

    def __init__(self, books: Books) -> None:
        self.client = SimpleNamespace(store=books)
        self.user = SimpleNamespace(id=PLAYER.id)
        self.edited: list[discord.ui.LayoutView] = []

    async def edit_original_response(self, *, view: discord.ui.LayoutView) -> None:
        self.edited.append(view)


def layout(text: str) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay(text))
    return view


async def test_a_page_turned_while_a_redraw_reads_is_not_drawn_over() -> None:
    """The old drawing's token still edits the same message: were it used after the page
    turned, the message would go back to the page its reader left."""
    row = SheetRow(7, CHANNEL_ID, PLAYER.id, False, "Roland", "roland", "donjon", {}, True)
    books = Books(row)
    first, turned = Reader(books), Reader(books)
    turns = [turned]
    panels: OpenPanels[SheetRow]

    async def read(store: Any, sheet: SheetRow) -> SheetRow:
        if turns:  # the reader turns the page while the first redraw reads
            panels.keep(cast(Any, turns.pop()), row, 99, 1, layout("page 2"))
        return sheet

    def draw(interaction: Any, table: Table, sheet: SheetRow, page: int) -> discord.ui.LayoutView:
        return layout(f"page {page + 1}, new numbers")

    panels = OpenPanels(read, draw)
    panels.keep(cast(Any, first), row, 99, 0, layout("page 1"))
    panels.touch(CHANNEL_ID, ANYTHING)
    await panels.settled()
    assert first.edited == [] and turned.edited == []
    panels.touch(CHANNEL_ID, ANYTHING)
    await panels.settled()
    assert [v.to_components()[0]["content"] for v in turned.edited] == ["page 2, new numbers"]


async def redraw_reads(h: Harness) -> int:
    """The store's reads of one redraw of the table's open panels."""
    assert h.bot is not None
    reads: list[float] = []
    h.bot.store.timers.append(reads.append)
    opened(h).touch(CHANNEL_ID, ANYTHING)
    await opened(h).settled()
    h.bot.store.timers.remove(reads.append)
    return len(reads)


async def test_a_redraw_reads_a_sheet_once_however_many_readers_have_it_open(harness: Harness) -> None:
    """The player's panel twice and the GM's in English: the sheet, its live pools and its
    status line (Dune's Determinación) are read once for all three, as for one panel alone."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    mine = await panel(harness)
    alone = await redraw_reads(harness)
    number = int(roll_ids(mine.data)[0].split(":")[2])
    await panel(harness, user=GM, locale="en-US", ficha=str(number))
    await panel(harness)
    assert opened(harness).open_at(CHANNEL_ID) == 3
    assert await redraw_reads(harness) == alone


async def test_at_a_table_with_no_gm_an_npc_panel_keeps_its_readers_right_until_a_gm_is_named(
    harness: Harness,
) -> None:
    """No GM named: whoever may manage the channel acts as GM, a right Discord sends with
    each interaction and the bot (guilds intent only) learns no other way. The redraw uses the
    right its panel was opened with, for the 15 minutes Discord lets it edit the panel; once
    a GM is named, each redraw checks the GM by id and the manager's panel is let go."""
    await harness.slash("mesa sistema", user=ADMIN, sistema="dnd5e")
    shown, number = await npc_panel_redrawn(harness, ADMIN)
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    await harness.slash("ficha editar", user=GM, campo="pg.actuales", valor="10", ficha=str(number))
    assert text(harness, shown.message) == "Ya no puedes ver esta ficha en esta mesa."
    assert opened(harness).open_at(CHANNEL_ID) == 0
