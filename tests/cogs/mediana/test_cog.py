"""/mediana through discord.py: tests, damage, opposed ties, initiative and PV."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.harness import Harness
from tests.support.payloads import GM, OTHER, PLAYER


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("mediana")
    return harness


async def test_a_skill_test_marks_the_objective_die(table: Harness) -> None:
    table.script(9, 2, 5)
    reply = await table.slash("mediana tirada", atributo=4, habilidad=3, dificultad=10)
    assert "~~2~~ **5** ~~9~~" in reply.text
    assert "Rango Medio (la mediana)" in reply.text
    assert "Atributo 4 + Habilidad 3 + 1o3d10 5 = **12**" in reply.text
    assert "✅ Éxito: 12 contra 10." in reply.text
    assert "grados" not in reply.text


async def test_in_english(table: Harness) -> None:
    table.script(9, 2, 5)
    reply = await table.slash("mediana tirada", atributo=4, habilidad=3, dificultad=15, locale="en-GB")
    assert "❌ Failure: 12 against 15." in reply.text
    assert "Rank: Middle (the median)" in reply.text


async def test_no_skill_points_drop_a_rank(table: Harness) -> None:
    table.script(9, 2, 5)
    reply = await table.slash("mediana tirada", atributo=4, habilidad=0, dificultad=5)
    assert "**2** ~~5~~ ~~9~~" in reply.text
    assert "sin puntos en la habilidad (−1 rango)" in reply.text


async def test_a_chosen_rank_is_said_as_chosen(table: Harness) -> None:
    """Issue 17: the rank a player picks is not "el DJ concede rango alto"."""
    table.script(9, 2, 5)
    reply = await table.slash("mediana tirada", atributo=1, habilidad=1, dificultad=5, rango="alto")
    assert "~~2~~ ~~5~~ **9**" in reply.text
    assert "rango alto elegido para esta tirada" in reply.text
    assert "DJ" not in reply.text


async def test_an_explosion_chains_and_a_critical_counts_degrees(table: Harness) -> None:
    table.script(10, 10, 1, 3, 6, 9)
    reply = await table.slash("mediana tirada", atributo=5, habilidad=5, dificultad=10)
    assert "~~1~~ **10**💥 ~~10~~ → ~~3~~ **6** ~~9~~" in reply.text
    assert "Atributo 5 + Habilidad 5 + 1o3d10 16 = **26**" in reply.text
    assert "✨ ¡Crítico! 26 contra 10: 1 grado, +1d6 de efecto." in reply.text


async def test_a_natural_one_and_a_fumble(table: Harness) -> None:
    table.script(1, 1, 9)
    one = await table.slash("mediana tirada", atributo=30, habilidad=5, dificultad=10)
    assert "❌ 1 natural: falla siempre (36 contra 10)." in one.text
    table.script(1, 1, 4)
    fumble = await table.slash("mediana tirada", atributo=30, habilidad=5, dificultad=10)
    assert "☠️ ¡Pifia!" in fumble.text


async def test_an_attribute_test_does_not_explode(table: Harness) -> None:
    table.script(10, 10, 2)
    reply = await table.slash("mediana atributo", atributo=3, dificultad=10)
    assert "Tirada de atributo" in reply.text
    assert "Atributo 3 + 1o3d10 10 = **13**" in reply.text
    assert "→" not in reply.text
    assert "💥" not in reply.text.split("\n", 3)[3]


async def test_encumbrance_is_subtracted(table: Harness) -> None:
    table.script(5, 5, 5)
    reply = await table.slash("mediana tirada", atributo=4, habilidad=3, dificultad=10, estorbo=2)
    assert "Atributo 4 + Habilidad 3 − Estorbo 2 + 1o3d10 5 = **10**" in reply.text


async def test_bad_options_are_refused(table: Harness) -> None:
    table.script()
    for options, words in (
        ({"atributo": 99, "dificultad": 10}, "atributo debe estar entre -50 y 50"),
        ({"atributo": 1, "dificultad": 1000}, "dificultad debe estar entre 0 y 100"),
        ({"atributo": 1, "dificultad": 10, "rango": "maximo"}, "no es una opción válida"),
    ):
        reply = await table.slash("mediana tirada", **options)
        assert reply.ephemeral
        assert words in reply.text


async def test_damage_after_a_successful_attack_with_degrees_and_critical(table: Harness) -> None:
    table.script(5, 5, 5)
    reply = await table.slash("mediana tirada", atributo=10, habilidad=10, dificultad=5, ataque=True)
    assert reply.message.custom_ids == ["rep:repetir:1", "mediana:dano:1"]
    stranger = await table.click(reply.message, "mediana:dano:1", user=OTHER)
    assert stranger.ephemeral
    modal = await table.click(reply.message, "mediana:dano:1")
    assert modal.callback.payload["type"] == 9
    table.script(6, 2, 3, 4, 1)
    done = await table.submit(modal.modal_id, {"arma": "2d6+1", "absorcion": ["4"]}, message=reply.message)
    # 20 over the difficulty: 2d6 + 2 degrees = 4d6, doubled in combat (docs/decisiones.md).
    doubled = "**6**💥 **2** **3** **4** **1** +1 = 17 · crítico ×2 = 34 · absorción −4 · total **30**"
    assert doubled in done.text
    assert table.current(reply.message).custom_ids == ["rep:repetir:1"]
    again = await table.submit(modal.modal_id, {"arma": "1d6"}, message=reply.message)
    assert "Ese formulario ya no está abierto" in again.text


async def test_no_damage_button_on_a_miss_or_a_non_attack(table: Harness) -> None:
    table.script(1, 2, 3)
    miss = await table.slash("mediana tirada", atributo=1, habilidad=1, dificultad=20, ataque=True)
    assert miss.message.custom_ids == ["rep:repetir:1"]
    table.script(5, 5, 5)
    plain = await table.slash("mediana tirada", atributo=10, habilidad=1, dificultad=5)
    assert plain.message.custom_ids == ["rep:repetir:2"]


async def test_an_effect_roll(table: Harness) -> None:
    table.script(6, 6, 1, 2)
    reply = await table.slash("mediana daño", dados="2d6", absorcion=3)
    assert "**6**💥 **6**💥 **1** **2** = 15 · absorción −3 · total **12**" in reply.text
    assert "+0" not in reply.text
    bad = await table.slash("mediana daño", dados="cien")
    assert "no son dados de efecto" in bad.text


async def test_an_opposed_tie_goes_to_the_gm(table: Harness) -> None:
    table.script(5, 5, 5, 5, 5, 5)
    reply = await table.slash(
        "mediana enfrentada", atributo=3, habilidad=2, rival_atributo=4, rival_habilidad=1
    )
    assert "⚖️ Empate: el DJ decide si se acepta o se repite." in reply.text
    refused = await table.click(reply.message, "mediana:repetir:1")
    assert refused.ephemeral
    table.script(9, 9, 9, 1, 2, 3)
    rerolled = await table.click(reply.message, "mediana:repetir:1", user=GM)
    assert f"✅ Gana <@{PLAYER.id}>." in rerolled.text
    assert table.current(reply.message).custom_ids == ["rep:repetir:1"]


async def test_an_opposed_attribute_test_keeps_its_rank(table: Harness) -> None:
    """The rank drops "en aquellas habilidades donde el personaje no tenga ningún punto":
    attribute against attribute has no skill to lack; a skill typed as 0 still drops."""
    table.script(2, 5, 9, 3, 6, 8)
    reply = await table.slash("mediana enfrentada", atributo=3, rival_atributo=4)
    assert "~~2~~ **5** ~~9~~\nRango Medio (la mediana)\nTotal: **8**" in reply.text
    assert "~~3~~ **6** ~~8~~\nRango Medio (la mediana)\nTotal: **10**" in reply.text
    table.script(2, 5, 9, 3, 6, 8)
    again = await table.click(reply.message, "rep:repetir:1")
    assert again.text.count("Rango Medio (la mediana)") == 2
    table.script(2, 5, 9, 3, 6, 8)
    lacking = await table.slash("mediana enfrentada", atributo=3, habilidad="0", rival_atributo=4)
    assert "**2** ~~5~~ ~~9~~\nRango Bajo (el menor)\nTotal: **5**" in lacking.text


async def test_accepting_a_tie(table: Harness) -> None:
    table.script(5, 5, 5, 5, 5, 5)
    reply = await table.slash(
        "mediana enfrentada", atributo=3, habilidad=2, rival_atributo=4, rival_habilidad=1, rival=OTHER
    )
    accepted = await table.click(reply.message, "mediana:aceptar:1", user=GM)
    assert "⚖️ Empate aceptado por el DJ." in accepted.text


async def test_a_badly_hurt_character_drops_a_rank_without_being_told(table: Harness) -> None:
    await table.slash("mediana pv fijar", fisico=4, maximo=20)
    hurt = await table.slash("mediana pv daño", cantidad=16)
    assert "**4**/20 PV (Físico 4) · malherido" in hurt.text
    table.script(9, 2, 5)
    reply = await table.slash("mediana tirada", atributo=4, habilidad=3, dificultad=5)
    assert "**2** ~~5~~ ~~9~~" in reply.text
    assert "malherido (−1 rango)" in reply.text
    await table.restart()
    table.script(9, 2, 5)
    after = await table.slash("mediana tirada", atributo=4, habilidad=3, dificultad=5)
    assert "malherido (−1 rango)" in after.text


async def test_hit_points_unconscious_dead_and_rest(table: Harness) -> None:
    none = await table.slash("mediana pv ver")
    assert "no tiene PV anotados" in none.text
    await table.slash("mediana pv fijar", fisico=2, maximo=10)
    refused = await table.slash("mediana pv daño", cantidad=3, jugador=OTHER)
    assert refused.ephemeral
    out = await table.slash("mediana pv daño", user=GM, cantidad=10, jugador=PLAYER)
    assert "**0**/10 PV (Físico 2) · inconsciente" in out.text
    dead = await table.slash("mediana pv daño", cantidad=12)
    assert "**-12**/10 PV (Físico 2) · muerto" in dead.text
    no_heal = await table.slash("mediana pv curar", cantidad=1)
    assert "no se cura" in no_heal.text
    await table.slash("mediana pv fijar", fisico=2, maximo=10, actual=5)
    rested = await table.slash("mediana descanso", comodidad=True)
    assert "**7**/10 PV" in rested.text
    healed = await table.slash("mediana pv curar", cantidad=50, locale="en-US")
    assert "**10**/10 HP (Physique 2) · standing" in healed.text


async def test_a_double_click_on_damage_rolls_once(table: Harness) -> None:
    table.script(5, 5, 5)
    reply = await table.slash("mediana tirada", atributo=10, habilidad=10, dificultad=5, ataque=True)
    first = await table.click(reply.message, "mediana:dano:1")
    second = await table.click(reply.message, "mediana:dano:1")
    table.script(1, 1, 1, 1, 1, 1, 1, 1)
    one, two = await asyncio.gather(
        table.submit(first.modal_id, {"arma": "1d6", "absorcion": ["0"]}, message=reply.message),
        table.submit(second.modal_id, {"arma": "1d6", "absorcion": ["0"]}, message=reply.message),
    )
    assert sorted([one.ephemeral, two.ephemeral]) == [False, True]
    assert "ya se tiró" in (one.text + two.text)


async def test_a_bad_weapon_is_refused_and_the_form_can_be_sent_again(table: Harness) -> None:
    table.script(5, 5, 5)
    reply = await table.slash("mediana tirada", atributo=10, habilidad=10, dificultad=5, ataque=True)
    form = await table.click(reply.message, "mediana:dano:1")
    bad = await table.submit(form.modal_id, {"arma": "2d8"}, message=reply.message)
    assert bad.ephemeral
    assert "no son dados de efecto" in bad.text
    table.script(2, 1, 1)  # 1d6 and two degrees, doubled by the critical
    good = await table.submit(form.modal_id, {"arma": "1d6"}, message=reply.message)
    assert "**2** **1** **1** = 4 · crítico ×2 = 8 · total **8**" in good.text


async def test_the_combat_panel(table: Harness) -> None:
    panel = (await table.slash("mediana iniciativa")).message
    assert panel.custom_ids == [
        "mediana:ini:unirme:1:0",
        "mediana:ini:pnj:1:0",
        "mediana:ini:ronda:1:1",
        "mediana:ini:terminar:1:0",
    ]
    opened = await table.click(panel, "mediana:ini:unirme:1:0")
    table.script(10, 10, 2, 5, 5, 5)
    joined = await table.submit(
        opened.modal_id, {"nombre": "", "bono": ["12"], "estorbo": ["2"]}, message=table.current(panel)
    )
    assert "**25** · Jugadora · 2 acciones" in joined.text
    refused = await table.click(table.current(panel), "mediana:ini:pnj:1:0")
    assert refused.ephemeral
    npc_form = await table.click(table.current(panel), "mediana:ini:pnj:1:0", user=GM)
    table.script(3, 3, 3)
    await table.submit(
        npc_form.modal_id,
        {"nombre": "Orco", "bono": ["5"]},
        user=GM,
        message=table.current(panel),
    )
    assert "**8** · Orco · 1 acción" in str(table.current(panel).data)
    table.script(1, 1, 1, 9, 9, 9)
    one, two = await asyncio.gather(
        table.click(table.current(panel), "mediana:ini:ronda:1:1", user=GM),
        table.click(table.current(panel), "mediana:ini:ronda:1:1", user=GM),
    )
    assert sorted([one.ephemeral, two.ephemeral]) == [False, True]
    assert "Combate · ronda 2" in str(table.current(panel).data)
    await table.restart()
    ended = await table.click(table.current(panel), "mediana:ini:terminar:1:0", user=GM)
    assert "El combate ha terminado." in ended.text
