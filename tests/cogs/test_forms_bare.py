"""``/dune tirada`` and ``/mediana tirada`` typed with no options open their form (issue
#31): the form rolls what the typed command rolls, and a command typed with only part of
what it needs is refused with a sentence naming what is missing, rolling nothing. None of
those forms, nor the ones Dune's opposed and assisted tests open from their cards, asks
anything typed ("without typing a number")."""

from __future__ import annotations

import pytest

from tests.cogs.dune.test_cog import button
from tests.cogs.ficha.test_cog import imported
from tests.cogs.ficha.test_panel import LOCALES, form, ledger, same_card, submit, typed
from tests.support.harness import Harness
from tests.support.payloads import GM, OTHER, PLAYER

# -- Dune -----------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_dune_tirada_with_no_options_asks_skill_and_focus_in_one_question(
    harness: Harness, locale: str
) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    await harness.slash("dune aventura", user=GM, jugadores=f"<@{PLAYER.id}>")
    opened = await harness.slash("dune tirada", locale=locale)
    modal = form(opened)
    assert len(modal["components"]) == 5 and all(len(c["label"]) <= 45 for c in modal["components"])
    skill = modal["components"][0]["component"]
    assert [c["component"]["custom_id"] for c in modal["components"]] == [
        "habilidad",
        "motivacion",
        "dificultad",
        "dados",
        "determinacion",
    ]
    assert [o["value"] for o in skill["options"]] == [
        "combate",
        "comunicacion",
        "disciplina",
        "movimiento",
        "comprension",
        "comunicacion:0",
        "comprension:1",
    ]
    focused = (
        "Comunicación 6, especialización: Diplomacia"
        if locale == "es-ES"
        else "Communicate 6, focus: Diplomacia"
    )
    assert skill["options"][5]["label"] == focused
    before = await ledger(harness)
    harness.script(3, 12, 18)
    pressed = await submit(
        harness,
        opened,
        None,
        locale=locale,
        habilidad=["comunicacion:0"],
        motivacion=["verdad"],
        radio_dificultad="2",
        radio_dados="1:amenaza",
        determinacion=True,
    )
    after_form = await ledger(harness)
    await harness.slash("mesa deshacer", user=GM)
    assert await ledger(harness) == before
    harness.script(3, 12, 18)
    typed = await harness.slash(
        "dune tirada",
        locale=locale,
        habilidad="comunicacion",
        motivacion="verdad",
        enfoque="Diplomacia",
        dificultad=2,
        dados_extra=1,
        pago="amenaza",
        determinacion=True,
    )
    same_card(pressed, typed)
    assert await ledger(harness) == after_form
    await harness.assert_ledger_matches()


async def test_dune_form_refuses_a_skill_it_did_not_offer(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    refused = await submit(
        harness,
        await harness.slash("dune tirada"),
        None,
        habilidad=["comunicacion:7"],
        motivacion=["verdad"],
        radio_dificultad="1",
        radio_dados="0",
        determinacion=False,
    )
    assert refused.ephemeral and "no estaba en el formulario" in refused.text


@pytest.mark.parametrize(
    ("typed", "es", "en"),
    [
        ({"habilidad": "combate"}, "Falta la motivación", "The drive (drive) is missing"),
        ({"motivacion": "deber"}, "Falta la habilidad", "The skill (skill) is missing"),
        ({"dificultad": 2}, "Faltan la habilidad y la motivación", "The skill and the drive"),
    ],
)
async def test_dune_tirada_typed_half_names_what_is_missing(
    harness: Harness, typed: dict[str, object], es: str, en: str
) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    before = await ledger(harness)
    spanish = await harness.slash("dune tirada", **typed)
    english = await harness.slash("dune tirada", locale="en-US", **typed)
    assert spanish.ephemeral and spanish.text.startswith(es), spanish.text
    assert english.ephemeral and english.text.startswith(en), english.text
    assert "/dune tirada" in spanish.text and "/dune test" in english.text
    assert len(spanish.calls) == 1 and await ledger(harness) == before


# -- Mediana --------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_mediana_tirada_with_no_options_asks_the_roll_from_the_sheet(
    harness: Harness, locale: str
) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    opened = await harness.slash("mediana tirada", locale=locale)
    modal = form(opened)
    assert [c["component"]["custom_id"] for c in modal["components"]] == ["tirada", "dificultad", "rango"]
    roll = modal["components"][0]["component"]
    assert [o["value"] for o in roll["options"]] == ["t:0", "t:1", "t:2", "t:3", "h:0", "h:1"]
    assert roll["options"][4]["label"] == "Espadas (Destreza) 3"
    harness.script(4, 7, 9)
    skill = await submit(
        harness, opened, None, locale=locale, tirada=["h:0"], dificultad=["10"], radio_rango="alto"
    )
    harness.script(4, 7, 9)
    typed = await harness.slash(
        "mediana tirada", locale=locale, dificultad=10, habilidad="Espadas", rango="alto"
    )
    same_card(skill, typed)
    harness.script(4, 7, 9)
    attribute = await submit(
        harness,
        await harness.slash("mediana tirada", locale=locale),
        None,
        locale=locale,
        tirada=["t:1"],
        dificultad=["10"],
        radio_rango="medio",
    )
    harness.script(4, 7, 9)
    typed = await harness.slash("mediana atributo", locale=locale, dificultad=10, atributo="Destreza")
    same_card(attribute, typed)


async def test_mediana_tirada_typed_without_its_difficulty_is_refused(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    spanish = await harness.slash("mediana tirada", habilidad="Espadas")
    english = await harness.slash("mediana tirada", locale="en-US", habilidad="Espadas")
    assert spanish.ephemeral and spanish.text.startswith("Falta la dificultad (dificultad)"), spanish.text
    assert english.ephemeral and english.text.startswith("The difficulty (difficulty) is missing"), (
        english.text
    )


@pytest.mark.parametrize("command", ["mediana tirada"])
async def test_with_no_options_and_no_sheet_the_answer_says_to_make_one(
    harness: Harness, command: str
) -> None:
    await harness.table_for(command.split()[0])
    reply = await harness.slash(command)
    assert reply.ephemeral and reply.callback.payload["type"] != 9
    assert reply.text.startswith("No tienes ficha activa en esta mesa"), reply.text


# -- nothing typed ----------------------------------------------------------------------------

# Each roll command that opens a form typed bare: its system, and whether the roller has an
# active sheet (Dune's forms ask the scores without one; the others refuse).
BARE_FORMS = [
    ("dnd5e", "dnd prueba", True),
    ("donjon", "donjon prueba", True),
    ("donjon", "donjon enfrentada", True),
    ("dune", "dune tirada", True),
    ("dune", "dune tirada", False),
    ("dune", "dune enfrentada", True),
    ("dune", "dune enfrentada", False),
    ("mediana", "mediana tirada", True),
    ("mediana", "mediana enfrentada", True),
]


@pytest.mark.parametrize(("system", "command", "sheet"), BARE_FORMS)
async def test_no_bare_commands_form_asks_a_typed_answer(
    harness: Harness, system: str, command: str, sheet: bool
) -> None:
    """Issue #31's scene "without typing a number": each question is a select, a radio
    group or a checkbox, in Spanish and English."""
    await harness.table_for(system)
    if sheet:
        await imported(harness, system)
    for locale in LOCALES:
        opened = form(await harness.slash(command, locale=locale))
        assert typed(opened) == [], (command, locale, opened)


@pytest.mark.parametrize("helper_sheet", [True, False])
async def test_no_form_of_dunes_opposed_or_assisted_cards_asks_a_typed_answer(
    harness: Harness, helper_sheet: bool
) -> None:
    """The opposed test's *Comprar dados y tirar*, its *Ayudar* and the assisted test's
    *Ayudar*, for a helper with an active sheet (its skills and drives offered) and one
    without (the book's scores offered)."""
    await harness.table_for("dune")
    if helper_sheet:
        await imported(harness, "dune", user=OTHER)
    for locale in LOCALES:
        harness.script(4, 10)
        rivals = {"rival_habilidad": "5", "rival_motivacion": "6", "obstaculos": 1}
        opposed = await harness.slash(
            "dune enfrentada", locale=locale, habilidad="6", motivacion="7", **rivals
        )
        assisted = await harness.slash("dune ayuda", locale=locale, habilidad=5, motivacion=5, dificultad=2)
        presses = [
            (opposed.message, "dune:contra-responder:", PLAYER),
            (opposed.message, "dune:contra-ayuda:", OTHER),
            (assisted.message, "dune:ayuda:unirme:", OTHER),
        ]
        for message, prefix, user in presses:
            opened = form(await harness.click(message, button(message, prefix), user=user, locale=locale))
            assert typed(opened) == [], (prefix, locale, opened)
