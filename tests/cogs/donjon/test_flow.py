"""/donjon at the table (issues 15 and 17): the GM's dice explained and banked on any test,
NPC-pool damage, the rival's bank, motivo and Repetir, the ledger, labels."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import rolls
from bot.i18n import t
from bot.models import TableSettings
from bot.store import Store
from cogs.donjon import components, flow
from cogs.donjon.settings import donjon_settings
from cogs.donjon.state import KIND
from rules.donjon import difficulty, posted
from rules.donjon.posted import DonjonRoll
from tests.cogs.test_mesa import channel
from tests.support.harness import Harness
from tests.support.payloads import CHANNEL_ID, GM, GM_CHANNEL_ID, OTHER, OTHER_CHANNEL_ID, PLAYER


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("donjon")
    return harness


async def test_the_gms_dice_are_explained_level_and_difficulty(table: Harness) -> None:
    await table.slash("donjon ajustes", user=GM, nivel=2)
    table.script(20, 1, 1, 1, 1, 1)
    reply = await table.slash("donjon prueba", dados=1)
    assert "el DJ: Media 3 + Nivel 2 = 5 dados" in reply.text
    table.script(20, 1, 1, 1, 1, 1)
    english = await table.slash("donjon prueba", dados=1, locale="en-US")
    assert "the GM: Medium 3 + Level 2 = 5 dice" in english.text


async def test_a_new_table_starts_at_donjon_level_one(table: Harness) -> None:
    """The text's examples start at level 1: "una dificultad Media en un Donjon de Nivel 1
    brinda 4 dados al DJ"; the GM still sets any level, 0 included."""
    settings = await table.slash("donjon ajustes")
    assert "Nivel de Donjon: **1**" in settings.text
    table.script(20, 1, 1, 1, 1)
    reply = await table.slash("donjon prueba", dados=1)
    assert "el DJ: Media 3 + Nivel 1 = 4 dados" in reply.text
    await table.slash("donjon ajustes", user=GM, nivel=0)
    assert "Nivel de Donjon: **0**" in (await table.slash("donjon ajustes")).text


async def test_an_npcs_plain_dice_need_no_explaining_and_zero_terms_are_left_out(table: Harness) -> None:
    table.script(20, 1, 1)
    plain = await table.slash("donjon prueba", dados=1, contra=2)
    assert "↳" not in plain.text
    await table.slash("donjon ajustes", user=GM, nivel=0)
    table.script(20, 1, 1, 1)
    level_zero = await table.slash("donjon prueba", dados=1)
    assert "el DJ: Media 3 = 3 dados" in level_zero.text and "Nivel 0" not in level_zero.text


async def test_the_gm_adds_banked_dice_to_the_opposing_pool_of_a_players_test(table: Harness) -> None:
    await table.slash("donjon banco ajustar", user=GM, cantidad=2)
    refused = await table.slash("donjon prueba", dados=1, contra=1, banco_dj=1)
    assert refused.ephemeral and "Solo el DJ" in refused.text
    table.script(20, 1, 1, 1)
    reply = await table.slash("donjon prueba", user=GM, jugador=PLAYER, dados=1, contra=1, banco_dj=2)
    assert f"<@{PLAYER.id}> (1 dado)" in reply.text
    assert "el DJ (3 dados)" in reply.text
    assert "el DJ: PNJ 1 (+ 2 guardados) = 3 dados" in reply.text
    assert f"✅ <@{PLAYER.id}> gana" in reply.text
    assert await table.pool("dados_dj") == 0
    short = await table.slash("donjon prueba", user=GM, jugador=PLAYER, dados=1, contra=1, banco_dj=1)
    assert short.ephemeral


async def test_only_the_gm_rolls_for_another_player(table: Harness) -> None:
    reply = await table.slash("donjon prueba", dados=1, jugador=OTHER)
    assert reply.ephemeral and "Solo el DJ tira por otro jugador." in reply.text


async def test_damage_from_an_npcs_attribute_and_skill_with_banked_dice(table: Harness) -> None:
    await table.slash("donjon ajustes", user=GM, nivel=5)
    await table.slash("donjon banco ajustar", user=GM, cantidad=1)
    table.script(20, 19, 1, 1, 1, 1, 1, 1)
    hurt = await table.slash(
        "donjon daño", user=GM, jugador=PLAYER, aguante=2, atributo_pnj=3, habilidad_pnj=2, bonificacion_dj=1
    )
    assert "el DJ (6 dados)" in hurt.text
    assert "el DJ: Atributo 3 + Habilidad 2 (+ 1 guardado) = 6 dados" in hurt.text
    assert f"<@{PLAYER.id}> (2 dados)" in hurt.text
    assert await table.pool("dados_dj") == 0
    both = await table.slash("donjon daño", aguante=2, atributo_pnj=3, severidad="media")
    assert both.ephemeral and "no las dos" in both.text


async def test_the_rivals_banked_dice_join_the_rivals_pool(table: Harness) -> None:
    await table.slash("donjon banco ajustar", user=GM, jugador=OTHER, cantidad=2)
    refused = await table.slash("donjon enfrentada", rival=OTHER, dados=1, rival_dados=1, rival_banco=2)
    assert refused.ephemeral and "Solo el DJ gasta los dados guardados del rival" in refused.text
    assert await table.pool("dados", OTHER.id) == 2
    table.script(1, 20, 19, 18)
    reply = await table.slash(
        "donjon enfrentada", user=GM, jugador=PLAYER, rival=OTHER, dados=1, rival_dados=1, rival_banco=2
    )
    assert f"<@{OTHER.id}> (3 dados)" in reply.text
    assert f"<@{OTHER.id}>: 1 (+ 2 guardados) = 3 dados" in reply.text
    assert f"✅ <@{OTHER.id}> gana con 3 éxitos." in reply.text
    assert await table.pool("dados", OTHER.id) == 0


async def test_a_motivo_heads_every_test_and_repetir_rolls_again_without_spending_banked_dice(
    table: Harness,
) -> None:
    await table.slash("donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=3)
    table.script(20, 20, 1)
    first = await table.slash("donjon prueba", dados=1, contra=1, banco=1, motivo="Forzar la **puerta**")
    title = first.embed["title"]
    assert title == "Forzar la \\*\\*puerta\\*\\* — Prueba"
    button = first.message.custom_ids[-1]
    table.script(20, 1)
    again = await table.click(first.message, button, user=OTHER)
    assert again.embed["title"] == title
    assert f"<@{OTHER.id}> (1 dado)" in again.text
    assert await table.pool("dados", PLAYER.id) == 2
    for command, options in (
        ("donjon daño", {"aguante": 1}),
        ("donjon gastos vender", {"valor": 1, "sociabilidad": 0, "riqueza": 1}),
        ("donjon enfrentada", {"rival": OTHER, "dados": 1, "rival_dados": 1}),
    ):
        table.script(20, 1, 1, 1, 1)
        reply = await table.slash(command, motivo="Cruzar el puente", **options)
        assert reply.embed["title"].startswith("Cruzar el puente — ")
        table.script(20, 1, 1, 1, 1)
        repeated = await table.click(reply.message, reply.message.custom_ids[-1])
        assert repeated.embed["title"] == reply.embed["title"], command


async def test_nothing_spent_is_not_shown_as_minus_zero(table: Harness) -> None:
    table.script(20, 1, 1, 1, 1, 1)
    reply = await table.slash("donjon gastos objeto", provisiones=0, cerebralidad=1, habilidad_objeto=2)
    assert "✅ Sacas el objeto de la mochila." in reply.text and "−0" not in reply.text
    assert "el DJ: automáticos 3 + Habilidad del objeto 2 = 5 dados" in reply.text


async def test_each_ledger_row_of_a_roll_says_what_it_paid_for_and_links_the_roll(table: Harness) -> None:
    await table.slash("donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=2)
    await table.slash("donjon banco ajustar", user=GM, cantidad=2)
    table.script(20, 1, 1, 1, 1)
    reply = await table.slash(
        "donjon prueba", user=GM, jugador=PLAYER, dados=1, contra=1, banco=1, banco_dj=2
    )
    history = await table.slash("mesa historial", user=GM)
    lines = [line for line in history.text.splitlines() if "añadidos" in line]
    assert any("dados guardados añadidos a su propia prueba" in line for line in lines)
    assert any("dados guardados del DJ añadidos a la reserva contraria" in line for line in lines)
    assert all(f"/{CHANNEL_ID}/{reply.message.id})" in line for line in lines), lines


async def test_a_bank_adjustment_is_announced_at_the_table_saying_whose(table: Harness) -> None:
    await table.slash("mesa canal-dj", user=GM, canal=channel(GM_CHANNEL_ID))
    table.script()
    before = set(table.discord.messages)
    reply = await table.slash(
        "donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=2, channel_id=GM_CHANNEL_ID
    )
    assert f"El DJ da 2 dados guardados a <@{PLAYER.id}>: ahora tiene 2." in reply.text
    posted = [m for k, m in table.discord.messages.items() if k not in before and m.channel_id == CHANNEL_ID]
    assert len(posted) == 1 and f"El DJ da 2 dados guardados a <@{PLAYER.id}>" in str(posted[0].data)
    taken = await table.slash("donjon banco ajustar", user=GM, jugador=PLAYER, cantidad=-1)
    assert not taken.ephemeral
    assert f"El DJ quita 1 dado guardado a <@{PLAYER.id}>: le queda 1." in taken.text


def test_every_donjon_form_label_fits_discords_45_characters() -> None:
    for key in (
        "donjon.fact.label",
        "donjon.join.pool",
        "donjon.npc.name",
        "donjon.npc.count",
    ):
        for lang in ("es", "en"):
            assert len(t(lang, key)) <= 45, (key, lang)


async def test_both_stores_open_a_table_at_donjon_level_one(db_target: Path | str) -> None:
    """The level a new table gets is the store's to write, on SQLite and on PostgreSQL."""
    store = await Store.open(db_target)
    try:
        table = await store.set_settings(CHANNEL_ID, 9, TableSettings())
        assert donjon_settings(table).donjon_level == difficulty.START_LEVEL == 1
        assert donjon_settings(await store.table_or_default(OTHER_CHANNEL_ID, 9)).donjon_level == 1
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("donjon prueba", {"dados": 3, "contra": 2}),
        ("donjon prueba", {"dados": 3, "dificultad": "media"}),
        ("donjon enfrentada", {"rival": OTHER, "dados": 1, "rival_dados": 1}),
        ("donjon daño", {"aguante": 4}),
        ("donjon gastos comprar", {"riqueza": 1, "sociabilidad": 1, "valor": 1}),
    ],
)
async def test_a_new_tests_card_is_drawn_from_what_its_record_reads_back(
    table: Harness, monkeypatch: pytest.MonkeyPatch, command: str, options: dict[str, object]
) -> None:
    """The first card is drawn from the test just thrown (``thrown_card``), every later one
    from its record: the two values are equal, or a redraw could differ from the first."""
    thrown: list[DonjonRoll] = []

    def keeping(roll: DonjonRoll) -> rolls.Card:
        thrown.append(roll)
        return components.thrown_card(roll)

    monkeypatch.setattr(flow, "thrown_card", keeping)
    await table.slash(command, **options)
    assert table.bot is not None
    [record] = await table.bot.store.records(CHANNEL_ID, KIND, 1)
    assert thrown == [posted.from_data(record.data)]
