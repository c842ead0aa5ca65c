"""Secret rolls through discord.py: where they go, who may reveal them, and that a reveal
posts the same result once."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.components import _component_factory

from bot.delivery import announce, keep_reveal
from tests.cogs.dune.test_cog import answer
from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import CHANNEL_ID, GM, GM_CHANNEL_ID, OTHER, PLAYER

TABLE_MESSAGES = f"/channels/{CHANNEL_ID}/messages"


@pytest.fixture
async def dune(harness: Harness) -> Harness:
    await harness.table_for("dune")
    return harness


@pytest.fixture
async def linked(dune: Harness) -> Harness:
    channel = next(c for c in dune.channels if int(c["id"]) == GM_CHANNEL_ID)
    await dune.slash("mesa canal-dj", user=GM, canal=channel)
    return dune


async def secret_roll(
    h: Harness, *faces: int, user=GM, channel_id: int = CHANNEL_ID, **options: object
) -> Reply:
    h.script(*faces)
    options = {"habilidad": 6, "motivacion": 6, "secreta": True} | options
    return await h.slash("dune tirada", user=user, channel_id=channel_id, **options)


def in_channel(reply: Reply, channel_id: int) -> list[Message]:
    return [m for m in reply.messages if m.channel_id == channel_id and not m.ephemeral]


def reveal_id(message: Message) -> str:
    return next(c for c in message.custom_ids if c.startswith("secreta:revelar:"))


def leaks(reply: Reply, needle: str) -> list[str]:
    """Requests that would show ``needle`` in the table channel: a channel post there, or a
    non-private answer to an interaction made there."""
    found = []
    for call in reply.calls:
        body = json.dumps(call.payload or {}, ensure_ascii=False)
        if needle not in body:
            continue
        private = (
            isinstance(call.payload, dict) and (call.payload.get("data") or call.payload).get("flags", 0) & 64
        )
        if call.path.startswith(TABLE_MESSAGES) or (
            call.path.startswith(("/interactions/", "/webhooks/")) and not private
        ):
            found.append(call.path)
    return found


async def test_a_gm_secret_roll_goes_to_the_gm_channel_only(linked: Harness) -> None:
    reply = await secret_roll(linked, 3, 17, pnj=True)
    assert reply.ephemeral and f"Tirada secreta enviada a <#{GM_CHANNEL_ID}>" in reply.text
    [secret] = in_channel(reply, GM_CHANNEL_ID)
    assert "**3**" in json.dumps(secret.data["embeds"]) and "Tirada secreta de" in secret.data["content"]
    assert reveal_id(secret) == "secreta:revelar:1"
    assert not in_channel(reply, CHANNEL_ID)
    assert leaks(reply, "**17**") == []


async def test_revealing_posts_the_same_result_once_with_its_buttons(linked: Harness) -> None:
    secret = in_channel(await secret_roll(linked, 1, 3), GM_CHANNEL_ID)[0]
    embeds, buttons, pressed = secret.data["embeds"], secret.custom_ids, secret.payload()
    revealed = await linked.click(secret, reveal_id(secret), user=GM)
    [posted] = in_channel(revealed, CHANNEL_ID)
    assert posted.data["embeds"] == embeds
    assert posted.custom_ids == [c for c in buttons if not c.startswith("secreta:")]
    assert posted.custom_ids and all(c.startswith(("dune:", "rep:")) for c in posted.custom_ids)
    assert f"Revelada en <#{CHANNEL_ID}>" in linked.current(secret).data["content"]
    assert linked.current(secret).custom_ids == []
    secret.data = {**secret.data, "components": pressed["components"]}  # a second click, sent before the edit
    again = await linked.click(secret, "secreta:revelar:1", user=GM)
    assert again.ephemeral and "ya se reveló" in again.text
    assert in_channel(again, CHANNEL_ID) == []
    # The panel now lives in the table: its buttons work there.
    saved = await linked.click(
        posted, next(c for c in posted.custom_ids if c.startswith("dune:guardar")), user=GM
    )
    assert saved.callback.payload["type"] == 7
    assert await linked.pool("impulso") == 2


async def test_only_the_gm_reveals(linked: Harness) -> None:
    secret = in_channel(await secret_roll(linked, 3, 17), GM_CHANNEL_ID)[0]
    refused = await linked.click(secret, reveal_id(secret), user=OTHER)
    assert refused.ephemeral and "Solo el DJ de la mesa puede revelar" in refused.text
    assert in_channel(refused, CHANNEL_ID) == []


async def test_a_player_secret_roll_goes_to_the_gm_and_the_player_alone(linked: Harness) -> None:
    reply = await secret_roll(linked, 3, 17, user=PLAYER)
    assert reply.ephemeral and "**17**" in json.dumps(reply.data["embeds"])
    assert "components" not in reply.data or not reply.data["components"]
    [secret] = in_channel(reply, GM_CHANNEL_ID)
    assert f"Tirada secreta de <@{PLAYER.id}>" in secret.data["content"]
    assert leaks(reply, "**17**") == []
    by_player = await linked.click(secret, reveal_id(secret), user=PLAYER)
    assert "Solo el DJ" in by_player.text
    by_gm = await linked.click(secret, reveal_id(secret), user=GM)
    assert len(in_channel(by_gm, CHANNEL_ID)) == 1


async def test_the_table_can_forbid_player_secret_rolls(linked: Harness) -> None:
    refused = await linked.slash("mesa ajustes", user=PLAYER, secretas_jugadores=False)
    assert refused.ephemeral and "Solo la persona que dirige" in refused.text
    await linked.slash("mesa ajustes", user=GM, secretas_jugadores=False)
    reply = await secret_roll(linked, 3, 17, user=PLAYER, dados_extra=1)
    assert reply.ephemeral and "no pueden tirar en secreto" in reply.text
    assert reply.messages == [] or all(m.ephemeral for m in reply.messages)
    assert await linked.pool("amenaza") == 0  # the bought die was not paid for
    assert await secret_roll(linked, 3, 17, user=GM) is not None


async def test_without_a_gm_channel_a_player_secret_is_refused_and_the_gm_gets_it_privately(
    dune: Harness,
) -> None:
    refused = await secret_roll(dune, 3, 17, user=PLAYER)
    assert refused.ephemeral and "no tiene canal del DJ" in refused.text
    assert dune.bot is not None and await dune.bot.store.record(1) is None
    mine = await secret_roll(dune, 3, 17, user=GM)
    assert mine.ephemeral and reveal_id(mine.message) == "secreta:revelar:1"
    embeds = mine.message.data["embeds"]
    revealed = await dune.click(mine.message, reveal_id(mine.message), user=GM)
    assert in_channel(revealed, CHANNEL_ID)[0].data["embeds"] == embeds


async def test_rolls_made_in_the_gm_channel_stay_there(linked: Harness) -> None:
    reply = await secret_roll(linked, 3, 17, channel_id=GM_CHANNEL_ID, secreta=False)
    assert not reply.ephemeral and reply.message.channel_id == GM_CHANNEL_ID
    assert reveal_id(reply.message)
    assert {m.channel_id for m in reply.messages} == {GM_CHANNEL_ID}
    assert linked.bot is not None
    record = await linked.bot.store.record(1)
    assert record is not None and record.channel_id == CHANNEL_ID


async def test_reveal_survives_a_restart(linked: Harness) -> None:
    secret = in_channel(await secret_roll(linked, 3, 17), GM_CHANNEL_ID)[0]
    await linked.restart()
    revealed = await linked.click(secret, reveal_id(secret), user=GM)
    assert len(in_channel(revealed, CHANNEL_ID)) == 1


@pytest.mark.parametrize(
    ("system", "command", "options"),
    [
        ("donjon", "donjon prueba", {"dados": 3, "contra": 2}),
        ("donjon", "donjon atributos", {}),
        ("donjon", "donjon daño", {"aguante": 3}),
        ("donjon", "donjon gastos vender", {"valor": 2, "sociabilidad": 2, "riqueza": 1}),
        ("dnd5e", "dnd prueba", {"modificador": 2}),
        ("dnd5e", "dnd ataque", {"bonificador": 5, "ca": 12}),
        ("dnd5e", "dnd tirar", {"expresion": "1d20+2"}),
        ("mediana", "mediana tirada", {"atributo": 5, "dificultad": 10}),
        ("mediana", "mediana daño", {"dados": "2d6"}),
        ("dune", "dune enfrentada", {"habilidad": 6, "motivacion": 6, "rival_objetivo": 10}),
        ("dune", "tirar", {"expresion": "2d6"}),
    ],
)
async def test_every_roll_command_rolls_secretly(
    linked: Harness, system: str, command: str, options: dict[str, object]
) -> None:
    await linked.slash("mesa sistema", user=GM, sistema=system)
    reply = await linked.slash(command, user=GM, secreta=True, **options)
    assert reply.ephemeral, reply.text
    if command == "dune enfrentada":  # the opposition first, privately; then the actor's roll
        reply = await answer(linked, reply.message, user=GM)
        assert reply.ephemeral, reply.text
    [secret] = in_channel(reply, GM_CHANNEL_ID)
    assert not in_channel(reply, CHANNEL_ID)
    embeds = secret.data["embeds"]
    revealed = await linked.click(secret, reveal_id(secret), user=GM)
    [posted] = in_channel(revealed, CHANNEL_ID)
    assert posted.data["embeds"] == embeds


async def test_a_gm_channel_closed_to_the_bot_keeps_the_roll_private(
    linked: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The roll is recorded before the GM channel refuses it: it still reaches someone."""
    linked.discord.closed_channels.add(GM_CHANNEL_ID)
    with caplog.at_level("WARNING"):
        mine = await secret_roll(linked, 3, 17, 5, dados_extra=1, pago="amenaza")
    private = [m for m in mine.messages if m.ephemeral]
    assert len(private) == 2  # "sent to the GM channel", then the roll itself with "Revelar"
    assert "No he podido publicar en el canal del DJ" in json.dumps(private[1].data, ensure_ascii=False)
    assert reveal_id(private[1]) == "secreta:revelar:1"
    assert not in_channel(mine, CHANNEL_ID) and not in_channel(mine, GM_CHANNEL_ID)
    assert any("GM channel unreachable" in r.getMessage() for r in caplog.records)
    assert await linked.pool("amenaza") == 1  # the bought die was paid, once
    theirs = await secret_roll(linked, 3, 17, user=PLAYER)
    assert "solo la ves tú" in json.dumps([m.data for m in theirs.messages], ensure_ascii=False)
    assert "Algo ha fallado" not in json.dumps([c.payload for c in theirs.calls], ensure_ascii=False)


async def test_a_reveal_the_table_refuses_says_why_and_can_be_tried_again(linked: Harness) -> None:
    secret = in_channel(await secret_roll(linked, 3, 17), GM_CHANNEL_ID)[0]
    pressed = secret.payload()
    linked.discord.closed_channels.add(CHANNEL_ID)
    refused = await linked.click(secret, "secreta:revelar:1", user=GM)
    answer = refused.callback.payload["data"]
    assert answer["flags"] & 64 and f"No puedo publicar en <#{CHANNEL_ID}>" in json.dumps(
        answer, ensure_ascii=False
    )
    linked.discord.closed_channels.clear()
    secret.data = {**secret.data, "components": pressed["components"]}
    again = await linked.click(secret, "secreta:revelar:1", user=GM)
    assert len(in_channel(again, CHANNEL_ID)) == 1


async def test_a_button_pressed_before_the_reveal_keeps_revelar_on_the_gms_copy(linked: Harness) -> None:
    secret = in_channel(await secret_roll(linked, 1, 3), GM_CHANNEL_ID)[0]
    saved = await linked.click(
        secret, next(c for c in secret.custom_ids if c.startswith("dune:guardar")), user=GM
    )
    assert saved.callback.payload["type"] == 7
    after = linked.current(secret)
    assert reveal_id(after) == "secreta:revelar:1"
    revealed = await linked.click(after, reveal_id(after), user=GM)
    [posted] = in_channel(revealed, CHANNEL_ID)
    assert not any(c.startswith("secreta:") for c in posted.custom_ids)
    assert linked.current(secret).custom_ids == []


def test_an_update_of_a_message_without_revelar_rebuilds_no_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most pressed messages show no "Revelar": their components are searched for it, and
    their view is rebuilt only when one shows it (to carry it into the new panel)."""
    rebuilt: list[object] = []
    from_message = discord.ui.View.from_message

    def counted(message: discord.Message, **options: Any) -> discord.ui.View:
        rebuilt.append(message)
        return from_message(message, **options)

    monkeypatch.setattr(discord.ui.View, "from_message", counted)

    def pressed(*custom_ids: str) -> SimpleNamespace:
        buttons = [{"type": 2, "style": 2, "label": c, "custom_id": c} for c in custom_ids]
        row = _component_factory({"type": 1, "components": buttons})
        return SimpleNamespace(message=SimpleNamespace(components=[row]))

    plain: dict[str, Any] = {"view": None}
    keep_reveal(pressed("dune:guardar:1"), plain)  # type: ignore[arg-type]
    assert (plain, rebuilt) == ({"view": None}, [])
    secret: dict[str, Any] = {"view": None}
    keep_reveal(pressed("dune:guardar:1", "secreta:revelar:1"), secret)  # type: ignore[arg-type]
    assert len(rebuilt) == 1
    assert [item.custom_id for item in secret["view"].children] == ["secreta:revelar:1"]


def test_a_public_card_is_announced_without_asking_every_part_of_its_embed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``announce`` runs for every public answer: a card with a title or description is
    known to show something without ``Embed.__bool__`` (a proxy of each part); an empty
    embed is still not announced."""
    asked: list[discord.Embed] = []
    truth = discord.Embed.__bool__

    def counted(embed: discord.Embed) -> bool:
        asked.append(embed)
        return truth(embed)

    monkeypatch.setattr(discord.Embed, "__bool__", counted)
    sent: list[tuple[object, ...]] = []
    client = SimpleNamespace(dispatch=lambda *args: sent.append(args))
    card = discord.Embed(title="Tirada")
    announce("public_roll", client, 1, 2, {"embed": card})  # type: ignore[arg-type]
    announce("public_roll", client, 1, 3, {"embed": discord.Embed()})  # type: ignore[arg-type]
    assert sent == [("public_roll", 1, 2, [card])]
    assert len(asked) == 1


async def test_a_secret_roll_s_task_points_reach_the_table_at_its_reveal(linked: Harness) -> None:
    """A secret roll's points towards an extended task tell how it went: the board, the
    task's list and the task's completion keep them until it is revealed; its own card, its
    roller's alone, counts them."""
    assert linked.bot is not None
    linked.bot.boards.delay = 0
    await linked.slash("mesa tablero", user=GM)
    await linked.slash("dune tarea crear", user=GM, nombre="Forzar la puerta", requisito=2)
    rolled = await secret_roll(linked, 5, 15, dificultad=1, tarea=1)
    [secret] = in_channel(rolled, GM_CHANNEL_ID)
    assert "+2 con esta tirada. ▰▰▰▰▰▰▰▰▰▰ 2/2" in str(secret.data)
    assert not [m for m in rolled.messages if "completada" in str(m.data)]
    await linked.bot.boards.settled()
    board = linked.discord.messages[linked.bot.boards.spots[CHANNEL_ID].message_id]
    assert "Forzar la puerta: 0/2 puntos" in str(board.data["embeds"])
    listed = await linked.slash("dune tarea ver", user=PLAYER)
    assert "0/2" in listed.text and "2/2" not in listed.text
    revealed = await linked.click(secret, reveal_id(secret), user=GM)
    done = [m for m in in_channel(revealed, CHANNEL_ID) if "completada" in str(m.data)]
    assert len(done) == 1
    assert "¡Tarea «Forzar la puerta» completada! 2 de 2 puntos." in str(done[0].data)
    listed = await linked.slash("dune tarea ver", user=PLAYER)
    assert "2/2" in listed.text


async def test_a_completion_the_table_refuses_at_the_reveal_reaches_the_revealer(linked: Harness) -> None:
    """The reveal posted, the task marked done, the table channel then closed to the bot:
    the completion is not lost, and no "nothing changed" is said of what did."""
    assert linked.bot is not None
    await linked.slash("dune tarea crear", user=GM, nombre="Forzar la puerta", requisito=2)
    rolled = await secret_roll(linked, 5, 15, dificultad=1, tarea=1)
    [secret] = in_channel(rolled, GM_CHANNEL_ID)
    store = linked.bot.store
    link = store.set_record_message

    async def then_closed(*args: Any, **kwargs: Any) -> Any:
        linked.discord.closed_channels.add(CHANNEL_ID)
        return await link(*args, **kwargs)

    store.set_record_message = then_closed  # type: ignore[method-assign]
    try:
        revealed = await linked.click(secret, reveal_id(secret), user=GM)
    finally:
        store.set_record_message = link  # type: ignore[method-assign]
        linked.discord.closed_channels.discard(CHANNEL_ID)
    assert "no se ha cambiado nada" not in revealed.text
    private = [m for m in revealed.messages if m.ephemeral and "completada" in str(m.data)]
    assert len(private) == 1
    assert "Discord no me dejó anunciarlo allí" in str(private[0].data)
