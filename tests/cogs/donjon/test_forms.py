"""Donjon's forms (issue #31). The Prueba's: "opposing pool or difficulty". The difficulty
question ends with an opposing pool, its dice picked in the question below: the form then
rolls what ``/donjon prueba ... contra:N`` rolls (the same dice, card and ledger), and a pool
chosen without its dice, or dice picked beside a difficulty, is refused, rolling nothing.
``/donjon enfrentada`` typed bare: the roller's pool, the other player and their dice."""

from __future__ import annotations

import pytest

from tests.cogs.ficha.test_cog import imported
from tests.cogs.ficha.test_panel import (
    LOCALES,
    form,
    ledger,
    panel,
    roll_button,
    same_card,
    submit,
)
from tests.support.harness import Harness
from tests.support.payloads import GM, OTHER, PLAYER

# Twelve dice (Discernimiento 6 + Rastrear Cualquier Cosa 4 + 2 banked) against five.
DICE = (*([10] * 7), *([5] * 5), *([4] * 5))


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_difficulty_question_ends_with_an_opposing_pool_and_its_dice(
    harness: Harness, locale: str
) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    modal = form(await harness.slash("donjon prueba", locale=locale))
    assert [c["component"]["custom_id"] for c in modal["components"]] == [
        "atributo",
        "habilidad",
        "dificultad",
        "contra",
        "banco",
    ]
    assert all(len(c["label"]) <= 45 for c in modal["components"])
    difficulty, pool = (c["component"] for c in modal["components"][2:4])
    assert [o["value"] for o in difficulty["options"]] == [
        "facil",
        "media",
        "dificil",
        "muy_dificil",
        "desquiciada",
        "contra",
    ]
    assert difficulty["options"][-1]["label"] == (
        "Reserva contraria: los dados de abajo" if locale == "es-ES" else "Opposing pool: the dice below"
    )
    none = "Ninguna: la dificultad de arriba" if locale == "es-ES" else "None: the difficulty above"
    assert not pool["required"] and pool["type"] == 3
    assert [(o["label"], o["value"], o.get("default", False)) for o in pool["options"][:3]] == [
        (none, "-", True),
        ("1", "1", False),
        ("2", "2", False),
    ]
    assert [o["value"] for o in pool["options"]][-1] == "24" and len(pool["options"]) == 25


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_form_against_an_opposing_pool_is_the_typed_contra(harness: Harness, locale: str) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    await harness.slash("donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=3)
    shown = await panel(harness, locale=locale)
    opened = await harness.click(
        shown.message,
        roll_button(shown.data, "**Discernimiento" if locale == "es-ES" else "**Insight"),
        locale=locale,
    )
    before = await ledger(harness)
    harness.script(*DICE)
    pressed = await submit(
        harness,
        opened,
        shown.message,
        locale=locale,
        radio_atributo="discernimiento",
        habilidad=["h:0"],
        radio_dificultad="contra",
        contra=["5"],
        banco=["2"],
    )
    after_form = await ledger(harness)
    assert after_form != before
    opposing = "el DJ (5 dados): " if locale == "es-ES" else "the GM (5 dice): "
    assert pressed.embed["description"].splitlines()[1] == opposing + " ".join(["**4**"] * 5)
    await harness.slash("mesa deshacer", user=GM)
    assert await ledger(harness) == before
    harness.script(*DICE)
    typed = await harness.slash(
        "donjon prueba",
        locale=locale,
        atributo="discernimiento",
        habilidad="Rastrear Cualquier Cosa",
        contra=5,
        banco=2,
    )
    same_card(pressed, typed)
    assert await ledger(harness) == after_form
    await harness.assert_ledger_matches()


async def test_the_bare_command_rolls_against_an_opposing_pool_too(harness: Harness) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    harness.script(*([8] * 5), *([4] * 2))
    pressed = await submit(
        harness,
        await harness.slash("donjon prueba"),
        None,
        radio_atributo="celeridad",
        habilidad=["-"],
        radio_dificultad="contra",
        contra=["2"],
        banco=["0"],
    )
    harness.script(*([8] * 5), *([4] * 2))
    typed = await harness.slash("donjon prueba", atributo="celeridad", contra=2)
    same_card(pressed, typed)


@pytest.mark.parametrize(
    ("difficulty", "pool", "es", "en"),
    [
        ("contra", "-", "Has elegido una reserva contraria", "You chose an opposing pool"),
        (
            "media",
            "4",
            "Has elegido los dados de una reserva contraria",
            "You picked an opposing pool's dice",
        ),
    ],
)
async def test_an_opposing_pool_without_its_dice_or_beside_a_difficulty_rolls_nothing(
    harness: Harness, difficulty: str, pool: str, es: str, en: str
) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    before = await ledger(harness)
    for locale, sentence in (("es-ES", es), ("en-US", en)):
        refused = await submit(
            harness,
            await harness.slash("donjon prueba", locale=locale),
            None,
            locale=locale,
            radio_atributo="celeridad",
            habilidad=["-"],
            radio_dificultad=difficulty,
            contra=[pool],
            banco=["0"],
        )
        assert refused.ephemeral and refused.text.startswith(sentence), refused.text
        assert "Algo ha fallado" not in refused.text and len(refused.calls) == 1
    assert await ledger(harness) == before


# -- the opposed test typed bare ------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_bare_opposed_test_asks_pool_rival_and_dice_and_rolls_the_typed_command(
    harness: Harness, locale: str
) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    await harness.slash("donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=2)
    opened = await harness.slash("donjon enfrentada", locale=locale)
    modal = form(opened)
    assert [c["component"]["custom_id"] for c in modal["components"]] == [
        "atributo",
        "habilidad",
        "rival",
        "rival_dados",
        "banco",
    ]
    assert modal["components"][2]["component"]["type"] == 5
    assert all(len(c["label"]) <= 45 for c in modal["components"]) and len(modal["title"]) <= 45
    before = await ledger(harness)
    harness.script(*DICE)
    fields = {"atributo": "discernimiento", "habilidad": ["h:0"], "rival": [OTHER], "rival_dados": ["5"]}
    pressed = await harness.submit(opened.modal_id, {**fields, "banco": ["2"]}, locale=locale)
    after_form = await ledger(harness)
    assert after_form != before
    await harness.slash("mesa deshacer", user=GM)
    assert await ledger(harness) == before
    harness.script(*DICE)
    typed = await harness.slash(
        "donjon enfrentada",
        locale=locale,
        atributo="discernimiento",
        habilidad="Rastrear Cualquier Cosa",
        rival=OTHER,
        rival_dados=5,
        banco=2,
    )
    same_card(pressed, typed)
    assert await ledger(harness) == after_form
    await harness.assert_ledger_matches()


async def test_the_rivals_dice_are_picked_from_0_to_24(harness: Harness) -> None:
    """The rival's dice are picked, 0 to 24 (a larger pool is the typed ``rival_dados:``)."""
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    opened = await harness.slash("donjon enfrentada")
    [question] = [c for c in form(opened)["components"] if c["component"]["custom_id"] == "rival_dados"]
    offered = question["component"]["options"]
    assert question["component"]["required"] and [o["value"] for o in offered] == [str(n) for n in range(25)]
    assert question["label"] == "Dados del rival"


# Each bare command's answers but the bank's, which roll once it is right.
POOL_FORMS = {
    "donjon prueba": {"atributo": "celeridad", "habilidad": ["-"], "dificultad": "media", "contra": ["-"]},
    "donjon enfrentada": {
        "atributo": "celeridad",
        "habilidad": ["-"],
        "rival": [OTHER],
        "rival_dados": ["3"],
    },
}


@pytest.mark.parametrize("command", POOL_FORMS)
@pytest.mark.parametrize(
    ("bank", "sentence"),
    [(["5"], "Quieres usar 5 dados guardados")],
)
async def test_both_forms_ask_the_banked_dice_alike_and_refuse_a_bad_one_alike(
    harness: Harness, command: str, bank: list[str], sentence: str
) -> None:
    """The Prueba's form and the opposed test's ask the banked dice with one question:
    picked from 0 to 24 (0 chosen), the same words, and the command's own refusal of more
    dice than are banked."""
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    before = await ledger(harness)
    opened = await harness.slash(command)
    [question] = [c for c in form(opened)["components"] if c["component"]["custom_id"] == "banco"]
    assert question["label"] == "Dados guardados que añades"
    offered = question["component"]["options"]
    assert [o["value"] for o in offered] == [str(n) for n in range(25)] and offered[0]["default"]
    refused = await harness.submit(opened.modal_id, {**POOL_FORMS[command], "banco": bank})
    assert refused.ephemeral and refused.text.startswith(sentence), refused.text
    assert len(refused.calls) == 1 and await ledger(harness) == before
