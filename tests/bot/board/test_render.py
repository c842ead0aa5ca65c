"""A board is redrawn only when what it shows may have changed (``render.shows``): never a
redraw skipped that would have changed it, and none made for a roll it does not show."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.board.render import board_embed
from tests.bot.board.test_hp import DOCS
from tests.support.harness import Harness, Reply, Upload
from tests.support.load import Table, initiative_step, make_tables, session_step, setup_tables
from tests.support.payloads import GM


async def stale_boards(h: Harness) -> list[str]:
    """Once the boards have caught up: each board whose message differs from its table's
    board drawn afresh from the store."""
    assert h.bot is not None
    await h.bot.boards.settled()
    stale = []
    for channel_id, spot in h.bot.boards.spots.items():
        table = await h.bot.store.table_or_default(channel_id, None)
        fresh = (await board_embed(h.bot.store, spot.lang, table)).to_dict()
        if h.discord.messages[spot.message_id].data["embeds"] != [fresh]:
            stale.append(f"{table.system} board of {channel_id}")
    return stale


async def extras(h: Harness, table: Table) -> None:
    """What the load does not play and a board shows: an open combat, a sheet's hit points."""
    gm, player, ch = table.gm, table.players[0], table.channel_id
    if table.system == "dnd5e":
        await h.slash("dnd iniciativa panel", user=gm, channel_id=ch)
        await h.slash("dnd iniciativa unirme", user=player, channel_id=ch, modificador=2)
        upload = Upload("dnd5e.json", (DOCS / "dnd5e.json").read_bytes())
        await h.slash("ficha importar", user=player, channel_id=ch, archivo=upload)
        await h.slash("ficha editar", user=player, channel_id=ch, campo="pg.actuales", valor="30")
        # The file alone (its maximum), no pool: a write of sheets only.
        await h.slash("ficha editar", user=player, channel_id=ch, campo="pg.maximos", valor="40")
    elif table.system == "mediana":
        panel = (await h.slash("mediana iniciativa", user=player, channel_id=ch)).message
        record = panel.custom_ids[0].rsplit(":", 2)[1]
        opened = await h.click(panel, f"mediana:ini:unirme:{record}:0", user=player)
        await h.submit(opened.modal_id, {"nombre": "", "bono": ["12"]}, user=player, message=h.current(panel))
        await h.slash("mediana pv daño", user=gm, channel_id=ch, cantidad=3, jugador=player)


async def test_no_redraw_a_board_would_show_is_skipped(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A little of the load at a table of every system, then what each board shows besides:
    after every interaction, every board shows what drawing it afresh shows."""
    h = harness
    tables = make_tables(4, players=2)
    await setup_tables(h, tables, boards=True)
    assert h.bot is not None
    h.bot.boards.delay = 0
    feed = h.feed
    problems: list[str] = []

    async def checked(payload: dict[str, Any]) -> Reply:
        reply = await feed(payload)
        problems.extend(
            f"{payload['data'].get('name') or payload['data'].get('custom_id')}: {stale}"
            for stale in await stale_boards(h)
        )
        return reply

    monkeypatch.setattr(h, "feed", checked)
    rng = random.Random(3)
    for table in tables:
        await session_step(h, table, rng)
        await initiative_step(h, table)
        await extras(h, table)
    assert h.bot.boards.drawings.made > len(tables)
    assert problems == []


@pytest.mark.parametrize(
    ("system", "command", "options"),
    [
        ("dune", "tirar", {"expresion": "2d20kh1+4"}),
        ("donjon", "tirar", {"expresion": "3d6"}),
        ("dnd5e", "dnd prueba", {"modificador": 3, "habilidad": "sigilo", "cd": 12}),
        ("mediana", "mediana tirada", {"atributo": 5, "habilidad": 4, "dificultad": 12}),
    ],
)
async def test_a_roll_its_board_does_not_show_redraws_nothing(
    harness: Harness, system: str, command: str, options: dict[str, Any]
) -> None:
    """A roll that spends nothing is a record of a kind the table's board never reads: the
    board is neither drawn again nor edited."""
    h = harness
    await h.table_for(system)
    await h.slash("mesa tablero", user=GM)
    assert h.bot is not None
    await h.bot.boards.settled()
    made, edits = h.bot.boards.drawings.made, h.bot.boards.edits
    reply = await h.slash(command, **options)
    assert reply.messages
    await h.bot.boards.settled()
    assert (h.bot.boards.drawings.made, h.bot.boards.edits) == (made, edits)
