"""Hit points and AC on the D&D tracker (issue 18): the GM's view, "Aplicar daño" on a
roll (a sheet's pools through the ledger, a monster's in the tracker), the GM's form, and
``/dnd ataque objetivo`` against the creature's AC."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rules.dnd5e import tracker as dnd5e_tracker
from tests.support.harness import Harness, Message, Upload
from tests.support.payloads import GM, OTHER, PLAYER

SHEET = Path(__file__).resolve().parents[3] / "docs" / "fichas" / "dnd5e.json"


@pytest.fixture
async def table(harness: Harness) -> Harness:
    """Lía Brezo (the player's sheet: 38 HP, AC 15) and three goblins (7 HP, AC 13 each)."""
    await harness.table_for("dnd5e")
    imported = await harness.slash("ficha importar", archivo=Upload("dnd5e.json", SHEET.read_bytes()))
    assert "importada" in imported.text
    await harness.slash("dnd iniciativa panel")
    harness.script(15)
    await harness.slash("dnd iniciativa unirme")
    harness.script(10)
    await harness.slash(
        "dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=2, cantidad=3, pg=7, ca=13
    )
    return harness


async def panel(h: Harness) -> Message:
    assert h.bot is not None
    record = await h.bot.store.record(1)
    assert record is not None and record.message_id is not None
    return h.discord.messages[record.message_id]


async def tracker(h: Harness) -> dnd5e_tracker.Tracker:
    assert h.bot is not None
    record = await h.bot.store.record(1)
    assert record is not None
    return dnd5e_tracker.tracker_from_data(record.data)


async def goblins(h: Harness) -> tuple[int | None, ...]:
    """Each goblin's current hit points."""
    group = next(c for c in (await tracker(h)).order if c.name == "Goblin")
    return tuple(m.hp.current if m.hp else None for m in group.members)


async def goblin(h: Harness, n: int) -> str:
    """Goblin ``n``'s id, as the ``objetivo`` autocomplete offers it."""
    choices = await h.autocomplete("dnd ataque", "objetivo", f"Goblin {n}")
    return str(choices[0]["value"])


async def test_the_gm_sees_hit_points_and_ac_a_player_only_their_own(table: Harness) -> None:
    shown = await table.click(await panel(table), "dnd:pg:1", user=GM)
    assert shown.ephemeral
    assert "**Lía Brezo** · PG 38/38 (+0 temporales) · CA 15" in shown.text
    assert "**Goblin 2** · PG 7/7 (+0 temporales) · CA 13" in shown.text
    mine = await table.click(await panel(table), "dnd:pg:1")
    assert mine.ephemeral and "Lía Brezo" in mine.text and "Goblin" not in mine.text
    refused = await table.click(await panel(table), "dnd:pg:1", user=OTHER)
    assert refused.ephemeral and "son cosa del DJ" in refused.text
    public = str((await panel(table)).data)
    assert "Goblin ×3" in public and "7/7" not in public and "13" not in public and "38" not in public


async def test_an_attack_on_a_target_uses_its_ac_and_applies_damage_once(table: Harness) -> None:
    target = await goblin(table, 2)
    table.script(9, 4)  # 9 + 5 = 14 against the goblin's AC 13; 1d6+2 = 6
    attack = await table.slash("dnd ataque", objetivo=target, bonificador=5, dano="1d6+2")
    assert "Impacta a Goblin 2: 14" in attack.text and "CA 13" not in attack.text
    button = f"dnd:dano:{attack.message.custom_ids[-1].rsplit(':', 1)[1]}"
    assert button in attack.message.custom_ids
    applied = await table.click(attack.message, button)
    assert "🩸 Goblin 2 recibe 6 de daño." in applied.text and not applied.ephemeral
    assert "1/7" not in applied.text  # a monster's hit points are the GM's
    assert await goblins(table) == (7, 1, 7)
    again = await table.click(attack.message, button)
    assert again.ephemeral and "ya se aplicó" in again.text
    assert await goblins(table) == (7, 1, 7)


async def test_a_miss_against_the_target_ac_offers_no_damage(table: Harness) -> None:
    target = await goblin(table, 1)
    table.script(7)  # 7 + 5 = 12 against AC 13
    attack = await table.slash("dnd ataque", objetivo=target, bonificador=5, dano="1d6+2")
    assert "Falla contra Goblin 1: 12" in attack.text
    assert not any(c.startswith("dnd:dano:") for c in attack.message.custom_ids)


async def test_damage_to_a_sheet_goes_through_the_ledger_and_undo_reverts(table: Harness) -> None:
    table.script(15, 3, 4)  # 15 + 4 hits AC 10; 2d6 = 7
    attack = await table.slash("dnd ataque", user=GM, ca=10, bonificador=4, dano="2d6")
    button = next(c for c in attack.message.custom_ids if c.startswith("dnd:dano:"))
    stranger = await table.click(attack.message, button, user=OTHER)
    assert "Solo quien hizo la tirada" in stranger.text
    menu = await table.click(attack.message, button, user=GM)
    second_menu = await table.click(attack.message, button, user=GM)
    assert menu.ephemeral
    select = menu.message.custom_ids[0]
    picked = await table.click(menu.message, select, user=GM, values=[f"u{PLAYER.id}"], component_type=3)
    assert "Lía Brezo recibe 7 de daño." in picked.text and "PG 38 → 31 de 38" in picked.text
    assert "PG 31/38" in (await table.slash("ficha ver")).text
    twice = await table.click(
        second_menu.message, select, user=GM, values=[f"u{PLAYER.id}"], component_type=3
    )
    assert "ya se aplicó" in twice.text
    assert "PG 31/38" in (await table.slash("ficha ver")).text
    history = await table.slash("mesa historial", user=GM)
    assert "daño de una tirada aplicado en el combate" in history.text
    await table.slash("mesa deshacer", user=GM)
    assert "PG 38/38" in (await table.slash("ficha ver")).text
    await table.assert_ledger_matches()


async def test_the_apply_button_and_menu_survive_a_restart(table: Harness) -> None:
    table.script(15, 6)
    attack = await table.slash("dnd ataque", user=GM, ca=10, bonificador=4, dano="1d6+1")
    button = next(c for c in attack.message.custom_ids if c.startswith("dnd:dano:"))
    menu = await table.click(attack.message, button, user=GM)
    await table.restart()
    assert (await table.click(attack.message, button, user=GM)).ephemeral
    target = await goblin(table, 3)
    picked = await table.click(
        menu.message, menu.message.custom_ids[0], user=GM, values=[target], component_type=3
    )
    assert "Goblin 3 recibe 7 de daño." in picked.text and "💀 Goblin 3 muere." in picked.text
    assert "PG 7 → 0 de 7" in picked.text  # the GM sees the numbers
    # A dead monster is no longer offered as a target.
    names = [c["name"] for c in await table.autocomplete("dnd ataque", "objetivo", "Goblin")]
    assert names == ["Goblin 1", "Goblin 2"]
    dead = await table.slash("dnd ataque", objetivo=target, bonificador=5)
    assert dead.ephemeral and "ya está muerta" in dead.text


async def test_the_gms_form_heals_damages_and_gives_temporary_hit_points(table: Harness) -> None:
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    select = view.message.custom_ids[0]
    target = await goblin(table, 1)
    refused = await table.click(view.message, select, values=[target], component_type=3)
    assert refused.ephemeral and "DJ" in refused.text
    opened = await table.click(view.message, select, user=GM, values=[target], component_type=3)
    form = await table.submit(
        opened.modal_id, {"dano": "5", "curacion": "", "temporales": "4", "maximos": ""}, user=GM
    )
    assert "Goblin 1: PG 7 → 2 de 7 (+4 temporales)." in form.text
    opened = await table.click(view.message, select, user=GM, values=[f"u{PLAYER.id}"], component_type=3)
    sheet_form = opened.callback.payload
    assert isinstance(sheet_form, dict)
    assert "maximos" not in str(sheet_form)  # a sheet's maximum is edited on the sheet
    healed = await table.submit(opened.modal_id, {"dano": "10", "curacion": "3", "temporales": ""}, user=GM)
    assert "Lía Brezo: PG 38 → 31 de 38" in healed.text
    assert "PG 31/38" in (await table.slash("ficha ver")).text
    history = await table.slash("mesa historial", user=GM)
    assert "PG cambiados por el DJ en el combate" in history.text


async def test_temporary_hit_points_absorb_an_attack_first(table: Harness) -> None:
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    target = await goblin(table, 2)
    opened = await table.click(
        view.message, view.message.custom_ids[0], user=GM, values=[target], component_type=3
    )
    await table.submit(
        opened.modal_id, {"dano": "", "curacion": "", "temporales": "4", "maximos": ""}, user=GM
    )
    table.script(15, 6)
    attack = await table.slash("dnd ataque", objetivo=target, bonificador=5, dano="1d6")
    await table.click(attack.message, next(c for c in attack.message.custom_ids if c.startswith("dnd:dano:")))
    group = next(c for c in (await tracker(table)).order if c.name == "Goblin")
    hp = group.members[1].hp
    assert hp is not None and (hp.current, hp.temporary) == (5, 0)


async def test_monsters_without_hit_points_get_them_from_the_gm(table: Harness) -> None:
    table.script(3)
    await table.slash("dnd iniciativa monstruos", user=GM, nombre="Orco", modificador=0)
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    assert "**Orco** · PG sin anotar" in view.text
    orc = (await table.autocomplete("dnd ataque", "objetivo", "Orco"))[0]["value"]
    no_ac = await table.slash("dnd ataque", objetivo=orc, bonificador=5)
    assert "No sé la CA de Orco" in no_ac.text
    opened = await table.click(
        view.message, view.message.custom_ids[0], user=GM, values=[orc], component_type=3
    )
    done = await table.submit(
        opened.modal_id, {"dano": "", "curacion": "", "temporales": "", "maximos": "15"}, user=GM
    )
    assert "Orco: PG 15 → 15 de 15" in done.text


async def test_an_npc_sheet_joins_with_its_numbers(table: Harness) -> None:
    await table.slash("ficha crear", user=GM, nombre="Capitana", pnj=True)
    npc = (await table.autocomplete("dnd iniciativa monstruos", "como", "Capi", user=GM))[0]["value"]
    alone = await table.slash("dnd iniciativa monstruos", user=GM, como=npc, cantidad=2)
    assert "un solo combatiente" in alone.text
    table.script(12)
    await table.slash("dnd iniciativa monstruos", user=GM, como=npc)
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    assert "**Capitana** · PG 1/1 (+0 temporales) · CA 10" in view.text


async def test_the_plain_roller_offers_damage_while_a_combat_is_open(table: Harness) -> None:
    table.script(5)
    rolled = await table.slash("dnd tirar", expresion="1d8")
    button = next(c for c in rolled.message.custom_ids if c.startswith("dnd:dano:"))
    menu = await table.click(rolled.message, button)
    target = await goblin(table, 1)
    picked = await table.click(menu.message, menu.message.custom_ids[0], values=[target], component_type=3)
    assert "Goblin 1 recibe 5 de daño." in picked.text
    assert "PG" not in picked.text  # the player does not see a monster's hit points
    ended = await table.click(await panel(table), "dnd:ini:terminar:1:0", user=GM)
    assert "terminado" in ended.text
    table.script(5)
    later = await table.slash("dnd tirar", expresion="1d8")
    assert not any(c.startswith("dnd:dano:") for c in later.message.custom_ids)


async def test_an_attack_needs_an_ac_or_a_target(table: Harness) -> None:
    refused = await table.slash("dnd ataque", bonificador=5)
    assert refused.ephemeral and "Falta la CA" in refused.text
    unknown = await table.slash("dnd ataque", objetivo="Dragón rojo", bonificador=5)
    assert "No encuentro a «Dragón rojo»" in unknown.text


async def test_joining_from_the_form_reads_the_sheet_and_links_it(harness: Harness) -> None:
    """An empty modifier in *Unirme*'s form is the sheet's Dexterity (16: +3), and the
    character's hit points are then the sheet's."""
    await harness.table_for("dnd5e")
    await harness.slash("ficha importar", archivo=Upload("dnd5e.json", SHEET.read_bytes()))
    panel = (await harness.slash("dnd iniciativa panel")).message
    opened = await harness.click(panel, "dnd:ini:unirme:1:0")
    harness.script(10)
    await harness.submit(opened.modal_id, {"nombre": "Lía"}, message=harness.current(panel))
    assert "**13** · Lía Brezo" in str(harness.current(panel).data)
    shown = await harness.click(harness.current(panel), "dnd:pg:1", user=GM)
    assert "PG 38/38 (+0 temporales) · CA 15" in shown.text


async def test_a_crowd_is_listed_within_discords_limits_and_picked_group_first(table: Harness) -> None:
    """24 more groups of 20 (the most): the view counts the lines it cannot show, and the
    menu lists the combatants, then the members of the group picked."""
    for n in range(23):
        table.script(5)
        await table.slash(
            "dnd iniciativa monstruos",
            user=GM,
            nombre=f"Kobold de la cueva {n}",
            modificador=0,
            cantidad=20,
            pg=999,
        )
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    assert "… y " in view.text and "más" in view.text
    menu = view.message.data["components"][0]["components"][0]
    assert len(menu["options"]) == 25 and menu["options"][0]["label"] == "Lía Brezo"
    group = menu["options"][-1]["value"]
    scoped = await table.click(view.message, menu["custom_id"], user=GM, values=[group], component_type=3)
    members = scoped.data["components"][0]["components"][0]["options"]
    assert [o["label"] for o in members][:2] == ["Kobold de la cueva 22 1", "Kobold de la cueva 22 2"]
    table.assert_accepted()


async def test_a_double_click_on_apply_damage_applies_it_once(table: Harness) -> None:
    target = await goblin(table, 1)
    table.script(15, 3)
    attack = await table.slash("dnd ataque", objetivo=target, bonificador=5, dano="1d6")
    button = next(c for c in attack.message.custom_ids if c.startswith("dnd:dano:"))
    first, second = await asyncio.gather(
        table.click(attack.message, button), table.click(attack.message, button)
    )
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    assert await goblins(table) == (4, 7, 7)


async def test_an_npc_sheets_hit_points_stay_off_the_players_history_and_undo_notice(table: Harness) -> None:
    """An NPC sheet's PG in the ledger are the GM's secret: a player's /mesa historial and
    the channel's undo notice leave their numbers out; the GM's history keeps them."""
    await table.slash("ficha crear", user=GM, nombre="Capitana", pnj=True)
    npc = (await table.autocomplete("dnd iniciativa monstruos", "como", "Capi", user=GM))[0]["value"]
    table.script(12)
    await table.slash("dnd iniciativa monstruos", user=GM, como=npc)
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    captain = (await table.autocomplete("dnd ataque", "objetivo", "Capitana"))[0]["value"]
    opened = await table.click(
        view.message, view.message.custom_ids[0], user=GM, values=[captain], component_type=3
    )
    await table.submit(opened.modal_id, {"dano": "", "curacion": "", "temporales": "6"}, user=GM)
    npc_lines = [
        line for line in (await table.slash("mesa historial", user=GM)).text.split("\n") if "n.º 2" in line
    ]
    assert len(npc_lines) == 2 and "→ 6" in npc_lines[0]
    seen = (await table.slash("mesa historial", user=OTHER)).text
    assert "n.º 2" not in seen and "ficha importada" in seen
    await table.slash("mesa deshacer", user=GM)
    notice = str(list(table.discord.messages.values())[-1].data)
    assert "Cambio deshecho" in notice and "n.º 2" not in notice
    await table.slash("mesa ajustes", user=GM, vida_tablero="exactos")
    assert "n.º 2" in (await table.slash("mesa historial", user=OTHER)).text


async def test_damage_aimed_at_a_creature_removed_since_names_it(table: Harness) -> None:
    target = await goblin(table, 2)
    table.script(15, 4)
    attack = await table.slash("dnd ataque", objetivo=target, bonificador=5, dano="1d6+2")
    button = next(c for c in attack.message.custom_ids if c.startswith("dnd:dano:"))
    await table.slash("dnd iniciativa quitar", user=GM, combatiente=target.split(".")[0])
    gone = await table.click(attack.message, button)
    assert gone.ephemeral and "No encuentro a «Goblin 2» en el combate abierto." in gone.text


async def test_the_gms_form_tells_what_its_damage_did(table: Harness) -> None:
    """Damage through the form follows the same rules as a roll's, and says so: 38 to Lía
    (38 of 38) drops her, more at 0 is a failed death save, and 38 more (her maximum)
    kills her outright."""
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    select = view.message.custom_ids[0]
    lia = f"u{PLAYER.id}"
    said = []
    for amount in ("38", "3", "38"):
        opened = await table.click(view.message, select, user=GM, values=[lia], component_type=3)
        form = await table.submit(
            opened.modal_id, {"dano": amount, "curacion": "", "temporales": ""}, user=GM
        )
        said.append(form.text)
    assert "Lía Brezo cae inconsciente." in said[0] and "muere" not in said[0]
    assert "Lía Brezo suma 1 fallo en las tiradas de salvación contra la muerte." in said[1]
    assert "💀 Lía Brezo muere." in said[2]


async def test_a_crowds_group_offers_only_the_members_that_can_take_the_damage(table: Harness) -> None:
    """Past 25 creatures the damage menu goes group first; the group's members it then
    lists are, like the first menu, only those with hit points noted and not dead."""
    for name in ("Kobold", "Rata"):
        table.script(5)
        await table.slash("dnd iniciativa monstruos", user=GM, nombre=name, modificador=0, cantidad=20, pg=5)
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    kobold = (await table.autocomplete("dnd ataque", "objetivo", "Kobold 1", user=GM))[0]["value"]
    await table.click(
        view.message, view.message.custom_ids[0], user=GM, values=[kobold.split(".")[0]], component_type=3
    )
    members_menu = table.current(view.message)
    opened = await table.click(
        members_menu, members_menu.custom_ids[0], user=GM, values=[kobold], component_type=3
    )
    await table.submit(
        opened.modal_id, {"dano": "5", "curacion": "", "temporales": "", "maximos": ""}, user=GM
    )
    table.script(3)
    rolled = await table.slash("dnd tirar", expresion="1d8")
    menu = await table.click(
        rolled.message, next(c for c in rolled.message.custom_ids if c.startswith("dnd:dano:"))
    )
    group = menu.message.data["components"][0]["components"][0]
    scoped = await table.click(
        menu.message, group["custom_id"], values=[kobold.split(".")[0]], component_type=3
    )
    members = [o["label"] for o in scoped.data["components"][0]["components"][0]["options"]]
    assert "Kobold 1" not in members and "Kobold 2" in members and len(members) == 19


async def test_an_npc_sheet_of_another_system_is_refused_not_a_crash(harness: Harness) -> None:
    """The D&D tracker at a Dune table: the GM's Dune NPC in ``como`` is refused."""
    await harness.table_for("dune")
    await harness.slash("ficha crear", user=GM, nombre="Barón", pnj=True)
    await harness.slash("dnd iniciativa panel", user=GM)
    refused = await harness.slash("dnd iniciativa monstruos", user=GM, como="Barón", modificador=1)
    assert refused.ephemeral and "no es del sistema que juega esta mesa" in refused.text


async def test_a_character_whose_sheet_was_deleted_gets_hit_points_from_the_gm(table: Harness) -> None:
    """Lía's sheet deleted mid-fight: she stays on the tracker with no numbers, and the
    GM's form offers a maximum again, kept by the tracker from then on."""
    await table.slash("ficha borrar", ficha="Lía Brezo")
    view = await table.click(await panel(table), "dnd:pg:1", user=GM)
    assert "**Lía Brezo** · PG sin anotar" in view.text, view.text
    lia = (await table.autocomplete("dnd ataque", "objetivo", "Lía"))[0]["value"]
    opened = await table.click(
        view.message, view.message.custom_ids[0], user=GM, values=[lia], component_type=3
    )
    done = await table.submit(
        opened.modal_id, {"dano": "5", "curacion": "", "temporales": "", "maximos": "20"}, user=GM
    )
    assert "Lía Brezo" in done.text, done.text
    again = await table.click(await panel(table), "dnd:pg:1", user=GM)
    assert "**Lía Brezo** · PG 15/20" in again.text, again.text
    lia_now = next(c for c in (await tracker(table)).order if c.name == "Lía Brezo")
    assert lia_now.sheet_id is None and lia_now.hp[0].current == 15
