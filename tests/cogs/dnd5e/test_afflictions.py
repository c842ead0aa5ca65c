"""Conditions on the D&D tracker (issue 27): the GM sets and clears them with a duration in
rounds, the panel and the board show them, and the rolls they change (attacks by and against
the creature, saves they fail, checks) change, with the card saying why."""

from __future__ import annotations

import pytest

from tests.bot.board.test_updater import shown
from tests.cogs.dnd5e.test_death import LIA, fight, gm_form, next_turn, panel, tracker
from tests.support.harness import Harness
from tests.support.payloads import GM


@pytest.fixture
async def table(harness: Harness) -> Harness:
    return await fight(harness)


async def goblin(h: Harness, n: int) -> str:
    return str((await h.autocomplete("dnd ataque", "objetivo", f"Goblin {n}", user=GM))[0]["value"])


async def test_the_gm_sets_a_condition_for_rounds_and_an_attack_against_it_has_advantage(
    table: Harness,
) -> None:
    target = await goblin(table, 2)
    player = await table.slash("dnd condicion poner", objetivo=target, condicion="aturdido", rondas=1)
    assert player.ephemeral and "DJ" in player.text
    await table.slash("dnd condicion poner", user=GM, objetivo=target, condicion="aturdido", rondas=1)
    assert "Goblin 2: Aturdido (1 ronda)" in str((await panel(table)).data)
    assert "Goblin 2: Aturdido" in await shown(table)
    table.script(3, 17)  # with advantage: 17 + 5 = 22
    attack = await table.slash("dnd ataque", objetivo=target, bonificador=5)
    assert "con ventaja" in attack.text and "Ventaja: Goblin 2 · Aturdido." in attack.text
    assert "Impacta a Goblin 2: 22" in attack.text
    table.script(3)  # Goblin 1 is not stunned: one d20
    other = await table.slash("dnd ataque", objetivo=await goblin(table, 1), bonificador=5)
    assert "Aturdido" not in other.text and "Falla contra Goblin 1: 8" in other.text
    while (await tracker(table)).round == 1:
        await next_turn(table)
    assert (await tracker(table)).conditions(target) == ()
    assert "Aturdido" not in str((await panel(table)).data)
    table.script(3)
    later = await table.slash("dnd ataque", objetivo=target, bonificador=5)
    assert "Ventaja" not in later.text


async def test_a_paralyzed_target_takes_a_critical_up_close_but_not_from_afar(table: Harness) -> None:
    target = await goblin(table, 1)
    await table.slash("dnd condicion poner", user=GM, objetivo=target, condicion="paralizado")
    table.script(4, 9, 2, 3)  # advantage: 9 + 5 = 14 hits AC 13, a critical: 1d6 twice = 5
    close = await table.slash("dnd ataque", objetivo=target, bonificador=5, dano="1d6")
    assert "✨ ¡Impacta con 14: golpe crítico!" in close.text
    assert "Un impacto es crítico (a 1,5 m o menos): Goblin 1 · Paralizado." in close.text
    assert "= **5**" in close.text
    table.script(4, 9, 2)
    far = await table.slash("dnd ataque", objetivo=target, bonificador=5, dano="1d6", a_distancia=True)
    assert "crítico" not in far.text and "Impacta a Goblin 1: 14" in far.text


async def test_prone_is_advantage_up_close_and_disadvantage_from_afar(table: Harness) -> None:
    target = await goblin(table, 3)
    await table.slash("dnd condicion poner", user=GM, objetivo=target, condicion="derribado")
    table.script(4, 9)
    close = await table.slash("dnd ataque", objetivo=target, bonificador=5)
    assert "con ventaja" in close.text and "Ventaja: Goblin 3 · Derribado." in close.text
    table.script(4, 9)
    far = await table.slash("dnd ataque", objetivo=target, bonificador=5, a_distancia=True)
    assert "con desventaja" in far.text and "Desventaja: Goblin 3 · Derribado." in far.text
    table.script(4, 9)
    cancelled = await table.slash(
        "dnd ataque", objetivo=target, bonificador=5, a_distancia=True, ventaja=True
    )
    assert "se anulan" in cancelled.text


async def test_the_rollers_own_conditions_change_their_checks_attacks_and_saves(table: Harness) -> None:
    await table.slash("dnd condicion poner", user=GM, objetivo=LIA, condicion="envenenado")
    table.script(15, 4)
    check = await table.slash("dnd prueba", habilidad="sigilo")
    assert "con desventaja" in check.text and "Desventaja: Lía Brezo · Envenenado." in check.text
    table.script(15, 4)
    attack = await table.slash("dnd ataque", ca=10, arma="Espada larga")
    assert "con desventaja" in attack.text
    await table.slash("dnd condicion poner", user=GM, objetivo=LIA, condicion="aturdido")
    table.script(19)
    save = await table.slash("dnd salvacion", caracteristica="destreza", cd=10)
    assert (
        "❌ Falla automáticamente." in save.text
        and "Falla automáticamente: Lía Brezo · Aturdido." in save.text
    )
    table.script(19)
    wisdom = await table.slash("dnd salvacion", caracteristica="sabiduria", cd=10)
    assert "✅ Éxito" in wisdom.text
    cleared = await table.slash("dnd condicion quitar", user=GM, objetivo=LIA, condicion="aturdido")
    assert "Aturdido" not in cleared.text and "Envenenado" in cleared.text
    again = await table.slash("dnd condicion quitar", user=GM, objetivo=LIA, condicion="aturdido")
    assert again.ephemeral and "no tiene esa condición" in again.text


async def test_a_character_at_zero_is_unconscious_for_the_attacks_against_it(table: Harness) -> None:
    """No GM needed: at 0 hit points Lía has the Unconscious condition; a hit up close is a
    critical, which at 0 is two death saving throw failures."""
    await gm_form(table, LIA, dano="38")
    table.script(2, 12, 1, 1)  # advantage: 12 + 4 hits AC 15, critical 1d4 twice
    attack = await table.slash("dnd ataque", user=GM, objetivo=LIA, bonificador=4, dano="1d4")
    assert "Ventaja: Lía Brezo · Inconsciente." in attack.text and "golpe crítico" in attack.text
    button = next(c for c in attack.message.custom_ids if c.startswith("dnd:dano:"))
    hurt = await table.click(attack.message, button, user=GM)
    assert "suma 2 fallos" in hurt.text
    assert (await tracker(table)).fate(LIA).failures == 2


async def test_exhaustion_lowers_every_d20_test_and_a_long_rest_takes_a_level(table: Harness) -> None:
    """Two levels: −4 on Lía's check, save and attack, said on the card; one cleared: −2."""
    for _ in range(2):
        await table.slash("dnd condicion poner", user=GM, objetivo=LIA, condicion="agotamiento")
    assert "Lía Brezo · Agotamiento 2" in str((await panel(table)).data)
    table.script(10)
    check = await table.slash("dnd prueba", caracteristica="destreza")
    assert "**10** -1 = **9**" in check.text and "-4 a la tirada: Lía Brezo · Agotamiento." in check.text
    table.script(10)
    save = await table.slash("dnd salvacion", caracteristica="sabiduria")
    assert "**10** -3 = **7**" in save.text  # Sabiduría +1, exhaustion −4
    table.script(10)
    attack = await table.slash("dnd ataque", ca=10, bonificador=5)
    assert "**10** +1 = **11**" in attack.text
    await table.slash("dnd condicion quitar", user=GM, objetivo=LIA, condicion="agotamiento")
    assert "Agotamiento 1" in str((await panel(table)).data)
    table.script(10)
    rested = await table.slash("dnd prueba", caracteristica="destreza")
    assert "**10** +1 = **11**" in rested.text
