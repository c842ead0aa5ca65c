"""Death on the D&D tracker (issue 27): killed outright is a state the tracker keeps (shown
dead, never a target again, no more failures, not healed back), and death saving throws at
0 hit points, from the turn's button or /dnd muerte, counted on the tracker and the board.
Every announced change is checked against what the books hold."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rules.dnd5e import tracker as dnd5e_tracker
from rules.dnd5e.death import Fate
from tests.bot.board.test_updater import shown
from tests.support.harness import Harness, Message, Reply, Upload
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER, interaction_payload

SHEET = Path(__file__).resolve().parents[3] / "docs" / "fichas" / "dnd5e.json"
LIA = f"u{PLAYER.id}"


async def fight(harness: Harness) -> Harness:
    """The board; Lía Brezo (the player's sheet: 38 HP, AC 15, initiative 18) and three
    goblins (7 HP, AC 13 each, initiative 12), the combat started: Lía acts first."""
    await harness.table_for("dnd5e")
    await harness.slash("mesa tablero", user=GM)
    imported = await harness.slash("ficha importar", archivo=Upload("dnd5e.json", SHEET.read_bytes()))
    assert "importada" in imported.text
    await harness.slash("dnd iniciativa panel")
    harness.script(15)
    await harness.slash("dnd iniciativa unirme")
    harness.script(10)
    await harness.slash(
        "dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=2, cantidad=3, pg=7, ca=13
    )
    await harness.click(await panel(harness), "dnd:ini:empezar:1:0", user=GM)
    return harness


@pytest.fixture
async def table(harness: Harness) -> Harness:
    return await fight(harness)


async def panel(h: Harness) -> Message:
    assert h.bot is not None
    record = await h.bot.store.record(1)
    assert record is not None and record.message_id is not None
    return h.current(h.discord.messages[record.message_id])


async def tracker(h: Harness) -> dnd5e_tracker.Tracker:
    assert h.bot is not None
    record = await h.bot.store.record(1)
    assert record is not None
    return dnd5e_tracker.tracker_from_data(record.data)


async def sheet_hp(h: Harness) -> str:
    text = (await h.slash("ficha ver")).text
    return text[text.index("PG ") :].split("\n")[0]


async def gm_form(h: Harness, target: str, **fields: str) -> Reply:
    view = await h.click(await panel(h), "dnd:pg:1", user=GM)
    opened = await h.click(
        view.message, view.message.custom_ids[0], user=GM, values=[target], component_type=3
    )
    values = {"dano": "", "curacion": "", "temporales": ""} | fields
    return await h.submit(opened.modal_id, values, user=GM)


def damage_button(message: Message) -> str:
    return next(c for c in message.custom_ids if c.startswith("dnd:dano:"))


async def next_turn(h: Harness) -> Reply:
    step = (await tracker(h)).step
    return await h.click(await panel(h), f"dnd:ini:siguiente:1:{step}", user=GM)


async def lias_turn(h: Harness) -> Message:
    """Pass the turn round to Lía again: the announcement that carries her button."""
    while True:
        moved = await next_turn(h)
        if (await tracker(h)).acting.key == LIA:  # type: ignore[union-attr]
            return moved.messages[-1]


async def test_killed_outright_stays_dead_everywhere(table: Harness) -> None:
    """76 damage to Lía (38 of 38): 38 remain after 0, her maximum, so she dies outright."""
    killed = await gm_form(table, LIA, dano="76")
    assert "💀 Lía Brezo muere." in killed.text
    assert (await tracker(table)).fate(LIA).dead
    assert "PG 0/38" in await sheet_hp(table)
    assert "Lía Brezo · 💀 muerto" in str((await panel(table)).data)
    assert "0/38 PG, Muerto" in await shown(table)
    names = [c["name"] for c in await table.autocomplete("dnd ataque", "objetivo", "", user=GM)]
    assert "Lía Brezo" not in names and "Goblin 1" in names
    aimed = await table.slash("dnd ataque", user=GM, objetivo=LIA, bonificador=5)
    assert aimed.ephemeral and "ya está muerta" in aimed.text
    table.script(4)
    rolled = await table.slash("dnd tirar", user=GM, expresion="1d8")
    menu = await table.click(rolled.message, damage_button(rolled.message), user=GM)
    assert "Lía Brezo" not in str(menu.message.data)
    again = await gm_form(table, LIA, dano="3")
    assert again.ephemeral and "ya está muerta" in again.text
    healed = await gm_form(table, LIA, curacion="10")
    assert healed.ephemeral and "la curación no la devuelve a la vida" in healed.text
    assert "PG 0/38" in await sheet_hp(table)
    assert (await tracker(table)).fate(LIA) == Fate(dead=True)
    await table.assert_ledger_matches()


async def test_a_monster_at_zero_is_dead_on_the_tracker(table: Harness) -> None:
    target = (await table.autocomplete("dnd ataque", "objetivo", "Goblin 2"))[0]["value"]
    killed = await gm_form(table, str(target), dano="7", maximos="")
    assert "💀 Goblin 2 muere." in killed.text
    assert (await tracker(table)).fate(str(target)).dead
    assert "Goblin ×3 (monstruo) · 💀 1" in str((await panel(table)).data)
    healed = await gm_form(table, str(target), curacion="5", maximos="")
    assert healed.ephemeral and "la curación no la devuelve a la vida" in healed.text


async def test_death_saves_on_the_turns_button_count_to_death(table: Harness) -> None:
    """Lía drops to 0; on her turn the announcement carries the button: a 12 is a success,
    a second press that turn is refused, a critical at 0 is two failures, and a natural 1
    on her next turn makes three more: dead."""
    await gm_form(table, LIA, dano="38")
    announced = await lias_turn(table)
    assert "Lía Brezo está a 0 PG: tira la salvación contra la muerte." in str(announced.data)
    button = next(c for c in announced.custom_ids if c.startswith("dnd:ini:muerte:"))
    stranger = await table.click(announced, button, user=OTHER)
    assert stranger.ephemeral and "Solo el jugador del personaje" in stranger.text
    table.script(12)
    saved = await table.click(announced, button)
    assert not saved.ephemeral and "✅ Éxito." in saved.text and "éxitos 1 · fallos 0" in saved.text
    assert (await tracker(table)).fate(LIA).successes == 1
    twice = await table.click(announced, button)
    assert twice.ephemeral and "ya hizo su tirada" in twice.text
    command = await table.slash("dnd muerte")
    assert command.ephemeral and "ya hizo su tirada" in command.text
    assert "Lía Brezo · éxitos 1 · fallos 0" in str((await panel(table)).data)
    assert "0/38 PG, Inconsciente (éxitos 1 · fallos 0)" in await shown(table)
    table.script(20, 3, 3, 1)  # unconscious: advantage; a critical hit (1d4 twice): two failures
    attack = await table.slash("dnd ataque", user=GM, objetivo=LIA, bonificador=5, dano="1d4")
    hurt = await table.click(attack.message, damage_button(attack.message), user=GM)
    assert "Lía Brezo suma 2 fallos en las tiradas de salvación contra la muerte." in hurt.text
    fate = (await tracker(table)).fate(LIA)
    assert (fate.successes, fate.failures, fate.dead) == (1, 2, False)
    last_turns = announced
    announced = await lias_turn(table)
    old_turn = await table.click(last_turns, button)
    assert old_turn.ephemeral and "Ese turno ya pasó" in old_turn.text
    table.script(1)
    died = await table.click(announced, next(c for c in announced.custom_ids if "muerte" in c))
    assert "❌ Un 1 natural: dos fallos." in died.text and "💀 Lía Brezo muere." in died.text
    assert (await tracker(table)).fate(LIA).dead
    assert "Lía Brezo · 💀 muerto" in str((await panel(table)).data)
    announced = await lias_turn(table)
    assert not any("muerte" in c for c in announced.custom_ids)
    assert "PG 0/38" in await sheet_hp(table)


async def test_a_natural_twenty_regains_a_hit_point_through_the_ledger(table: Harness) -> None:
    await gm_form(table, LIA, dano="38")
    table.script(20)
    saved = await table.slash("dnd muerte")
    assert "✨ ¡Un 20 natural! Lía Brezo recupera 1 PG y vuelve en sí." in saved.text
    assert "PG 1/38" in await sheet_hp(table)
    assert (await tracker(table)).fate(LIA).successes == 0
    history = await table.slash("mesa historial", user=GM)
    assert "un 20 natural en la salvación contra la muerte" in history.text
    up = await table.slash("dnd muerte")
    assert up.ephemeral and "para quien está a 0 PG" in up.text
    await table.assert_ledger_matches()


async def test_three_successes_stabilise_and_healing_resets(table: Harness) -> None:
    """Three successes over three turns leave Lía stable; damage wakes the count again
    (one failure), and healing resets it."""
    await gm_form(table, LIA, dano="38")
    for face in (10, 15, 19):
        await lias_turn(table)
        table.script(face)
        said = await table.slash("dnd muerte")
    assert "Lía Brezo queda estable." in said.text
    assert (await tracker(table)).fate(LIA).stable
    assert "0/38 PG, Estable" in await shown(table)
    stable = await table.slash("dnd muerte")
    assert stable.ephemeral and "está estable" in stable.text
    hurt = await gm_form(table, LIA, dano="2")
    assert "suma 1 fallo" in hurt.text
    fate = (await tracker(table)).fate(LIA)
    assert (fate.stable, fate.successes, fate.failures) == (False, 0, 1)
    await gm_form(table, LIA, curacion="4")
    fate = (await tracker(table)).fate(LIA)
    assert (fate.successes, fate.failures, fate.stable) == (0, 0, False)
    assert "PG 4/38" in await sheet_hp(table)


async def test_the_gm_rolls_a_death_save_by_name(table: Harness) -> None:
    await gm_form(table, LIA, dano="38")
    unnamed = await table.slash("dnd muerte", user=GM)
    assert unnamed.ephemeral and "combatiente" in unnamed.text
    table.script(4)
    failed = await table.slash("dnd muerte", user=GM, combatiente=LIA)
    assert "❌ Fallo." in failed.text and "éxitos 0 · fallos 1" in failed.text
    goblin = (await table.autocomplete("dnd ataque", "objetivo", "Goblin 1"))[0]["value"]
    refused = await table.slash("dnd muerte", user=GM, combatiente=str(goblin))
    assert refused.ephemeral and "para quien está a 0 PG" in refused.text


async def test_a_replayed_death_save_counts_once(table: Harness) -> None:
    """The same press delivered twice rolls and counts one death saving throw."""
    await gm_form(table, LIA, dano="38")
    announced = await lias_turn(table)
    button = next(c for c in announced.custom_ids if c.startswith("dnd:ini:muerte:"))
    payload = interaction_payload(
        3,
        {"custom_id": button, "component_type": 2},
        user=PLAYER,
        locale="es-ES",
        channel_id=CHANNEL_ID,
        message=announced.payload(),
        channels=table.channels,
    )
    table.script(5, 5)
    await table.feed(payload)
    await table.feed(dict(payload))
    assert (await tracker(table)).fate(LIA).failures == 1
    assert table.bot is not None
    saves = [
        r for r in await table.bot.store.records(CHANNEL_ID, "dnd", 10) if r.data.get("kind") == "muerte"
    ]
    assert len(saves) == 1


async def test_inspiration_is_refused_once_the_damage_was_applied(table: Harness) -> None:
    """A hit on Goblin 1, its damage applied: rerolling the d20 now could turn it into a
    miss with the damage standing, so it is refused and the inspiration kept; before the
    damage is applied, a reroll to a miss takes the damage button away."""
    await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    goblin = str((await table.autocomplete("dnd ataque", "objetivo", "Goblin 1"))[0]["value"])
    table.script(15, 4)  # 15 + 5 hits AC 13; 1d6 = 4
    attack = await table.slash("dnd ataque", objetivo=goblin, bonificador=5, dano="1d6")
    insp = next(c for c in attack.message.custom_ids if c.startswith("dnd:insp0:"))
    await table.click(attack.message, damage_button(attack.message))
    table.script(2)
    refused = await table.click(attack.message, insp)
    assert refused.ephemeral and "ya se aplicó" in refused.text
    assert await table.pool("inspiracion", PLAYER.id) == 1
    table.script(15, 4)
    second = await table.slash("dnd ataque", objetivo=goblin, bonificador=5, dano="1d6")
    table.script(2)
    rerolled = await table.click(second.message, next(c for c in second.message.custom_ids if "insp0" in c))
    assert "Falla contra Goblin 1" in rerolled.text
    assert not any(c.startswith("dnd:dano:") for c in table.current(second.message).custom_ids)
    group = next(c for c in (await tracker(table)).order if c.name == "Goblin")
    assert [m.hp.current for m in group.members if m.hp] == [3, 7, 7]


async def test_two_presses_at_once_roll_one_death_save(table: Harness) -> None:
    """Two presses race: one writes, the other re-reads the tracker and is refused."""
    await gm_form(table, LIA, dano="38")
    announced = await lias_turn(table)
    button = next(c for c in announced.custom_ids if c.startswith("dnd:ini:muerte:"))
    table.script(15, 15)
    first, second = await asyncio.gather(table.click(announced, button), table.click(announced, button))
    # Each answer is its callback (the panel's redraw happens while both are running).
    private = [bool(r.callback.payload["data"].get("flags", 0) & 64) for r in (first, second)]
    assert sorted(private) == [False, True]
    assert (await tracker(table)).fate(LIA).successes == 1


async def test_inspiration_rerolls_one_damage_die_before_it_is_applied(table: Harness) -> None:
    """SRD 5.2: Heroic Inspiration rerolls "any die": a hit's 2d6 of 1 and 5 becomes 6 and
    5, the d20 buttons go (one use a roll), and the damage applied is the new one."""
    await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    goblin = str((await table.autocomplete("dnd ataque", "objetivo", "Goblin 1"))[0]["value"])
    table.script(15, 1, 5)
    attack = await table.slash("dnd ataque", objetivo=goblin, bonificador=5, dano="2d6")
    select = next(c for c in attack.message.custom_ids if c.startswith("dnd:inspdano:"))
    options = [
        o["label"]
        for row in attack.message.data["components"]
        for c in row["components"]
        for o in c.get("options", [])
    ]
    assert options == ["d6: 1", "d6: 5"]
    table.script(6)
    rerolled = await table.click(attack.message, select, values=["0"], component_type=3)
    assert "= **11**" in rerolled.text and "se repitió un d6 del daño (1 → 6)" in rerolled.text
    assert await table.pool("inspiracion", PLAYER.id) == 0
    now = table.current(attack.message)
    assert not any(c.startswith(("dnd:insp0:", "dnd:inspdano:")) for c in now.custom_ids)
    applied = await table.click(now, damage_button(now))
    assert "Goblin 1 recibe 11 de daño." in applied.text
    history = await table.slash("mesa historial", user=GM)
    assert "inspiración heroica usada para repetir un dado de daño" in history.text
