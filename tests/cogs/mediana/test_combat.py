"""The Mediana initiative panel (issue 15; cogs/mediana/combat.py): joining once a round, each
round rolled at the rank the PV give now, the dice, the turn and *Siguiente*."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.support.harness import Harness
from tests.support.payloads import GM, OTHER, PLAYER, User, offered

PANEL = "mediana:ini:{action}:1:{step}"


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("mediana")
    return harness


# -- the initiative tracker -------------------------------------------------------------------------


async def join(table: Harness, panel_id: int, user: User, bonus: str, *faces: int, npc: str = "") -> None:
    panel = table.discord.messages[panel_id]
    action = "pnj" if npc else "unirme"
    form = await table.click(panel, PANEL.format(action=action, step=0), user=user)
    table.script(*faces)
    await table.submit(
        form.modal_id,
        {"nombre": npc, "bono": [bonus]},
        user=user,
        message=table.current(panel),
    )


async def test_joining_again_in_a_round_is_refused(table: Harness) -> None:
    """Issue 15: a second *Unirme* in the round would be a second initiative roll: refused
    before the form opens, and a form opened earlier is refused on submit."""
    panel = (await table.slash("mediana iniciativa")).message
    second_form = await table.click(panel, PANEL.format(action="unirme", step=0))
    await join(table, panel.id, PLAYER, "5", 2, 7, 9)
    early = await table.click(table.current(panel), PANEL.format(action="unirme", step=0))
    assert early.ephemeral
    assert "la iniciativa se tira una vez por ronda" in early.text
    table.script(10, 10, 10, 9, 9, 9)
    again = await table.submit(
        second_form.modal_id, {"nombre": "", "bono": ["5"]}, message=table.current(panel)
    )
    assert again.ephemeral
    assert "la iniciativa se tira una vez por ronda" in again.text
    assert "**12** · Jugadora · 1 acción" in str(table.current(panel).data)


async def test_a_new_round_rolls_at_the_rank_the_pv_sheet_gives_now(table: Harness) -> None:
    """Issue 15: joined at medio, then malherido: the next round rolls at bajo."""
    panel = (await table.slash("mediana iniciativa")).message
    await join(table, panel.id, PLAYER, "0", 2, 7, 9)
    await table.slash("mediana pv fijar", fisico=4, maximo=20, actual=3)
    table.script(2, 7, 9)
    await table.click(table.current(panel), PANEL.format(action="ronda", step=1), user=GM)
    shown = str(table.current(panel).data)
    assert "Combate · ronda 2" in shown
    assert "**2** · Jugadora" in shown


async def test_the_panel_shows_the_dice_the_turn_and_next(table: Harness) -> None:
    """Issue 17: whose turn, the dice, and *Siguiente* for the turn's holder or the GM;
    a double press moves once; after the last, everyone rolls again."""
    panel = (await table.slash("mediana iniciativa")).message
    await join(table, panel.id, PLAYER, "10", 10, 10, 1, 2, 3, 4)
    await join(table, panel.id, GM, "2", 3, 3, 3, npc="Orco")
    now = table.current(panel)
    shown = str(now.data)
    assert "▶️ Turno de Jugadora." in shown
    assert "▶️ **23** · Jugadora · 2 acciones · ~~1~~ **10**💥 ~~10~~ → ~~2~~ **3** ~~4~~" in shown
    assert "**5** · Orco · 1 acción · ~~3~~ **3** ~~3~~" in shown
    assert PANEL.format(action="siguiente", step=0) in now.custom_ids
    stranger = await table.click(now, PANEL.format(action="siguiente", step=0), user=OTHER)
    assert "Solo quien tiene el turno" in stranger.text
    one, two = await asyncio.gather(
        table.click(now, PANEL.format(action="siguiente", step=0)),
        table.click(now, PANEL.format(action="siguiente", step=0)),
    )
    assert sorted([one.ephemeral, two.ephemeral]) == [False, True]
    assert "▶️ Turno de Orco." in str(table.current(panel).data)
    assert "▶️ Turno de Orco (ronda 1)." in str(one.calls + two.calls)
    player_refused = await table.click(table.current(panel), PANEL.format(action="siguiente", step=1))
    assert player_refused.ephemeral
    table.script(1, 2, 3, 9, 9, 9)
    new_round = await table.click(table.current(panel), PANEL.format(action="siguiente", step=1), user=GM)
    shown = str(table.current(panel).data)
    assert "Combate · ronda 2" in shown
    assert "▶️ Turno de Jugadora." in shown
    pinged = str(new_round.calls)
    assert f"'content': '<@{PLAYER.id}>'" in pinged and "▶️ Turno de Jugadora (ronda 2)." in pinged
    assert "▶️ **12** · Jugadora · 1 acción · ~~1~~ **2** ~~3~~" in shown


# -- the join form (issue #31) ------------------------------------------------------------------


async def test_the_join_form_picks_the_bonus_and_the_estorbo_at_both_ends(table: Harness) -> None:
    """The bonus from -4 to 20, the estorbo the sheet's (first) or 0 to 23; an NPC's none
    (first) or 1 to 23: bonus − estorbo + the middle die, as before when typed."""
    panel = (await table.slash("mediana iniciativa")).message
    mine = await table.click(panel, PANEL.format(action="unirme", step=0))
    assert offered(mine.form, "bono") == [str(n) for n in range(-4, 21)]
    assert offered(mine.form, "estorbo") == ["-", *(str(n) for n in range(24))]
    table.script(2, 7, 9)
    fields = {"nombre": "", "bono": ["20"], "estorbo": ["23"]}
    await table.submit(mine.modal_id, fields, message=table.current(panel))
    npc = await table.click(table.current(panel), PANEL.format(action="pnj", step=0), user=GM)
    assert offered(npc.form, "estorbo") == [str(n) for n in range(24)]
    table.script(2, 7, 9)
    await table.submit(
        npc.modal_id, {"nombre": "Orco", "bono": ["-4"]}, user=GM, message=table.current(panel)
    )
    shown = str(table.current(panel).data)
    assert "**4** · Jugadora · 1 acción" in shown and "**3** · Orco · 1 acción" in shown


@pytest.mark.parametrize(
    ("action", "fields"),
    [("unirme", {"bono": ["21"], "estorbo": ["0"]}), ("pnj", {"bono": ["0"], "estorbo": ["-"]})],
)
async def test_the_join_form_refuses_a_number_it_did_not_offer(
    table: Harness, action: str, fields: dict[str, list[str]]
) -> None:
    panel = (await table.slash("mediana iniciativa")).message
    opened = await table.click(panel, PANEL.format(action=action, step=0), user=GM)
    components: list[dict[str, Any]] = [
        {"type": 1, "components": [{"type": 4, "custom_id": "nombre", "value": "Orco"}]}
    ]
    components += [
        {"type": 18, "component": {"type": 3, "custom_id": key, "values": values}}
        for key, values in fields.items()
    ]
    message = table.current(panel)
    data = {"custom_id": opened.modal_id, "components": components}
    table.script(2, 7, 9)
    refused = await table.dispatch(
        5, data, user=GM, locale="es-ES", channel_id=message.channel_id, message=message
    )
    assert refused.ephemeral and "no estaba en el formulario" in refused.text, refused.text
    assert "Orco" not in str(table.current(panel).data)


@pytest.mark.parametrize(("action", "user", "name"), [("pnj", GM, "Orco"), ("unirme", PLAYER, "")])
async def test_a_cleared_estorbo_reads_as_its_first_answer(
    table: Harness, action: str, user: User, name: str
) -> None:
    """The estorbo question is optional (its first answer is chosen), so Discord's client
    lets it be cleared: an NPC's then reads as "Ninguno (0)", a player's as the sheet's
    (none here), not as a choice the form did not offer."""
    panel = (await table.slash("mediana iniciativa")).message
    opened = await table.click(panel, PANEL.format(action=action, step=0), user=user)
    table.script(2, 7, 9)
    fields = {"nombre": name, "bono": ["5"], "estorbo": []}
    await table.submit(opened.modal_id, fields, user=user, message=table.current(panel))
    assert f"**12** · {name or 'Jugadora'} · 1 acción" in str(table.current(panel).data)
