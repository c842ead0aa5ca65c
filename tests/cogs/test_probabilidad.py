"""/probabilidad through discord.py, and the odds lines in the roll embeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dnd5e import odds as dnd5e_odds
from rules.donjon import odds as donjon_odds
from rules.dune import odds as dune_odds
from rules.mediana import odds as mediana_odds
from tests.support.harness import Harness, Reply
from tests.support.payloads import ADMIN, GM, PLAYER, interaction_payload


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    return harness


def chart_sent(reply: Reply) -> dict:
    assert reply.callback.payload["type"] == 5  # deferred: the chart is drawn off the event loop
    follow = [c for c in reply.calls if c.path.startswith("/webhooks/") and c.method == "POST"]
    assert len(follow) == 1
    assert follow[0].files == 1
    embed = follow[0].payload["embeds"][0]
    assert embed["image"]["url"] == "attachment://probabilidad.png"
    return embed


async def test_donjon_odds(table: Harness) -> None:
    embed = chart_sent(await table.slash("probabilidad donjon", dados=5, contra=4))
    assert donjon_odds.donjon_distribution(5, 4).win("a") == pytest.approx(0.5654, abs=1e-4)
    assert "5 dados contra 4 (d20): ganas el 56,5\N{NO-BREAK SPACE}%." in embed["description"]
    english = chart_sent(await table.slash("probabilidad donjon", dados=5, locale="en-US"))
    assert "5 dice against 4 (d20)" in english["description"]


async def test_dune_odds(table: Harness) -> None:
    embed = chart_sent(await table.slash("probabilidad dune", habilidad=6, motivacion=6, dificultad=2))
    assert "Superar con 0 · 1 · 2 · 3 dados comprados:" in embed["description"]
    assert "Al menos una complicación: 9,8\N{NO-BREAK SPACE}%." in embed["description"]
    english = chart_sent(await table.slash("probabilidad dune", habilidad=6, motivacion=6, locale="en-US"))
    assert "Pass with 0 · 1 · 2 · 3 bought dice:" in english["description"]
    assert "At least one complication: 9.8%." in english["description"]


async def test_dnd_odds(table: Harness) -> None:
    embed = chart_sent(
        await table.slash("probabilidad dnd", modificador=5, cd=15, ataque=True, **{"daño": "2d6+3"})
    )
    assert "Éxito contra 15: 55,0\N{NO-BREAK SPACE}%." in embed["description"]
    assert "Golpe crítico: 5,0\N{NO-BREAK SPACE}%." in embed["description"]
    assert "Daño medio: 10,0 al impactar, 17,0 en crítico; 5,85 por ataque." in embed["description"]
    english = chart_sent(await table.slash("probabilidad dnd", modificador=0, locale="en-GB"))
    assert "No DC or AC" in english["description"]


async def test_mediana_odds(table: Harness) -> None:
    embed = chart_sent(await table.slash("probabilidad mediana", atributo=5, habilidad=5, dificultad=15))
    assert embed["description"].count("éxito") == 3
    english = chart_sent(await table.slash("probabilidad mediana", atributo=5, dificultad=15, locale="en-US"))
    assert english["description"].count("fumble") == 3


async def test_mediana_odds_without_skill_points_drop_the_rank(table: Harness) -> None:
    """Issue 15: skill 0 rolls a rank lower — Medio, dropping to Bajo, against 10 with
    score 0 succeeds only when the lowest die is 10 (an explosion): 1/1000 + …, not 50 %."""
    embed = chart_sent(await table.slash("probabilidad mediana", atributo=0, dificultad=10))
    text = embed["description"]
    assert "Medio (la mediana), que baja a Bajo (el menor): éxito 0,1\N{NO-BREAK SPACE}%" in text
    assert "Alto (el mayor), que baja a Medio (la mediana): éxito 2,8\N{NO-BREAK SPACE}%" in text
    with_skill = chart_sent(await table.slash("probabilidad mediana", atributo=0, habilidad=1, dificultad=11))
    assert "que baja" not in with_skill["description"]


async def test_mediana_odds_of_an_attribute_test(table: Harness) -> None:
    """No natural-1 rule: 1 + 1o3d10 ≥ 2 fails only on a fumble (a 1 and then 5 or less),
    where a skill test also fails a natural 1 followed by 6 or more."""
    embed = chart_sent(
        await table.slash("probabilidad mediana", atributo=1, dificultad=2, solo_atributo=True)
    )
    assert "sin explosión" in embed["title"]
    assert (
        "Medio (la mediana): éxito 98,7\N{NO-BREAK SPACE}% · crítico 0,0\N{NO-BREAK SPACE}% · pifia 1,3"
        in (embed["description"])
    )
    refused = await table.slash(
        "probabilidad mediana", atributo=1, habilidad=2, dificultad=2, solo_atributo=True
    )
    assert "deja habilidad en 0" in refused.text


@pytest.mark.parametrize(
    ("command", "options", "words"),
    [
        ("probabilidad donjon", {"dados": 41, "contra": 3}, "de 0 a 40 dados"),
        ("probabilidad dune", {"habilidad": 6, "motivacion": 6, "dados_extra": 9}, "entre 0 y 3"),
        (
            "probabilidad dnd",
            {"modificador": 0, "cd": 10, "ataque": True, "daño": "4d6kh3"},
            "solo calculo el daño medio",
        ),
        ("probabilidad mediana", {"atributo": 500, "dificultad": 10}, "entre -50 y 50"),
    ],
)
async def test_bad_questions_are_refused_clearly(
    table: Harness, command: str, options: dict, words: str
) -> None:
    reply = await table.slash(command, **options)
    assert reply.ephemeral
    assert words.lower() in reply.text.lower()


async def test_rolls_show_their_odds(table: Harness) -> None:
    table.script(5, 5)
    dune = await table.slash("dune tirada", habilidad=6, motivacion=6)
    assert "Superar con 0 · 1 · 2 · 3 dados comprados:" in dune.text
    table.script(7)
    dnd = await table.slash("dnd prueba", modificador=2, cd=12)
    modes = "Normal 55,0 % · con ventaja 79,8 % · con desventaja 30,2 %.".replace(" %", "\N{NO-BREAK SPACE}%")
    assert modes in dnd.text
    await table.slash("donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=2)
    table.script(20, 1, 1, 1, 1)
    donjon = await table.slash("donjon prueba", dados=1, contra=2, banco=2)
    assert donjon_odds.donjon_distribution(1, 2).win("a") == pytest.approx(0.30875)
    assert "Probabilidad de ganar: 30,9\N{NO-BREAK SPACE}% sin dados guardados" in donjon.text


def table_player():
    from tests.support.payloads import PLAYER

    return PLAYER


# -- charts worth looking at (#17) --------------------------------------------------------------


def test_the_donjon_chart_shows_both_sides() -> None:
    from cogs.probabilidad import donjon_chart

    drawn = donjon_chart("es", "t", donjon_odds.donjon_distribution(5, 4))
    kinds = [b.kind for b in drawn.bars]
    rival = kinds.count("failure")
    assert rival and kinds == ["failure"] * rival + ["success"] * (len(kinds) - rival)
    assert [b.label for b in drawn.bars[:rival]] == [str(k) for k in range(rival, 0, -1)]
    assert drawn.marker == rival - 0.5
    assert sum(b.p for b in drawn.bars) == pytest.approx(1, abs=0.002)


async def test_a_full_tie_that_cannot_happen_is_not_mentioned(table: Harness) -> None:
    uneven = chart_sent(await table.slash("probabilidad donjon", dados=5, contra=4))
    assert "Empate total" not in uneven["description"]
    assert "Gana el rival: 43,5\N{NO-BREAK SPACE}%." in uneven["description"]
    even = chart_sent(await table.slash("probabilidad donjon", dados=2, contra=2, locale="en-US"))
    assert "Full tie on the first comparison" in even["description"]


def test_the_dune_and_dnd_charts_colour_the_verdict_and_mark_the_target() -> None:
    from cogs.probabilidad import dnd_chart, passing, threshold

    dune = passing(dune_odds.dune_distribution(12, 2, None, 1, 2).successes, 2)
    assert [(b.label, b.kind) for b in dune] == [
        ("0", "failure"),
        ("1", "failure"),
        ("2", "success"),
        ("3", "success"),
        ("4", "success"),
    ]
    assert threshold([int(b.label) for b in dune], 2) == 1.5
    attack = dnd_chart("en", "t", dnd5e_odds.dnd_distribution(5, 15, "normal", True), 5, 15, True)
    kinds = {b.label: b.kind for b in attack.bars}
    assert (kinds["6"], kinds["14"], kinds["15"], kinds["25"]) == ("fumble", "failure", "success", "critical")
    assert attack.marker == 8.5 and attack.marker_label == "AC 15"


def test_the_mediana_chart_marks_criticals_and_fails_an_objective_die_of_one() -> None:
    from cogs.probabilidad import mediana_chart

    drawn = mediana_chart("es", mediana_odds.mediana_distribution(20, 15, "medio"), "medio", 20, 15, True)
    kinds = {b.label: b.kind for b in drawn.bars}
    assert kinds["21"] == "failure" and kinds["22"] == "success" and kinds["25"] == "critical"
    attribute = mediana_odds.mediana_distribution(20, 15, "medio", skill_test=False)
    assert {b.label: b.kind for b in mediana_chart("es", attribute, "medio", 20, 15, False).bars}[
        "21"
    ] == "success"
    assert drawn.note.startswith("pifia (sea cual sea el total): ")


@pytest.mark.parametrize(
    "where", [{"guild": False}, {"user_install": True}, {"guild": False, "user_install": True}]
)
async def test_donjon_odds_where_there_is_no_table_use_the_books_defaults(
    db_target: Path | str, where: dict
) -> None:
    """A DM, or a server without Tirada (a user install): no table to read the die and the
    Donjon level from, so the book's d20 and level 1 (a new table's), not "Algo ha fallado"."""
    harness = Harness(db_target)
    await harness.start()
    embed = chart_sent(await harness.slash("probabilidad donjon", dados=5, contra=4, **where))
    assert "5 dados contra 4 (d20): ganas el 56,5\N{NO-BREAK SPACE}%." in embed["description"]
    media = chart_sent(await harness.slash("probabilidad donjon", dados=5, **where))
    await harness.close()
    assert "5 dados contra 4 (d20)" in media["description"]


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        ("1d6*" + "9" * 190, "medias de más de 1.000.000.000.000"),
        ("9" * 95 + "*" + "9" * 95, "medias de más de 1.000.000.000.000"),
        ("9" * 4400, "el máximo es 200"),
    ],
)
async def test_damage_with_a_huge_number_is_refused_clearly(table: Harness, damage: str, words: str) -> None:
    """A mean of 10^190 is past what CLDR formats (28 digits): refused before the chart."""
    reply = await table.slash("probabilidad dnd", modificador=0, cd=10, ataque=True, **{"daño": damage})
    assert reply.ephemeral and words in reply.text, reply.text


@pytest.mark.parametrize("channel", [{"id": "777"}, {"id": "777", "type": 99}])
async def test_donjon_odds_in_a_dm_whose_channel_discordpy_cannot_build(
    harness: Harness, channel: dict
) -> None:
    """A DM between two people where the bot is installed only for the user: a partial
    channel (no type, or one discord.py does not know) leaves ``channel_id`` empty; the
    odds need no table there."""
    data = harness._command_data(["probabilidad", "donjon"], {"dados": 5})
    payload = interaction_payload(2, data, user=PLAYER, locale="es-ES", channel_id=777, guild=False)
    payload |= {"context": 2, "channel": channel}
    embed = chart_sent(await harness.feed(payload))
    assert "5 dados contra 4 (d20)" in embed["description"]
