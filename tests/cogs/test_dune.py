"""/dune through discord.py: commands, the roll panel's buttons, pools and their ledger."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import POOL_MAX
from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, OTHER, PLAYER


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    await harness.slash("mesa sistema", user=GM, sistema="dune")
    return harness


def button(message: Message, prefix: str) -> str:
    found = [c for c in message.custom_ids if c.startswith(prefix)]
    assert found, f"no {prefix} button in {message.custom_ids}"
    return found[0]


async def roll(h: Harness, *faces: int, user=PLAYER, locale: str = "es-ES", **options: object) -> Reply:
    h.script(*faces)
    options = {"habilidad": 6, "motivacion": 6} | options
    return await h.slash("dune tirada", user=user, locale=locale, **options)


async def test_a_test_shows_each_die_its_successes_and_the_verdict(table: Harness) -> None:
    reply = await roll(table, 1, 20, dificultad=1)
    assert not reply.ephemeral
    text = reply.text
    assert "Chequeo · objetivo 12 · dificultad 1" in text
    assert "**1**✨ **20**⚠️" in text
    assert "✅ Superado: 2 éxitos contra dificultad 1. Impulso generado: 1." in text
    assert "Pendientes: 1 · descartadas: 0." in text
    assert reply.message.custom_ids == [
        f"dune:{a}:1" for a in ("info", "rasgo", "recurso", "guardar", "ignorar", "repetir")
    ]


async def test_a_test_in_english(table: Harness) -> None:
    reply = await roll(table, 3, 15, locale="en-US", dificultad=2)
    assert "❌ Failed: 1 success against difficulty 2." in reply.text
    labels = [c["label"] for row in reply.data["components"] for c in row["components"]]
    assert "Success at a cost" in labels
    assert "Reroll with Determination" in labels


async def test_focus_makes_dice_under_the_skill_critical(table: Harness) -> None:
    reply = await roll(table, 6, 12, habilidad=6, motivacion=6, especializacion=True, dificultad=3)
    assert "**6**✨ **12**✓" in reply.text
    assert "3 éxitos contra dificultad 3" in reply.text


async def test_bought_dice_are_paid_with_momentum_before_rolling(table: Harness) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=4)
    reply = await roll(table, 5, 6, 7, 8, dados_extra=2)
    assert "**5**✓ **6**✓ **7**✓ **8**✓" in reply.text
    assert await table.pool("impulso") == 1
    await table.assert_ledger_matches()


async def test_bought_dice_paid_with_threat_add_threat(table: Harness) -> None:
    await roll(table, 5, 6, 7, 8, 9, dados_extra=3, pago="amenaza")
    assert await table.pool("amenaza") == 6


async def test_mixed_payment_takes_the_momentum_there_is_and_the_rest_as_threat(table: Harness) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=2)
    await roll(table, 5, 6, 7, 8, 9, dados_extra=3, pago="mixto")
    assert (await table.pool("impulso"), await table.pool("amenaza")) == (0, 4)


async def test_not_enough_momentum_refuses_and_rolls_nothing(table: Harness) -> None:
    table.script(1, 2, 3)  # rolled in memory, then discarded with the refused payment
    reply = await table.slash("dune tirada", habilidad=6, motivacion=6, dados_extra=1)
    assert reply.ephemeral
    assert not reply.message.custom_ids
    assert "No alcanza la reserva de Impulso: hay 0 y hace falta 1. No se ha cambiado nada." in reply.text
    assert table.bot is not None
    assert await table.bot.store.rolls(CHANNEL_ID, "dune") == []


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"habilidad": 99}, "habilidad debe estar entre 1 y 20 (pusiste 99)"),
        ({"dificultad": 9}, "dificultad debe estar entre 0 y 5"),
        ({"dados_extra": 7}, "dados_extra debe estar entre 0 y 3"),
        ({"rango_complicacion": 0}, "rango_complicacion debe estar entre 1 y 5"),
        ({"bonificacion_impulso": -1}, "bonificacion_impulso debe estar entre 0 y 10"),
        ({"pago": "gratis"}, "no es una opción válida"),
    ],
)
async def test_out_of_range_options_are_refused_without_rolling(
    table: Harness, options: dict, words: str
) -> None:
    table.script()
    reply = await table.slash("dune tirada", **({"habilidad": 6, "motivacion": 6} | options))
    assert reply.ephemeral
    assert words in reply.text


async def test_determination_before_the_roll_fixes_a_die_at_one(table: Harness) -> None:
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    reply = await roll(table, 18, determinacion=True, dificultad=2)
    assert "**1**✨📌 **18**" in reply.text
    assert await table.pool("determinacion", PLAYER.id) == 0


async def test_spending_takes_the_rolls_momentum_first_then_the_group(table: Harness) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=2)
    reply = await roll(table, 2, 3, dificultad=1)  # 2 successes: 1 Impulso
    panel = reply.message
    spent = await table.click(panel, button(panel, "dune:rasgo"))
    assert spent.callback.payload["type"] == 7
    assert "Gastos\ncrear o cambiar un rasgo" in spent.text
    assert await table.pool("impulso") == 1
    await table.click(panel, button(panel, "dune:info"))
    assert await table.pool("impulso") == 0
    refused = await table.click(panel, button(panel, "dune:info"))
    assert refused.ephemeral
    assert "No alcanza la reserva de Impulso" in refused.text
    await table.assert_ledger_matches()


async def test_saving_reports_what_the_cap_took(table: Harness) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=5)
    reply = await roll(table, 1, 1, dificultad=1)  # 4 successes: 3 Impulso
    saved = await table.click(reply.message, button(reply.message, "dune:guardar"))
    assert "1 a la reserva del grupo; 2 se pierden porque la reserva no pasa de 6." in saved.text
    assert await table.pool("impulso") == 6
    assert "dune:guardar" not in " ".join(table.discord.messages[reply.message.id].custom_ids)


async def test_bonus_momentum_can_be_spent_but_never_saved(table: Harness) -> None:
    reply = await roll(table, 5, 15, dificultad=1, bonificacion_impulso=2)
    assert "0 sin gastar, más 2 de bonificación." in reply.text
    await table.click(reply.message, button(reply.message, "dune:info"))
    saved = await table.click(reply.message, button(reply.message, "dune:guardar"))
    assert "No quedaba Impulso que guardar." in saved.text
    assert await table.pool("impulso") == 0


async def test_a_double_click_on_save_saves_once(table: Harness) -> None:
    reply = await roll(table, 1, 1, dificultad=1)
    save = button(reply.message, "dune:guardar")
    first, second = await asyncio.gather(table.click(reply.message, save), table.click(reply.message, save))
    assert await table.pool("impulso") == 3
    refusals = [r for r in (first, second) if r.ephemeral]
    assert len(refusals) == 1
    assert "ya está resuelta" in refusals[0].text
    await table.assert_ledger_matches()


async def test_a_replayed_click_changes_nothing(table: Harness) -> None:
    reply = await roll(table, 1, 1, dificultad=1)
    assert table.bot is not None
    payload = table.bot and None
    from tests.support.payloads import interaction_payload

    payload = interaction_payload(
        3,
        {"custom_id": button(reply.message, "dune:guardar"), "component_type": 2},
        user=PLAYER,
        locale="es-ES",
        channel_id=CHANNEL_ID,
        message=reply.message.payload(),
        channels=table.channels,
    )
    await table.feed(payload)
    await table.feed(dict(payload))
    assert await table.pool("impulso") == 3
    await table.assert_ledger_matches()


async def test_two_players_spend_the_last_momentum_at_once(table: Harness) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=1)
    one, two = await asyncio.gather(
        table.slash("dune impulso gastar", user=PLAYER), table.slash("dune impulso gastar", user=OTHER)
    )
    assert sorted([one.ephemeral, two.ephemeral]) == [False, True]
    assert await table.pool("impulso") == 0
    await table.assert_ledger_matches()


async def test_each_complication_is_ignored_once_for_two_threat(table: Harness) -> None:
    reply = await roll(table, 20, 3, dificultad=1)
    ignore = button(reply.message, "dune:ignorar")
    done = await table.click(reply.message, ignore)
    assert "Pendientes: 0 · descartadas: 1." in done.text
    assert await table.pool("amenaza") == 2
    assert ignore not in table.discord.messages[reply.message.id].custom_ids
    again = await table.click(reply.message, ignore)
    assert again.ephemeral
    assert "Ese botón ya no está activo" in again.text
    assert await table.pool("amenaza") == 2


async def test_only_the_gm_grants_success_at_a_price(table: Harness) -> None:
    reply = await roll(table, 15, 16, dificultad=1)
    price = button(reply.message, "dune:precio")
    refused = await table.click(reply.message, price)
    assert refused.ephemeral
    assert "Solo la persona que dirige esta mesa" in refused.text
    granted = await table.click(reply.message, price, user=GM)
    assert "⚖️ Éxito a un precio" in granted.text
    assert "Pendientes: 1 · descartadas: 0." in granted.text


async def test_only_the_roller_or_the_gm_press_the_panel(table: Harness) -> None:
    reply = await roll(table, 1, 1, dificultad=1)
    refused = await table.click(reply.message, button(reply.message, "dune:info"), user=OTHER)
    assert refused.ephemeral
    assert "Estos botones son de quien tiró" in refused.text
    english = await table.click(reply.message, button(reply.message, "dune:info"), user=OTHER, locale="en-US")
    assert "These buttons belong to whoever rolled" in english.text
    allowed = await table.click(reply.message, button(reply.message, "dune:info"), user=GM)
    assert not allowed.ephemeral


async def test_reroll_with_determination_updates_the_roll_once_per_die(table: Harness) -> None:
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER, cantidad=2)
    reply = await roll(table, 20, 16, dificultad=1)
    menu = await table.click(reply.message, button(reply.message, "dune:repetir"))
    assert menu.ephemeral
    options = menu.data["components"][0]["components"][0]["options"]
    assert [o["label"] for o in options] == ["Dado 1: 20", "Dado 2: 16"]
    table.script(4)
    done = await table.click(menu.message, "dune:dados:1", values=["0"], component_type=3)
    assert "Repetido el dado 1." in done.text
    updated = table.discord.messages[reply.message.id].data["embeds"][0]
    assert "~~20~~↺ **4**✓ **16**" in str(updated)
    assert "✅ Superado" in str(updated)
    assert await table.pool("determinacion", PLAYER.id) == 1
    stale = await table.click(menu.message, "dune:dados:1", values=["0"], component_type=3)
    assert "Ese botón ya no está activo" in stale.text
    fresh = await table.click(reply.message, button(reply.message, "dune:repetir"))
    options = fresh.data["components"][0]["components"][0]["options"]
    assert [o["label"] for o in options] == ["Dado 2: 16"]
    tampered = await table.click(fresh.message, "dune:dados:1", values=["0"], component_type=3)
    assert tampered.ephemeral
    assert "El dado 1 ya se repitió" in tampered.text
    assert await table.pool("determinacion", PLAYER.id) == 1


async def test_rerolling_needs_determination(table: Harness) -> None:
    reply = await roll(table, 20, 16, dificultad=1)
    menu = await table.click(reply.message, button(reply.message, "dune:repetir"))
    table.script(4)
    refused = await table.click(menu.message, "dune:dados:1", values=["1"], component_type=3)
    assert "No alcanza la reserva de Determinación" in refused.text


async def test_the_panel_works_after_a_restart(table: Harness) -> None:
    reply = await roll(table, 1, 1, dificultad=1)
    await table.restart()
    saved = await table.click(reply.message, button(reply.message, "dune:guardar"))
    assert "3 a la reserva del grupo." in saved.text
    assert await table.pool("impulso") == 3


async def test_npc_tests_are_the_gms_and_pay_with_threat(table: Harness) -> None:
    refused = await roll(table, 1, 1, pnj=True)
    assert "Solo el DJ tira por los PNJ." in refused.text
    await table.slash("dune amenaza añadir", user=GM, cantidad=3)
    reply = await roll(table, 1, 20, 5, user=GM, pnj=True, dados_extra=1)
    assert "Chequeo de PNJ" in reply.text
    assert await table.pool("amenaza") == 2
    assert "dune:guardar" not in " ".join(reply.message.custom_ids)
    await table.click(reply.message, button(reply.message, "dune:descartar"), user=GM)
    assert await table.pool("amenaza") == 0
    await table.click(reply.message, button(reply.message, "dune:pnj"), user=GM)
    assert await table.pool("amenaza") == 1


async def test_threat_players_add_and_only_the_gm_spends(table: Harness) -> None:
    added = await table.slash("dune amenaza añadir", cantidad=1)
    assert f"<@{PLAYER.id}> añade 1 de Amenaza." in added.text
    refused = await table.slash("dune amenaza gastar", cantidad=1)
    assert refused.ephemeral
    assert await table.pool("amenaza") == 1
    seen = await table.slash("dune amenaza ver")
    assert seen.ephemeral
    assert "Amenaza: **1**" in seen.text


async def test_spending_threat_on_difficulty_raises_the_next_test(table: Harness) -> None:
    await table.slash("dune amenaza añadir", user=GM, cantidad=2)
    spent = await table.slash("dune amenaza gastar", user=GM, uso="dificultad")
    assert "El DJ gasta 2 de Amenaza: +1 dificultad al próximo chequeo (2)." in spent.text
    assert "El próximo chequeo tendrá +1 de dificultad." in spent.text
    reply = await roll(table, 3, 4, dificultad=2)
    assert "dificultad 3" in reply.text
    assert await table.pool("dificultad_extra") == 0
    after = await roll(table, 3, 4, dificultad=2)
    assert "dificultad 2" in after.text


async def test_determination_is_given_taken_capped_and_spent(table: Harness) -> None:
    refused = await table.slash("dune determinacion dar", jugador=OTHER)
    assert refused.ephemeral
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER, cantidad=3)
    over = await table.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    assert "no puede pasar de 3" in over.text
    await table.slash("dune determinacion quitar", user=GM, jugador=PLAYER)
    spent = await table.slash("dune determinacion gastar")
    assert f"<@{PLAYER.id}> gasta 1 de Determinación." in spent.text
    assert await table.pool("determinacion", PLAYER.id) == 1
    seen = await table.slash("dune determinacion ver", locale="en-US")
    assert f"<@{PLAYER.id}>'s Determination: **1**/3" in seen.text


async def test_an_adventure_resets_determination_and_threat(table: Harness) -> None:
    await roll(table, 5, 6)
    await table.slash("dune determinacion dar", user=GM, jugador=OTHER, cantidad=3)
    refused = await table.slash("dune aventura")
    assert refused.ephemeral
    done = await table.slash("dune aventura", user=GM)
    assert "2 jugadores con 1 de Determinación y 4 de Amenaza" in done.text
    assert await table.pool("determinacion", OTHER.id) == 1
    assert await table.pool("determinacion", PLAYER.id) == 1
    await table.slash("dune aventura", user=GM, jugadores=5)
    assert await table.pool("amenaza") == 10
    await table.assert_ledger_matches()


async def test_the_end_of_a_scene_loses_one_momentum_never_below_zero(table: Harness) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=1)
    refused = await table.slash("mesa escena-fin")
    assert refused.ephemeral
    ended = await table.slash("mesa escena-fin", user=GM)
    assert "Impulso: -1 (queda 0)." in ended.text
    again = await table.slash("mesa escena-fin", user=GM)
    assert "Impulso: +0 (queda 0)." in again.text
    assert await table.pool("impulso") == 0


async def test_an_opposed_test_uses_the_opponents_successes_as_difficulty(table: Harness) -> None:
    table.script(2, 3, 15, 16)
    reply = await table.slash("dune enfrentada", habilidad=6, motivacion=6, rival_objetivo=10, obstaculos=1)
    assert "2 éxitos, menos 1 por obstáculos = dificultad 1." in reply.text
    assert "El rival gana 1 de Impulso por los éxitos que faltaron." in reply.text
    assert "❌ Fallado: 0 éxitos contra dificultad 1." in reply.text


async def test_an_assisted_test(table: Harness) -> None:
    prep = await table.slash("dune ayuda", habilidad=5, motivacion=5, dificultad=2)
    join, go = prep.message.custom_ids
    own = await table.click(prep.message, join)
    assert "no puedes ayudarte a ti mismo" in own.text
    modal = await table.click(prep.message, join, user=OTHER)
    assert modal.callback.payload["type"] == 9
    bad = await table.submit(
        modal.modal_id, {"objetivo": "x", "enfoque": ""}, user=OTHER, message=prep.message
    )
    assert "objetivo tiene que ser un número entero" in bad.text
    joined = await table.submit(
        modal.modal_id, {"objetivo": "9", "enfoque": ""}, user=OTHER, message=prep.message
    )
    assert f"<@{OTHER.id}> (objetivo 9)" in joined.text
    not_leader = await table.click(prep.message, go, user=OTHER)
    assert "Solo quien dirige el chequeo puede tirar" in not_leader.text
    table.script(3, 15, 1)
    rolled = await table.click(prep.message, go)
    assert f"Ayuda de <@{OTHER.id}>: **1**✨" in rolled.text
    assert "✅ Superado: 3 éxitos contra dificultad 2." in rolled.text
    again = await table.click(prep.message, go)
    assert "ya se ha tirado" in again.text


async def test_helpers_count_only_if_the_leader_succeeds(table: Harness) -> None:
    prep = await table.slash("dune ayuda", habilidad=5, motivacion=5, dificultad=1)
    join, go = prep.message.custom_ids
    form = await table.click(prep.message, join, user=OTHER)
    await table.submit(form.modal_id, {"objetivo": "9", "enfoque": ""}, user=OTHER, message=prep.message)
    table.script(13, 15, 1)
    rolled = await table.click(prep.message, go)
    assert "❌ Fallado: 0 éxitos contra dificultad 1." in rolled.text


async def test_an_extended_task_fills_and_is_announced_once(table: Harness) -> None:
    refused = await table.slash("dune tarea crear", nombre="Forzar la puerta", requisito=3)
    assert refused.ephemeral
    created = await table.slash("dune tarea crear", user=GM, nombre="Forzar   la puerta", requisito=3)
    assert "Tarea #1 «Forzar la puerta» creada: requisito 3." in created.text
    first = await roll(table, 5, 15, dificultad=1, tarea=1)
    shown = await table.slash("dune tarea ver")
    assert "▰▰▰▰▰▰▱▱▱▱ 2/3" in shown.text
    second = await roll(table, 1, 15, dificultad=1, tarea=1)
    pushed = await table.click(second.message, button(second.message, "dune:tarea"))
    announcements = [m for m in pushed.messages if "completada" in str(m.data)]
    assert len(announcements) == 1
    assert "🏁 ¡Tarea «Forzar la puerta» completada! 5 de 3 puntos." in str(announcements[0].data)
    more = await table.click(first.message, button(first.message, "dune:info"))
    assert not [m for m in more.messages if "completada" in str(m.data)]
    unknown = await roll(table, 1, 2, tarea=99)
    assert "Esa tarea no existe en esta mesa" in unknown.text


async def test_dune_commands_refuse_direct_messages(table: Harness) -> None:
    reply = await table.slash("dune impulso ver", guild=False)
    assert "solo funciona en un canal de un servidor" in reply.text


async def test_threat_stops_at_its_cap_with_a_refusal_naming_it(table: Harness) -> None:
    """The rules give Amenaza no maximum; the bot's (100, docs/decisiones.md) is refused
    like any cap, never a database error, even for a pool already past it."""
    for _ in range(5):
        await table.slash("dune amenaza añadir", user=GM, cantidad=19)
    refused = await table.slash("dune amenaza añadir", user=GM, cantidad=20)
    assert refused.ephemeral and "Amenaza no puede pasar de 100: hay 95" in refused.text
    assert await table.pool("amenaza") == 95
    with sqlite3.connect(table.db_path) as db:  # a pool from before the cap, at the schema's bound
        db.execute("UPDATE pools SET value = ?, cap = NULL WHERE pool = 'amenaza'", (POOL_MAX,))
    at_bound = await table.slash("dune amenaza añadir", user=GM, cantidad=20)
    assert at_bound.ephemeral and "no puede pasar de 100" in at_bound.text
    assert await table.pool("amenaza") == POOL_MAX


async def test_task_progress_is_one_query_over_the_rolls_linked_to_tasks(table: Harness) -> None:
    """/dune tarea ver reads the linked rolls once for every task (before: every Dune roll
    of the channel, once per task, and only the latest 500, so old progress was lost)."""
    for n in range(3):
        await table.slash("dune tarea crear", user=GM, nombre=f"Tarea {n}", requisito=9)
    await roll(table, 5, 15, dificultad=1, tarea=2)
    assert table.bot is not None
    store = table.bot.store
    filler = {**(await store.rolls(CHANNEL_ID, "dune", 1))[0].data, "task_id": None}
    for n in range(600):
        await store.save_roll(CHANNEL_ID, -1 - n, PLAYER.id, "dune", filler)
    queries = []
    real = store._fetchall

    async def counted(sql, params=()):
        queries.append(sql)
        return await real(sql, params)

    store._fetchall = counted  # type: ignore[method-assign]
    shown = await table.slash("dune tarea ver")
    assert "#2 · Tarea 1" in shown.text and "2/9" in shown.text
    assert len([q for q in queries if "FROM rolls" in q]) == 2  # the tasks, then their rolls
