"""Donjon's opposed test and Prueba de Daño by name: the actor's Atributo and Habilidad from
their active sheet, the opposing NPC's from the GM's NPC sheet, numbers as before."""

from __future__ import annotations

import asyncio
import json

from tests.cogs.ficha.test_cog import example, imported
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
    await harness.table_for("donjon")
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
    await harness.table_for("donjon")
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
    await harness.table_for("donjon")
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
    """Roland: Sociabilidad 2, Cerebralidad 3, Riqueza 3, Provisiones 5, Sigilo en Bosques 3.
    Every test is his, so what it spends and gains is booked on his sheet as it goes."""
    await sheets(harness)
    harness.script(*([10] * 6), *([5] * 3))
    bought = await harness.slash("donjon gastos comprar", riqueza=1, valor=3, habilidad="sigilo en bosques")
    assert ROLAND in bought.text
    assert "Riqueza 1 + Sociabilidad 2 + Sigilo en Bosques 3 = 6 dados" in bought.text
    harness.script(*([10] * 6), *([5] * 3))
    again = await harness.click(bought.message, bought.message.custom_ids[-1])
    assert "Riqueza 1 + Sociabilidad 2 + Sigilo en Bosques 3 = 6 dados" in again.text
    harness.script(*([10] * 6), 5)
    sold = await harness.slash("donjon gastos vender", valor=4, locale="en-US")
    assert "Value 4 + Sociability 2 = 6 dice" in sold.text and "Wealth 1 = 1 die" in sold.text
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
    assert ROLAND in typed.text and "Riqueza −1" in typed.text
    assert await sheet_numbers(harness) == (3, 6, 5)


async def test_expenses_without_a_sheet_take_numbers_and_refuse_names(harness: Harness) -> None:
    await harness.table_for("donjon")
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
    await harness.submit(form.modal_id, {}, message=harness.current(panel))
    assert "**Roland el Explorador**: 7 6 5 4 3 2 1" in str(harness.current(panel).data)
    form = await harness.click(harness.current(panel), npc, user=GM)
    harness.script(*range(1, 8))  # the orc's sheet: Nivel 1 + Discernimiento 6
    fields = {"nombre": "orco"}
    await harness.submit(form.modal_id, fields, user=GM, message=harness.current(panel))
    assert "**Orco** (PNJ): 7 6 5 4 3 2 1" in str(harness.current(panel).data)
    form = await harness.click(harness.current(panel), join, user=OTHER)
    refused = await harness.submit(form.modal_id, {}, user=OTHER, message=harness.current(panel))
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


async def sheet_numbers(harness: Harness) -> tuple[int, int, int]:
    """Roland's Heridas, Provisiones and Riqueza as the books hold them (sheet no. 1)."""
    return (
        await harness.pool("ficha_heridas", 1),
        await harness.pool("ficha_provisiones", 1),
        await harness.pool("ficha_riqueza", 1),
    )


async def test_an_expense_takes_what_was_put_in_off_the_sheet_through_the_ledger(harness: Harness) -> None:
    """ "Decide la cantidad de dados que usarás de tu puntuación de Riqueza o Provisiones …
    Si la Prueba es exitosa, estos dados se restan de tu puntuación." Roland holds Riqueza 3
    and Provisiones 5: putting in 10 is refused with nothing written; a won purchase takes
    the 2 put in off the sheet's Riqueza, a lost one nothing; buying Provisiones adds every
    success; pulling an item spends Provisiones; selling adds Riqueza."""
    await sheets(harness)
    before = await rolls(harness)
    too_much = await harness.slash("donjon gastos comprar", riqueza=10, valor=3)
    assert too_much.ephemeral and "pones 10 de Riqueza y tu ficha tiene 3" in too_much.text
    assert await rolls(harness) == before and await sheet_numbers(harness) == (3, 5, 3)
    harness.script(*([10] * 4), *([5] * 3))
    bought = await harness.slash("donjon gastos comprar", riqueza=2, valor=3)
    assert "✅ Compra hecha con 4 éxitos." in bought.text
    assert "Ficha de Roland el Explorador" in bought.text and "Riqueza −2" in bought.text
    assert await sheet_numbers(harness) == (3, 5, 1)
    harness.script(*([1] * 3), *([5] * 3))
    lost = await harness.slash("donjon gastos comprar", riqueza=1, valor=3)
    assert "la Riqueza no cambia" in lost.text and "Ficha de" not in lost.text
    assert await sheet_numbers(harness) == (3, 5, 1)
    harness.script(*([10] * 3), *([5] * 5))
    stocked = await harness.slash("donjon gastos provisiones", riqueza=1)
    assert "Riqueza −1" in stocked.text and "Provisiones +3" in stocked.text
    assert await sheet_numbers(harness) == (3, 8, 0)
    harness.script(*([10] * 5), *([5] * 3))
    await harness.slash("donjon gastos objeto", provisiones=2)
    harness.script(*([10] * 6), *([5] * 0))
    sold = await harness.slash("donjon gastos vender", valor=4)
    assert "Riqueza +6" in sold.text
    assert await sheet_numbers(harness) == (3, 6, 6)
    await harness.assert_ledger_matches()
    assert harness.bot is not None
    reasons = [row.reason for row in await harness.bot.store.ledger(CHANNEL_ID, pool="ficha_riqueza")]
    assert reasons[:2] == ["donjon.gastos.gained", "donjon.gastos.spent"]


async def test_an_expense_replayed_or_repeated_spends_once_per_test(harness: Harness) -> None:
    """A replayed interaction changes nothing twice; *Repetir* is a new test of the same
    character, refused once the sheet no longer holds what it puts in."""
    from tests.support.payloads import interaction_payload

    await sheets(harness)
    harness.script(*([10] * 4), *([5] * 3))
    data = harness._command_data(["donjon", "gastos", "comprar"], {"riqueza": 2, "valor": 3})
    payload = interaction_payload(
        2, data, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID, channels=harness.channels
    )
    first = await harness.feed(payload)
    await harness.feed(dict(payload))
    assert await sheet_numbers(harness) == (3, 5, 1)
    again = await harness.click(first.message, first.message.custom_ids[-1])
    assert again.ephemeral and "pones 2 de Riqueza y tu ficha tiene 1" in again.text
    assert await sheet_numbers(harness) == (3, 5, 1)


async def test_the_sheets_bound_is_said_instead_of_announced(harness: Harness) -> None:
    """Provisiones stop at 100: what does not fit is said on the card, never booked."""
    await sheets(harness)
    await harness.slash("ficha editar", campo="provisiones", valor="99")
    harness.script(*([10] * 5), *([5] * 99))
    stocked = await harness.slash("donjon gastos provisiones", riqueza=3, provisiones=0)
    assert "Provisiones +1" in stocked.text and "4 más no caben" in stocked.text
    assert await sheet_numbers(harness) == (3, 100, 0)
    await harness.assert_ledger_matches()


async def test_without_a_sheet_the_card_asks_to_note_the_change(harness: Harness) -> None:
    await harness.table_for("donjon")
    harness.script(*([10] * 4), *([5] * 3))
    bought = await harness.slash("donjon gastos comprar", riqueza=2, valor=3, sociabilidad=2)
    assert "anota Riqueza −2 en tu hoja" in bought.text and "Ficha de" not in bought.text
    assert harness.bot is not None and await harness.bot.store.ledger(CHANNEL_ID) == []


async def test_damage_takes_the_gms_successes_off_the_takers_heridas(harness: Harness) -> None:
    """ "cada éxito del DJ en una Prueba de Daño resta una Herida al personaje afectado": the
    GM rolls 5 dice for Roland (Aguante 3, Heridas 3) and wins with 2; then with 5 more than
    the 1 left, which takes the last one and says the rest did not fit. Donjon level 2: the
    GM rolls Media 3 + 2 = 5 dice."""
    await sheets(harness)
    await harness.slash("donjon ajustes", user=GM, nivel=2)
    harness.script(*([5] * 3), 10, 10, 1, 1, 1)
    hurt = await harness.slash("donjon daño", user=GM, jugador=PLAYER)
    assert "❌ El daño gana: 2 Heridas." in hurt.text and "Heridas −2" in hurt.text
    assert await sheet_numbers(harness) == (1, 5, 3)
    harness.script(*([1] * 3), *([10] * 5))
    worse = await harness.slash("donjon daño", aguante=3)
    assert "Heridas −1" in worse.text and "4 más no caben" in worse.text
    assert await sheet_numbers(harness) == (0, 5, 3)
    harness.script(*([10] * 3), *([1] * 5))
    held = await harness.slash("donjon daño")
    assert "ninguna Herida" in held.text and "Ficha de" not in held.text
    await harness.assert_ledger_matches()


async def test_an_absorbing_skill_is_named_from_the_takers_sheet(harness: Harness) -> None:
    """Piel Dura "para absorber daño": a Habilidad of the taker's sheet joins the Aguante."""
    data = json.loads(example("donjon"))
    data["nombre"] = "Fiera"
    data["habilidades"] = [{"nombre": "Piel Dura", "dados": 2}]
    await harness.table_for("donjon")
    await harness.slash("ficha importar", archivo=Upload("fiera.json", json.dumps(data).encode()))
    await harness.slash("donjon ajustes", user=GM, nivel=0)
    harness.script(*([10] * 5), *([5] * 3))
    reply = await harness.slash("donjon daño", user=GM, jugador=PLAYER, habilidad="piel dura")
    assert "Aguante 3 + Piel Dura 2 = 5 dados" in reply.text
    suggested = await harness.autocomplete("donjon daño", "habilidad", "piel", user=GM, jugador=PLAYER)
    assert suggested == [{"name": "Piel Dura (2)", "value": "Piel Dura"}]
    unknown = await harness.slash("donjon daño", habilidad="volar")
    assert unknown.ephemeral and "no tiene la habilidad «volar»" in unknown.text


def roland(**changes: object) -> bytes:
    data = json.loads(example("donjon"))
    data.update(changes)
    return json.dumps(data).encode()


async def test_the_books_twenty_dice_build_enters_whole_with_its_saving_throws(harness: Harness) -> None:
    """ "Al final de la creación de tu personaje, tendrás puntuación de Heridas, dos Tiradas
    de Salvación, y cinco Habilidades … Tienes 20 dados para repartir": Roland's 20 (Rastrear
    4; Heridas, Sigilo, Machete 3; Ilusión 1; Veneno, Trepar, Animales 2) enter whole, and a
    Tirada de Salvación rolls like a Habilidad ("una Habilidad apropiada, una Tirada de
    Salvación")."""
    await sheets(harness)
    seen = (await harness.slash("ficha ver")).text
    assert "Salvación contra Ilusión y Confusión: 1 dado" in seen and "Anillo de Flotar (ND 0)" in seen
    saves = await harness.autocomplete("donjon prueba", "habilidad", "salvación")
    assert [c["name"] for c in saves] == [
        "Salvación contra Ilusión y Confusión (1)",
        "Salvación contra Veneno, Parálisis y Transformación (2)",
    ]
    harness.script(*([10] * 7), *([5] * 3))
    reply = await harness.slash(
        "donjon prueba", atributo="discernimiento", habilidad=saves[0]["value"], contra=3
    )
    assert "Discernimiento 6 + Salvación contra Ilusión y Confusión 1 = 7 dados" in reply.text
    harness.script(*([10] * 5), *([5] * 3))
    english = await harness.slash(
        "donjon prueba",
        atributo="aguante",
        habilidad="Save against Poison, Paralysis and Transformation",
        contra=3,
    )
    assert "Aguante 3 + Salvación contra Veneno, Parálisis y Transformación 2 = 5 dados" in english.text


async def test_level_plus_three_caps_every_characteristic(harness: Harness) -> None:
    """ "no puedes tener una cantidad de dados mayor a tu Nivel + 3 en ninguna de estas
    características": Heridas, the saves and the Habilidades; Provisiones are not one (Roland
    starts with 5)."""
    await harness.table_for("donjon")
    skills = [{"nombre": "Rastrear Cualquier Cosa", "dados": 5}]
    for file in (
        roland(habilidades=skills),
        roland(heridas=5),
        roland(salvaciones={"ilusion": 5, "veneno": 0}),
    ):
        refused = await harness.slash("ficha importar", archivo=Upload("roland.json", file))
        assert refused.ephemeral and "Nivel + 3" in refused.text and "> 4" in refused.text
    higher = await harness.slash(
        "ficha importar", archivo=Upload("roland.json", roland(habilidades=skills, nivel=2))
    )
    assert "importada" in higher.text
    over = await harness.slash("ficha editar", campo="salvaciones.veneno", valor="6")
    assert over.ephemeral and "Nivel + 3" in over.text
    stocked = roland(provisiones=9, nombre="Roland rico")
    assert "importada" in (await harness.slash("ficha importar", archivo=Upload("r.json", stocked))).text


async def test_an_items_skill_adds_to_the_characters(harness: Harness) -> None:
    """ "Robin tirará 4 dados (la Virilidad de 2, más 2 dados del anillo)"; "se suman ambas
    Habilidades a la tirada" when an item's Habilidad joins the character's."""
    await sheets(harness)
    suggested = await harness.autocomplete("donjon prueba", "objeto", "flot")
    assert suggested == [
        {"name": "Anillo de Flotar", "value": "Anillo de Flotar"},
        {"name": "Magia: Flotar en el Agua (2)", "value": "Magia: Flotar en el Agua"},
    ]
    harness.script(*([10] * 4), *([5] * 3))
    swim = await harness.slash(
        "donjon prueba", atributo="virilidad", objeto="Magia: Flotar en el Agua", contra=3
    )
    assert "Virilidad 2 + Magia: Flotar en el Agua (Anillo de Flotar) 2 = 4 dados" in swim.text
    harness.script(*([10] * 7), *([5] * 3))
    both = await harness.slash(
        "donjon prueba", atributo="virilidad", habilidad="trepar árboles", objeto="anillo de flotar", contra=3
    )
    assert (
        "Virilidad 2 + Trepar Árboles 2 + Magia: Flotar en el Agua (Anillo de Flotar) 2 = 6 dados"
        in both.text
    )
    unknown = await harness.slash("donjon prueba", atributo="virilidad", objeto="cuerda")
    assert unknown.ephemeral and "no tiene el objeto «cuerda»" in unknown.text


async def test_weight_against_virility_takes_dice_off(harness: Harness) -> None:
    """ "Roland obtiene una armadura de placas (ND 4) y una espada a dos manos (ND 3). Cuando
    Roland lleve la armadura puesta, su Celeridad tendrá un penalizador de 2 (Peso 4 -
    Virilidad 2). Además, si utiliza la espada, su oportunidad para impactar disminuye en 1
    dado"; a weapon as heavy as the Virilidad is held in both hands."""
    gear = [
        {"nombre": "Armadura de placas", "tipo": "armadura", "nd": 4},
        {"nombre": "Espada a dos manos", "tipo": "arma", "nd": 3},
        {"nombre": "Maza", "tipo": "arma", "nd": 2},
    ]
    await harness.table_for("donjon")
    await harness.slash("ficha importar", archivo=Upload("roland.json", roland(equipo=gear)))
    harness.script(*([10] * 3), *([5] * 3))
    quick = await harness.slash("donjon prueba", atributo="celeridad", contra=3)
    assert "Celeridad 5 − Peso de Armadura de placas 2 = 3 dados" in quick.text
    harness.script(*([10] * 4), *([5] * 3))
    hit = await harness.slash(
        "donjon prueba",
        atributo="virilidad",
        habilidad="atacar con machete",
        objeto="espada a dos manos",
        contra=3,
    )
    assert (
        "Virilidad 2 + Atacar con Machete 3 − Peso de Espada a dos manos 1"
        " (Espada a dos manos: a dos manos, sin escudo ni antorcha) = 4 dados"
    ) in hit.text
    harness.script(*([10] * 2), *([5] * 3))
    mace = await harness.slash("donjon prueba", atributo="virilidad", objeto="maza", contra=3)
    assert "Virilidad 2 (Maza: a dos manos, sin escudo ni antorcha) = 2 dados" in mace.text


async def test_two_purchases_at_once_spend_the_last_wealth_once(harness: Harness) -> None:
    """Both read Riqueza 1 and both win; the spend is conditional, so the second is refused
    whole (no card, no roll kept) instead of taking the sheet below 0."""
    await sheets(harness)
    await harness.slash("ficha editar", campo="riqueza", valor="1")
    harness.script(*([10, 10, 10, 5, 5, 5] * 2))
    before = await rolls(harness)
    one, two = await asyncio.gather(
        harness.slash("donjon gastos comprar", riqueza=1, valor=3, sociabilidad=2),
        harness.slash("donjon gastos comprar", riqueza=1, valor=3, sociabilidad=2),
    )
    refused = [r for r in (one, two) if r.ephemeral]
    assert len(refused) == 1 and "No alcanza" in refused[0].text and "Algo ha fallado" not in refused[0].text
    assert await sheet_numbers(harness) == (3, 5, 0)
    assert await rolls(harness) == before + 1
    await harness.assert_ledger_matches()
