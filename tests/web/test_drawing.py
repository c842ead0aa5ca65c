"""One drawing of a table's board a change, shared by its live board and its overlay pages
(issue 32: 200 pages on 50 tables made play slower, each page's hub drawing the board
again on the one SQLite connection the interactions use)."""

from __future__ import annotations

import pytest

from bot.models import Table
from bot.store.touched import ANYTHING
from tests.support.harness import Harness
from tests.support.payloads import CHANNEL_ID, GM
from tests.web.support import overlay, serve, stream, table


async def test_the_board_and_its_pages_share_one_drawing_a_change(harness: Harness) -> None:
    await serve(harness)
    await table(harness, "dune")
    await harness.slash("mesa tablero", user=GM)
    assert harness.bot is not None
    url = await overlay(harness)
    async with stream(url) as first, stream(url) as second:
        await first.next()
        await second.next()
        await harness.bot.boards.settled()
        drawn = harness.bot.boards.drawings.made
        await harness.slash("dune impulso añadir", user=GM, cantidad=2)
        await first.until("Impulso\n2/6")
        await second.until("Impulso\n2/6")
        await harness.bot.boards.settled()
        # Counted by drawings, not by the store's reads after the slash: the harness waits for
        # the tasks an interaction starts, the board's among them, so the redraw may be over
        # before the slash returns (it was, when this module ran alone or first on a worker).
        assert harness.bot.boards.drawings.made == drawn + 1
        async with stream(url) as third:
            await third.until("Impulso\n2/6")
        assert harness.bot.boards.drawings.made == drawn + 1  # a page opened now takes it too
    board = harness.discord.messages[harness.bot.boards.spots[CHANNEL_ID].message_id]
    assert "**2**/6" in str(board.data["embeds"])


async def test_a_change_while_a_drawing_is_under_way_is_drawn_again(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drawing that read half before a change is not kept: the next one reads again."""
    await table(harness, "dune")
    assert harness.bot is not None
    drawings = harness.bot.boards.drawings
    before = await drawings.board(CHANNEL_ID, "es")
    assert await drawings.board(CHANNEL_ID, "es") == before
    made = drawings.made
    await harness.slash("dune impulso añadir", user=GM, cantidad=3)
    read = harness.bot.store.table_or_default

    async def changed_meanwhile(channel_id: int, guild_id: int | None) -> Table:
        drawings.forget(channel_id, ANYTHING)
        return await read(channel_id, guild_id)

    with monkeypatch.context() as patched:
        patched.setattr(harness.bot.store, "table_or_default", changed_meanwhile)
        await drawings.board(CHANNEL_ID, "es")
    after = await drawings.board(CHANNEL_ID, "es")
    assert after.fields[0].value == "**3**/6"
    assert drawings.made == made + 2
