"""/donjon iniciativa through discord.py: the panel only calls ``rules.donjon.combat.Combat`` (issue 15)."""

from __future__ import annotations

import pytest

from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import GM, OTHER, PLAYER, User


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("donjon")
    return harness


async def join(h: Harness, panel: Message, dice: str, user: User = PLAYER) -> Reply:
    opened = await h.click(h.current(panel), "donjon:ini:unirme:1:0", user=user)
    return await h.submit(opened.modal_id, {"dados": dice}, user=user, message=h.current(panel))


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
