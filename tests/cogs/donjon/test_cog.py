"""/donjon through discord.py: tests, the Ley de los Éxitos panel, banks, combat."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.models import Record
from cogs.donjon import board
from rules.donjon import posted
from rules.donjon.law import Law
from tests.support.decodes import Decodes
from tests.support.discord_schema import COMPONENTS_V2, walk
from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import CHANNEL_ID, GM, GM_CHANNEL_ID, OTHER, PLAYER, User

# The book's second example: the player wins with four successes (two tied pairs).
PLAYER_WINS = [3, 11, 12, 13, 15, 5, 8, 10, 13, 15]
# The book's first example: the GM wins with two successes.
GM_WINS = [4, 7, 9, 11, 12, 6, 12, 15, 18]


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("donjon")
    return harness


async def contest(h: Harness, faces: list[int], user: User = PLAYER, **options: object) -> Reply:
    h.script(*faces)
    return await h.slash("donjon prueba", user=user, **options)


async def fact(h: Harness, panel: Message, text: str, user: User = PLAYER, locale: str = "es-ES") -> Reply:
    record_id = panel.custom_ids[0].rsplit(":", 1)[1]
    opened = await h.click(h.current(panel), f"donjon:ley:hecho:{record_id}", user=user, locale=locale)
    if opened.calls and opened.callback.payload["type"] != 9:
        return opened
    return await h.submit(
        opened.modal_id, {"hecho": text}, user=user, locale=locale, message=h.current(panel)
    )


def shown(message: Message) -> str:
    """The text a Components V2 message shows: its Text Displays, in reading order."""
    return "\n".join(c["content"] for _, c in walk(message.data.get("components", []), ()) if c["type"] == 10)


async def test_a_test_shows_both_pools_ties_and_successes(table: Harness) -> None:
    reply = await contest(table, PLAYER_WINS, dados=5, contra=5)
    assert f"<@{PLAYER.id}> (5 dados): **15**✓⚖️ **13**✓⚖️ **12**✓ **11**✓ **3**" in reply.text
    assert "el DJ (5 dados): **15**⚖️ **13**⚖️ **10** **8** **5**" in reply.text
    assert f"✅ <@{PLAYER.id}> gana con 4 éxitos." in reply.text
    assert "quedan 4 de 4" in reply.text
    assert reply.message.custom_ids == [
        "donjon:ley:hecho:1",
        "donjon:ley:dado:1",
        "donjon:ley:amigo:1",
        "rep:repetir:1",
    ]


async def test_in_english(table: Harness) -> None:
    table.script(*GM_WINS)
    reply = await table.slash("donjon prueba", dados=5, contra=4, locale="en-US")
    assert "the GM (4 dice): **18**✓ **15**✓ **12** **6**" in reply.text
    assert "❌ the GM wins with 2 successes." in reply.text
    labels = [c["label"] for c in reply.data["components"][0]["components"]]
    assert labels == ["Tell a fact", "Bank a die", "Die for a friend", "Roll again"]


async def test_an_unopposed_test_rolls_difficulty_plus_level(table: Harness) -> None:
    await table.slash("donjon ajustes", user=GM, nivel=2)
    reply = await contest(table, [20] + [1] * 8, dados=1, dificultad="dificil")
    assert "el DJ (8 dados)" in reply.text
    default = await contest(table, [20] + [1] * 5, dados=1)
    assert "el DJ (5 dados)" in default.text


async def test_contra_and_difficulty_together_are_refused(table: Harness) -> None:
    reply = await table.slash("donjon prueba", dados=3, contra=2, dificultad="media")
    assert reply.ephemeral
    assert "no las dos" in reply.text


async def test_out_of_range_pools_are_refused(table: Harness) -> None:
    table.script()
    for options in ({"dados": 101}, {"dados": -1}, {"dados": 3, "contra": 500}, {"dados": 3, "banco": -2}):
        reply = await table.slash("donjon prueba", **options)
        assert reply.ephemeral
        assert "debe estar entre" in reply.text


async def test_the_winner_allocates_facts_and_dice_and_the_gm_gets_the_facts(table: Harness) -> None:
    panel = (await contest(table, PLAYER_WINS, dados=5, contra=5)).message
    await fact(table, panel, "Hay una llave en la cerradura")
    await table.click(table.current(panel), "donjon:ley:dado:1")
    await fact(table, panel, "Está en la pared norte")
    last = await fact(table, panel, "La puerta tiene una inscripción demoníaca")
    assert "Todo repartido: narra el DJ." in last.text
    assert await table.pool("dados", PLAYER.id) == 1
    assert table.current(panel).custom_ids == ["rep:repetir:1"]
    narration = last.messages[-1]
    assert narration.data["flags"] & COMPONENTS_V2
    assert narration.custom_ids == ["donjon:narrado:1:1", "donjon:narrado:1:2", "donjon:narrado:1:3"]
    body = shown(narration)
    assert "1. Hay una llave en la cerradura" in body
    assert "3. La puerta tiene una inscripción demoníaca" in body
    pending = await table.slash("donjon hechos")
    assert "Prueba #1 · narra el DJ" in pending.text
    refused = await table.click(narration, "donjon:narrado:1:2", user=OTHER)
    assert refused.ephemeral
    assert "Solo quien debe narrar" in refused.text
    second = await table.click(narration, "donjon:narrado:1:2", user=GM)
    assert table.current(narration).custom_ids == ["donjon:narrado:1:1", "donjon:narrado:1:3"]
    assert "~~2. Está en la pared norte~~ ✓ narrado" in second.text
    assert "Narrado ✓" not in second.text
    left = (await table.slash("donjon hechos")).text
    assert "Hay una llave" in left and "pared norte" not in left
    await table.click(table.current(narration), "donjon:narrado:1:1", user=GM)
    done = await table.click(table.current(narration), "donjon:narrado:1:3", user=GM)
    assert table.current(narration).custom_ids == []
    assert "Narrado ✓" in done.text
    assert "No hay hechos pendientes" in (await table.slash("donjon hechos")).text


async def test_when_the_gm_wins_the_gm_allocates_and_the_player_narrates(table: Harness) -> None:
    panel = (await contest(table, GM_WINS, dados=5, contra=4)).message
    refused = await fact(table, panel, "Me libro", user=PLAYER)
    assert refused.ephemeral
    assert "Solo quien ganó la Prueba" in refused.text
    await table.click(table.current(panel), "donjon:ley:dado:1", user=GM)
    last = await fact(table, panel, "Azar cae en un montón de basura", user=GM)
    assert f"Todo repartido: narra <@{PLAYER.id}>." in last.text
    assert await table.pool("dados_dj") == 1
    narration = last.messages[-1]
    assert narration.data["allowed_mentions"] == {"parse": [], "users": [PLAYER.id]}
    assert f"<@{PLAYER.id}>, narra el resultado" in shown(narration)
    done = await table.click(narration, "donjon:narrado:1:1")
    assert "Narrado ✓" in done.text
    assert done.callback.payload["data"]["allowed_mentions"] == {"parse": []}


async def test_a_fact_over_200_characters_is_refused(table: Harness) -> None:
    panel = (await contest(table, PLAYER_WINS, dados=5, contra=5)).message
    reply = await fact(table, panel, "x" * 201)
    assert reply.ephemeral
    assert "tiene como mucho 200 caracteres; el tuyo tiene 201" in reply.text
    english = await fact(table, panel, "y" * 300, locale="en-GB")
    assert "A fact is at most 200 characters; yours has 300." in english.text
    assert "quedan 4 de 4" in str(table.current(panel).data)


async def test_facts_never_ping_and_keep_their_markdown_escaped(table: Harness) -> None:
    panel = (await contest(table, PLAYER_WINS, dados=5, contra=5)).message
    reply = await fact(table, panel, "@everyone **mira** <@123>")
    assert reply.callback.payload["data"]["allowed_mentions"] == {"parse": []}
    assert "\\*\\*mira\\*\\*" in reply.text


async def test_a_double_click_on_bank_banks_one_die(table: Harness) -> None:
    panel = (await contest(table, [10, 1], dados=1, contra=1)).message
    first, second = await asyncio.gather(
        table.click(panel, "donjon:ley:dado:1"), table.click(panel, "donjon:ley:dado:1")
    )
    assert await table.pool("dados", PLAYER.id) == 1
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]


async def test_a_restart_in_the_middle_of_an_allocation_keeps_the_panel(table: Harness) -> None:
    panel = (await contest(table, PLAYER_WINS, dados=5, contra=5)).message
    await fact(table, panel, "Antes del reinicio")
    await table.restart()
    after = await table.click(table.current(panel), "donjon:ley:dado:1")
    assert "quedan 2 de 4" in after.text
    assert "1. Antes del reinicio" in after.text


async def test_a_die_for_a_friend(table: Harness) -> None:
    panel = (await contest(table, [10, 1], dados=1, contra=1)).message
    menu = await table.click(panel, "donjon:ley:amigo:1")
    assert menu.ephemeral
    picked = await table.click(menu.message, "donjon:amigo:1", values=[str(OTHER.id)], component_type=5)
    assert f"Dado de bonificación guardado para <@{OTHER.id}>." in picked.text
    assert await table.pool("dados", OTHER.id) == 1
    assert f"🎲 Dado guardado para <@{OTHER.id}>." in str(table.current(panel).data)


async def test_banked_dice_are_spent_on_a_later_test_never_more_than_held(table: Harness) -> None:
    await table.slash("donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=2)
    refused = await contest(table, [1] * 10, dados=2, contra=1, banco=3)
    assert "Quieres usar 3 dados guardados, pero solo hay 2." in refused.text
    used = await contest(table, [20, 19, 18, 1], dados=1, contra=1, banco=2)
    assert "(3 dados)" in used.text
    assert "Se usan 2 dados de bonificación guardados." in used.text
    assert await table.pool("dados", PLAYER.id) == 0


async def test_two_players_spending_the_same_banked_dice_at_once(table: Harness) -> None:
    await table.slash("donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=2)
    table.script(*([20] * 40))
    one, two = await asyncio.gather(
        table.slash("donjon prueba", dados=1, contra=1, banco=2),
        table.slash("donjon prueba", dados=1, contra=1, banco=2),
    )
    assert sorted([one.ephemeral, two.ephemeral]) == [False, True]
    assert await table.pool("dados", PLAYER.id) == 0


async def test_only_the_gm_adjusts_banks(table: Harness) -> None:
    refused = await table.slash("donjon banco ajustar", cantidad=5)
    assert refused.ephemeral
    done = await table.slash("donjon banco ajustar", user=GM, cantidad=3)
    assert "El DJ suma 3 dados a sus dados guardados: ahora tiene 3." in done.text
    seen = await table.slash("donjon banco ver")
    assert "el DJ: **3**" in seen.text


async def test_a_damage_test_counts_wounds_and_spends_the_gms_bank(table: Harness) -> None:
    await table.slash("donjon ajustes", user=GM, nivel=2)
    await table.slash("donjon banco ajustar", user=GM, cantidad=2)
    table.script(10, 9, 3, 2, 20, 19, 8, 7, 6, 5, 1)
    hurt = await table.slash("donjon daño", user=GM, aguante=4, bonificacion_dj=2)
    assert "el DJ (7 dados)" in hurt.text
    assert "❌ El daño gana: 2 Heridas." in hurt.text
    assert [c for c in hurt.message.custom_ids if not c.startswith("rep:")] == []
    assert await table.pool("dados_dj") == 0
    player = await table.slash("donjon daño", aguante=4, bonificacion_dj=1)
    assert "Solo el DJ gasta sus dados guardados." in player.text


async def test_expense_tests_have_no_law_of_successes(table: Harness) -> None:
    # "Robin: 3, 6, 9, 10, 12, 14, 17, 20 DJ: 2, 7, 8, 11, 14, 15, 16 Robin consigue dos éxitos"
    table.script(3, 6, 9, 10, 12, 14, 17, 20, 2, 7, 8, 11, 14, 15, 16)
    reply = await table.slash(
        "donjon gastos provisiones", riqueza=6, sociabilidad=2, provisiones=4, sobreprecio=3
    )
    assert "(8 dados)" in reply.text
    assert "el DJ (7 dados)" in reply.text
    assert "✅ Provisiones compradas con 2 éxitos." in reply.text
    assert "anota Riqueza −6, Provisiones +2 en tu hoja" in reply.text
    assert [c for c in reply.message.custom_ids if not c.startswith("rep:")] == []


async def test_buying_failing_spends_nothing(table: Harness) -> None:
    table.script(1, 2, 20)
    reply = await table.slash("donjon gastos comprar", riqueza=1, sociabilidad=1, valor=1)
    assert "❌ No hay trato con este vendedor; la Riqueza no cambia." in reply.text


async def test_influence_banks_its_successes(table: Harness) -> None:
    table.script(20, 19, 1, 2)
    reply = await table.slash(
        "donjon gastos influencia", riqueza=1, sociabilidad=1, riqueza_pnj=1, discernimiento_pnj=1
    )
    assert "✅ 2 dados de bonificación guardados" in reply.text
    assert await table.pool("dados", PLAYER.id) == 2


async def test_pulling_an_item_uses_the_provisions_table(table: Harness) -> None:
    table.script(20, 1, 1, 1, 1, 1)
    reply = await table.slash("donjon gastos objeto", provisiones=0, cerebralidad=1, habilidad_objeto=2)
    assert "el DJ (5 dados)" in reply.text
    table.script(20, *([1] * 7))
    unusual = await table.slash("donjon gastos objeto", provisiones=0, cerebralidad=1, valor=1, inusual=True)
    assert "el DJ (7 dados)" in unusual.text


async def test_selling(table: Harness) -> None:
    table.script(20, 1)
    reply = await table.slash("donjon gastos vender", valor=1, sociabilidad=0, riqueza=1)
    assert "✅ Vendido con 1 éxito." in reply.text and "anota Riqueza +1 en tu hoja" in reply.text


async def test_an_opposed_test_between_players(table: Harness) -> None:
    table.script(15, 3)
    reply = await table.slash("donjon enfrentada", rival=OTHER, dados=1, rival_dados=1)
    assert f"✅ <@{PLAYER.id}> gana con 1 éxito." in reply.text
    rival = await fact(table, reply.message, "No", user=OTHER)
    assert rival.ephemeral
    self_rival = await table.slash("donjon enfrentada", rival=PLAYER, dados=1, rival_dados=1)
    assert "El rival tiene que ser otra persona" in self_rival.text


async def test_settings_are_gm_only_and_change_the_die(table: Harness) -> None:
    refused = await table.slash("donjon ajustes", nivel=3)
    assert refused.ephemeral
    shown = await table.slash("donjon ajustes")
    assert "Nivel de Donjon: **1** · dado: **d20**" in shown.text
    await table.slash("donjon ajustes", user=GM, dado=6)
    table.script(6, 1)
    reply = await table.slash("donjon prueba", dados=1, contra=1)
    assert "**6**✓" in reply.text


async def test_the_combat_panel_walks_the_countdown(table: Harness) -> None:
    panel = (await table.slash("donjon iniciativa")).message
    assert panel.custom_ids == [
        "donjon:ini:unirme:1:0",
        "donjon:ini:pnj:1:0",
        "donjon:ini:rafaga:1:0",
        "donjon:ini:terminar:1:0",
    ]
    table.script(10, 10, 2)
    opened = await table.click(panel, "donjon:ini:unirme:1:0")
    assert opened.callback.payload["type"] == 9
    joined = await table.submit(opened.modal_id, {"dados": ["3"]}, message=table.current(panel))
    assert "**Jugadora**: 10 10 2" in joined.text
    npc_refused = await table.click(table.current(panel), "donjon:ini:pnj:1:0")
    assert npc_refused.ephemeral
    npc_form = await table.click(table.current(panel), "donjon:ini:pnj:1:0", user=GM)
    table.script(10)
    added = await table.submit(
        npc_form.modal_id,
        {"nombre": "Trasgo", "dados": ["1"], "cantidad": ["2"]},
        user=GM,
        message=table.current(panel),
    )
    assert "**Trasgo** ×2 (PNJ): 10" in added.text
    assert "▶️ **10**: actúa Jugadora." in added.text
    assert "Después: Trasgo 1 (10), Trasgo 2 (10), Jugadora (10), Jugadora (2)" in added.text
    step = next(c for c in table.current(panel).custom_ids if "siguiente" in c)
    first, second = await asyncio.gather(
        table.click(table.current(panel), step), table.click(table.current(panel), step)
    )
    assert "▶️ **10**: actúa Trasgo 1." in str(table.current(panel).data)
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    await table.restart()
    not_mine = await table.click(table.current(panel), "donjon:ini:siguiente:1:1")
    assert not_mine.ephemeral and "Solo quien tiene el turno (o el DJ)" in not_mine.text
    moved = await table.click(table.current(panel), "donjon:ini:siguiente:1:1", user=GM)
    assert "actúa Trasgo 2" in moved.text
    table.script(5, 4, 3, 7)
    rerolled = await table.click(table.current(panel), "donjon:ini:rafaga:1:0", user=GM)
    assert "Combate · ráfaga 2" in rerolled.text
    assert "**Jugadora**: 5 4 3" in rerolled.text
    ended = await table.click(table.current(panel), "donjon:ini:terminar:1:0", user=GM)
    assert "El combate ha terminado." in ended.text
    assert table.current(panel).custom_ids == []


async def test_attributes(table: Harness) -> None:
    table.script(1, 5, 6, 1, 2, 2, 4, 4, 4, 2, 5, 5, 3, 4, 6, 1, 1, 6)
    reply = await table.slash("donjon atributos")
    assert "Virilidad: **5** · ~~1~~ **5** ~~6~~" in reply.text
    assert "Suma: 21." in reply.text
    table.script(*([1, 2, 3] * 6))
    low = await table.slash("donjon atributos", metodo="mejorado", locale="en-US")
    assert "At 15 or less you may reroll them all" in low.text
    ok = await table.slash(
        "donjon puntos", virilidad=2, cerebralidad=3, discernimiento=6, celeridad=5, aguante=3, sociabilidad=2
    )
    assert "Reparto válido" in ok.text
    bad = await table.slash(
        "donjon puntos", virilidad=6, cerebralidad=6, discernimiento=6, celeridad=5, aguante=3, sociabilidad=2
    )
    assert "El reparto suma 28; debe sumar exactamente 21." in bad.text


async def told(h: Harness, *texts: str, user: User = PLAYER, locale: str = "es-ES") -> Message:
    """A test the player wins with one success per fact, every one told: its narration."""
    wins = [20] * len(texts) + [1] * len(texts)
    panel = (await contest(h, wins, user=user, dados=len(texts), contra=len(texts), locale=locale)).message
    last = None
    for text in texts:
        last = await fact(h, panel, text, user=user, locale=locale)
    assert last is not None
    return last.messages[-1]


async def stored(h: Harness, record_id: int = 1) -> Record:
    assert h.bot is not None
    record = await h.bot.store.record(record_id)
    assert record is not None
    return record


async def law_of(h: Harness, record_id: int = 1) -> Law:
    law = posted.from_data((await stored(h, record_id)).data).law
    assert law is not None
    return law


async def version_of(h: Harness, record_id: int = 1) -> int:
    return (await stored(h, record_id)).version


async def test_a_double_click_or_a_replay_on_a_fact_narrates_it_once(table: Harness) -> None:
    narration = await told(table, "Azar cae", "Ratas saltan de la basura")
    first, second = await asyncio.gather(
        table.click(narration, "donjon:narrado:1:2", user=GM),
        table.click(narration, "donjon:narrado:1:2", user=GM),
    )
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    refused = first if first.ephemeral else second
    assert "El hecho 2 ya está narrado." in refused.text
    assert (await law_of(table)).pending == (0,)
    version = await version_of(table)
    press = {"custom_id": "donjon:narrado:1:1", "component_type": 2}
    where = {"user": GM, "locale": "es-ES", "channel_id": CHANNEL_ID, "interaction_id": 777}
    await table.dispatch(3, press, message=table.current(narration), **where)
    await table.dispatch(3, press, message=table.current(narration), **where)
    assert (await law_of(table)).narrated
    assert await version_of(table) == version + 1
    await table.assert_ledger_matches()


async def test_the_narration_survives_a_restart(table: Harness) -> None:
    narration = await told(table, "La puerta cede", "Hay una llave")
    await table.restart()
    after = await table.click(table.current(narration), "donjon:narrado:1:1", user=GM)
    assert "~~1. La puerta cede~~ ✓ narrado" in after.text
    assert table.current(narration).custom_ids == ["donjon:narrado:1:2"]


async def test_the_narration_in_english(table: Harness) -> None:
    narration = await told(table, "The door gives way", locale="en-US")
    assert "### Facts to narrate" in shown(narration)
    assert [b["label"] for _, b in walk(narration.data["components"], ()) if b["type"] == 2] == ["Narrated"]
    done, refused = sorted(
        await asyncio.gather(
            *(table.click(narration, "donjon:narrado:1:1", user=GM, locale="en-GB") for _ in range(2))
        ),
        key=lambda reply: reply.ephemeral,
    )
    assert "~~1. The door gives way~~ ✓ narrated" in done.text
    assert "Narrated ✓" in done.text
    assert "Fact 1 has already been narrated." in refused.text


async def test_a_narration_of_many_long_facts_keeps_within_discords_limits(table: Harness) -> None:
    """Twelve facts of 200 characters that markdown doubles: nine at a time, within 40
    components and 4,000 characters (the harness refuses more), the rest said and shown as
    the first are narrated."""
    narration = await told(table, *(f"{n:02d}" + "*" * 198 for n in range(1, 13)))
    assert len(narration.custom_ids) == 9
    assert "Y 3 hechos más, que aparecerán al narrar estos." in shown(narration)
    for n in range(1, 5):
        await table.click(table.current(narration), f"donjon:narrado:1:{n}", user=GM)
    now = table.current(narration)
    assert now.custom_ids == [f"donjon:narrado:1:{n}" for n in range(5, 13)]
    assert "3 hechos anteriores ya narrados." in shown(now)
    assert "~~4. 04" in shown(now)


async def test_facts_in_the_narration_ping_nobody_but_the_narrator(table: Harness) -> None:
    narration = await told(table, "@everyone **mira** <@123>")
    assert narration.data["allowed_mentions"] == {"parse": []}
    assert "1. @everyone \\*\\*mira\\*\\* <@123>" in shown(narration)


async def test_a_narration_posted_as_an_embed_before_keeps_its_one_button(table: Harness) -> None:
    """A narration of before each fact had its own: its *Narrado* narrates what is left."""
    await told(table, "La puerta cede", "Hay una llave")
    await table.click(table.current(await told_last(table)), "donjon:narrado:1:1", user=GM)
    embed = {"title": "Hechos para narrar"}
    old = Message(900, CHANNEL_ID, {"embeds": [embed], "components": [OLD_ROW]}, False)
    table.discord.messages[old.id] = old
    done, again = sorted(
        await asyncio.gather(*(table.click(old, "donjon:narrado:1", user=GM) for _ in range(2))),
        key=lambda reply: reply.ephemeral,
    )
    assert "Narrado ✓" in str(done.data["embeds"])
    assert (await law_of(table)).narrated
    assert "Estos hechos ya están narrados." in again.text


OLD_BUTTON = {"type": 2, "style": 3, "label": "Narrado", "custom_id": "donjon:narrado:1"}
OLD_ROW = {"type": 1, "components": [OLD_BUTTON]}


async def told_last(h: Harness) -> Message:
    """The newest message the bot posted with a fact's *Narrado*."""
    newest = reversed(list(h.discord.messages.values()))
    return next(m for m in newest if "donjon:narrado:1:1" in m.custom_ids)


def public_with(h: Harness, needle: str) -> list[Message]:
    """The messages everyone in their channel sees that show ``needle``."""
    return [m for m in h.discord.messages.values() if needle in str(m.data) and not m.ephemeral]


async def pending_on_the_board(h: Harness) -> str:
    """What the table's board says of the facts waiting (its Donjon section, drawn now)."""
    assert h.bot is not None
    embed = discord.Embed()
    await board.part(h.bot.store, "es", await h.bot.store.table_or_default(CHANNEL_ID, None), embed)
    return str(embed.to_dict())


async def test_a_secret_tests_facts_stay_with_the_gm_until_its_reveal(table: Harness) -> None:
    """No GM channel: the GM's secret test, its facts and their narration are the GM's alone;
    /donjon hechos and the board name them for the table only once the test is revealed,
    which brings the narration to the table."""
    table.script(*GM_WINS)
    secret = (
        await table.slash("donjon prueba", user=GM, jugador=PLAYER, dados=5, contra=4, secreta=True)
    ).message
    assert secret.ephemeral
    await table.click(table.current(secret), "donjon:ley:dado:1", user=GM)
    last = await fact(table, secret, "Azar cae en la basura", user=GM)
    narration = last.messages[-1]
    assert narration.ephemeral and narration.data["flags"] & COMPONENTS_V2
    assert narration.data["allowed_mentions"] == {"parse": []}
    assert public_with(table, "Azar cae") == []
    assert "Azar cae" not in (await table.slash("donjon hechos")).text
    assert "Azar cae" not in await pending_on_the_board(table)
    revealed = await table.click(table.current(secret), "secreta:revelar:1", user=GM)
    assert "Azar cae" in str(revealed.calls)
    assert "Azar cae" in (await table.slash("donjon hechos")).text
    assert "Azar cae" in await pending_on_the_board(table)
    [at_table] = [m for m in public_with(table, "Azar cae") if "donjon:narrado:1:1" in m.custom_ids]
    done = await table.click(at_table, "donjon:narrado:1:1", user=PLAYER)
    assert "Narrado ✓" in done.text


async def test_a_secret_tests_narration_goes_to_the_gm_channel(table: Harness) -> None:
    channel = next(c for c in table.channels if int(c["id"]) == GM_CHANNEL_ID)
    await table.slash("mesa canal-dj", user=GM, canal=channel)
    table.script(*GM_WINS)
    await table.slash("donjon prueba", user=GM, jugador=PLAYER, dados=5, contra=4, secreta=True)
    secret = next(m for m in table.discord.messages.values() if m.channel_id == GM_CHANNEL_ID)
    await table.click(secret, "donjon:ley:dado:1", user=GM, channel_id=GM_CHANNEL_ID)
    opened = await table.click(table.current(secret), "donjon:ley:hecho:1", user=GM, channel_id=GM_CHANNEL_ID)
    last = await table.submit(
        opened.modal_id, {"hecho": "Ratas saltan"}, user=GM, message=table.current(secret)
    )
    [narration] = [m for m in last.messages if "donjon:narrado:1:1" in m.custom_ids]
    assert narration.channel_id == GM_CHANNEL_ID and not narration.ephemeral
    assert [m.channel_id for m in public_with(table, "Ratas saltan")] == [GM_CHANNEL_ID, GM_CHANNEL_ID]


async def test_a_banked_die_decodes_the_roll_for_its_winner_its_decision_and_its_card(
    table: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Ley's button decodes the roll thrice (who may press, what the press decides on
    the roll as stored, the card): its embed, buttons and narration draw from the card's
    one decoding, and who may press is checked once (issue 29; five decodings before)."""
    panel = (await contest(table, PLAYER_WINS, dados=5, contra=5)).message
    decodes = Decodes(monkeypatch)
    await table.click(table.current(panel), "donjon:ley:dado:1")
    assert decodes.calls == ["donjon"] * 3
    assert await table.pool("dados", PLAYER.id) == 1
