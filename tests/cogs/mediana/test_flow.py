"""Mediana's roll flow at the table (issues 15 and 17; cogs/mediana/flow.py): opposed tests with
both sides' state, *motivo* and *Repetir*."""

from __future__ import annotations

import pytest

from bot.models import Record
from cogs.mediana.components import accept_tie, contest_card
from tests.support.harness import Harness
from tests.support.payloads import OTHER, PLAYER


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("mediana")
    return harness


# -- opposed tests ------------------------------------------------------------------------------------


async def test_both_sides_follow_their_own_state(table: Harness) -> None:
    """Issue 15: the rival's PV sheet makes it malherido; each side has rank and encumbrance."""
    await table.slash("mediana pv fijar", user=OTHER, fisico=4, maximo=20, actual=2)
    table.script(2, 5, 9, 2, 5, 9)
    reply = await table.slash(
        "mediana enfrentada",
        atributo=3,
        habilidad=2,
        rango="alto",
        estorbo=1,
        rival_atributo=6,
        rival_habilidad=2,
        rival_estorbo=2,
        rival=OTHER,
    )
    assert "~~2~~ ~~5~~ **9**\nRango Alto (el mayor)\nTotal: **13**" in reply.text
    assert "**2** ~~5~~ ~~9~~\nRango Bajo (el menor)\nTotal: **8**" in reply.text
    assert f"✅ Gana <@{PLAYER.id}>." in reply.text


async def test_a_natural_one_loses_an_opposed_test_and_says_so(table: Harness) -> None:
    """The bookworm against the martial artist: a natural 1 loses whatever the total."""
    table.script(1, 1, 8, 2, 4, 6)
    reply = await table.slash(
        "mediana enfrentada", atributo=25, habilidad=5, rival_atributo=3, rival_habilidad=2
    )
    assert "❌ 1 natural: pierde sea cual sea el total." in reply.text
    assert "✅ Gana Rival." in reply.text
    table.script(1, 1, 1, 1, 1, 3)
    both = await table.slash(
        "mediana enfrentada", atributo=5, habilidad=5, rival_atributo=3, rival_habilidad=2
    )
    assert "☠️ Pifia: pierde, y algo sale mal." in both.text
    assert "❌ Nadie gana" in both.text


# -- motivo and Repetir ---------------------------------------------------------------------------


async def test_motivo_heads_the_roll_and_repeat_keeps_it(table: Harness) -> None:
    table.script(9, 2, 5)
    reply = await table.slash(
        "mediana tirada", atributo=4, habilidad=3, dificultad=10, motivo="Forzar la puerta"
    )
    assert reply.text.startswith("Forzar la puerta — Tirada de habilidad (1o3d10)")
    table.script(1, 2, 3)
    again = await table.click(reply.message, "rep:repetir:1", user=OTHER)
    assert again.text.startswith("Forzar la puerta — Tirada de habilidad")
    assert f"Tira <@{OTHER.id}>." in again.text
    assert "Atributo 4 + Habilidad 3 + 1o3d10 2 = **9**" in again.text


@pytest.mark.parametrize(
    ("command", "options", "faces", "words"),
    [
        ("mediana atributo", {"atributo": 3, "dificultad": 10}, (5, 5, 5), "Atributo 3 + 1o3d10 5 = **8**"),
        (
            "mediana enfrentada",
            {"atributo": 3, "habilidad": 2, "rival_atributo": 1, "rival_habilidad": 1},
            (5, 5, 5, 2, 2, 2),
            "Total: **10**",
        ),
        ("mediana daño", {"dados": "1d6+1"}, (3,), "**3** +1 = 4"),
    ],
)
async def test_every_roll_repeats_with_its_motivo(
    table: Harness, command: str, options: dict[str, object], faces: tuple[int, ...], words: str
) -> None:
    table.script(*faces)
    reply = await table.slash(command, motivo="Otra vez", **options)
    assert "rep:repetir:1" in reply.message.custom_ids
    table.script(*faces)
    again = await table.click(reply.message, "rep:repetir:1")
    assert again.text.startswith("Otra vez — ")
    assert words in again.text


async def test_a_combat_critical_doubles_its_degrees_too(table: Harness) -> None:
    """docs/decisiones.md: "2d6+2d6" are the dice, "se multiplica el daño infligido por 2"
    doubles them."""
    table.script(1, 2, 3, 4)
    reply = await table.slash("mediana daño", dados="2d6", grados=2, critico=True)
    assert "**1** **2** **3** **4** = 10 · crítico ×2 = 20 · total **20**" in reply.text
    table.script(1, 2)
    alone = await table.slash("mediana daño", dados="2d6", critico=True)
    assert "crítico ×2 = 6" in alone.text


def test_an_opposed_test_stored_before_still_reads_and_settles() -> None:
    """A tie stored with the old ``a``/``b`` shape keeps reading, and the GM can settle it."""
    throw = {"throws": [[[5, 5, 5], "medio"]], "score": 5, "difficulty": None, "skill_test": True}
    old = Record(1, 2, PLAYER.id, "mediana", {"kind": "enfrentada", "a": throw, "b": throw, "rival": None})
    assert "⚖️ Empate: el DJ decide" in str(contest_card("es", old)[0].to_dict())
    settled = Record(1, 2, PLAYER.id, "mediana", accept_tie(old).data)
    assert "⚖️ Empate aceptado por el DJ." in str(contest_card("es", settled)[0].to_dict())


async def test_repeat_cleans_the_motivo_once(table: Harness) -> None:
    table.script(5, 5, 5)
    reply = await table.slash("mediana atributo", atributo=1, dificultad=5, motivo="*Empujar*")
    table.script(5, 5, 5)
    again = await table.click(reply.message, "rep:repetir:1")
    table.script(5, 5, 5)
    third = await table.click(again.message, "rep:repetir:2")
    assert third.text.startswith("\\*Empujar\\* — Tirada de atributo")
