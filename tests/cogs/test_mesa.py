from pathlib import Path

import pytest

from tests.support.harness import Harness
from tests.support.payloads import (
    ADMIN,
    CHANNEL_ID,
    GM,
    GM_CHANNEL_ID,
    GUILD_ID,
    OTHER,
    OTHER_CHANNEL_ID,
    PLAYER,
    PRIVATE_OVERWRITE,
    User,
    text_channel,
)

HARNESS_CHANNELS = Harness(Path("unused.db")).channels

BOT_USER = User(940000000000000001, "OtroBot", bot=True)


async def table(h: Harness):
    assert h.bot is not None
    return await h.bot.store.table_or_default(CHANNEL_ID, None)


async def test_status_of_a_new_table_in_spanish_and_english(harness: Harness) -> None:
    es = await harness.slash("mesa estado")
    assert not es.ephemeral
    assert "Sin elegir: usa /mesa sistema." in es.text and "Nadie todavía" in es.text
    en = await harness.slash("mesa estado", locale="en-GB")
    assert "Not chosen yet: use /table system." in en.text and "Nobody yet" in en.text


async def test_status_shows_system_gm_and_pools(harness: Harness) -> None:
    from bot.models import Change, Operation

    await harness.slash("mesa dj", user=GM)
    await harness.slash("mesa sistema", user=GM, sistema="dune")
    assert harness.bot is not None
    await harness.bot.store.apply(
        Operation(
            CHANNEL_ID,
            1,
            GM.id,
            "test",
            (Change("impulso", 4), Change("determinacion", 1, owner_id=PLAYER.id)),
        )
    )
    reply = await harness.slash("mesa estado")
    assert "Dune: Aventuras en el Imperio" in reply.text
    assert f"<@{GM.id}>" in reply.text
    assert "Impulso: **4**" in reply.text
    assert f"<@{PLAYER.id}>: Determinación **1**" in reply.text
    english = await harness.slash("mesa estado", locale="en-US")
    assert "Momentum: **4**" in english.text and f"<@{PLAYER.id}>: Determination **1**" in english.text


async def test_someone_who_manages_channels_appoints_the_gm(harness: Harness) -> None:
    reply = await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    assert f"<@{GM.id}> dirige ahora esta mesa." in reply.text
    assert (await table(harness)).gm_id == GM.id


async def test_the_current_gm_hands_over(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=PLAYER)
    reply = await harness.slash("mesa dj", user=PLAYER, miembro=OTHER)
    assert not reply.ephemeral
    assert (await table(harness)).gm_id == OTHER.id


async def test_a_player_cannot_appoint_the_gm(harness: Harness) -> None:
    reply = await harness.slash("mesa dj", user=PLAYER)
    assert reply.ephemeral and "Solo el DJ actual" in reply.text
    assert (await table(harness)).gm_id is None
    english = await harness.slash("mesa dj", user=PLAYER, locale="en-US")
    assert "Only the current GM" in english.text


async def test_a_bot_cannot_be_gm(harness: Harness) -> None:
    reply = await harness.slash("mesa dj", user=ADMIN, miembro=BOT_USER)
    assert reply.ephemeral and "Un bot no puede dirigir" in reply.text
    assert (await table(harness)).gm_id is None


async def test_only_the_gm_sets_the_system(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    refused = await harness.slash("mesa sistema", user=PLAYER, sistema="donjon")
    assert refused.ephemeral and "Solo la persona que dirige esta mesa" in refused.text
    assert (await table(harness)).system is None
    done = await harness.slash("mesa sistema", user=GM, sistema="donjon")
    assert "Esta mesa juega ahora a Donjon." in done.text
    assert (await table(harness)).system == "donjon"


async def test_the_system_restricts_no_command(harness: Harness) -> None:
    """README: a table's system names it and settles scene ends; every system still rolls."""
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    await harness.slash("mesa sistema", user=GM, sistema="dnd5e")
    harness.script(15, 4)
    donjon = await harness.slash("donjon prueba", dados=1, contra=1)
    harness.script(5, 5)
    dune = await harness.slash("dune tirada", habilidad=6, motivacion=6)
    assert not donjon.ephemeral and not dune.ephemeral
    assert "✅ Superado" in dune.text


async def test_once_a_table_has_a_gm_managers_are_players_too(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    refused = await harness.slash("mesa sistema", user=ADMIN, sistema="donjon")
    assert refused.ephemeral and (await table(harness)).system is None


@pytest.mark.parametrize("value", ["risk", "", "DUNE", "donjon; DROP TABLE tables"])
async def test_a_system_outside_the_choices_is_refused(harness: Harness, value: str) -> None:
    reply = await harness.slash("mesa sistema", user=ADMIN, sistema=value)
    assert reply.ephemeral and "no es una opción válida" in reply.text
    assert (await table(harness)).system is None


async def test_table_commands_refuse_direct_messages(harness: Harness) -> None:
    reply = await harness.slash("mesa estado", guild=False)
    assert reply.ephemeral and "funciona en un servidor con Tirada" in reply.text


# -- the GM channel -------------------------------------------------------------------------


@pytest.fixture
async def linked(harness: Harness) -> Harness:
    """A Dune table run by GM, with the private GM channel linked."""
    await harness.table_for("dune")
    reply = await harness.slash("mesa canal-dj", user=GM, canal=channel(GM_CHANNEL_ID))
    assert f"<#{GM_CHANNEL_ID}> es ahora el canal del DJ de <#{CHANNEL_ID}>" in reply.text
    assert reply.ephemeral
    return harness


def channel(channel_id: int) -> dict:
    return next(c for c in HARNESS_CHANNELS if int(c["id"]) == channel_id)


async def test_linking_a_channel_everyone_can_see_is_refused(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    reply = await harness.slash("mesa canal-dj", user=GM, canal=channel(OTHER_CHANNEL_ID))
    assert reply.ephemeral and "lo puede ver @everyone" in reply.text
    assert (await table(harness)).gm_channel_id is None
    english = await harness.slash("mesa canal-dj", user=GM, canal=channel(OTHER_CHANNEL_ID), locale="en-US")
    assert "@everyone can see" in english.text


async def test_linking_the_table_itself_or_by_a_player_is_refused(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    by_player = await harness.slash("mesa canal-dj", user=PLAYER, canal=channel(GM_CHANNEL_ID))
    assert by_player.ephemeral and "Solo la persona que dirige" in by_player.text
    itself = await harness.slash("mesa canal-dj", user=GM, canal=channel(CHANNEL_ID))
    assert "tiene que ser otro canal" in itself.text
    assert (await table(harness)).gm_channel_id is None


async def test_gm_commands_in_the_gm_channel_act_on_the_linked_table(linked: Harness) -> None:
    reply = await linked.slash("dune amenaza gastar", user=GM, channel_id=GM_CHANNEL_ID, cantidad=1)
    assert "No alcanza la reserva de Amenaza" in reply.text
    await linked.slash("dune impulso añadir", user=GM, channel_id=GM_CHANNEL_ID, cantidad=3)
    assert await linked.pool("impulso") == 3
    assert await linked.pool("impulso", channel_id=GM_CHANNEL_ID) == 0
    status = await linked.slash("mesa estado", user=GM, channel_id=GM_CHANNEL_ID)
    assert "Impulso: **3**" in status.text and f"<#{GM_CHANNEL_ID}>" in status.text


async def test_a_gm_channel_serving_two_tables_asks_which(linked: Harness) -> None:
    await linked.table_for("dune", channel_id=OTHER_CHANNEL_ID)
    await linked.slash("mesa canal-dj", user=GM, canal=channel(GM_CHANNEL_ID), channel_id=OTHER_CHANNEL_ID)
    unsure = await linked.slash("dune impulso añadir", user=GM, channel_id=GM_CHANNEL_ID, cantidad=2)
    assert unsure.ephemeral and "lleva 2 mesas" in unsure.text
    assert await linked.pool("impulso") == 0
    named = await linked.slash(
        "dune impulso añadir", user=GM, channel_id=GM_CHANNEL_ID, cantidad=2, mesa=str(OTHER_CHANNEL_ID)
    )
    assert not named.ephemeral  # the GM channel is private already
    assert await linked.pool("impulso", channel_id=OTHER_CHANNEL_ID) == 2
    assert await linked.pool("impulso") == 0
    unknown = await linked.slash(
        "dune impulso añadir", user=GM, channel_id=GM_CHANNEL_ID, cantidad=2, mesa="123"
    )
    roll = await linked.slash("dune tirada", user=GM, channel_id=GM_CHANNEL_ID, habilidad=6, motivacion=6)
    assert roll.ephemeral and "no tiene opción «mesa»: hazla desde el canal de la mesa" in roll.text
    assert "no lleva esa mesa" in unknown.text


async def test_the_table_option_autocompletes_the_tables_served(linked: Harness) -> None:
    assert linked.bot is not None
    from tests.support.payloads import interaction_payload

    payload = interaction_payload(
        4,
        {
            "id": "1",
            "name": "mesa",
            "type": 1,
            "options": [
                {
                    "type": 1,
                    "name": "estado",
                    "options": [{"type": 3, "name": "mesa", "value": "", "focused": True}],
                }
            ],
        },
        user=GM,
        locale="es-ES",
        channel_id=GM_CHANNEL_ID,
        channels=linked.channels,
    )
    reply = await linked.feed(payload)
    assert reply.callback.payload["data"]["choices"] == [{"name": "#mesa", "value": str(CHANNEL_ID)}]


async def test_unlinking(linked: Harness) -> None:
    reply = await linked.slash("mesa canal-dj", user=GM)
    assert "ya no tiene canal del DJ" in reply.text
    assert (await table(linked)).gm_channel_id is None


async def test_an_abandoned_table_is_taken_over_by_a_channel_manager(linked: Harness) -> None:
    refused = await linked.slash("mesa dj", user=PLAYER)
    assert refused.ephemeral
    await linked.slash("mesa dj", user=ADMIN)
    assert (await table(linked)).gm_id == ADMIN.id
    took = await linked.slash("dune impulso añadir", user=ADMIN, cantidad=1)
    assert "Se añade 1 de Impulso" in took.text and await linked.pool("impulso") == 1
    old_gm = await linked.slash("dune impulso añadir", user=GM, cantidad=1)
    assert "Solo la persona que dirige" in old_gm.text and await linked.pool("impulso") == 1


# -- history, undo and reset --------------------------------------------------------------------


async def test_history_is_newest_first_and_pages_with_buttons(linked: Harness) -> None:
    for amount in range(1, 13):
        await linked.slash("dune amenaza añadir", user=PLAYER, cantidad=amount)
    first = await linked.slash("mesa historial")
    assert first.ephemeral
    lines = first.embed["description"].splitlines()
    assert len(lines) == 10
    assert "Amenaza **+12** → 78 · Amenaza añadida" in lines[0] and f"<@{PLAYER.id}>" in lines[0]
    assert first.message.custom_ids == [f"mesa:historial:{CHANNEL_ID}:3:-:0"]
    older = await linked.click(first.message, first.message.custom_ids[0])
    page = linked.current(first.message)
    text = page.data["embeds"][0]["description"]
    assert "**+2** → 3" in text and "**+1** → 1" in text and "+3" not in text
    assert page.custom_ids == [f"mesa:historial:{CHANNEL_ID}:0:-:0"]
    assert older.callback.payload["type"] == 7


async def test_history_filters_by_pool_and_player(linked: Harness) -> None:
    await linked.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    await linked.slash("dune determinacion dar", user=GM, jugador=OTHER)
    await linked.slash("dune amenaza añadir", user=PLAYER, cantidad=2)
    mine = await linked.slash("mesa historial", jugador=PLAYER)
    assert mine.embed["description"].count("\n") == 0 and "Determinación de" in mine.embed["description"]
    threat = await linked.slash("mesa historial", reserva="amenaza", locale="en-US")
    assert "Threat **+2** → 2 · Threat added" in threat.embed["description"]
    unknown = await linked.slash("mesa historial", reserva="oro")
    assert unknown.ephemeral and "ningún movimiento en «oro»" in unknown.text


async def test_undo_after_undo_reverts_in_reverse_order(linked: Harness) -> None:
    await linked.slash("dune amenaza añadir", user=PLAYER, cantidad=2)
    await linked.slash("dune impulso añadir", user=GM, cantidad=3)
    first = await linked.slash("mesa deshacer", user=GM)
    assert first.ephemeral and "Impulso: -3 (queda 0)" in first.text
    second = await linked.slash("mesa deshacer", user=GM)
    assert "Amenaza: -2 (queda 0)" in second.text
    third = await linked.slash("mesa deshacer", user=GM)
    assert third.ephemeral and "No queda ningún cambio que deshacer" in third.text
    await linked.assert_ledger_matches()
    history = await linked.slash("mesa historial")
    assert history.embed["description"].count("deshace `#") == 2


async def test_undo_is_refused_when_what_it_restores_was_spent(linked: Harness) -> None:
    assert linked.bot is not None
    from bot.models import Change, Operation

    await linked.bot.store.apply(
        Operation(CHANNEL_ID, 7, GM.id, "test", (Change("impulso", 2), Change("amenaza", 1)))
    )
    await linked.slash("dune impulso gastar", user=PLAYER, cantidad=2)
    refused = await linked.slash("mesa deshacer", user=GM, reserva="amenaza")
    assert refused.ephemeral
    assert "No se puede deshacer: Impulso tiene 0 y deshacerlo le quitaría 2; ya se gastó." in refused.text
    assert await linked.pool("amenaza") == 1 and await linked.pool("impulso") == 0
    await linked.assert_ledger_matches()


async def test_only_the_gm_undoes_and_a_replay_undoes_once(linked: Harness) -> None:
    await linked.slash("dune amenaza añadir", user=PLAYER, cantidad=2)
    await linked.slash("dune amenaza añadir", user=PLAYER, cantidad=3)
    refused = await linked.slash("mesa deshacer", user=PLAYER)
    assert refused.ephemeral and await linked.pool("amenaza") == 5
    from tests.support.payloads import interaction_payload

    assert linked.bot is not None
    payload = interaction_payload(
        2,
        linked._command_data(["mesa", "deshacer"], {}),
        user=GM,
        locale="es-ES",
        channel_id=CHANNEL_ID,
        channels=linked.channels,
    )
    await linked.feed(payload)
    await linked.feed(payload)
    assert await linked.pool("amenaza") == 2


async def test_reset_asks_first_and_closes_an_open_law_panel(harness: Harness) -> None:
    await harness.table_for("donjon")
    harness.script(3, 11, 12, 13, 15, 5, 8, 10, 13, 15)
    panel = (await harness.slash("donjon prueba", dados=5, contra=5)).message
    await harness.click(panel, "donjon:ley:dado:1")
    assert await harness.pool("dados", PLAYER.id) == 1
    asked = await harness.slash("mesa reiniciar", user=GM)
    assert asked.ephemeral and "¿Reiniciar" in asked.text
    assert await harness.pool("dados", PLAYER.id) == 1
    yes = f"mesa:reiniciar:si:{CHANNEL_ID}"
    assert yes in asked.message.custom_ids
    by_player = await harness.click(asked.message, yes, user=PLAYER)
    assert by_player.ephemeral and await harness.pool("dados", PLAYER.id) == 1
    done = await harness.click(asked.message, yes, user=GM)
    assert "1 reserva a cero" in harness.current(asked.message).data["embeds"][0]["description"]
    notice = [m for m in done.messages if m.channel_id == CHANNEL_ID and not m.ephemeral]
    assert notice and "ha reiniciado la mesa" in notice[0].data["embeds"][0]["description"]
    assert await harness.pool("dados", PLAYER.id) == 0
    stale = await harness.click(harness.current(panel), "donjon:ley:dado:1")
    assert stale.ephemeral and "Esa tirada ya no existe" in stale.text
    await harness.assert_ledger_matches()
    history = await harness.slash("mesa historial")
    assert "reinicio de la mesa" in history.text


async def test_a_second_reset_says_nothing_publicly(linked: Harness) -> None:
    """Two "Sí, reiniciar" (two questions open, both confirmed): the second changes
    nothing, so it posts no second notice to the table."""
    await linked.slash("dune amenaza añadir", user=PLAYER, cantidad=2)
    questions = [(await linked.slash("mesa reiniciar", user=GM)).message for _ in range(2)]
    yes = f"mesa:reiniciar:si:{CHANNEL_ID}"
    replies = [await linked.click(question, yes, user=GM) for question in questions]
    public = [[m for m in r.messages if m.channel_id == CHANNEL_ID and not m.ephemeral] for r in replies]
    assert len(public[0]) == 1 and public[1] == []
    assert "0 reservas a cero" in linked.current(questions[1]).data["embeds"][0]["description"]
    assert await linked.pool("amenaza") == 0


async def test_reset_can_be_cancelled(linked: Harness) -> None:
    await linked.slash("dune amenaza añadir", user=PLAYER, cantidad=2)
    asked = await linked.slash("mesa reiniciar", user=GM)
    await linked.click(asked.message, f"mesa:reiniciar:no:{CHANNEL_ID}", user=GM)
    assert "No se ha reiniciado nada" in linked.current(asked.message).data["embeds"][0]["title"]
    assert await linked.pool("amenaza") == 2


async def test_linking_a_gm_channel_the_bot_cannot_write_in_is_refused(tmp_path) -> None:
    from tests.support.payloads import BOT_USER_ID, member_payload

    """A channel hidden from @everyone hides it from the bot too, unless it is let in."""
    h = Harness(tmp_path / "bot-access.db")
    h.members = [member_payload(BOT_USER_ID, "Tirada", bot=True)]
    h.channels = [text_channel(CHANNEL_ID, "mesa"), text_channel(GM_CHANNEL_ID, "dj", [PRIVATE_OVERWRITE])]
    await h.start()
    try:
        await h.slash("mesa dj", user=ADMIN, miembro=GM)
        refused = await h.slash("mesa canal-dj", user=GM, canal=h.channels[1])
        assert refused.ephemeral and f"No puedo escribir en <#{GM_CHANNEL_ID}>" in refused.text
        assert (await table(h)).gm_channel_id is None
        h.channels[1] = channel(GM_CHANNEL_ID)  # the server lets the bot in
        await h.restart()
        linked = await h.slash("mesa canal-dj", user=GM, canal=h.channels[1])
        assert "es ahora el canal del DJ" in linked.text
    finally:
        await h.close()


async def test_undo_is_refused_when_it_would_go_over_the_cap(linked: Harness) -> None:
    assert linked.bot is not None
    from bot.models import Change, Operation

    store = linked.bot.store
    await store.apply(Operation(CHANNEL_ID, 7, GM.id, "test", (Change("impulso", 4, cap=6),)))
    await store.apply(Operation(CHANNEL_ID, 8, GM.id, "test", (Change("impulso", -3), Change("amenaza", 1))))
    await linked.slash("dune impulso añadir", user=GM, cantidad=5)
    refused = await linked.slash("mesa deshacer", user=GM, reserva="amenaza", locale="en-US")
    assert "Can't undo: Momentum holds 6 and giving back 3 would exceed its maximum, 6." in refused.text
    assert await linked.pool("impulso") == 6 and await linked.pool("amenaza") == 1


# -- the whole table at a glance (#17) ----------------------------------------------------------


async def test_status_shows_every_dune_pool_at_zero_and_every_players_determination(
    harness: Harness,
) -> None:
    await harness.table_for("dune")
    harness.script(5, 5)
    await harness.slash("dune tirada", user=PLAYER, habilidad=6, motivacion=6)
    harness.script(5, 5)
    await harness.slash("dune tirada", user=GM, habilidad=6, motivacion=6)
    await harness.slash("dune determinacion dar", user=GM, jugador=OTHER)
    reply = await harness.slash("mesa estado")
    for line in ("Impulso: **0**", "Amenaza: **0**", "Dificultad extra: **0**"):
        assert line in reply.text
    assert f"<@{PLAYER.id}>: Determinación **0**" in reply.text
    assert f"<@{OTHER.id}>: Determinación **1**" in reply.text
    assert f"<@{GM.id}>:" not in reply.text
    english = await harness.slash("mesa estado", locale="en-US")
    assert "Momentum: **0**" in english.text and f"<@{PLAYER.id}>: Determination **0**" in english.text


async def test_status_shows_the_donjon_level_and_banked_dice(harness: Harness) -> None:
    await harness.table_for("donjon")
    await harness.slash("donjon ajustes", user=GM, nivel=3)
    harness.script(3, 11, 12, 13, 15, 5, 8, 10, 13, 15)
    panel = (await harness.slash("donjon prueba", dados=5, contra=5)).message
    await harness.click(panel, "donjon:ley:dado:1")
    reply = await harness.slash("mesa estado")
    fields = {f["name"]: f["value"] for f in reply.embed["fields"]}
    assert fields["Nivel de Donjon"] == "3"
    assert fields["Reservas"] == "dados guardados del DJ: **0**"
    assert fields["Jugadores"] == f"<@{PLAYER.id}>: dados guardados **1**"


async def test_status_names_who_holds_heroic_inspiration(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await harness.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    harness.script(10)
    await harness.slash("dnd prueba", user=OTHER, modificador=0)
    reply = await harness.slash("mesa estado", locale="en-US")
    players = next(f["value"] for f in reply.embed["fields"] if f["name"] == "Players")
    assert players.splitlines() == [
        f"<@{OTHER.id}>: heroic inspiration **0**",
        f"<@{PLAYER.id}>: heroic inspiration **1**",
    ]


async def test_status_of_a_table_nobody_played_at_yet(harness: Harness) -> None:
    await harness.table_for("dune")
    reply = await harness.slash("mesa estado")
    assert "Impulso: **0**" in reply.text and "Nadie ha tirado todavía en esta mesa." in reply.text


# -- the odds line, per table (#17) -------------------------------------------------------------

ODDS = "Probabilidad antes de tirar"


async def test_the_gm_turns_the_odds_line_off_for_every_system(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    harness.script(5, 5)
    assert ODDS in (await harness.slash("dune tirada", habilidad=6, motivacion=6)).text
    refused = await harness.slash("mesa ajustes", user=PLAYER, probabilidades=False)
    assert refused.ephemeral and "Solo la persona que dirige esta mesa" in refused.text
    done = await harness.slash("mesa ajustes", user=GM, probabilidades=False)
    assert "Las tiradas no muestran probabilidades" in done.text
    assert "Los jugadores pueden hacer tiradas secretas" in done.text
    harness.script(5, 5)
    assert ODDS not in (await harness.slash("dune tirada", habilidad=6, motivacion=6)).text
    harness.script(15, 4)
    assert ODDS not in (await harness.slash("donjon prueba", dados=1, contra=1)).text
    await harness.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    harness.script(3)
    rolled = await harness.slash("dnd prueba", modificador=0, cd=10)
    assert ODDS not in rolled.text
    harness.script(15)
    await harness.click(rolled.message, "dnd:insp0:" + rolled.message.custom_ids[0].split(":")[-1])
    assert ODDS not in str(harness.current(rolled.message).data)
    odds = await harness.slash("probabilidad dnd", modificador=0, cd=10)
    assert "con ventaja" in odds.text
    back = await harness.slash("mesa ajustes", user=GM, probabilidades=True, locale="en-US")
    assert "Each roll shows its odds." in back.text
    harness.script(5, 5)
    assert ODDS in (await harness.slash("dune tirada", habilidad=6, motivacion=6)).text


# -- a roll's history rows link to its message (#17) --------------------------------------------


async def test_history_rows_written_by_a_roll_link_to_its_message(harness: Harness) -> None:
    harness.script(5, 6, 7)
    reply = await harness.slash("dune tirada", habilidad=6, motivacion=6, dados_extra=1, pago="amenaza")
    history = await harness.slash("mesa historial")
    link = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{reply.message.id}"
    assert f"[mensaje]({link})" in history.embed["description"]


async def test_a_secret_rolls_history_rows_link_nowhere_until_it_is_revealed_then_to_the_table(
    linked: Harness,
) -> None:
    """Players read the history: it never leads them to the GM channel (docs/decisiones.md)."""
    linked.script(1, 3, 5)
    rolled = await linked.slash(
        "dune tirada", user=PLAYER, habilidad=6, motivacion=6, dados_extra=1, pago="amenaza", secreta=True
    )
    [secret] = [m for m in rolled.messages if m.channel_id == GM_CHANNEL_ID]
    hidden = (await linked.slash("mesa historial")).embed["description"]
    assert "Amenaza" in hidden and "discord.com/channels" not in hidden
    revealed = await linked.click(
        secret, next(c for c in secret.custom_ids if c.startswith("secreta:")), user=GM
    )
    [posted] = [m for m in revealed.messages if m.channel_id == CHANNEL_ID]
    await linked.click(
        posted, next(c for c in posted.custom_ids if c.startswith("dune:guardar")), user=PLAYER
    )
    shown = (await linked.slash("mesa historial")).embed["description"]
    assert "Impulso" in shown
    link = f"[mensaje](https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{posted.id})"
    assert shown.count(link) == 2 and str(GM_CHANNEL_ID) not in shown


async def test_an_ephemeral_secret_rolls_history_rows_have_no_link(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    harness.script(1, 3, 5)
    await harness.slash(
        "dune tirada", user=GM, habilidad=6, motivacion=6, dados_extra=1, pago="amenaza", secreta=True
    )
    history = (await harness.slash("mesa historial")).embed["description"]
    assert "Amenaza" in history and "discord.com/channels" not in history


# -- undo is announced at the table (#17) --------------------------------------------------------


async def test_an_undo_is_announced_at_the_table_naming_the_pool_and_entry(linked: Harness) -> None:
    await linked.slash("dune determinacion dar", user=GM, jugador=PLAYER)
    undone = await linked.slash("mesa deshacer", user=GM)
    assert undone.ephemeral
    public = [m for m in undone.messages if m.channel_id == CHANNEL_ID and not m.ephemeral]
    assert len(public) == 1
    text = str(public[0].data)
    assert f"<@{GM.id}> ha deshecho un cambio de las reservas (Determinación dada por el DJ):" in text
    assert f"Anulada la entrada `#1`: Determinación de <@{PLAYER.id}> **-1** → 0" in text
    replay = await linked.slash("mesa deshacer", user=GM)
    assert replay.ephemeral and "No queda ningún cambio" in replay.text


async def test_a_scene_end_with_no_momentum_left_says_no_zero_change(linked: Harness) -> None:
    ended = await linked.slash("mesa escena-fin", user=GM)
    assert "La escena ha terminado." in ended.text
    assert "+0" not in ended.text and "Impulso: sin cambios (queda 0)." in ended.text


async def test_undoing_a_reset_of_many_pools_names_twenty_and_counts_the_rest(linked: Harness) -> None:
    from bot.models import Change, Operation

    assert linked.bot is not None
    changes = tuple(Change("determinacion", 1, owner_id=950000000000000000 + n) for n in range(25))
    await linked.bot.store.apply(Operation(CHANNEL_ID, 7, GM.id, "test", changes))
    asked = await linked.slash("mesa reiniciar", user=GM)
    await linked.click(asked.message, asked.message.custom_ids[0], user=GM)
    undone = await linked.slash("mesa deshacer", user=GM, locale="en-US")
    public = next(m for m in undone.messages if m.channel_id == CHANNEL_ID and not m.ephemeral)
    text = public.data["embeds"][0]["description"]
    assert text.count("Entry `#") == 20
    assert "…and 5 more entries: see /table history." in text
    assert "(table reset)" in text


async def test_status_of_a_crowded_table_stays_inside_discords_limits(harness: Harness) -> None:
    from bot.models import Change, Operation

    await harness.table_for("dune")
    assert harness.bot is not None
    changes = tuple(Change("determinacion", 1, owner_id=950000000000000000 + n) for n in range(60))
    await harness.bot.store.apply(Operation(CHANNEL_ID, 7, GM.id, "test", changes))
    reply = await harness.slash("mesa estado")
    players = [f["value"] for f in reply.embed["fields"] if f["name"] == "Jugadores"]
    assert len(players) > 1 and all(len(v) <= 1024 for v in players)
    assert sum(v.count("\n") + 1 for v in players) == 40


async def test_a_gm_channel_serving_another_gms_table_cannot_be_taken_over(tmp_path: Path) -> None:
    """Table B's GM may see table A's GM channel (a member overwrite), yet may not link it:
    it is A's GM's (or the administrators') to share; the refusal names who holds it."""
    h = Harness(tmp_path / "tirada.db")
    sees = {"id": str(PLAYER.id), "type": 1, "allow": str(1 << 10), "deny": "0"}
    h.channels[1]["permission_overwrites"].append(sees)
    await h.start()
    try:
        await h.slash("mesa dj", user=ADMIN, miembro=GM)
        await h.slash("mesa canal-dj", user=GM, canal=channel(GM_CHANNEL_ID))
        await h.slash("mesa dj", user=ADMIN, miembro=PLAYER, channel_id=OTHER_CHANNEL_ID)
        taken = await h.slash(
            "mesa canal-dj", user=PLAYER, canal=channel(GM_CHANNEL_ID), channel_id=OTHER_CHANNEL_ID
        )
        assert (
            taken.ephemeral
            and f"ya es el canal del DJ de <#{CHANNEL_ID}>, que dirige <@{GM.id}>" in taken.text
        )
        assert h.bot is not None
        assert [t.channel_id for t in await h.bot.store.tables_served(GM_CHANNEL_ID)] == [CHANNEL_ID]
        await h.slash("mesa dj", user=ADMIN, channel_id=OTHER_CHANNEL_ID)
        by_admin = await h.slash(
            "mesa canal-dj", user=ADMIN, canal=channel(GM_CHANNEL_ID), channel_id=OTHER_CHANNEL_ID
        )
        assert "es ahora el canal del DJ" in by_admin.text
    finally:
        await h.close()


async def test_linking_a_channel_the_gm_cannot_see_is_refused(linked: Harness) -> None:
    await linked.slash("mesa dj", user=ADMIN, miembro=PLAYER, channel_id=OTHER_CHANNEL_ID)
    reply = await linked.slash(
        "mesa canal-dj", user=PLAYER, canal=channel(GM_CHANNEL_ID), channel_id=OTHER_CHANNEL_ID
    )
    assert reply.ephemeral and f"Tú no puedes ver <#{GM_CHANNEL_ID}>" in reply.text
    assert linked.bot is not None
    assert [t.channel_id for t in await linked.bot.store.tables_served(GM_CHANNEL_ID)] == [CHANNEL_ID]
