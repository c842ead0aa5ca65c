"""The Dune opposed test's answer as a form of three questions (issue #31): the bought
dice, how to pay for them, Determinación, in place of one menu of twenty combinations.
Each answer rolls, pays and writes what the same choice typed on ``/dune tirada`` does.
Then the helpers' *Ayudar* form, which picks the helper's skill and drive instead of typing
them (issue #31)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from cogs.dune import flow
from cogs.dune.state import RollSpec
from tests.cogs.dune.test_cog import answer, button, ledger_delta, table
from tests.cogs.dune.test_sheet import ASSIST, OPPOSED, sheet_json, stored
from tests.cogs.ficha.test_cog import example
from tests.cogs.ficha.test_panel import answers, submit
from tests.support.harness import Harness, Reply, Upload
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER

__all__ = ["table"]


def dice_line(text: str) -> list[str]:
    """The card's line of the actor's dice (the opposition's has its count after a colon)."""
    return [line for line in text.splitlines() if line.startswith("**") and ":" not in line]


@pytest.mark.parametrize(
    ("bought", "payment", "determination"),
    [(0, "impulso", False), (1, "amenaza", True), (2, "impulso", False), (3, "mixto", True)],
)
async def test_each_answer_pays_and_rolls_as_the_typed_test(
    table: Harness, bought: int, payment: str, determination: bool
) -> None:
    await table.slash("dune impulso añadir", user=GM, cantidad=4)
    await table.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    table.script(2, 3)  # the opposition against target 10: two successes, difficulty 2
    prompt = await table.slash("dune enfrentada", habilidad=6, motivacion=6, rival_objetivo=10)
    assert "Tirada enfrentada · dificultad 2" in prompt.text
    dice = [3, 4, 5, 6, 7][: 2 + bought]
    table.script(*dice)
    answered = await answer(
        table,
        prompt.message,
        radio_dados=str(bought),
        radio_pago=payment,
        determinacion=determination,
    )
    by_form = await ledger_delta(table, answered)
    await table.slash("mesa deshacer", user=GM)
    table.script(*dice)
    typed = await table.slash(
        "dune tirada",
        habilidad=6,
        motivacion=6,
        dificultad=2,
        dados_extra=bought,
        pago=payment,
        determinacion=determination,
    )
    assert by_form == await ledger_delta(table, typed)
    assert dice_line(answered.text) == dice_line(typed.text) != []
    await table.assert_ledger_matches()


async def test_an_answer_it_did_not_offer_is_refused_and_rolls_nothing(table: Harness) -> None:
    table.script(2, 3)
    prompt = await table.slash("dune enfrentada", habilidad=6, motivacion=6, rival_objetivo=10)
    refused = await answer(table, prompt.message, radio_dados="4")
    assert refused.ephemeral and "no estaba en el formulario" in refused.text
    assert table.discord.messages[prompt.message.id].custom_ids == prompt.message.custom_ids
    table.script(15, 16)
    rolled = await answer(table, prompt.message)
    assert "Fallado: 0 éxitos contra dificultad 2" in rolled.text


async def test_a_second_form_opened_before_the_roll_rolls_nothing(table: Harness) -> None:
    """Two forms open (a double click): the first sent rolls, the second is refused."""
    table.script(2, 3)
    prompt = await table.slash("dune enfrentada", habilidad=6, motivacion=6, rival_objetivo=10)
    answer_id = button(prompt.message, "dune:contra-responder:")
    first = await table.click(prompt.message, answer_id)
    second = await table.click(prompt.message, answer_id)
    sent = [
        {"custom_id": opened.modal_id, "components": answers(radio_dados="0", radio_pago="impulso")}
        for opened in (first, second)
    ]
    table.script(15, 16)
    where = {"user": PLAYER, "locale": "es-ES", "channel_id": CHANNEL_ID, "message": prompt.message}
    rolled = await table.dispatch(5, sent[0], **where)
    again = await table.dispatch(5, sent[1], **where)
    assert "Fallado: 0 éxitos contra dificultad 2" in rolled.text
    assert again.ephemeral and "ya se ha tirado" in again.text.lower()
    assert table.bot is not None and len(await table.bot.store.records(CHANNEL_ID, "dune")) == 1


async def test_a_prompt_posted_with_the_old_menu_still_rolls(table: Harness) -> None:
    """A prompt posted before the form (one menu of every combination) keeps working after
    the update: its menu is still registered and rolls the combination it sends."""
    table.script(2, 3)
    prompt = await table.slash("dune enfrentada", habilidad=6, motivacion=6, rival_objetivo=10)
    prep_id = button(prompt.message, "dune:contra-responder:").rsplit(":", 1)[1]
    menu = {
        "type": 3,
        "custom_id": f"dune:contra:{prep_id}",
        "options": [
            {"label": "Sin dados extra", "value": "0:impulso:0"},
            {"label": "1", "value": "1:amenaza:0"},
        ],
    }
    old = table.discord.earlier(
        CHANNEL_ID, {**prompt.message.data, "components": [{"type": 1, "components": [menu]}]}
    )
    await table.restart()
    table.script(3, 4, 5)
    rolled = await table.click(old, menu["custom_id"], values=["1:amenaza:0"], component_type=3)
    assert "1 dado: +1 de Amenaza" in rolled.text and "**3**✓ **4**✓ **5**✓" in rolled.text, rolled.text
    assert await table.pool("amenaza") == 1
    await table.assert_ledger_matches()


# -- the helper's form (#31): Dune's *Ayudar* asks no typed number ---------------------

SCORES = ["4", "5", "6", "7", "8"]


def questions(form: Reply) -> list[dict[str, Any]]:
    """The form's questions as sent: each a Label with its component."""
    return list(form.callback.payload["data"]["components"])


def offered(question: dict[str, Any]) -> dict[str, str]:
    """A select's options, label by value."""
    return {o["value"]: o["label"] for o in question["component"]["options"]}


async def import_for(harness: Harness, user: Any, raw: bytes) -> None:
    reply = await harness.slash("ficha importar", user=user, archivo=Upload("lia.json", raw))
    assert "importada" in reply.text, reply.text


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("es-ES", ["Habilidad", "Motivación", "Una especialización tuya se aplica"]),
        ("en-US", ["Skill", "Drive", "One of your focuses applies"]),
    ],
)
async def test_a_helper_without_a_sheet_picks_the_books_scores_and_a_focus(
    harness: Harness, locale: str, words: list[str]
) -> None:
    """No target number to type: the helper's target is their skill plus drive ("Cada
    ayudante elije una motivación y habilidad para crear un número objetivo"), each from 4 to
    8, and a focus, when one applies, is their skill."""
    await harness.table_for("dune")
    prep = await harness.slash("dune ayuda", habilidad=5, motivacion=5)
    form = await harness.click(prep.message, prep.message.custom_ids[0], user=OTHER, locale=locale)
    skill, drive, focus = questions(form)
    assert [q["label"] for q in (skill, drive, focus)] == words
    assert all(len(q["label"]) <= 45 for q in (skill, drive, focus))
    assert list(offered(skill)) == SCORES and list(offered(drive)) == SCORES
    assert (focus["component"]["type"], focus["component"]["custom_id"]) == (23, "enfoque")
    fields = {"habilidad": ["7"], "motivacion": ["8"], "enfoque": True}
    await harness.submit(form.modal_id, fields, user=OTHER, locale=locale, message=prep.message)
    (helper,) = (await stored(harness, ASSIST))[0]["helpers"]
    assert (helper["target"], helper["skill"], helper["drive"], helper["focus"]) == (15, 7, 8, 7)
    again = await harness.click(prep.message, prep.message.custom_ids[0], user=OTHER, locale=locale)
    await harness.submit(
        again.modal_id, {"habilidad": ["4"], "motivacion": ["4"]}, user=OTHER, message=prep.message
    )
    (helper,) = (await stored(harness, ASSIST))[0]["helpers"]
    assert (helper["target"], helper["focus"]) == (8, None)


async def test_a_helper_with_a_sheet_picks_its_skills_focuses_and_drives(harness: Harness) -> None:
    """The skill question is the test's form's: each skill with its score, then each focus
    of the sheet with its skill; the drives with their scores. A focus picked makes the
    helper's skill their focus, as a focus named on the typed command did."""
    await harness.table_for("dune")
    await import_for(harness, OTHER, sheet_json("Lía Brezo"))
    prep = await harness.slash("dune ayuda", habilidad=5, motivacion=5, dificultad=2)
    form = await harness.click(prep.message, prep.message.custom_ids[0], user=OTHER)
    skill, drive = questions(form)
    assert offered(skill) == {
        "combate": "Combate 5",
        "comunicacion": "Comunicación 6",
        "disciplina": "Disciplina 7",
        "movimiento": "Movimiento 4",
        "comprension": "Comprensión 8",
        "comunicacion:0": "Comunicación 6, especialización: Diplomacia",
        "comprension:1": "Comprensión 8, especialización: Historia imperial",
    }
    assert offered(drive) == {
        "deber": "Deber 6",
        "fe": "Fe 4",
        "justicia": "Justicia 5",
        "poder": "Poder 4",
        "verdad": "Verdad 7",
    }
    fields = {"habilidad": ["comprension:1"], "motivacion": ["deber"]}
    joined = await harness.submit(form.modal_id, fields, user=OTHER, message=prep.message)
    assert f"<@{OTHER.id}> como **Lía Brezo** (Comprensión 8 + Deber 6 = 14)" in joined.text
    (helper,) = (await stored(harness, ASSIST))[0]["helpers"]
    assert (helper["target"], helper["focus"], helper["character"]) == (14, 8, "Lía Brezo")
    again = await harness.click(prep.message, prep.message.custom_ids[0], user=OTHER)
    fields = {"habilidad": ["combate"], "motivacion": ["fe"]}
    await harness.submit(again.modal_id, fields, user=OTHER, message=prep.message)
    (helper,) = (await stored(harness, ASSIST))[0]["helpers"]
    assert (helper["target"], helper["focus"]) == (9, None)


async def test_a_helpers_refusals_through_the_form_keep_the_preparation(harness: Harness) -> None:
    """A value the form did not offer and a drive crossed out (offered, marked, and refused
    with its reason, as the typed command refuses it) change nothing."""
    await harness.table_for("dune")
    data = json.loads(example("dune"))
    data["nombre"] = "Lía Brezo"
    data["motivaciones"]["verdad"]["tachada"] = True
    await import_for(harness, OTHER, json.dumps(data).encode())
    prep = await harness.slash("dune ayuda", habilidad=5, motivacion=5)
    join = prep.message.custom_ids[0]
    form = await harness.click(prep.message, join, user=OTHER)
    forged = await submit(harness, form, prep.message, user=OTHER, habilidad=["9"], motivacion=["deber"])
    assert forged.ephemeral and "Esa opción no estaba en el formulario" in forged.text
    crossed = await harness.submit(
        form.modal_id, {"habilidad": ["combate"], "motivacion": ["verdad"]}, user=OTHER, message=prep.message
    )
    assert crossed.ephemeral and "tachada" in crossed.text
    assert (await stored(harness, ASSIST))[0]["helpers"] == []


async def test_an_opposed_tests_helper_joins_through_the_same_form(harness: Harness) -> None:
    """ "los personajes en tiradas enfrentadas pueden aceptar la ayuda de otros personajes
    próximos": the same questions, kept on the opposed test's preparation."""
    await harness.table_for("dune")
    harness.script(2, 3)
    prompt = await harness.slash("dune enfrentada", habilidad=6, motivacion=6, rival_objetivo=10)
    form = await harness.click(prompt.message, button(prompt.message, "dune:contra-ayuda:unirme"), user=OTHER)
    assert [q["component"]["custom_id"] for q in questions(form)] == ["habilidad", "motivacion", "enfoque"]
    fields = {"habilidad": ["5"], "motivacion": ["4"], "enfoque": True}
    joined = await harness.submit(form.modal_id, fields, user=OTHER, message=prompt.message)
    assert f"<@{OTHER.id}> (Habilidad 5 + Motivación 4 = 9)" in joined.text
    (helper,) = (await stored(harness, OPPOSED))[0]["helpers"]
    assert (helper["target"], helper["focus"]) == (9, 5)


def test_a_tests_spec_is_kept_field_by_field_as_asdict_gives_it() -> None:
    """Kept without ``asdict``'s deep copy (every roll pays it): the same fields, the same
    values, in the same order."""
    spec = RollSpec(target=12, focus_skill=3, opponent={"name": "Harkonnen", "scores": [1, 2]}, motivo="x")
    assert list(flow.spec_data(spec).items()) == list(asdict(spec).items())
