"""The Dune opposed test's answer as a form of three questions (issue #31): the bought
dice, how to pay for them, Determinación, in place of one menu of twenty combinations.
Each answer rolls, pays and writes what the same choice typed on ``/dune tirada`` does."""

from __future__ import annotations

import pytest

from tests.cogs.dune.test_cog import answer, button, ledger_delta, table
from tests.cogs.ficha.test_panel import answers
from tests.support.harness import Harness
from tests.support.payloads import CHANNEL_ID, GM, PLAYER

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
