"""/dnd's roll flow at the table (issues #15 and #17; cogs/dnd5e/flow.py): cover on saves,
tools, criticals, answers that explain themselves, *motivo* and *Repetir*."""

from __future__ import annotations

import pytest

from tests.support.harness import Harness
from tests.support.payloads import OTHER


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("dnd5e")
    return harness


# -- cover, tools, criticals ---------------------------------------------------------------------


async def test_cover_adds_to_a_dexterity_save_and_says_so(table: Harness) -> None:
    table.script(10)
    reply = await table.slash(
        "dnd salvacion", caracteristica="destreza", modificador=3, cobertura="tres_cuartos", cd=18
    )
    assert "**10** +8 = **18**" in reply.text
    assert "+8 = Destreza +3, cobertura de tres cuartos +5" in reply.text
    assert "✅ Éxito: 18 contra CD 18." in reply.text
    refused = await table.slash("dnd salvacion", caracteristica="sabiduria", modificador=3, cobertura="media")
    assert refused.ephemeral and "solo suma a las salvaciones de Destreza" in refused.text


async def test_tool_and_skill_proficiency_give_advantage(table: Harness) -> None:
    table.script(4, 15)
    both = await table.slash(
        "dnd prueba", modificador=2, habilidad="juego de manos", competencia=True, herramienta=True
    )
    assert "con ventaja por competencia en la habilidad y la herramienta" in both.text
    assert "~~4~~ **15** +4 = **19**" in both.text
    table.script(4)
    tool_only = await table.slash("dnd prueba", modificador=2, herramienta=True)
    assert "**4** +4 = **8**" in tool_only.text
    assert "+4 = modificador +2, competencia +2" in tool_only.text
    table.script(4, 15)
    cancelled = await table.slash(
        "dnd prueba", modificador=2, competencia=True, herramienta=True, desventaja=True, locale="en-US"
    )
    assert "advantage and disadvantage cancel out: one d20" in cancelled.text
    table.script(7)
    rolled = await table.slash("dnd tirar", expresion="1d20", ventaja=True, desventaja=True)
    assert "ventaja y desventaja se anulan: un solo d20" in rolled.text


async def test_a_critical_with_kept_dice_shows_two_groups(table: Harness) -> None:
    table.script(20, 1, 2, 3, 4, 5, 6, 1, 1)
    reply = await table.slash("dnd ataque", bonificador=3, ca=12, **{"daño": "4d6kh3+2"})
    assert "Daño crítico (dados dobles)" in reply.text
    assert (
        "(4d6kh3 (~~1~~, **2**, **3**, **4**) + 4d6kh3 (**5**, **6**, **1**, ~~1~~)) + 2 = **23**"
        in reply.text
    )


# -- answers that explain themselves ---------------------------------------------------------------


async def test_the_modifier_is_broken_down_without_zeros(table: Harness) -> None:
    table.script(10)
    reply = await table.slash("dnd prueba", modificador=3, habilidad="sigilo", competencia=True, nivel=5)
    assert "**10** +6 = **16**" in reply.text
    assert "+6 = Destreza +3, competencia +3" in reply.text
    assert "bonificación" not in reply.text
    table.script(10)
    expertise = await table.slash(
        "dnd prueba",
        modificador=3,
        habilidad="sigilo",
        competencia=True,
        pericia=True,
        bonificacion=-1,
        locale="en-US",
    )
    assert "+6 = Dexterity +3, expertise (proficiency ×2) +4, bonus -1" in expertise.text
    table.script(10)
    plain = await table.slash("dnd prueba", modificador=3, caracteristica="fuerza")
    assert "**10** +3 = **13**" in plain.text
    assert " = Fuerza" not in plain.text


async def test_cover_says_how_much_it_raised_the_ac(table: Harness) -> None:
    table.script(12)
    reply = await table.slash("dnd ataque", bonificador=5, ca=15, cobertura="media")
    assert "Cobertura media: la CA sube de 15 a 17." in reply.text
    table.script(12)
    plain = await table.slash("dnd ataque", bonificador=5, ca=15)
    assert "Cobertura" not in plain.text


@pytest.mark.parametrize(
    ("command", "options", "title"),
    [
        ("dnd prueba", {"modificador": 2, "habilidad": "sigilo"}, "Colarse — Prueba de Destreza (Sigilo)"),
        ("dnd salvacion", {"caracteristica": "fuerza", "modificador": 2}, "Colarse — Salvación de Fuerza"),
        ("dnd ataque", {"bonificador": 5, "ca": 12}, "Colarse — Tirada de ataque"),
        ("dnd tirar", {"expresion": "1d20+2"}, "Colarse — Tirada"),
    ],
)
async def test_motivo_heads_every_roll_and_repetir_keeps_it(
    table: Harness, command: str, options: dict, title: str
) -> None:
    table.script(10)
    reply = await table.slash(command, motivo="Colarse @everyone por_la *ventana*", **options)
    said = "Colarse @\u200beveryone por\\_la \\*ventana\\*"
    assert reply.embed["title"] == title.replace("Colarse", said)
    assert reply.data["allowed_mentions"] == {"parse": []}
    assert reply.message.custom_ids[-1] == "rep:repetir:1"
    table.script(11, 11)
    again = await table.click(reply.message, "rep:repetir:1", user=OTHER)
    assert not again.ephemeral
    assert again.embed["title"] == reply.embed["title"]
    assert f"<@{OTHER.id}>" in again.text
    assert "11" in again.text


async def test_repetir_keeps_every_option(table: Harness) -> None:
    table.script(10, 12)
    reply = await table.slash(
        "dnd salvacion",
        caracteristica="destreza",
        modificador=1,
        competencia=True,
        nivel=9,
        cobertura="media",
        ventaja=True,
        cd=15,
    )
    table.script(2, 14)
    again = await table.click(reply.message, reply.message.custom_ids[-1])
    assert "Salvación de Destreza" in again.text
    assert "~~2~~ **14** +7 = **21**" in again.text
    assert "+7 = Destreza +1, competencia +4, cobertura media +2" in again.text
    assert "✅ Éxito: 21 contra CD 15." in again.text


async def test_a_typed_unknown_skill_is_not_told_to_use_the_list(table: Harness) -> None:
    reply = await table.slash("dnd prueba", modificador=0, habilidad="bailar")
    assert reply.ephemeral
    assert "«bailar» no es una de las 18 habilidades" in reply.text
    assert "lista" not in reply.text
    ability = await table.slash("dnd salvacion", caracteristica="suerte", modificador=0, locale="en-US")
    assert "list" not in ability.text


def test_a_roll_stored_before_repetir_gets_no_repetir_button() -> None:
    """Rolls stored before *Repetir* kept no options: no button that could only refuse."""
    from bot.models import Record
    from cogs.dnd5e.components import roll_card

    test = {
        "rolls": [[7]],
        "mode": "normal",
        "modifier": 2,
        "target": None,
        "attack": False,
        "inspired": False,
    }
    old = Record(5, 1, 2, "dnd", {"kind": "prueba", "what": {}, "test": test})
    assert [item.custom_id for item in roll_card("es", old, True)[1].children] == ["dnd:insp0:5"]
    new = Record(5, 1, 2, "dnd", {**old.data, "options": {}})
    assert [item.custom_id for item in roll_card("es", new, False)[1].children] == ["rep:repetir:5"]
