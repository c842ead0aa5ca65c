"""/dune through discord.py: commands, the roll panel's buttons, pools and their ledger."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.models import Applied, Change, Operation, Refused, SheetRow, SheetUpdate
from bot.store import POOL_MAX, Store
from cogs.dune.state import SCENE_TEXT_LIMIT
from tests.bot.board.test_updater import shown
from tests.cogs.ficha.test_panel import answers
from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER, User
from tests.support.statements import reads_of


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("dune")
    return harness


def button(message: Message, prefix: str) -> str:
    found = [c for c in message.custom_ids if c.startswith(prefix)]
    assert found, f"no {prefix} button in {message.custom_ids}"
    return found[0]


async def answer(
    h: Harness, prompt: Message, *, user: User = PLAYER, locale: str = "es-ES", **values: object
) -> Reply:
    """Answer an opposed test's prompt: press "Comprar dados y tirar" and send its form, each
    question as offered (a radio group's default, a checkbox unticked) unless ``values``
    answers it (``radio_dados``, ``radio_pago``, ``determinacion``). A press refused
    (someone else's prompt, one already rolled) is that refusal."""
    opened = await h.click(prompt, button(prompt, "dune:contra-responder:"), user=user, locale=locale)
    if not isinstance(opened.callback.payload, dict) or opened.callback.payload["type"] != 9:
        return opened
    offered: dict[str, object] = {}
    for question in opened.callback.payload["data"]["components"]:
        component = question["component"]
        if component["type"] == 21:
            default = next(o["value"] for o in component["options"] if o.get("default"))
            offered[f"radio_{component['custom_id']}"] = default
        else:
            offered[component["custom_id"]] = False
    data = {"custom_id": opened.modal_id, "components": answers(**(offered | values))}
    return await h.dispatch(5, data, user=user, locale=locale, channel_id=prompt.channel_id, message=prompt)


async def roll(h: Harness, *faces: int, user=PLAYER, locale: str = "es-ES", **options: object) -> Reply:
    h.script(*faces)
    options = {"habilidad": 6, "motivacion": 6} | options
    return await h.slash("dune tirada", user=user, locale=locale, **options)


async def create_trait(h: Harness, panel: Message, text: str, user=PLAYER) -> Reply:
    """Press "Crear rasgo" on a roll's panel and name the trait in its form."""
    form = await h.click(panel, button(panel, "dune:rasgo"), user=user)
    assert form.callback.payload["type"] == 9, form.text
    return await h.submit(
        form.modal_id, {"rasgo": text, "cuenta": "1", "sustituye": ""}, user=user, message=panel
    )


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
    ] + ["rep:repetir:1"]


async def test_a_test_in_english(table: Harness) -> None:
    reply = await roll(table, 3, 15, locale="en-US", dificultad=2)
    assert "❌ Failed: 1 success against difficulty 2." in reply.text
    labels = [c["label"] for row in reply.data["components"] for c in row["components"]]
    assert "Success at a cost" in labels
    assert "Reroll with Determination" in labels


async def test_focus_makes_dice_under_the_skill_critical(table: Harness) -> None:
    reply = await roll(table, 6, 12, habilidad=6, motivacion=6, especializacion="Espada", dificultad=3)
    assert "Con la especialización «Espada»: cada dado igual o menor que 6 es crítico." in reply.text
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
    assert await table.bot.store.records(CHANNEL_ID, "dune") == []


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
    spent = await create_trait(table, panel, "Cubierto")
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
    form = await table.click(reply.message, price, user=GM)
    assert form.callback.payload["type"] == 9
    granted = await table.submit(form.modal_id, {"complicaciones": "1"}, user=GM, message=reply.message)
    assert "⚖️ Éxito a un precio" in granted.text
    assert "Pendientes: 1 · descartadas: 0." in granted.text


async def test_the_gm_chooses_how_many_complications_a_price_adds(table: Harness) -> None:
    """ "El Director determina cuantas complicaciones extra se sufren" (#15)."""
    reply = await roll(table, 15, 16, dificultad=1)
    form = await table.click(reply.message, button(reply.message, "dune:precio"), user=GM)
    question = form.callback.payload["data"]["components"][0]
    assert question["label"] == "Complicaciones extra"
    offered = question["component"]["options"]
    assert [(o["value"], o.get("default", False)) for o in offered] == [
        ("1", True),
        ("2", False),
        ("3", False),
        ("4", False),
        ("5", False),
    ]
    granted = await table.submit(form.modal_id, {"complicaciones": "3"}, user=GM, message=reply.message)
    assert "con 3 complicaciones más y sin Impulso" in granted.text
    assert "Pendientes: 3 · descartadas: 0." in granted.text


async def test_only_the_roller_or_the_gm_press_the_panel(table: Harness) -> None:
    reply = await roll(table, 1, 1, dificultad=1)
    refused = await table.click(reply.message, button(reply.message, "dune:info"), user=OTHER)
    assert refused.ephemeral
    assert "Estos botones son de quien tiró" in refused.text
    english = await table.click(reply.message, button(reply.message, "dune:info"), user=OTHER, locale="en-US")
    assert "These buttons belong to whoever rolled" in english.text
    allowed = await table.click(reply.message, button(reply.message, "dune:info"), user=GM)
    assert not allowed.ephemeral


async def reroll(h: Harness, panel: Message, *dice: int, faces: tuple[int, ...], user=PLAYER) -> Reply:
    """Press "Repetir con Determinación" and choose ``dice`` (0-based) in the private menu."""
    menu = await h.click(panel, button(panel, "dune:repetir"), user=user)
    assert menu.ephemeral, menu.text
    h.script(*faces)
    select = button(menu.message, "dune:dados:")
    return await h.click(menu.message, select, values=[str(d) for d in dice], component_type=3, user=user)


async def test_determination_after_the_roll_rerolls_the_dice_the_player_chooses(table: Harness) -> None:
    """ "repite la tirada de cualquier número de d20 en tu reserva" and "siempre puedes
    decidir NO repetir un dado" (#26): a 1 kept for its two successes stays."""
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER, cantidad=2)
    reply = await roll(table, 1, 16, 17, dificultad=3, dados_extra=1, pago="amenaza")
    menu = await table.click(reply.message, button(reply.message, "dune:repetir"))
    assert menu.ephemeral
    options = menu.data["components"][0]["components"][0]
    assert [o["label"] for o in options["options"]] == ["Dado 1: 1", "Dado 2: 16", "Dado 3: 17"]
    assert (options["min_values"], options["max_values"]) == (1, 3)
    assert await table.pool("determinacion", PLAYER.id) == 2
    select = button(menu.message, "dune:dados:")
    table.script(4, 18)
    done = await table.click(menu.message, select, values=["1", "2"], component_type=3)
    assert "**1**✨ ~~16~~↺ **4**✓ ~~17~~↺ **18**" in done.text
    panel = table.discord.messages[reply.message.id]
    assert "**1**✨ ~~16~~↺ **4**✓ ~~17~~↺ **18**" in str(panel.data)
    assert "✅ Superado: 3 éxitos contra dificultad 3." in str(panel.data)
    assert "dune:repetir" not in " ".join(panel.custom_ids)
    assert await table.pool("determinacion", PLAYER.id) == 1
    again = await table.click(menu.message, select, values=["0"], component_type=3)
    assert again.ephemeral
    assert await table.pool("determinacion", PLAYER.id) == 1
    refused = await table.click(reply.message, "dune:repetir:1")
    assert refused.ephemeral
    await table.assert_ledger_matches()


async def test_a_replayed_reroll_spends_one_point(table: Harness) -> None:
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER, cantidad=3)
    reply = await roll(table, 20, 16, dificultad=1)
    menu = await table.click(reply.message, button(reply.message, "dune:repetir"))
    select = button(menu.message, "dune:dados:")
    table.script(3, 5)
    first, second = await asyncio.gather(
        table.click(menu.message, select, values=["0"], component_type=3),
        table.click(menu.message, select, values=["1"], component_type=3),
    )
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    assert await table.pool("determinacion", PLAYER.id) == 2
    await table.assert_ledger_matches()


async def test_rerolling_needs_determination(table: Harness) -> None:
    reply = await roll(table, 20, 16, dificultad=1)
    reroll_button = next(
        c for row in reply.data["components"] for c in row["components"] if c["custom_id"] == "dune:repetir:1"
    )
    assert reroll_button["disabled"] is True
    refused = await table.click(reply.message, "dune:repetir:1")
    assert refused.ephemeral
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
    assert "2 jugadores (<@930000000000000002>, <@930000000000000003>) con 1 de Determinación" in done.text
    assert "y 4 de Amenaza" in done.text
    assert f"Determinación de <@{GM.id}>" not in done.text
    assert await table.pool("determinacion", OTHER.id) == 1
    assert await table.pool("determinacion", PLAYER.id) == 1
    await table.assert_ledger_matches()


async def test_an_adventure_on_a_fresh_table_reaches_the_named_players(table: Harness) -> None:
    """#17: "jugadores:3" on a fresh table reached nobody, and no option refused with
    "pusiste 0". Named players each get their point and the Amenaza counts them."""
    nobody = await table.slash("dune aventura", user=GM)
    assert nobody.ephemeral
    assert "nómbralos en «jugadores»" in nobody.text
    assert "pusiste 0" not in nobody.text
    third = 930000000000000009
    named = f"<@{PLAYER.id}> <@!{OTHER.id}> <@{third}> <@{PLAYER.id}> <@{GM.id}>"
    done = await table.slash("dune aventura", user=GM, jugadores=named)
    assert "3 jugadores" in done.text
    assert "6 de Amenaza" in done.text
    assert await table.pool("amenaza") == 6
    for user in (PLAYER.id, OTHER.id, third):
        assert await table.pool("determinacion", user) == 1
    assert await table.pool("determinacion", GM.id) == 0


async def test_the_end_of_a_scene_loses_one_momentum_never_below_zero(table: Harness) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=1)
    refused = await table.slash("mesa escena-fin")
    assert refused.ephemeral
    ended = await table.slash("mesa escena-fin", user=GM)
    assert "Impulso: -1 (queda 0)." in ended.text
    again = await table.slash("mesa escena-fin", user=GM)
    assert "Impulso: sin cambios (queda 0)." in again.text
    assert "+0" not in again.text
    assert await table.pool("impulso") == 0


async def opposed(h: Harness, *rival: int, user=PLAYER, **options: object) -> Reply:
    h.script(*rival)
    options = {"habilidad": 6, "motivacion": 6, "rival_objetivo": 10} | options
    return await h.slash("dune enfrentada", user=user, **options)


async def test_an_opposed_test_rolls_the_opponent_first_then_the_actor_chooses(table: Harness) -> None:
    """ "el personaje que se opone lanza primero para definir la Dificultad", and dice are
    bought "después de que la dificultad se haya declarado" (#15)."""
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    prompt = await opposed(table, 2, 3, obstaculos=1)
    assert not prompt.ephemeral
    assert "2 éxitos, menos 1 por obstáculos = dificultad 1." in prompt.text
    assert "Tirada enfrentada · dificultad 1" in prompt.text
    refused = await answer(table, prompt.message, user=OTHER)
    assert "Estos botones son de quien tiró" in refused.text
    opened = await table.click(prompt.message, button(prompt.message, "dune:contra-responder:"))
    questions = opened.callback.payload["data"]["components"]
    assert [q["label"] for q in questions] == [
        "Dados extra",
        "Cómo pagar los dados extra",
        "Gastar 1 de Determinación",
    ]
    dice, ways, point = (q["component"] for q in questions)
    assert [o["label"] for o in dice["options"]] == [
        "Sin dados extra",
        "1 dado: cuesta 1",
        "2 dados: cuestan 3",
        "3 dados: cuestan 6",
    ]
    assert [o["value"] for o in ways["options"]] == ["impulso", "amenaza", "mixto"]
    assert point["type"] == 23
    await table.restart()
    table.script(15, 16)
    rolled = await answer(table, prompt.message, radio_dados="1", radio_pago="amenaza", determinacion=True)
    assert "**1**✨📌 **15**" in rolled.text
    assert "1 dado: +1 de Amenaza" in rolled.text
    assert "✅ Superado: 2 éxitos contra dificultad 1." in rolled.text
    assert (await table.pool("amenaza"), await table.pool("determinacion", PLAYER.id)) == (1, 0)
    assert "Ya se ha tirado." in str(table.discord.messages[prompt.message.id].data)
    assert not table.discord.messages[prompt.message.id].custom_ids
    assert len(await table.bot.store.records(CHANNEL_ID, "dune")) == 1
    await table.assert_ledger_matches()


async def test_an_opposed_test_failed_gives_the_opponent_momentum(table: Harness) -> None:
    prompt = await opposed(table, 2, 3, obstaculos=1)
    table.script(15, 16)
    rolled = await answer(table, prompt.message)
    assert "El rival gana 1 de Impulso por los éxitos que faltaron." in rolled.text
    assert "❌ Fallado: 0 éxitos contra dificultad 1." in rolled.text


async def test_an_opposed_test_takes_a_plain_tests_options(table: Harness) -> None:
    """Difficulty adjustments, complication range, task, bonus Impulso, NPC (#15)."""
    await table.slash("dune tarea crear", user=GM, nombre="Huida", requisito=5)
    prompt = await opposed(
        table, 2, 19, ajuste_dificultad=1, rango_complicacion=2, bonificacion_impulso=1, tarea=1
    )
    assert "Con tu ajuste de +1: dificultad 2." in prompt.text
    table.script(1, 19)
    rolled = await answer(table, prompt.message)
    assert "**1**✨ **19**⚠️" in rolled.text
    assert "2 éxitos contra dificultad 2" in rolled.text
    assert "0 sin gastar, más 1 de bonificación." in rolled.text
    assert "«Huida»: +1 con esta tirada." in rolled.text
    npc = await opposed(table, 2, 3, pnj=True)
    assert "Solo el DJ tira por los PNJ." in npc.text
    gm_prompt = await opposed(table, 2, 3, pnj=True, user=GM)
    opened = await table.click(
        gm_prompt.message, button(gm_prompt.message, "dune:contra-responder:"), user=GM
    )
    # An NPC pays with Amenaza and has no Determinación: the dice are its only question.
    (question,) = opened.callback.payload["data"]["components"]
    assert question["component"]["options"][2]["label"] == "2 dados: 3 de Amenaza del DJ"


async def test_an_assisted_test(table: Harness) -> None:
    prep = await table.slash("dune ayuda", habilidad=5, motivacion=5, dificultad=2)
    join, go = prep.message.custom_ids
    own = await table.click(prep.message, join)
    assert "no puedes ayudarte a ti mismo" in own.text
    modal = await table.click(prep.message, join, user=OTHER)
    assert modal.callback.payload["type"] == 9
    forged = {"custom_id": modal.modal_id, "components": answers(habilidad=["x"], motivacion=["4"])}
    bad = await table.dispatch(
        5, forged, user=OTHER, locale="es-ES", channel_id=CHANNEL_ID, message=prep.message
    )
    assert "Esa opción no estaba en el formulario" in bad.text
    joined = await table.submit(
        modal.modal_id, {"habilidad": ["5"], "motivacion": ["4"]}, user=OTHER, message=prep.message
    )
    assert f"<@{OTHER.id}> (Habilidad 5 + Motivación 4 = 9)" in joined.text
    not_leader = await table.click(prep.message, go, user=OTHER)
    assert "Solo quien dirige el chequeo puede tirar" in not_leader.text
    table.script(3, 15, 1)
    rolled = await table.click(prep.message, go)
    assert f"Ayuda de <@{OTHER.id}> (Habilidad 5 + Motivación 4 = 9): **1**✨" in rolled.text
    assert "✅ Superado: 3 éxitos contra dificultad 2." in rolled.text
    again = await table.click(prep.message, go)
    assert "ya se ha tirado" in again.text


async def test_helpers_count_only_if_the_leader_succeeds(table: Harness) -> None:
    prep = await table.slash("dune ayuda", habilidad=5, motivacion=5, dificultad=1)
    join, go = prep.message.custom_ids
    form = await table.click(prep.message, join, user=OTHER)
    await table.submit(
        form.modal_id, {"habilidad": ["5"], "motivacion": ["4"]}, user=OTHER, message=prep.message
    )
    table.script(13, 15, 1)
    rolled = await table.click(prep.message, go)
    assert "❌ Fallado: 0 éxitos contra dificultad 1." in rolled.text


async def test_an_extended_task_fills_and_is_announced_once(table: Harness) -> None:
    refused = await table.slash("dune tarea crear", nombre="Forzar la puerta", requisito=3)
    assert refused.ephemeral
    created = await table.slash("dune tarea crear", user=GM, nombre="Forzar   la puerta", requisito=3)
    assert "Tarea «Forzar la puerta» creada: requisito 3." in created.text
    assert "#1" not in created.text
    first = await roll(table, 5, 15, dificultad=1, tarea=1)
    assert "«Forzar la puerta»: +2 con esta tirada. ▰▰▰▰▰▰▱▱▱▱ 2/3" in first.text
    shown = await table.slash("dune tarea ver")
    assert "▰▰▰▰▰▰▱▱▱▱ 2/3" in shown.text
    assert "Forzar la puerta" in shown.text and "#1" not in shown.text
    second = await roll(table, 1, 15, dificultad=1, tarea=1)
    announcements = [m for m in second.messages if "completada" in str(m.data)]
    assert len(announcements) == 1
    assert "🏁 ¡Tarea «Forzar la puerta» completada! 4 de 3 puntos." in str(announcements[0].data)
    pushed = await table.click(second.message, button(second.message, "dune:tarea"))
    assert not [m for m in pushed.messages if "completada" in str(m.data)]
    more = await table.click(first.message, button(first.message, "dune:info"))
    assert not [m for m in more.messages if "completada" in str(m.data)]
    unknown = await roll(table, 1, 2, tarea=99)
    assert "Esa tarea no existe en esta mesa" in unknown.text


async def test_dune_commands_refuse_direct_messages(table: Harness) -> None:
    reply = await table.slash("dune impulso ver", guild=False)
    assert "funciona en un servidor con Tirada" in reply.text


def component(message_data: dict, custom_id: str) -> dict:
    return next(
        c for row in message_data["components"] for c in row["components"] if c.get("custom_id") == custom_id
    )


async def test_a_momentum_use_once_per_test_shows_disabled(table: Harness) -> None:
    """ "cada uso de Impulso … solo puede ser usado una vez en un mismo chequeo", except
    Obtener información: the used button stays, disabled (#15)."""
    await table.slash("dune impulso añadir", user=GM, cantidad=6)
    reply = await roll(table, 1, 1, dificultad=1)
    spent = await create_trait(table, reply.message, "Cubierto")
    data = spent.data
    assert component(data, "dune:rasgo:1")["disabled"] is True
    assert not component(data, "dune:info:1").get("disabled")
    assert not component(data, "dune:recurso:1").get("disabled")
    again = await table.click(reply.message, "dune:rasgo:1")
    assert again.ephemeral
    info = await table.click(reply.message, "dune:info:1")
    info = await table.click(reply.message, "dune:info:1")
    assert not component(info.data, "dune:info:1").get("disabled")


async def test_buttons_the_table_cannot_pay_for_are_disabled(table: Harness) -> None:
    """#17: "Crear o cambiar rasgo (2)" with 1 Impulso ended in a refusal."""
    reply = await roll(table, 2, 3, dificultad=1)  # 1 Impulso, the group pool empty
    data = reply.data
    assert component(data, "dune:rasgo:1")["disabled"] is True
    assert component(data, "dune:recurso:1")["disabled"] is True
    assert not component(data, "dune:info:1").get("disabled")
    assert "más 0 de bonificación" not in reply.text
    assert "1 sin gastar." in reply.text


async def test_the_gms_extra_difficulty_waits_for_a_players_test(table: Harness) -> None:
    """#17: the GM's own NPC roll used up "+1 dificultad", silently."""
    await table.slash("dune amenaza añadir", user=GM, cantidad=2)
    await table.slash("dune amenaza gastar", user=GM, uso="dificultad")
    npc = await roll(table, 3, 4, user=GM, pnj=True, dificultad=1)
    assert "dificultad 1" in npc.text
    assert await table.pool("dificultad_extra") == 1
    player = await roll(table, 3, 4, dificultad=1)
    assert "dificultad 2" in player.text
    assert "+1 de dificultad por la Amenaza que gastó el DJ; ya está usada." in player.text
    assert await table.pool("dificultad_extra") == 0


async def test_a_rolls_history_rows_say_what_each_paid_for_with_the_link(table: Harness) -> None:
    """#17: one generic reason and no link for the rows a roll made."""
    await table.slash("dune amenaza añadir", user=GM, cantidad=2)
    await table.slash("dune amenaza gastar", user=GM, uso="dificultad")
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    reply = await roll(table, 5, 6, 7, dados_extra=1, pago="amenaza", determinacion=True)
    history = await table.slash("mesa historial")
    lines = history.text.split("\n")
    link = f"/{CHANNEL_ID}/{reply.message.id})"
    for reason in (
        "tirada: dados comprados generando Amenaza",
        "tirada: Determinación para un 1 antes de tirar",
        "tirada: usa el +1 a la dificultad del DJ",
    ):
        line = next(x for x in lines if reason in x)
        assert link in line, line
    assert "dados comprados, Determinación, dificultad extra" not in history.text


async def test_a_roll_explains_its_target_and_what_its_dice_cost(table: Harness) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=1)
    reply = await roll(table, 5, 6, 7, 8, habilidad=6, motivacion=7, dados_extra=2, pago="mixto")
    assert "Habilidad 6 + Motivación 7 = 13" in reply.text
    assert "2 dados: 1 de Impulso y +2 de Amenaza" in reply.text
    english = await roll(table, 5, 6, 7, locale="en-US", dados_extra=1, pago="amenaza")
    assert "Skill 6 + Drive 6 = 12" in english.text
    assert "1 die: +1 Threat" in english.text


async def test_a_looming_problem_fills_with_failures_and_complications(table: Harness) -> None:
    """ "desde la dirección opuesta … chequeos de habilidad fallidos, complicaciones …
    añaden puntos, y el problema sucede cuando se alcanza el requisito" (#15)."""
    created = await table.slash("dune tarea crear", user=GM, nombre="La patrulla", requisito=3, opuesta=True)
    assert "Problema inminente «La patrulla» creado" in created.text
    failed = await roll(table, 20, 15, dificultad=1, tarea=1)
    assert "«La patrulla»: +3 con esta tirada." in failed.text
    assert "dune:tarea" not in " ".join(failed.message.custom_ids)
    announced = [m for m in failed.messages if "se desata" in str(m.data)]
    assert len(announced) == 1
    shown = await table.slash("dune tarea ver")
    assert "problema inminente" in shown.text


async def test_the_odds_of_an_assisted_test_count_the_helpers(table: Harness) -> None:
    from bot.i18n import percent
    from rules.dune import odds as dune_odds

    prep = await table.slash("dune ayuda", habilidad=5, motivacion=5, dificultad=3)
    join, go = prep.message.custom_ids
    form = await table.click(prep.message, join, user=OTHER)
    await table.submit(
        form.modal_id, {"habilidad": ["5"], "motivacion": ["4"]}, user=OTHER, message=prep.message
    )
    table.script(3, 15, 1)
    rolled = await table.click(prep.message, go)
    alone = percent("es", float(dune_odds.dune_distribution(10, 2, difficulty=3).p_pass))
    helped = percent("es", float(dune_odds.dune_assisted_pass(10, 2, ((9, None),), difficulty=3)))
    assert f"Superar con 0 · 1 · 2 · 3 dados comprados: {helped} ·" in rolled.text
    assert alone != helped


async def test_an_assisted_test_takes_a_plain_tests_options(table: Harness) -> None:
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    prep = await table.slash(
        "dune ayuda", habilidad=5, motivacion=5, determinacion=True, bonificacion_impulso=1, motivo="Trepar"
    )
    assert "Trepar" in prep.text
    go = prep.message.custom_ids[1]
    table.script(15)
    rolled = await table.click(prep.message, go)
    assert "**1**✨📌 **15**" in rolled.text
    assert "Trepar —" in rolled.text
    assert "más 1 de bonificación" in rolled.text
    assert await table.pool("determinacion", PLAYER.id) == 0
    npc = await table.slash("dune ayuda", habilidad=5, motivacion=5, pnj=True)
    assert "Solo el DJ tira por los PNJ." in npc.text


async def test_the_gm_giving_determination_is_told_at_the_table(table: Harness) -> None:
    """#17: what the GM gives or takes is announced at the table, naming whose pool."""
    from tests.cogs.test_mesa import channel
    from tests.support.payloads import GM_CHANNEL_ID

    await table.slash("mesa canal-dj", user=GM, canal=channel(GM_CHANNEL_ID))
    given = await table.slash(
        "dune determinacion dar", user=GM, jugador=PLAYER, channel_id=GM_CHANNEL_ID, mesa=str(CHANNEL_ID)
    )
    told = [m for m in given.messages if m.channel_id == CHANNEL_ID]
    assert len(told) == 1
    assert f"<@{PLAYER.id}> recibe 1 de Determinación." in str(told[0].data)
    here = await table.slash("dune determinacion quitar", user=GM, jugador=PLAYER)
    assert not here.ephemeral
    assert f"Determinación de <@{PLAYER.id}>: **0**/3" in here.text


@pytest.mark.parametrize("command", ["dune tirada", "dune enfrentada", "dune ayuda"])
async def test_every_dune_roll_takes_a_motivo_and_has_repetir(table: Harness, command: str) -> None:
    options = {"habilidad": 6, "motivacion": 6, "motivo": "Abrir la compuerta"}
    if command == "dune enfrentada":
        options["rival_objetivo"] = 10
    table.script(5, 6)
    first = await table.slash(command, **options)
    assert first.text.startswith("Abrir la compuerta — ")
    if command == "dune enfrentada":
        table.script(7, 8)
        first = await answer(table, first.message)
    elif command == "dune ayuda":
        table.script(7, 8)
        first = await table.click(first.message, first.message.custom_ids[1])
    assert "rep:repetir:" in " ".join(first.message.custom_ids)
    await table.restart()
    table.script(9, 10)
    again = await table.click(first.message, button(first.message, "rep:repetir"), user=OTHER)
    assert not again.ephemeral
    assert again.text.startswith("Abrir la compuerta — ")
    assert f"<@{OTHER.id}>" in again.text


async def test_an_opposed_test_in_english(table: Harness) -> None:
    table.script(2, 3)
    prompt = await table.slash(
        "dune enfrentada", locale="en-US", habilidad=6, motivacion=6, rival_objetivo=10
    )
    assert "Opposed test · difficulty 2" in prompt.text
    buttons = prompt.data["components"][0]["components"]
    assert [b["label"] for b in buttons] == ["Assist", "Buy dice and roll"]
    opened = await table.click(prompt.message, buttons[1]["custom_id"], locale="en-US")
    form = opened.callback.payload["data"]
    assert form["title"] == "Answer the opposition"
    dice, ways, point = form["components"]
    assert [dice["label"], ways["label"], point["label"]] == [
        "Extra dice",
        "How to pay for the extra dice",
        "Spend 1 Determination",
    ]
    assert dice["component"]["options"][3]["label"] == "3 dice: cost 6"
    assert ways["component"]["options"][2]["label"] == "Whatever Momentum there is, the rest with Threat"
    table.script(3, 4, 5, 15, 16)
    rolled = await answer(table, prompt.message, locale="en-US", radio_dados="3", radio_pago="mixto")
    assert "3 dice: +6 Threat" in rolled.text, rolled.text
    assert await table.pool("amenaza") == 6


async def test_the_gm_has_no_determination_line(table: Harness) -> None:
    """#17 noise: a GM's own "Determinación de @DJ: 0/3"."""
    reply = await roll(table, 5, 6, user=GM)
    assert f"Determinación de <@{GM.id}>" not in reply.text
    spent = await table.slash("dune amenaza añadir", user=GM, cantidad=1)
    assert f"Determinación de <@{GM.id}>" not in spent.text
    mine = await roll(table, 5, 6)
    assert f"Determinación de <@{PLAYER.id}>: **0**/3" in mine.text


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
    filler = {**(await store.records(CHANNEL_ID, "dune", 1))[0].data, "task_id": None}
    for n in range(600):
        await store.save_record(CHANNEL_ID, -1 - n, PLAYER.id, "dune", filler)
    with reads_of(store) as queries:
        shown = await table.slash("dune tarea ver")
    assert "Tarea 1\n▰▰▱▱▱▱▱▱▱▱ 2/9" in shown.text
    assert len([q for q in queries if "FROM records" in q]) == 2  # the tasks, then their rolls


async def test_the_gms_extra_difficulty_is_shown_before_dice_are_bought(table: Harness) -> None:
    """ "Debe hacerlo antes de que ningún dado sea comprado o lanzado en el chequeo" (#26):
    the opposed menu and the assisted test's panel show the raised difficulty, taken when
    they are prepared; a raise spent afterwards waits for the next test."""
    await table.slash("dune amenaza añadir", user=GM, cantidad=6)
    await table.slash("dune amenaza gastar", user=GM, uso="dificultad")
    prompt = await opposed(table, 2, 15)
    assert "Tirada enfrentada · dificultad 2" in prompt.text
    assert "+1 de dificultad por la Amenaza que gastó el DJ; ya está usada." in prompt.text
    assert await table.pool("dificultad_extra") == 0
    await table.slash("dune amenaza gastar", user=GM, uso="dificultad")
    table.script(3, 4)
    rolled = await answer(table, prompt.message)
    assert "Chequeo · objetivo 12 · dificultad 2" in rolled.text
    assert "+1 de dificultad por la Amenaza que gastó el DJ" in rolled.text
    assert await table.pool("dificultad_extra") == 1
    prep = await table.slash("dune ayuda", habilidad=5, motivacion=5, dificultad=1)
    assert "Chequeo con ayuda · objetivo 10 · dificultad 2" in prep.text
    assert "+1 de dificultad por la Amenaza que gastó el DJ; ya está usada." in prep.text
    assert await table.pool("dificultad_extra") == 0
    table.script(3, 4)
    helped = await table.click(prep.message, prep.message.custom_ids[1])
    assert "Chequeo · objetivo 10 · dificultad 2" in helped.text
    table.script(3, 4)
    again = await table.click(helped.message, button(helped.message, "rep:repetir"))
    assert "Chequeo con ayuda · objetivo 10 · dificultad 1" in again.text
    await table.assert_ledger_matches()


async def test_both_sides_of_an_opposed_test_may_have_helpers(table: Harness) -> None:
    """ "los personajes en tiradas enfrentadas pueden aceptar la ayuda de otros personajes
    próximos" (#26): the opponent's helpers roll with the opposition, the actor's join
    before the actor chooses; each side's helpers count only if its leader scores."""
    bad = await opposed(table, rival_ayuda="once")
    assert "rival_ayuda son los objetivos" in bad.text and bad.ephemeral
    prompt = await opposed(table, 3, 15, 9, rival_ayuda="9")
    assert "**3**✓ **15** · ayuda del rival: **9**✓: 2 éxitos" in prompt.text
    assert "Tirada enfrentada · dificultad 2" in prompt.text
    join = button(prompt.message, "dune:contra-ayuda:unirme")
    own = await table.click(prompt.message, join)
    assert "no puedes ayudarte a ti mismo" in own.text
    form = await table.click(prompt.message, join, user=OTHER)
    joined = await table.submit(
        form.modal_id, {"habilidad": ["5"], "motivacion": ["4"]}, user=OTHER, message=prompt.message
    )
    assert f"<@{OTHER.id}> (Habilidad 5 + Motivación 4 = 9)" in joined.text
    await table.restart()
    table.script(12, 16, 1)
    rolled = await answer(table, prompt.message)
    assert f"Ayuda de <@{OTHER.id}> (Habilidad 5 + Motivación 4 = 9): **1**✨" in rolled.text
    assert "✅ Superado: 3 éxitos contra dificultad 2." in rolled.text
    assert "ayuda del rival: **9**✓" in rolled.text
    late = await table.click(prompt.message, join, user=OTHER)
    assert late.ephemeral


async def ledger_delta(h: Harness, reply: Reply) -> dict[tuple[str, int], int]:
    """What the ledger wrote for the interaction ``reply`` answered, pool by pool."""
    assert h.bot is not None
    interaction = int(reply.callback.path.split("/")[2])
    rows = await h.bot.store.ledger(CHANNEL_ID, limit=200)
    delta: dict[tuple[str, int], int] = {}
    for row in rows:
        if row.interaction_id == interaction:
            delta[(row.pool, row.owner_id)] = delta.get((row.pool, row.owner_id), 0) + row.delta
    return {k: v for k, v in delta.items() if v}


async def test_every_change_a_dune_card_announces_is_its_interactions_ledger_delta(table: Harness) -> None:
    """The card tells the truth (#26): what each card says changed is exactly what the
    ledger wrote for that interaction, and a card that announces nothing wrote nothing."""
    me = PLAYER.id
    added = await table.slash("dune impulso añadir", user=GM, cantidad=1)
    assert "1" in added.text and await ledger_delta(table, added) == {("impulso", 0): 1}
    given = await table.slash("dune determinacion dar", user=GM, jugador=PLAYER, cantidad=3)
    assert await ledger_delta(table, given) == {("determinacion", me): 3}
    bought = await roll(table, 1, 18, 20, dificultad=1, dados_extra=2, pago="mixto", determinacion=True)
    assert "2 dados: 1 de Impulso y +2 de Amenaza" in bought.text
    assert "Determinación gastada antes de tirar" in bought.text
    assert await ledger_delta(table, bought) == {
        ("impulso", 0): -1,
        ("amenaza", 0): 2,
        ("determinacion", me): -1,
    }
    ignored = await table.click(bought.message, button(bought.message, "dune:ignorar"))
    assert "descartadas: 1" in ignored.text
    assert await ledger_delta(table, ignored) == {("amenaza", 0): 2}
    saved = await table.click(bought.message, button(bought.message, "dune:guardar"))
    assert "3 a la reserva del grupo." in saved.text
    assert await ledger_delta(table, saved) == {("impulso", 0): 3}
    spent = await table.slash("dune impulso gastar", cantidad=2)
    assert "gasta 2 de Impulso" in spent.text and await ledger_delta(table, spent) == {("impulso", 0): -2}
    raised = await table.slash("dune amenaza gastar", user=GM, uso="dificultad")
    assert "El DJ gasta 2 de Amenaza" in raised.text
    assert await ledger_delta(table, raised) == {("amenaza", 0): -2, ("dificultad_extra", 0): 1}
    failed = await roll(table, 15, 16, dificultad=1)
    assert "+1 de dificultad por la Amenaza que gastó el DJ" in failed.text
    assert await ledger_delta(table, failed) == {("dificultad_extra", 0): -1}
    menu = await table.click(failed.message, button(failed.message, "dune:repetir"))
    assert await ledger_delta(table, menu) == {}
    table.script(3)
    rerolled = await table.click(
        menu.message, button(menu.message, "dune:dados:"), values=["0"], component_type=3
    )
    assert "~~15~~↺ **3**" in rerolled.text
    assert await ledger_delta(table, rerolled) == {("determinacion", me): -1}
    await table.assert_ledger_matches()


async def test_scene_traits_are_table_state_in_the_ledger(table: Harness) -> None:
    """ "En cada escena se incluyen descriptores llamados Rasgos" (#26): Impulso (2), Amenaza
    (2) and Determinación (a Declaración) create, change or remove one, with its count; the
    GM sets them freely; each change is a ledger row, listed, undone and cleared at the end
    of the scene."""
    await table.slash("dune impulso añadir", user=GM, cantidad=3)
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    set_up = await table.slash("dune rasgo", user=GM, texto="de noche")
    assert "El DJ cambia los rasgos de la escena." in set_up.text
    assert "Rasgo «de noche»: 1" in set_up.text
    assert await ledger_delta(table, set_up) == {("rasgo:de noche", 0): 1}
    smoke = await table.slash("dune rasgo", texto="humo   denso", cuenta=2)
    assert f"<@{PLAYER.id}> gasta 2 de Impulso del grupo en un rasgo." in smoke.text
    assert "Rasgo «humo denso»: 2" in smoke.text
    assert await ledger_delta(table, smoke) == {("impulso", 0): -2, ("rasgo:humo denso", 0): 2}
    declared = await table.slash("dune rasgo", texto="humo", antes="Humo denso", pago="determinacion")
    assert "Rasgo «humo denso»: quitado" in declared.text and "Rasgo «humo»: 1" in declared.text
    assert await ledger_delta(table, declared) == {
        ("determinacion", PLAYER.id): -1,
        ("rasgo:humo denso", 0): -2,
        ("rasgo:humo", 0): 1,
    }
    assert await table.autocomplete("dune rasgo", "antes", "") == [
        {"name": "de noche 1", "value": "de noche"},
        {"name": "humo 1", "value": "humo"},
    ]
    for options, words in [
        ({"pago": "amenaza"}, "Solo el DJ paga un rasgo con Amenaza"),
        ({"pago": "libre"}, "Solo el DJ paga un rasgo con Amenaza"),
        ({"antes": "granizo"}, "La escena no tiene el rasgo «granizo»."),
        ({"texto": "@everyone\x07"}, "carácter de control"),
        ({"cuenta": 9}, "entre 0 y 5"),
    ]:
        refused = await table.slash("dune rasgo", **({"texto": "nieve"} | options))
        assert refused.ephemeral and words in refused.text, refused.text
    old_way = await table.slash("dune amenaza gastar", user=GM, uso="rasgo")
    assert "no es una opción válida" in old_way.text and old_way.ephemeral
    status = await table.slash("mesa estado")
    assert "Rasgo «humo»" in status.text and "Rasgo «de noche»" in status.text
    history = await table.slash("mesa historial")
    assert "Rasgo «humo»" in history.text
    await table.slash("mesa deshacer", user=GM)
    assert await table.pool("rasgo:humo denso") == 2 and await table.pool("rasgo:humo") == 0
    assert await table.pool("determinacion", PLAYER.id) == 1
    ended = await table.slash("mesa escena-fin", user=GM)
    assert "Rasgo «humo denso»" in ended.text and "Rasgo «de noche»" in ended.text
    assert await table.pool("rasgo:humo denso") == 0 and await table.pool("rasgo:de noche") == 0
    await table.assert_ledger_matches()


async def test_a_passed_tests_trait_and_asset_spends_ask_for_their_text(table: Harness) -> None:
    """The panel's "crear un rasgo" and "crear un recurso" ask what they create; the spend
    and the trait or asset are one operation, and the asset lasts until the scene ends."""
    await table.slash("dune impulso añadir", user=GM, cantidad=2)
    reply = await roll(table, 1, 1, dificultad=1)  # 4 successes: 3 Impulso
    form = await table.click(reply.message, button(reply.message, "dune:rasgo"))
    assert form.callback.payload["type"] == 9
    forged = {"custom_id": form.modal_id, "components": answers(rasgo="x", radio_cuenta="7", sustituye="")}
    bad = await table.dispatch(
        5, forged, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID, message=reply.message
    )
    assert "Esa opción no estaba en el formulario" in bad.text and bad.ephemeral
    done = await table.submit(
        form.modal_id, {"rasgo": "Cubierto", "cuenta": "1", "sustituye": ""}, message=reply.message
    )
    assert "Rasgo «Cubierto»: 1" in done.text
    assert await ledger_delta(table, done) == {("rasgo:Cubierto", 0): 1}
    asset_form = await table.click(reply.message, button(reply.message, "dune:recurso"))
    made = await table.submit(asset_form.modal_id, {"recurso": "Cuerda"}, message=reply.message)
    assert "Recurso «Cuerda»: 1" in made.text and "Rasgo «Cubierto»: 1" in made.text
    assert await ledger_delta(table, made) == {("impulso", 0): -1, ("recurso:Cuerda", PLAYER.id): 1}
    status = await table.slash("mesa estado")
    assert "Recurso «Cuerda»" in status.text
    ended = await table.slash("mesa escena-fin", user=GM)
    assert "Recurso «Cuerda»" in ended.text
    assert await table.pool("recurso:Cuerda", PLAYER.id) == 0
    await table.assert_ledger_matches()


async def test_the_board_lists_the_scenes_traits_and_assets(table: Harness) -> None:
    await table.slash("mesa tablero", user=GM)
    await table.slash("dune rasgo", user=GM, texto="humo *denso*", cuenta=2)
    await table.slash("dune impulso añadir", user=GM, cantidad=3)
    reply = await roll(table, 1, 1, dificultad=1)
    form = await table.click(reply.message, button(reply.message, "dune:recurso"))
    await table.submit(form.modal_id, {"recurso": "Cuerda"}, message=reply.message)
    now = await shown(table)
    assert "Rasgos y recursos de la escena" in now
    assert "Rasgo «humo \\*denso\\*» 2" in now
    assert f"Recurso «Cuerda» de <@{PLAYER.id}>" in now


async def test_a_trait_pool_is_the_same_on_both_stores(db_target: Path | str) -> None:
    """Traits need no schema of their own: the longest trait name fits a pool's on SQLite
    and PostgreSQL alike, and its count is set, capped and cleared through the ledger."""
    store = await Store.open(db_target)
    name = "rasgo:" + "ñ" * SCENE_TEXT_LIMIT
    try:
        first = Operation(
            CHANNEL_ID, 1, GM.id, "dune.trait.libre", (Change(name, set_to=2, cap=5),), guild_id=1
        )
        assert isinstance(await store.apply(first), Applied)
        over = Operation(CHANNEL_ID, 2, GM.id, "dune.trait.libre", (Change(name, 4, cap=5),), guild_id=1)
        assert isinstance(await store.apply(over), Refused)
        cleared = Operation(CHANNEL_ID, 3, GM.id, "mesa.scene_end", (Change(name, set_to=0),), guild_id=1)
        assert isinstance(await store.apply(cleared), Applied)
        assert await store.pool(CHANNEL_ID, name) == 0
        assert (await store.ledger_sums(CHANNEL_ID)).get((name, 0), 0) == 0
        assert [r.delta for r in await store.ledger(CHANNEL_ID, pool=name)] == [-2, 2]
    finally:
        await store.close()


async def test_a_sheet_update_is_written_with_its_pool_changes_or_not_at_all(db_target: Path | str) -> None:
    """A permanent asset's sheet and Impulso are one transaction, on both stores: a sheet
    changed since it was read refuses the whole operation."""
    store = await Store.open(db_target)
    try:
        row = SheetRow(0, CHANNEL_ID, PLAYER.id, False, "Irulan", "irulan", "dune", {"recursos": []})
        sheet_id, _ = await store.create_sheet(
            Operation(CHANNEL_ID, 1, PLAYER.id, "fichas.import", guild_id=1), row, lambda _: ()
        )
        await store.apply(
            Operation(CHANNEL_ID, 2, GM.id, "dune.impulso.add", (Change("impulso", 3, cap=6),), guild_id=1)
        )
        with_asset = {"recursos": [{"nombre": "Cuerda", "texto": ""}]}
        stale = Operation(
            CHANNEL_ID,
            3,
            PLAYER.id,
            "dune.asset.permanent",
            (Change("impulso", -2),),
            sheet_update=SheetUpdate(sheet_id, 7, with_asset),
        )
        assert isinstance(await store.apply(stale), Refused)
        assert await store.pool(CHANNEL_ID, "impulso") == 3
        fresh = Operation(
            CHANNEL_ID,
            4,
            PLAYER.id,
            "dune.asset.permanent",
            (Change("impulso", -2),),
            sheet_update=SheetUpdate(sheet_id, 0, with_asset),
        )
        assert isinstance(await store.apply(fresh), Applied)
        stored = await store.sheet(CHANNEL_ID, sheet_id)
        assert stored is not None and stored.data == with_asset and stored.version == 1
        assert await store.pool(CHANNEL_ID, "impulso") == 1
    finally:
        await store.close()


async def test_the_board_counts_a_looming_problem_as_its_task_card_does(table: Harness) -> None:
    """A looming problem fills with failures and complications, on the board too."""
    await table.slash("mesa tablero", user=GM)
    await table.slash("dune tarea crear", user=GM, nombre="Alarma", requisito=5, opuesta=True)
    failed = await roll(table, 15, 20, dificultad=1, tarea=1)
    assert "«Alarma»: +3 con esta tirada" in failed.text
    assert "Alarma: 3/5 puntos" in await shown(table)


@pytest.mark.parametrize(
    ("locale", "question"), [("es-ES", "Cuenta como (0 lo quita)"), ("en-US", "Counts as (0 removes it)")]
)
async def test_the_trait_forms_count_is_picked_from_0_to_5(
    table: Harness, locale: str, question: str
) -> None:
    """ "Gastando 2 puntos puedes crear un rasgo completamente nuevo, cambiar uno que exista o
    eliminarlo" (#31): how much the trait counts is a radio group of 0 (removes it) to 5, 1
    chosen, not a number typed; a count the form did not offer writes nothing."""
    reply = await roll(table, 1, 1, dificultad=1, locale=locale)
    form = await table.click(reply.message, button(reply.message, "dune:rasgo"), locale=locale)
    text, count, before = form.callback.payload["data"]["components"]
    assert (text["component"]["custom_id"], before["component"]["custom_id"]) == ("rasgo", "sustituye")
    assert count["label"] == question and count["component"]["type"] == 21
    assert [o["value"] for o in count["component"]["options"]] == ["0", "1", "2", "3", "4", "5"]
    assert [o["value"] for o in count["component"]["options"] if o.get("default")] == ["1"]
    forged = {"custom_id": form.modal_id, "components": answers(rasgo="Cubierto", radio_cuenta="6")}
    where = {"channel_id": CHANNEL_ID, "message": reply.message}
    refused = await table.dispatch(5, forged, user=PLAYER, locale=locale, **where)
    assert refused.ephemeral and await table.pool("rasgo:Cubierto") == 0
    done = await table.submit(
        form.modal_id, {"rasgo": "Cubierto", "cuenta": "3"}, locale=locale, message=reply.message
    )
    assert await ledger_delta(table, done) == {("rasgo:Cubierto", 0): 3}


async def test_a_new_roll_s_card_is_drawn_from_the_roll_thrown_and_a_replay_s_from_its_record(
    table: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new test's card tells the roll just thrown, as written, without decoding the record
    it wrote; a replayed one's, the first delivery's (its record), not the dice thrown again."""
    from rules.dune import skill_test

    decode = skill_test.from_data

    def refused(data: dict[str, object]) -> skill_test.DuneRoll:
        raise AssertionError("a new roll's card decoded its own record")

    monkeypatch.setattr(skill_test, "from_data", refused)
    data = table._command_data(["dune", "tirada"], {"habilidad": 6, "motivacion": 6, "dificultad": 1})
    table.script(1, 2)
    first = await table.dispatch(
        2, data, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID, interaction_id=77
    )
    assert "**1**✨ **2**✓" in first.text
    monkeypatch.setattr(skill_test, "from_data", decode)
    table.script(20, 20)
    replayed = await table.dispatch(
        2, data, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID, interaction_id=77
    )
    assert "**1**✨ **2**✓" in replayed.text and "**20**" not in replayed.text
