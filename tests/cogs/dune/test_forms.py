"""Dune's test form without a sheet (issue #31: "skill and drive (selects, from the sheet or
4–8)"): ``/dune tirada`` typed bare by a roller with no active sheet asks the skill's and the
drive's scores, the book's "entre 4 y 8", and rolls what the typed command rolls with those
numbers (the same dice, card and ledger)."""

from __future__ import annotations

import pytest

from tests.cogs.ficha.test_panel import LOCALES, form, ledger, same_card, submit
from tests.support.harness import Harness
from tests.support.payloads import GM, PLAYER

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
