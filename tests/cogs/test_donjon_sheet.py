"""Donjon's opposed test and Prueba de Daño by name: the actor's Atributo and Habilidad from
their active sheet, the opposing NPC's from the GM's NPC sheet, numbers as before."""

from __future__ import annotations

import json

from tests.cogs.test_ficha import example, imported, table_of
from tests.support.harness import Harness, Upload
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER

ROLAND = "como **Roland el Explorador**"
# Roland (docs/fichas/donjon.json): Discernimiento 6 + Rastrear Cualquier Cosa 4, Aguante 3.
ROLAND_TRACKS = "Discernimiento 6 + Rastrear Cualquier Cosa 4 = 10 dados"


async def orc(harness: Harness) -> None:
    """The GM's NPC: Virilidad 5 and "Golpear con Garrote" 3."""
    data = json.loads(example("donjon"))
    data["nombre"] = "Orco"
    data["atributos"]["virilidad"] = 5
    data["habilidades"] = [{"nombre": "Golpear con Garrote", "dados": 3}]
    raw = json.dumps(data).encode()
    reply = await harness.slash("ficha importar", user=GM, archivo=Upload("orco.json", raw), pnj=True)
    assert "importada" in reply.text


async def rolls(harness: Harness) -> int:
    assert harness.bot is not None
    return len(await harness.bot.store.records(CHANNEL_ID, "donjon", 50))


async def sheets(harness: Harness) -> Harness:
    await table_of(harness, "donjon")
    await imported(harness, "donjon")
    await orc(harness)
    return harness


async def test_opposed_by_name_against_an_npc_and_repeat_keeps_the_terms(harness: Harness) -> None:
    await sheets(harness)
    harness.script(*([10] * 10), *([5] * 8))
    reply = await harness.slash(
        "donjon enfrentada",
        user=GM,
        jugador=PLAYER,
        atributo="discernimiento",
        habilidad="rastrear cualquier cosa",
        rival_pnj="orco",
        rival_atributo="virility",
        rival_habilidad="golpear con garrote",
    )
    assert ROLAND_TRACKS in reply.text and ROLAND in reply.text
    assert "**Orco**: Virilidad 5 + Golpear con Garrote 3 = 8 dados" in reply.text
    harness.script(*([10] * 10), *([5] * 8))
    again = await harness.click(reply.message, reply.message.custom_ids[-1])
    assert ROLAND_TRACKS in again.text and "Virilidad 5 + Golpear con Garrote 3 = 8 dados" in again.text
    harness.script(*([10] * 6), *([5] * 3))
    english = await harness.slash(
        "donjon enfrentada", atributo="insight", rival=OTHER, rival_dados=3, locale="en-US"
    )
    assert "Insight 6 = 6 dice" in english.text and "as **Roland el Explorador**" in english.text


async def test_opposed_numbers_keep_working_without_sheets(harness: Harness) -> None:
    await table_of(harness, "donjon")
    harness.script(*([10] * 2), *([5] * 3))
    plain = await harness.slash("donjon enfrentada", rival=OTHER, dados=2, rival_dados=3)
    assert "<@" in plain.text and "como" not in plain.text
    missing = await harness.slash("donjon enfrentada", rival=OTHER, rival_dados=3)
    assert missing.ephemeral and "Indica los dados" in missing.text


async def test_opposed_refusals_are_ephemeral_and_store_nothing(harness: Harness) -> None:
    await sheets(harness)
    before = await rolls(harness)
    player_npc = await harness.slash(
        "donjon enfrentada", dados=3, rival_pnj="orco", rival_atributo="virilidad"
    )
    assert player_npc.ephemeral and "DJ" in player_npc.text
    unknown = await harness.slash(
        "donjon enfrentada", user=GM, dados=3, rival_pnj="orco", rival_habilidad="volar"
    )
    assert unknown.ephemeral and "no tiene la habilidad «volar»" in unknown.text
    no_npc = await harness.slash("donjon enfrentada", dados=3, rival=OTHER, rival_atributo="virilidad")
    assert no_npc.ephemeral and "elige antes su ficha de PNJ" in no_npc.text
    both = await harness.slash("donjon enfrentada", user=GM, dados=3, rival=OTHER, rival_pnj="orco")
    assert both.ephemeral and "no los dos" in both.text
    no_sheet = await harness.slash(
        "donjon enfrentada", user=OTHER, atributo="aguante", rival=PLAYER, rival_dados=2
    )
    assert no_sheet.ephemeral and "No tienes ficha activa" in no_sheet.text
    assert await rolls(harness) == before


async def test_opposed_names_are_autocompleted_from_each_sheet(harness: Harness) -> None:
    await sheets(harness)
    mine = await harness.autocomplete("donjon enfrentada", "habilidad", "trep")
    assert mine == [{"name": "Trepar Árboles (2)", "value": "Trepar Árboles"}]
    assert await harness.autocomplete("donjon enfrentada", "rival_habilidad", "gol", user=GM) == []
    npc = await harness.autocomplete("donjon enfrentada", "rival_habilidad", "gol", user=GM, rival_pnj="orco")
    assert npc == [{"name": "Golpear con Garrote (3)", "value": "Golpear con Garrote"}]
    attributes = await harness.autocomplete(
        "donjon enfrentada", "rival_atributo", "viril", user=GM, rival_pnj="orco"
    )
    assert attributes == [{"name": "Virilidad (5)", "value": "virilidad"}]


async def test_damage_reads_endurance_and_the_npcs_dice_from_the_sheets(harness: Harness) -> None:
    await sheets(harness)
    harness.script(*([10] * 3), *([5] * 8))
    reply = await harness.slash(
        "donjon daño",
        user=GM,
        jugador=PLAYER,
        pnj="orco",
        atributo_pnj="virilidad",
        habilidad_pnj="golpear con garrote",
    )
    assert ROLAND in reply.text and "Aguante 3 = 3 dados" in reply.text
    assert "**Orco**: Virilidad 5 + Golpear con Garrote 3 = 8 dados" in reply.text
    harness.script(*([10] * 3), *([5] * 8))
    again = await harness.click(reply.message, reply.message.custom_ids[-1])
    assert "Aguante 3 = 3 dados" in again.text and "Virilidad 5 + Golpear con Garrote 3" in again.text
    harness.script(*([10] * 2), *([5] * 7))
    mixed = await harness.slash(
        "donjon daño", user=GM, aguante=2, pnj="orco", atributo_pnj="4", habilidad_pnj="garrote con golpear"
    )
    assert mixed.ephemeral and "no tiene la habilidad" in mixed.text
    mixed = await harness.slash(
        "donjon daño", user=GM, aguante=2, pnj="orco", atributo_pnj="4", habilidad_pnj="Golpear con Garrote"
    )
    assert "Atributo 4 + Golpear con Garrote 3 = 7 dados" in mixed.text and "como" not in mixed.text


async def test_damage_numbers_and_refusals(harness: Harness) -> None:
    await table_of(harness, "donjon")
    harness.script(*([10] * 3), *([5] * 3))
    plain = await harness.slash("donjon daño", aguante=3, atributo_pnj="2", habilidad_pnj="1")
    assert "Atributo 2 + Habilidad 1 = 3 dados" in plain.text
    before = await rolls(harness)
    no_sheet = await harness.slash("donjon daño")
    assert no_sheet.ephemeral and "No tienes ficha activa" in no_sheet.text
    names = await harness.slash("donjon daño", aguante=3, atributo_pnj="virilidad")
    assert names.ephemeral and "elige antes su ficha de PNJ" in names.text
    player_npc = await harness.slash("donjon daño", aguante=3, pnj="orco", atributo_pnj="virilidad")
    assert player_npc.ephemeral and "DJ" in player_npc.text
    too_big = await harness.slash("donjon daño", aguante=3, atributo_pnj="999")
    assert too_big.ephemeral and "atributo_pnj" in too_big.text
    assert await rolls(harness) == before


async def test_expenses_read_the_sheets_attributes_skills_and_current_wealth(harness: Harness) -> None:
    """Roland: Sociabilidad 2, Cerebralidad 3, Riqueza 3, Provisiones 5, Sigilo en Bosques 3."""
    await sheets(harness)
    harness.script(*([10] * 7), *([5] * 3))
    bought = await harness.slash("donjon gastos comprar", riqueza=2, valor=3, habilidad="sigilo en bosques")
    assert ROLAND in bought.text
    assert "Riqueza 2 + Sociabilidad 2 + Sigilo en Bosques 3 = 7 dados" in bought.text
    harness.script(*([10] * 7), *([5] * 3))
    again = await harness.click(bought.message, bought.message.custom_ids[-1])
    assert "Riqueza 2 + Sociabilidad 2 + Sigilo en Bosques 3 = 7 dados" in again.text
    harness.script(*([10] * 6), *([5] * 3))
    sold = await harness.slash("donjon gastos vender", valor=4, locale="en-US")
    assert "Value 4 + Sociability 2 = 6 dice" in sold.text and "Wealth 3 = 3 dice" in sold.text
    harness.script(*([10] * 3), *([5] * 5))
    stocked = await harness.slash("donjon gastos provisiones", riqueza=1)
    assert (
        "Riqueza 1 + Sociabilidad 2 = 3 dados" in stocked.text and "Provisiones 5 = 5 dados" in stocked.text
    )
    harness.script(*([10] * 5), *([5] * 3))
    item = await harness.slash("donjon gastos objeto", provisiones=2)
    assert "Provisiones 2 + Cerebralidad 3 = 5 dados" in item.text
    harness.script(*([10] * 3), *([5] * 3))
    typed = await harness.slash("donjon gastos comprar", riqueza=1, valor=3, sociabilidad=1, habilidad="1")
    assert "Roland" not in typed.text


async def test_expenses_without_a_sheet_take_numbers_and_refuse_names(harness: Harness) -> None:
    await table_of(harness, "donjon")
    harness.script(*([10] * 4), *([5] * 3))
    plain = await harness.slash("donjon gastos comprar", riqueza=1, valor=3, sociabilidad=2, habilidad="1")
    assert plain.message is not None and not plain.ephemeral
    before = await rolls(harness)
    no_sheet = await harness.slash("donjon gastos comprar", riqueza=1, valor=3)
    assert no_sheet.ephemeral and "No tienes ficha activa" in no_sheet.text
    named = await harness.slash(
        "donjon gastos comprar", riqueza=1, valor=3, sociabilidad=2, habilidad="regatear"
    )
    assert named.ephemeral and "No tienes ficha activa" in named.text
    assert await rolls(harness) == before


async def test_initiative_left_empty_rolls_level_plus_insight_from_the_sheet(harness: Harness) -> None:
    """ "Cada jugador tira una cantidad de dados igual a su Nivel más su Discernimiento … El DJ
    tira por cada PNJ … el Nivel de los PNJ más su Discernimiento"."""
    await sheets(harness)
    panel = (await harness.slash("donjon iniciativa")).message
    join, npc = panel.custom_ids[0], panel.custom_ids[1]
    form = await harness.click(panel, join)
    harness.script(*range(1, 8))  # Roland: Nivel 1 + Discernimiento 6 = 7 dice
    await harness.submit(form.modal_id, {"dados": ""}, message=harness.current(panel))
    assert "**Roland el Explorador**: 7 6 5 4 3 2 1" in str(harness.current(panel).data)
    form = await harness.click(harness.current(panel), npc, user=GM)
    harness.script(*range(1, 8))  # the orc's sheet: Nivel 1 + Discernimiento 6
    fields = {"nombre": "orco", "dados": "", "cantidad": ""}
    await harness.submit(form.modal_id, fields, user=GM, message=harness.current(panel))
    assert "**Orco** (PNJ): 7 6 5 4 3 2 1" in str(harness.current(panel).data)
    form = await harness.click(harness.current(panel), join, user=OTHER)
    refused = await harness.submit(form.modal_id, {"dados": ""}, user=OTHER, message=harness.current(panel))
    assert refused.ephemeral and "No tienes ficha activa" in refused.text


async def test_dice_typed_win_over_the_npc_sheet_which_still_names_the_character(harness: Harness) -> None:
    """Numbers win, as on every roll: the GM's ``dados:4 como:orco`` rolls 4 dice as the Orc
    (it was refused for "no dice"; with ``atributo:`` too, the sheet's 5 replaced the 4), and
    ``rival_dados:`` wins over ``rival_pnj:``'s sheet the same way."""
    await sheets(harness)
    harness.script(*([5] * 7))
    alone = await harness.slash("donjon prueba", user=GM, dados=4, como="orco", contra=3)
    assert not alone.ephemeral and "como **Orco** (4 dados)" in alone.text
    harness.script(*([5] * 7))
    named = await harness.slash(
        "donjon prueba", user=GM, dados=4, atributo="virilidad", como="orco", contra=3
    )
    assert "como **Orco** (4 dados)" in named.text and "Virilidad" not in named.text
    harness.script(*([5] * 8))
    opposed = await harness.slash(
        "donjon enfrentada", user=GM, jugador=PLAYER, dados=2, rival_pnj="orco", rival_dados=6
    )
    assert not opposed.ephemeral and "**Orco** (6 dados)" in opposed.text


async def test_repeat_as_a_character_is_for_its_player_and_the_gm(harness: Harness) -> None:
    """*Repetir* rolls "for whoever presses", but a card "como **Orco**" is the GM's NPC
    (``como:`` is the GM's only) and "como **Roland**" is Roland's player's: another player's
    press rolled as that character (a player dealing the Orc's Ley de los Éxitos). Refused,
    privately, storing nothing; the player and the GM still repeat."""
    await sheets(harness)
    harness.script(*([5] * 8))
    npc = await harness.slash("donjon prueba", user=GM, atributo="virilidad", como="orco", contra=3)
    harness.script(*([5] * 5))
    mine = await harness.slash("donjon prueba", atributo="virilidad", contra=3)
    before = await rolls(harness)
    as_npc = await harness.click(npc.message, npc.message.custom_ids[-1], user=PLAYER)
    as_roland = await harness.click(mine.message, mine.message.custom_ids[-1], user=OTHER, locale="en-US")
    assert as_npc.ephemeral and "ficha de otra persona" in as_npc.text
    assert as_roland.ephemeral and "someone else's sheet" in as_roland.text
    assert await rolls(harness) == before
    harness.script(*([5] * 8))
    gm_again = await harness.click(npc.message, npc.message.custom_ids[-1], user=GM)
    harness.script(*([5] * 5))
    again = await harness.click(mine.message, mine.message.custom_ids[-1])
    assert "como **Orco**" in gm_again.text and ROLAND in again.text
