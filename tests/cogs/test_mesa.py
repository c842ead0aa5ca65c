import pytest

from bot.models import System
from tests.support.harness import Harness
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, OTHER, PLAYER, User

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
    assert f"Determinación de <@{PLAYER.id}>: **1**" in reply.text
    english = await harness.slash("mesa estado", locale="en-US")
    assert "Momentum: **4**" in english.text and f"<@{PLAYER.id}>'s Determination: **1**" in english.text


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
    assert (await table(harness)).system == System.DONJON


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
    assert reply.ephemeral and "solo funciona en un canal de un servidor" in reply.text
