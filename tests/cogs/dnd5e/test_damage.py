"""Damage as SRD 5.2 applies it (issue 27): one roll to several creatures at once, half on a
successful save, resistance, vulnerability and immunity by damage type from the sheet or
chosen when applying; each announced change is what the books then hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.dnd5e import tracker as dnd5e_tracker
from tests.support.harness import Harness, Message, Upload
from tests.support.payloads import GM, PLAYER

SHEET = Path(__file__).resolve().parents[3] / "docs" / "fichas" / "dnd5e.json"
LIA = f"u{PLAYER.id}"


@pytest.fixture
async def table(harness: Harness) -> Harness:
    """Lía Brezo (38 HP) resists fire, is immune to poison and vulnerable to radiant
    damage; three goblins of 20 HP, AC 13."""
    await harness.table_for("dnd5e")
    data = json.loads(SHEET.read_bytes())
    data |= {"resistencias": ["fuego"], "inmunidades": ["veneno"], "vulnerabilidades": ["radiante"]}
    imported = await harness.slash("ficha importar", archivo=Upload("lia.json", json.dumps(data).encode()))
    assert "importada" in imported.text, imported.text
    await harness.slash("dnd iniciativa panel")
    harness.script(15)
    await harness.slash("dnd iniciativa unirme")
    harness.script(10)
    await harness.slash(
        "dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=2, cantidad=3, pg=20, ca=13
    )
    return harness


async def hit_points(h: Harness) -> dict[str, int]:
    """Every creature's current hit points as the books hold them (Lía's: her sheet's pool)."""
    assert h.bot is not None
    record = await h.bot.store.record(1)
    assert record is not None
    tracker = dnd5e_tracker.tracker_from_data(record.data)
    found = {m.name: m.hp.current for c in tracker.order for m in c.members if m.hp}
    sheet = (await h.slash("ficha ver")).text
    found["Lía Brezo"] = int(sheet[sheet.index("PG ") + 3 :].split("/")[0])
    return found


def damage_button(message: Message) -> str:
    return next(c for c in message.custom_ids if c.startswith("dnd:dano:"))


async def goblin(h: Harness, n: int) -> str:
    return str((await h.autocomplete("dnd ataque", "objetivo", f"Goblin {n}", user=GM))[0]["value"])


async def test_one_roll_reaches_several_creatures_half_on_a_save(table: Harness) -> None:
    """A fireball of 8d6 = 25 fire: Goblins 1 and 2 saved (12 each), Goblin 3 and Lía did
    not (25; Lía resists fire: 12)."""
    table.script(1, 2, 3, 4, 5, 6, 2, 2)
    fireball = await table.slash("dnd tirar", user=GM, expresion="8d6", tipo="fuego")
    assert "= **25** Fuego" in fireball.text
    menu = await table.click(fireball.message, damage_button(fireball.message), user=GM)
    picker, how = menu.message.custom_ids[:2]
    assert menu.message.data["components"][0]["components"][0]["max_values"] == 4
    await table.click(menu.message, how, user=GM, values=["mitad"], component_type=3)
    menu_now = table.current(menu.message)
    picker = menu_now.custom_ids[0]
    assert picker.endswith(":mitad")
    saved = [await goblin(table, 1), await goblin(table, 2)]
    done = await table.click(menu_now, picker, user=GM, values=saved, component_type=3)
    assert "Goblin 1 recibe 12 de daño (mitad por la salvación)." in done.text
    assert "Goblin 2 recibe 12 de daño (mitad por la salvación)." in done.text
    second = await table.click(fireball.message, damage_button(fireball.message), user=GM)
    full = await table.click(
        second.message,
        second.message.custom_ids[0],
        user=GM,
        values=[await goblin(table, 3), LIA],
        component_type=3,
    )
    assert "Goblin 3 recibe 25 de daño." in full.text
    assert "Lía Brezo recibe 12 de daño (resistencia)." in full.text
    assert await hit_points(table) == {"Goblin 1": 8, "Goblin 2": 8, "Goblin 3": 0, "Lía Brezo": 26}
    third = await table.click(fireball.message, damage_button(fireball.message), user=GM)
    assert "Goblin 3" not in str(third.message.data)  # dead: no longer offered
    again = await table.click(
        third.message, third.message.custom_ids[0], user=GM, values=saved, component_type=3
    )
    assert again.ephemeral and "ya se aplicó" in again.text
    assert await hit_points(table) == {"Goblin 1": 8, "Goblin 2": 8, "Goblin 3": 0, "Lía Brezo": 26}
    await table.assert_ledger_matches()


@pytest.mark.parametrize(("kind", "taken"), [("veneno", 0), ("radiante", 14), ("fuego", 3), ("cortante", 7)])
async def test_the_sheets_defences_apply_by_the_attacks_type(table: Harness, kind: str, taken: int) -> None:
    table.script(15, 4)  # 15 + 4 hits AC 15; 1d4+3 = 7
    attack = await table.slash("dnd ataque", user=GM, objetivo=LIA, bonificador=4, dano="1d4+3", tipo=kind)
    applied = await table.click(attack.message, damage_button(attack.message), user=GM)
    assert f"Lía Brezo recibe {taken} de daño" in applied.text
    assert (await hit_points(table))["Lía Brezo"] == 38 - taken


async def test_a_sheet_weapons_type_is_read_and_a_typed_one_wins(table: Harness) -> None:
    """Lía's longsword is "cortante" on her sheet; the goblins have no sheet, so the GM
    chooses their resistance when applying."""
    table.script(15, 6)
    sword = await table.slash("dnd ataque", ca=10, arma="Espada larga")
    assert "= **6** Cortante" in sword.text
    table.script(15, 6)
    fire = await table.slash("dnd ataque", ca=10, arma="Espada larga", tipo="fuego")
    assert "= **6** Fuego" in fire.text
    menu = await table.click(fire.message, damage_button(fire.message))
    await table.click(menu.message, menu.message.custom_ids[1], values=["resistencia"], component_type=3)
    now = table.current(menu.message)
    done = await table.click(now, now.custom_ids[0], values=[await goblin(table, 1)], component_type=3)
    assert "Goblin 1 recibe 3 de daño (resistencia)." in done.text
    assert (await hit_points(table))["Goblin 1"] == 17


def test_a_menu_posted_before_the_choice_applies_in_full() -> None:
    """Menus posted before "how" was in their custom_id still match, and take it in full."""
    from cogs.dnd5e.damage import TargetSelect, adjustment
    from rules.dnd5e.damage_types import Adjustment

    template = TargetSelect.__discord_ui_compiled_template__
    old, new = template.fullmatch("dnd:blanco:7:1:-"), template.fullmatch("dnd:blanco:7:1:m9:mitad")
    assert old is not None and adjustment(old["how"]) is Adjustment.FULL
    assert new is not None and adjustment(new["how"]) is Adjustment.HALF
