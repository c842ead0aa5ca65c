"""Dune's test form without a sheet (issue #31: "skill and drive (selects, from the sheet or
4–8)"): ``/dune tirada`` typed bare by a roller with no active sheet asks the skill's and the
drive's scores, the book's "entre 4 y 8", and rolls what the typed command rolls with those
numbers (the same dice, card and ledger)."""

from __future__ import annotations

import pytest

from cogs.dune.state import OPPOSED_KIND
from tests.cogs.dune.test_cog import answer, ledger_delta
from tests.cogs.ficha.test_cog import imported
from tests.cogs.ficha.test_panel import LOCALES, form, ledger, same_card, submit
from tests.support.harness import Harness
from tests.support.payloads import CHANNEL_ID, GM, PLAYER

SCORES = ["4", "5", "6", "7", "8"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_with_no_sheet_the_form_asks_the_scores_and_rolls_the_typed_numbers(
    harness: Harness, locale: str
) -> None:
    await harness.table_for("dune")
    await harness.slash("dune aventura", user=GM, jugadores=f"<@{PLAYER.id}>")
    opened = await harness.slash("dune tirada", locale=locale)
    modal = form(opened)
    assert [c["component"]["custom_id"] for c in modal["components"]] == [
        "habilidad",
        "motivacion",
        "dificultad",
        "dados",
        "determinacion",
    ]
    assert all(len(c["label"]) <= 45 for c in modal["components"])
    skill, drive = (c["component"] for c in modal["components"][:2])
    assert [o["value"] for o in skill["options"]] == SCORES == [o["label"] for o in skill["options"]]
    assert [o["value"] for o in drive["options"]] == SCORES
    assert modal["components"][0]["description"].startswith(
        "No tienes ficha activa" if locale == "es-ES" else "You have no active sheet"
    )
    before = await ledger(harness)
    harness.script(3, 12, 18)
    pressed = await submit(
        harness,
        opened,
        None,
        locale=locale,
        habilidad=["6"],
        motivacion=["7"],
        radio_dificultad="2",
        radio_dados="1:amenaza",
        determinacion=False,
    )
    after_form = await ledger(harness)
    assert after_form != before
    await harness.slash("mesa deshacer", user=GM)
    assert await ledger(harness) == before
    harness.script(3, 12, 18)
    typed = await harness.slash(
        "dune tirada",
        locale=locale,
        habilidad="6",
        motivacion="7",
        dificultad=2,
        dados_extra=1,
        pago="amenaza",
    )
    same_card(pressed, typed)
    assert await ledger(harness) == after_form
    await harness.assert_ledger_matches()


async def test_a_score_the_form_did_not_offer_rolls_nothing(harness: Harness) -> None:
    """A client may send anything: 9 is past the book's 8 (the typed command takes it)."""
    await harness.table_for("dune")
    for answers in ({"habilidad": ["9"], "motivacion": ["7"]}, {"habilidad": ["6"], "motivacion": ["3"]}):
        refused = await submit(
            harness,
            await harness.slash("dune tirada"),
            None,
            radio_dificultad="1",
            radio_dados="0",
            determinacion=False,
            **answers,
        )
        assert refused.ephemeral and "no estaba en el formulario" in refused.text
        assert len(refused.calls) == 1
    assert await ledger(harness) == []


# -- the opposed test typed bare ------------------------------------------------------------

OPPOSED_QUESTIONS = ["habilidad", "motivacion", "rival_habilidad", "rival_motivacion", "obstaculos"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_bare_opposed_test_asks_both_sides_and_rolls_the_typed_command(
    harness: Harness, locale: str
) -> None:
    """The opposition's card, its *Comprar dados y tirar* form and the ledger are the typed
    command's with the same numbers and the same scripted dice."""
    await harness.table_for("dune")
    await harness.slash("dune impulso añadir", user=GM, cantidad=2)
    opened = await harness.slash("dune enfrentada", locale=locale)
    modal = form(opened)
    assert [c["component"]["custom_id"] for c in modal["components"]] == OPPOSED_QUESTIONS
    assert all(len(c["label"]) <= 45 for c in modal["components"]) and len(modal["title"]) <= 45
    assert modal["title"] == ("Tirada enfrentada de Dune" if locale == "es-ES" else "Dune opposed test")
    for question in modal["components"][:4]:
        assert [o["value"] for o in question["component"]["options"]] == SCORES
    hindrances = modal["components"][4]["component"]
    assert [o["value"] for o in hindrances["options"]] == ["0", "1", "2", "3", "4", "5"]
    harness.script(4, 10)  # the opponent's 5 + 6: two successes, one hindrance: difficulty 1
    prompt = await submit(
        harness,
        opened,
        None,
        locale=locale,
        habilidad=["6"],
        motivacion=["7"],
        rival_habilidad=["5"],
        rival_motivacion=["6"],
        radio_obstaculos="1",
    )
    harness.script(3, 12, 18)
    by_form = await answer(harness, prompt.message, locale=locale, radio_dados="1", radio_pago="impulso")
    after_form = await ledger(harness)
    await harness.slash("mesa deshacer", user=GM)
    harness.script(4, 10)
    typed_prompt = await harness.slash(
        "dune enfrentada",
        locale=locale,
        habilidad="6",
        motivacion="7",
        rival_habilidad="5",
        rival_motivacion="6",
        obstaculos=1,
    )
    same_card(prompt, typed_prompt)
    assert ("dificultad 1" if locale == "es-ES" else "difficulty 1") in prompt.text
    harness.script(3, 12, 18)
    typed = await answer(harness, typed_prompt.message, locale=locale, radio_dados="1", radio_pago="impulso")
    same_card(by_form, typed)
    assert await ledger_delta(harness, by_form) == await ledger_delta(harness, typed) != {}
    assert await ledger(harness) == after_form
    await harness.assert_ledger_matches()


async def test_the_bare_opposed_test_reads_the_skill_focus_and_drive_from_the_sheet(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    opened = await harness.slash("dune enfrentada")
    skill = form(opened)["components"][0]["component"]
    assert [o["value"] for o in skill["options"]][4:] == ["comprension", "comunicacion:0", "comprension:1"]
    harness.script(4, 15)
    by_form = await submit(
        harness,
        opened,
        None,
        habilidad=["comunicacion:0"],
        motivacion=["verdad"],
        rival_habilidad=["5"],
        rival_motivacion=["6"],
        radio_obstaculos="0",
    )
    harness.script(4, 15)
    typed = await harness.slash(
        "dune enfrentada",
        habilidad="comunicacion",
        motivacion="verdad",
        enfoque="Diplomacia",
        rival_habilidad="5",
        rival_motivacion="6",
    )
    same_card(by_form, typed)
    rolled = []
    for prompt in (by_form, typed):
        harness.script(5, 14)
        rolled.append(await answer(harness, prompt.message))
    same_card(*rolled)
    assert "Diplomacia" in rolled[0].text, rolled[0].text


@pytest.mark.parametrize(
    ("typed", "es", "en"),
    [
        ({"habilidad": "6"}, "Falta tu motivación (motivacion)", "Your drive (drive) is missing"),
        ({"motivacion": "7"}, "Falta tu habilidad (habilidad)", "Your skill (skill) is missing"),
        ({"rival_objetivo": 10}, "Faltan tu habilidad y tu motivación", "Your skill and your drive"),
    ],
)
@pytest.mark.parametrize("locale", LOCALES)
async def test_an_opposed_test_typed_without_the_actors_skill_or_drive_names_it(
    harness: Harness, locale: str, typed: dict[str, object], es: str, en: str
) -> None:
    await harness.table_for("dune")
    refused = await harness.slash("dune enfrentada", locale=locale, rival_habilidad="5", **typed)
    assert refused.ephemeral and refused.text.startswith(es if locale == "es-ES" else en), refused.text
    assert len(refused.calls) == 1 and await ledger(harness) == []


FORM_ANSWERS: dict[str, object] = {
    "habilidad": ["6"],
    "motivacion": ["7"],
    "rival_habilidad": ["5"],
    "rival_motivacion": ["6"],
    "radio_obstaculos": "0",
}


@pytest.mark.parametrize(
    "wrong",
    [
        {"rival_habilidad": ["9"]},
        {"rival_motivacion": ["3"]},
        {"rival_habilidad": []},
        {"habilidad": ["20"]},
        {"radio_obstaculos": "6"},
    ],
)
async def test_an_opposed_answer_the_form_did_not_offer_rolls_nothing(
    harness: Harness, wrong: dict[str, object]
) -> None:
    """A client may send anything: the opponent's 9 or 3 is outside the book's 4 to 8, and
    six hindrances past the form's five."""
    await harness.table_for("dune")
    opened = await harness.slash("dune enfrentada")
    refused = await submit(harness, opened, None, **{**FORM_ANSWERS, **wrong})
    assert refused.ephemeral and "no estaba en el formulario" in refused.text, refused.text
    assert len(refused.calls) == 1 and await ledger(harness) == []
    assert harness.bot is not None and await harness.bot.store.records(CHANNEL_ID, OPPOSED_KIND) == []


# Each bare command's answers but the drive's, which roll once it is one the form offered.
DRIVE_FORMS: dict[str, dict[str, object]] = {
    "dune tirada": {"habilidad": ["6"], "radio_dificultad": "1", "radio_dados": "0", "determinacion": False},
    "dune enfrentada": {k: v for k, v in FORM_ANSWERS.items() if k != "motivacion"},
}


@pytest.mark.parametrize("command", DRIVE_FORMS)
@pytest.mark.parametrize("sheet", [False, True])
async def test_both_forms_ask_the_drive_alike_and_refuse_one_not_offered_alike(
    harness: Harness, command: str, sheet: bool
) -> None:
    """The test's form and the opposed test's ask the roller's drive with one question: the
    sheet's drives (their scores and statements), or the book's scores without a sheet; a
    drive neither offered rolls nothing."""
    await harness.table_for("dune")
    if sheet:
        await imported(harness, "dune")
    before = await ledger(harness)
    opened = await harness.slash(command)
    [question] = [c for c in form(opened)["components"] if c["component"]["custom_id"] == "motivacion"]
    assert question["label"] == "Motivación" and question["component"]["required"]
    offered = [o["value"] for o in question["component"]["options"]]
    assert offered == (["deber", "fe", "justicia", "poder", "verdad"] if sheet else SCORES)
    answers = {**DRIVE_FORMS[command], "habilidad": ["comprension"] if sheet else ["6"]}
    refused = await submit(harness, opened, None, **answers, motivacion=["3"])
    assert refused.ephemeral and "no estaba en el formulario" in refused.text, refused.text
    assert len(refused.calls) == 1 and await ledger(harness) == before
