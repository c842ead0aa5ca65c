"""The D&D tracker at the table (issues #15 and #17; cogs/dnd5e/combat.py): joining once,
removing whoever acts, heroic inspiration on initiative and its history row."""

from __future__ import annotations

import pytest

from tests.support.harness import Harness, Message
from tests.support.payloads import GM, GUILD_ID, OTHER, PLAYER, offered


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("dnd5e")
    return harness


async def two_in_combat(table: Harness) -> Message:
    """Jugadora (15) and Otro (5) in a started combat, Jugadora acting: the panel."""
    panel = (await table.slash("dnd iniciativa panel")).message
    table.script(15)
    await table.slash("dnd iniciativa unirme", modificador=0)
    table.script(5)
    await table.slash("dnd iniciativa unirme", modificador=0, user=OTHER)
    await table.click(table.current(panel), "dnd:ini:empezar:1:0", user=GM)
    return panel


# -- the tracker ---------------------------------------------------------------------------------


async def test_joining_again_mid_combat_does_not_reroll(table: Harness) -> None:
    """ "El orden de Iniciativa permanece invariable de una ronda a otra"."""
    panel = await two_in_combat(table)
    table.script(20)
    again = await table.slash("dnd iniciativa unirme", modificador=5)
    assert again.ephemeral
    assert "Ya estás en el orden de iniciativa" in again.text
    panel = str(table.current(panel).data)
    assert "**15** · Jugadora" in panel
    assert "25" not in panel


async def test_joining_again_from_the_form_does_not_reroll(table: Harness) -> None:
    panel = (await table.slash("dnd iniciativa panel")).message
    opened = await table.click(table.current(panel), "dnd:ini:unirme:1:0")
    table.script(15)
    await table.slash("dnd iniciativa unirme", modificador=0)
    table.script(20)
    again = await table.submit(
        opened.modal_id,
        {"nombre": "Otra vez", "modificador": ["5"]},
        message=table.current(panel),
    )
    assert again.ephemeral and "Ya estás en el orden de iniciativa" in again.text
    assert "**15** · Jugadora" in str(table.current(panel).data)
    no_form = await table.click(table.current(panel), "dnd:ini:unirme:1:0")
    assert no_form.callback.payload["type"] != 9
    assert "Ya estás en el orden de iniciativa" in no_form.text


async def test_removing_the_last_one_while_acting_starts_the_next_round(table: Harness) -> None:
    panel = await two_in_combat(table)
    moved = await table.click(table.current(panel), "dnd:ini:siguiente:1:0")
    assert "▶️ Turno de Otro (ronda 1)." in moved.text
    removed = await table.slash("dnd iniciativa quitar", user=GM, combatiente=f"u{OTHER.id}")
    assert "▶️ Turno de Jugadora (ronda 2)." in removed.text
    assert "ronda 2" in str(table.current(panel).data)


async def test_heroic_inspiration_rerolls_ones_own_initiative(table: Harness) -> None:
    await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    panel = (await table.slash("dnd iniciativa panel")).message
    table.script(3)
    joined = await table.slash("dnd iniciativa unirme", modificador=2)
    assert joined.ephemeral
    assert joined.message.custom_ids == ["dnd:ini:insp0:1:0"]
    assert "Inspiración: repetir el 3" not in joined.text
    table.script(18)
    used = await table.click(joined.message, "dnd:ini:insp0:1:0")
    assert "**20** · Jugadora" in used.text
    assert "**20** · Jugadora" in str(table.current(panel).data)
    assert await table.pool("inspiracion", PLAYER.id) == 0
    again = await table.click(joined.message, "dnd:ini:insp0:1:0")
    assert again.ephemeral
    history = await table.slash("mesa historial", user=GM)
    link = f"https://discord.com/channels/{GUILD_ID}/{panel.channel_id}/{panel.id}"
    assert "inspiración heroica usada para repetir la iniciativa [mensaje](" + link in history.text
    await table.assert_ledger_matches()


async def test_inspiration_on_initiative_from_the_form_and_not_after_the_start(table: Harness) -> None:
    await table.slash("dnd inspiracion dar", user=GM, jugador=OTHER)
    panel = (await table.slash("dnd iniciativa panel")).message
    opened = await table.click(table.current(panel), "dnd:ini:unirme:1:0", user=OTHER)
    table.script(4, 9)
    submitted = await table.submit(
        opened.modal_id,
        {"nombre": "Bram", "modificador": ["1"], "modo": "ventaja"},
        user=OTHER,
        message=table.current(panel),
    )
    offer = submitted.messages[-1]
    assert offer.ephemeral
    assert offer.custom_ids == ["dnd:ini:insp0:1:0", "dnd:ini:insp1:1:0"]
    await table.click(table.current(panel), "dnd:ini:empezar:1:0", user=GM)
    late = await table.click(offer, "dnd:ini:insp0:1:0", user=OTHER)
    assert late.ephemeral and "justo al tirarla" in late.text
    assert await table.pool("inspiracion", OTHER.id) == 1


async def test_the_history_row_of_a_reroll_says_what_it_paid_for_with_the_link(table: Harness) -> None:
    await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    table.script(3)
    reply = await table.slash("dnd prueba", modificador=0, motivo="Trepar")
    table.script(15)
    await table.click(reply.message, reply.message.custom_ids[0])
    history = await table.slash("mesa historial", user=GM)
    link = f"https://discord.com/channels/{GUILD_ID}/{reply.message.channel_id}/{reply.message.id}"
    assert f"usada para repetir un d20 de la tirada [mensaje]({link})" in history.text


async def test_no_inspiration_no_offer_on_joining(table: Harness) -> None:
    await table.slash("dnd iniciativa panel")
    table.script(3)
    joined = await table.slash("dnd iniciativa unirme", modificador=2)
    assert joined.message.custom_ids == []


# -- the join form (issue #31) -------------------------------------------------------------------


async def test_the_join_form_picks_the_modifier_and_advantage_or_surprise(table: Harness) -> None:
    """The modifier from -5 to +18 (or the sheet's, first), advantage or surprise picked:
    a pick rolls what the typed command rolls."""
    panel = (await table.slash("dnd iniciativa panel")).message
    opened = await table.click(table.current(panel), "dnd:ini:unirme:1:0", user=OTHER)
    modifiers = offered(opened.form, "modificador")
    assert modifiers == ["-", *(str(n) for n in range(-5, 19))]
    assert offered(opened.form, "modo") == ["normal", "ventaja", "desventaja"]
    table.script(4, 17)
    await table.submit(
        opened.modal_id,
        {"nombre": "Bram", "modificador": ["18"], "modo": "ventaja"},
        user=OTHER,
        message=table.current(panel),
    )
    table.script(4, 17)
    await table.slash("dnd iniciativa unirme", modificador=-5, sorprendido=True)
    shown = str(table.current(panel).data)
    assert "**35** · Bram" in shown and "**-1** · Jugadora" in shown


@pytest.mark.parametrize("fields", [{"modificador": ["19"]}, {"modo": "sorprendido"}])
async def test_the_join_form_refuses_what_it_did_not_offer(table: Harness, fields: dict[str, object]) -> None:
    panel = (await table.slash("dnd iniciativa panel")).message
    opened = await table.click(table.current(panel), "dnd:ini:unirme:1:0", user=OTHER)
    table.script(4, 17)
    sent = {"modificador": ["0"], "modo": "normal", **fields}
    components = [
        {"type": 18, "component": {"type": 21, "custom_id": "modo", "value": sent["modo"]}},
        {"type": 18, "component": {"type": 3, "custom_id": "modificador", "values": sent["modificador"]}},
        {"type": 1, "components": [{"type": 4, "custom_id": "nombre", "value": "Bram"}]},
    ]
    data = {"custom_id": opened.modal_id, "components": components}
    message = table.current(panel)
    refused = await table.dispatch(
        5, data, user=OTHER, locale="es-ES", channel_id=message.channel_id, message=message
    )
    assert refused.ephemeral and "no estaba en el formulario" in refused.text, refused.text
    assert "Bram" not in str(table.current(panel).data)
