"""/dnd through discord.py: checks, saves, attacks, inspiration and the tracker."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.harness import Harness
from tests.support.payloads import GM, OTHER, PLAYER


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("dnd5e")
    return harness


async def test_a_skill_check_with_advantage_shows_both_dice(table: Harness) -> None:
    table.script(18, 3)
    reply = await table.slash(
        "dnd prueba", modificador=2, habilidad="sigilo", competencia=True, nivel=5, ventaja=True, cd=15
    )
    assert "Prueba de Destreza (Sigilo)" in reply.text
    assert "d20 · con ventaja (cuenta el mayor)" in reply.text
    assert "**18** ~~3~~ +5 = **23**" in reply.text
    assert "✅ Éxito: 23 contra CD 15." in reply.text


async def test_disadvantage_in_english(table: Harness) -> None:
    table.script(18, 3)
    reply = await table.slash(
        "dnd prueba", modificador=0, caracteristica="fuerza", desventaja=True, cd=10, locale="en-US"
    )
    assert "Strength check" in reply.text
    assert "~~18~~ **3** = **3**" in reply.text
    assert "❌ Failure: 3 against DC 10." in reply.text


async def test_advantage_and_disadvantage_together_roll_one_die(table: Harness) -> None:
    table.script(7)
    reply = await table.slash("dnd prueba", modificador=1, ventaja=True, desventaja=True)
    assert "**7** +1 = **8**" in reply.text
    assert "ventaja y desventaja se anulan: un solo d20" in reply.text


async def test_expertise_doubles_proficiency(table: Harness) -> None:
    table.script(10)
    reply = await table.slash(
        "dnd prueba", modificador=3, habilidad="investigacion", competencia=True, pericia=True, nivel=1
    )
    assert "**10** +7 = **17**" in reply.text
    refused = await table.slash("dnd prueba", modificador=3, pericia=True)
    assert "marca también «competencia»" in refused.text


async def test_a_natural_twenty_does_not_pass_an_impossible_check(table: Harness) -> None:
    table.script(20)
    reply = await table.slash("dnd salvacion", caracteristica="sabiduria", modificador=0, cd=25)
    assert "Salvación de Sabiduría" in reply.text
    assert "❌ Fallo: 20 contra CD 25." in reply.text


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"modificador": 99}, "modificador debe estar entre -30 y 30"),
        ({"modificador": 0, "habilidad": "bailar"}, "no es una de las 18 habilidades"),
        ({"modificador": 0, "caracteristica": "suerte"}, "no es una característica"),
        ({"modificador": 0, "nivel": 40}, "El nivel o VD va de 0 a 30"),
        ({"modificador": 0, "cd": 99}, "cd debe estar entre 1 y 50"),
    ],
)
async def test_bad_options_are_refused(table: Harness, options: dict, words: str) -> None:
    table.script()
    reply = await table.slash("dnd prueba", **options)
    assert reply.ephemeral
    assert words in reply.text


async def test_autocomplete_offers_spanish_and_english_names(table: Harness) -> None:
    from tests.support.payloads import CHANNEL_ID

    data = table._command_data(["dnd", "prueba"], {"modificador": 0, "habilidad": "perc"})
    data["options"][0]["options"][1]["focused"] = True
    reply = await table.dispatch(4, data, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID)
    choices = reply.calls[0].payload["data"]["choices"]
    assert {"name": "Percepción", "value": "percepcion"} in choices
    english = await table.dispatch(4, data | {}, user=PLAYER, locale="en-US", channel_id=CHANNEL_ID)
    assert english.calls[0].payload["data"]["choices"] == [{"name": "Perception", "value": "percepcion"}]
    data["options"][0]["options"][1]["value"] = "insi"
    english = await table.dispatch(4, data, user=PLAYER, locale="en-US", channel_id=CHANNEL_ID)
    assert english.calls[0].payload["data"]["choices"] == [{"name": "Insight", "value": "perspicacia"}]


async def autocomplete(table: Harness, field: str, typed: str, locale: str) -> list[dict]:
    from tests.support.payloads import CHANNEL_ID

    data = table._command_data(["dnd", "prueba"], {"modificador": 0, field: typed})
    data["options"][0]["options"][1]["focused"] = True
    reply = await table.dispatch(4, data, user=PLAYER, locale=locale, channel_id=CHANNEL_ID)
    return reply.calls[0].payload["data"]["choices"]


@pytest.mark.parametrize(
    ("field", "typed", "locale", "choice"),
    [
        ("habilidad", "stealth", "es-ES", {"name": "Sigilo (Stealth)", "value": "sigilo"}),
        ("habilidad", "sigilo", "en-US", {"name": "Stealth (Sigilo)", "value": "sigilo"}),
        ("habilidad", "PERCEPCIÓN", "es-ES", {"name": "Percepción", "value": "percepcion"}),
        ("habilidad", "stelth", "en-US", {"name": "Stealth", "value": "sigilo"}),
        ("caracteristica", "wisdom", "es-ES", {"name": "Sabiduría (Wisdom)", "value": "sabiduria"}),
    ],
)
async def test_autocomplete_finds_names_in_either_language(
    table: Harness, field: str, typed: str, locale: str, choice: dict
) -> None:
    assert await autocomplete(table, field, typed, locale) == [choice]


@pytest.mark.parametrize(
    ("options", "locale", "title"),
    [
        ({"habilidad": "percepción"}, "es-ES", "Prueba de Sabiduría (Percepción)"),
        ({"habilidad": "Stealth"}, "es-ES", "Prueba de Destreza (Sigilo)"),
        ({"habilidad": "juego de manos"}, "en-US", "Dexterity (Sleight of Hand) check"),
        ({"habilidad": "Persepcion"}, "es-ES", "Prueba de Sabiduría (Percepción)"),
        ({"caracteristica": "Strength"}, "es-ES", "Prueba de Fuerza"),
    ],
)
async def test_a_typed_name_is_accepted(table: Harness, options: dict, locale: str, title: str) -> None:
    table.script(10)
    reply = await table.slash("dnd prueba", modificador=0, locale=locale, **options)
    assert not reply.ephemeral
    assert title in reply.text


async def test_a_typed_saving_throw_ability_is_accepted(table: Harness) -> None:
    table.script(10)
    reply = await table.slash("dnd salvacion", caracteristica="SABIDURÍA", modificador=0)
    assert "Salvación de Sabiduría" in reply.text


async def test_an_attack_that_hits_rolls_damage(table: Harness) -> None:
    table.script(15, 3, 4)
    reply = await table.slash("dnd ataque", bonificador=5, ca=15, **{"daño": "2d6+3"})
    assert "✅ Impacta: 20 contra CA 15." in reply.text
    assert "2d6 (**3**, **4**) + 3 = **10**" in reply.text


async def test_a_natural_twenty_doubles_the_damage_dice(table: Harness) -> None:
    table.script(20, 1, 2, 3, 4)
    reply = await table.slash("dnd ataque", bonificador=-5, ca=30, **{"daño": "2d6+3"})
    assert "✨ ¡20 natural: golpe crítico! Impacta siempre." in reply.text
    assert "Daño crítico (dados dobles)" in reply.text
    assert "4d6 (**1**, **2**, **3**, **4**) + 3 = **13**" in reply.text


async def test_a_miss_rolls_no_damage_and_cover_counts(table: Harness) -> None:
    table.script(12, 6)
    reply = await table.slash("dnd ataque", bonificador=5, ca=15, cobertura="media", **{"daño": "1d8"})
    assert "✅ Impacta: 17 contra CA 17." in reply.text
    table.script(11)
    miss = await table.slash("dnd ataque", bonificador=5, ca=15, cobertura="media", **{"daño": "1d8"})
    assert "❌ Falla: 16 contra CA 17." in miss.text
    assert "Daño" not in miss.text
    full = await table.slash("dnd ataque", bonificador=5, ca=15, cobertura="completa")
    assert "no puede ser atacado directamente" in full.text


async def test_a_bad_damage_expression_rolls_nothing(table: Harness) -> None:
    table.script()
    reply = await table.slash("dnd ataque", bonificador=5, ca=15, **{"daño": "1000d6"})
    assert reply.ephemeral
    assert "Son demasiados dados" in reply.text


async def test_heroic_inspiration_rerolls_one_die_once(table: Harness) -> None:
    await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    table.script(3, 18)
    reply = await table.slash("dnd prueba", modificador=0, desventaja=True, cd=10)
    assert reply.message.custom_ids == ["dnd:insp0:1", "dnd:insp1:1", "rep:repetir:1"]
    labels = [c["label"] for c in reply.data["components"][0]["components"]]
    assert labels == ["Inspiración: repetir el 3", "Inspiración: repetir el 18", "Repetir"]
    refused = await table.click(reply.message, "dnd:insp0:1", user=OTHER)
    assert "Solo quien tiró" in refused.text
    table.script(15)
    used = await table.click(reply.message, "dnd:insp0:1")
    assert "~~3~~↺ **15** ~~18~~ = **15**" in used.text
    assert "✅ Éxito: 15 contra CD 10." in used.text
    assert await table.pool("inspiracion", PLAYER.id) == 0
    assert table.current(reply.message).custom_ids == ["rep:repetir:1"]


async def test_a_double_click_spends_inspiration_once(table: Harness) -> None:
    await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    table.script(3)
    reply = await table.slash("dnd prueba", modificador=0)
    table.script(9, 9)
    first, second = await asyncio.gather(
        table.click(reply.message, "dnd:insp0:1"), table.click(reply.message, "dnd:insp0:1")
    )
    assert await table.pool("inspiracion", PLAYER.id) == 0
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    await table.assert_ledger_matches()


async def test_no_inspiration_no_button(table: Harness) -> None:
    table.script(3)
    reply = await table.slash("dnd prueba", modificador=0)
    assert reply.message.custom_ids == ["rep:repetir:1"]


async def test_a_holder_granted_again_passes_it_on(table: Harness) -> None:
    refused = await table.slash("dnd inspiracion dar", jugador=OTHER)
    assert refused.ephemeral
    await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    again = await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    assert "ya tiene inspiración heroica y nadie puede tener dos" in again.text
    assert again.data["allowed_mentions"] == {"parse": [], "users": [PLAYER.id]}
    menu = again.message
    stranger = await table.click(
        menu, menu.custom_ids[0], user=OTHER, values=[str(OTHER.id)], component_type=5
    )
    assert "Solo quien recibió esta inspiración" in stranger.text
    given = await table.click(menu, menu.custom_ids[0], values=[str(OTHER.id)], component_type=5)
    assert f"da la inspiración heroica a <@{OTHER.id}>" in given.text
    assert await table.pool("inspiracion", OTHER.id) == 1
    assert await table.pool("inspiracion", PLAYER.id) == 1
    seen = await table.slash("dnd inspiracion ver")
    assert f"✨ <@{PLAYER.id}>" in seen.text
    assert f"✨ <@{OTHER.id}>" in seen.text


async def test_passing_to_someone_who_has_it_is_refused(table: Harness) -> None:
    await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    await table.slash("dnd inspiracion dar", user=GM, jugador=OTHER)
    again = await table.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    refused = await table.click(
        again.message, again.message.custom_ids[0], values=[str(OTHER.id)], component_type=5
    )
    assert "no puede pasar de 1" in refused.text


async def test_the_initiative_tracker(table: Harness) -> None:
    panel = (await table.slash("dnd iniciativa panel")).message
    assert panel.custom_ids == [
        "dnd:ini:unirme:1:0",
        "dnd:ini:empezar:1:0",
        "dnd:pg:1",
        "dnd:ini:terminar:1:0",
    ]
    table.script(15)
    joined = await table.slash("dnd iniciativa unirme", modificador=2)
    assert joined.ephemeral
    assert "**17** · Jugadora" in str(table.current(panel).data)
    table.script(16)
    refused = await table.slash("dnd iniciativa monstruos", nombre="Goblin", modificador=1, cantidad=3)
    assert refused.ephemeral
    table.script(5, 16)
    await table.slash(
        "dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=1, cantidad=3, sorprendidos=True
    )
    assert "**6** · Goblin ×3 (monstruo)" in str(table.current(panel).data)
    table.script(9, 6)
    opened = await table.click(table.current(panel), "dnd:ini:unirme:1:0", user=OTHER)
    assert opened.callback.payload["type"] == 9
    await table.submit(
        opened.modal_id,
        {"nombre": "Bram", "modificador": ["11"], "modo": "desventaja"},
        user=OTHER,
        message=table.current(panel),
    )
    player_start = await table.click(table.current(panel), "dnd:ini:empezar:1:0")
    assert player_start.ephemeral
    started = await table.click(table.current(panel), "dnd:ini:empezar:1:0", user=GM)
    assert "▶️ Turno de Jugadora (ronda 1)." in started.text
    assert "▶️ **17** · Jugadora\n**17** · Bram\n**6** · Goblin ×3 (monstruo)" in started.text
    raised = await table.slash("dnd iniciativa subir", combatiente=f"u{OTHER.id}", user=OTHER)
    assert "▶️ Turno de Jugadora" in raised.text
    assert "**17** · Bram\n▶️ **17** · Jugadora" in raised.text
    step = "dnd:ini:siguiente:1:0"
    first, second = await asyncio.gather(
        table.click(table.current(panel), step), table.click(table.current(panel), step)
    )
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    assert "▶️ Turno de Goblin (ronda 1)." in str(table.current(panel).data)
    await table.restart()
    not_mine = await table.click(table.current(panel), "dnd:ini:siguiente:1:1", user=OTHER)
    assert not_mine.ephemeral and "Solo quien tiene el turno (o el DJ)" in not_mine.text
    wrapped = await table.click(table.current(panel), "dnd:ini:siguiente:1:1", user=GM)
    assert "▶️ Turno de Bram (ronda 2)." in wrapped.text
    turn_message = wrapped.messages[-1]
    assert turn_message.data["content"] == f"<@{OTHER.id}>"
    removed = await table.slash("dnd iniciativa quitar", user=GM, combatiente=f"u{OTHER.id}")
    assert "Bram" not in removed.text
    ended = await table.click(table.current(panel), "dnd:ini:terminar:1:0", user=GM)
    assert "El combate ha terminado." in ended.text


async def test_the_plain_roller_with_advantage(table: Harness) -> None:
    table.script(4, 17)
    reply = await table.slash("dnd tirar", expresion="1d20+5", ventaja=True)
    assert "2d20kh1 (~~4~~, **17**) + 5 = **22**" in reply.text
