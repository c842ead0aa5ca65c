"""/donjon iniciativa through discord.py: the panel only calls ``rules.donjon.combat.Combat`` (issue 15)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.donjon import combat as donjon_combat
from tests.cogs.ficha.test_panel import submit
from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import GM, OTHER, PLAYER, User


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("donjon")
    return harness


async def join(h: Harness, panel: Message, dice: str, user: User = PLAYER) -> Reply:
    opened = await h.click(h.current(panel), "donjon:ini:unirme:1:0", user=user)
    return await h.submit(opened.modal_id, {"dados": [dice]}, user=user, message=h.current(panel))


def text(h: Harness, panel: Message) -> str:
    return str(h.current(panel).data)


async def test_joining_again_before_the_rafaga_does_not_reroll(table: Harness) -> None:
    panel = (await table.slash("donjon iniciativa")).message
    table.script(10, 10, 2)
    await join(table, panel, "3")
    table.script(20, 20, 20)
    again = await join(table, panel, "3")
    assert again.ephemeral and "Ya estás en el combate" in again.text
    assert "**Jugadora**: 10 10 2" in text(table, panel)


async def test_joining_again_after_the_rafaga_started_keeps_dice_schedule_and_turn(table: Harness) -> None:
    panel = (await table.slash("donjon iniciativa")).message
    table.script(10, 2)
    await join(table, panel, "2")
    table.script(7)
    await join(table, panel, "1", user=OTHER)
    await table.click(table.current(panel), "donjon:ini:siguiente:1:0")
    before = text(table, panel)
    assert "▶️ **7**: actúa Otro." in before
    again = await join(table, panel, "2")
    assert again.ephemeral and "Ya estás en el combate" in again.text
    assert text(table, panel) == before
    assert "donjon:ini:siguiente:1:1" in table.current(panel).custom_ids


async def test_the_gm_removes_a_combatant_and_the_countdown_keeps_its_place(table: Harness) -> None:
    panel = (await table.slash("donjon iniciativa")).message
    table.script(10, 2)
    await join(table, panel, "2")
    table.script(7)
    await join(table, panel, "1", user=OTHER)
    await table.click(table.current(panel), "donjon:ini:siguiente:1:0")
    refused = await table.click(table.current(panel), "donjon:ini:quitar:1:0")
    assert refused.ephemeral and refused.text
    menu = await table.click(table.current(panel), "donjon:ini:quitar:1:0", user=GM)
    assert menu.ephemeral
    removed = await table.click(
        menu.message, "donjon:quitar:1", user=GM, values=[f"u{OTHER.id}"], component_type=3
    )
    assert "Fuera del combate" in removed.text
    now = text(table, panel)
    assert "Otro" not in now
    assert "▶️ **2**: actúa Jugadora." in now


@pytest.mark.parametrize(
    ("locale", "pool", "own", "npcs"),
    [
        ("es-ES", "Dados de iniciativa: Nivel + Discernimiento", "Los de tu ficha activa", "Los de su ficha"),
        ("en-US", "Initiative dice: Level + Discernment", "Those of your active sheet", "Those of its NPC"),
    ],
)
async def test_the_initiative_forms_pick_their_dice_and_how_many_alike(
    table: Harness, locale: str, pool: str, own: str, npcs: str
) -> None:
    """Joining asks no typed number (#31): the dice are picked, the sheet's Nivel +
    Discernimiento first, then 1 to 24; the GM's NPC form picks the dice and how many alike
    share the roll, 1 to 20 ("haz solo una tirada para todos"); its name stays typed."""
    panel = (await table.slash("donjon iniciativa")).message
    opened = await table.click(panel, "donjon:ini:unirme:1:0", locale=locale)
    (question,) = opened.callback.payload["data"]["components"]
    assert question["label"] == pool and len(pool) <= 45
    dice = question["component"]
    assert (dice["type"], dice["custom_id"]) == (3, "dados")
    values = [o["value"] for o in dice["options"]]
    assert values == ["-", *(str(n) for n in range(1, 25))]
    assert dice["options"][0]["label"] == own and dice["options"][0]["default"]
    table.script(10, 10, 2)
    joined = await table.submit(
        opened.modal_id, {"dados": ["3"]}, locale=locale, message=table.current(panel)
    )
    assert "**Jugadora**: 10 10 2" in joined.text
    form = await table.click(table.current(panel), "donjon:ini:pnj:1:0", user=GM, locale=locale)
    name, npc_dice, alike = (q["component"] for q in form.callback.payload["data"]["components"])
    assert (name["type"], name["custom_id"]) == (4, "nombre")
    assert npc_dice["options"][0]["label"].startswith(npcs)
    assert [o["value"] for o in alike["options"]] == [str(n) for n in range(1, 21)]
    assert [o["value"] for o in alike["options"] if o.get("default")] == ["1"]
    table.script(10)
    fields = {"nombre": "Trasgo", "dados": ["1"], "cantidad": ["2"]}
    added = await table.submit(form.modal_id, fields, user=GM, locale=locale, message=table.current(panel))
    assert "**Trasgo** ×2" in added.text


async def test_initiative_numbers_the_forms_did_not_offer_are_refused(table: Harness) -> None:
    """A client can send anything: 25 dice or 21 alike (never offered) change nothing."""
    panel = (await table.slash("donjon iniciativa")).message
    opened = await table.click(panel, "donjon:ini:unirme:1:0")
    before = text(table, panel)
    refused = await submit(table, opened, table.current(panel), dados=["25"])
    assert refused.ephemeral and "Esa opción no estaba en el formulario" in refused.text
    form = await table.click(table.current(panel), "donjon:ini:pnj:1:0", user=GM)
    refused = await submit(
        table, form, table.current(panel), user=GM, nombre="Trasgo", dados=["1"], cantidad=["21"]
    )
    assert refused.ephemeral and "Esa opción no estaba en el formulario" in refused.text
    assert text(table, panel) == before


async def test_a_turn_press_decodes_the_pressed_combat_once_and_the_written_one_once(
    table: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks, the decision and the redraw share their decoding: the stored combat read
    (the decision's record is the same version) and the one written (the card)."""
    panel = (await table.slash("donjon iniciativa")).message
    table.script(10, 2)
    await join(table, panel, "2")
    decoded: list[int] = []
    original = donjon_combat.combat_from_data

    def counting(data: dict[str, Any]) -> donjon_combat.Combat:
        decoded.append(data["step"])
        return original(data)

    monkeypatch.setattr(donjon_combat, "combat_from_data", counting)
    await table.click(table.current(panel), "donjon:ini:siguiente:1:0")
    assert decoded == [0, 1]
    assert "donjon:ini:siguiente:1:1" in table.current(panel).custom_ids
