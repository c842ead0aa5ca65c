"""``/mediana enfrentada`` typed with no options (issue #31: the opposed commands' fifteen
options): a form of its essential questions, a skill of the roller's sheet against the
rival's numbers and each side's rank, rolling what the typed command rolls."""

from __future__ import annotations

import pytest

from tests.cogs.ficha.test_cog import imported
from tests.cogs.ficha.test_panel import LOCALES, form, ledger, same_card, submit
from tests.support.harness import Harness

# The roller's 3d10, then the rival's.
DICE = (4, 7, 9, 2, 5, 8)


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_bare_opposed_test_asks_its_essentials_and_rolls_the_typed_command(
    harness: Harness, locale: str
) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    opened = await harness.slash("mediana enfrentada", locale=locale)
    modal = form(opened)
    assert [c["component"]["custom_id"] for c in modal["components"]] == [
        "habilidad",
        "rival_atributo",
        "rival_habilidad",
        "rango",
        "rival_rango",
    ]
    assert all(len(c["label"]) <= 45 for c in modal["components"]) and len(modal["title"]) <= 45
    skill, attribute, rival_skill = (c["component"] for c in modal["components"][:3])
    assert [(o["value"], o["label"]) for o in skill["options"]] == [
        ("h:0", "Espadas (Destreza) 3"),
        ("h:1", "Mecanismos (Inteligencia) 2"),
    ]
    assert [o["value"] for o in attribute["options"]] == [str(n) for n in range(-4, 21)]
    assert [o["value"] for o in rival_skill["options"]] == ["-", *(str(n) for n in range(21))]
    assert rival_skill["options"][0]["default"] is True
    harness.script(*DICE)
    pressed = await submit(
        harness,
        opened,
        None,
        locale=locale,
        habilidad=["h:0"],
        rival_atributo=["4"],
        rival_habilidad=["2"],
        radio_rango="alto",
        radio_rival_rango="medio",
    )
    after_form = await ledger(harness)
    harness.script(*DICE)
    typed = await harness.slash(
        "mediana enfrentada",
        locale=locale,
        habilidad="Espadas",
        rival_atributo=4,
        rival_habilidad="2",
        rango="alto",
        rival_rango="medio",
    )
    same_card(pressed, typed)
    assert await ledger(harness) == after_form
    await harness.assert_ledger_matches()


async def test_a_rival_without_a_skill_rolls_the_attribute_alone(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    harness.script(*DICE)
    pressed = await submit(
        harness,
        await harness.slash("mediana enfrentada"),
        None,
        habilidad=["h:1"],
        rival_atributo=["-2"],
        rival_habilidad=["-"],
        radio_rango="medio",
        radio_rival_rango="bajo",
    )
    harness.script(*DICE)
    typed = await harness.slash(
        "mediana enfrentada", habilidad="Mecanismos", rival_atributo=-2, rival_rango="bajo"
    )
    same_card(pressed, typed)


@pytest.mark.parametrize(
    ("attribute", "skill"), [("21", "-"), ("-5", "-"), ("tres", "-"), ("3", "21"), ("3", "-1"), ("3", "")]
)
async def test_the_rivals_numbers_out_of_bounds_roll_nothing(
    harness: Harness, attribute: str, skill: str
) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    before = await ledger(harness)
    refused = await submit(
        harness,
        await harness.slash("mediana enfrentada"),
        None,
        habilidad=["h:0"],
        rival_atributo=[attribute],
        rival_habilidad=[skill],
        radio_rango="medio",
        radio_rival_rango="medio",
    )
    assert refused.ephemeral and refused.text.startswith("Esa opción no estaba en el formulario"), (
        refused.text
    )
    assert len(refused.calls) == 1 and await ledger(harness) == before


async def test_with_no_sheet_the_bare_opposed_test_says_to_make_one(harness: Harness) -> None:
    await harness.table_for("mediana")
    reply = await harness.slash("mediana enfrentada")
    assert reply.ephemeral and reply.callback.payload["type"] != 9
    assert reply.text.startswith("No tienes ficha activa en esta mesa"), reply.text


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [("es-ES", "Tu ficha no tiene habilidades"), ("en-US", "Your sheet has no skills")],
)
async def test_a_sheet_without_skills_is_told_to_type_the_numbers(
    harness: Harness, locale: str, sentence: str
) -> None:
    await harness.table_for("mediana")
    await harness.slash("ficha crear", nombre="Nadie")
    reply = await harness.slash("mediana enfrentada", locale=locale)
    assert reply.ephemeral and reply.callback.payload["type"] != 9
    assert reply.text.startswith(sentence), reply.text
