"""A secret test's Ley de los Éxitos: its facts for the GM alone until the reveal, then at
the table with their narration, once; and a card that nothing narrated makes stale."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.board.render import board_embed
from cogs.donjon import components
from cogs.donjon.components import roll_card
from tests.cogs.donjon.test_cog import law_of, pending_on_the_board, shown, stored, told
from tests.support.discord_schema import COMPONENTS_V2
from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import CHANNEL_ID, GM, GM_CHANNEL_ID, PLAYER
from tests.test_hidden import Watcher, every_page

AMBUSH, RATS = "Emboscada turquesa", "Ratas de cobalto"


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("donjon")
    return harness


@pytest.fixture
async def linked(table: Harness) -> Harness:
    channel = next(c for c in table.channels if int(c["id"]) == GM_CHANNEL_ID)
    await table.slash("mesa canal-dj", user=GM, canal=channel)
    return table


def gm_copy(h: Harness, reply: Reply) -> Message:
    """The GM's copy of a secret test: in the GM channel, or the GM's private answer."""
    in_gm_channel = [m for m in h.discord.messages.values() if m.channel_id == GM_CHANNEL_ID]
    return in_gm_channel[-1] if in_gm_channel else reply.message


async def secret_test(h: Harness, successes: int) -> Message:
    """The GM's secret test against the player, which the GM wins with ``successes``."""
    h.script(*[1] * successes, *[20] * successes)
    reply = await h.slash(
        "donjon prueba", user=GM, jugador=PLAYER, dados=successes, contra=successes, secreta=True
    )
    return gm_copy(h, reply)


async def tell(h: Harness, card: Message, text: str) -> Reply:
    """The GM tells one fact from the secret test's copy, wherever that copy is."""
    opened = await h.click(h.current(card), "donjon:ley:hecho:1", user=GM)
    return await h.submit(opened.modal_id, {"hecho": text}, user=GM, message=h.current(card))


async def secret_facts(h: Harness, *texts: str) -> tuple[Message, Message]:
    """A secret test whose every success the GM told as a fact: its copy and narration."""
    card = await secret_test(h, len(texts))
    last = None
    for text in texts:
        last = await tell(h, card, text)
    assert last is not None
    return card, next(m for m in last.messages if "donjon:narrado:1:1" in m.custom_ids)


def narrations_at_the_table(h: Harness) -> list[Message]:
    return [
        m
        for m in h.discord.messages.values()
        if m.channel_id == CHANNEL_ID and not m.ephemeral and m.data.get("flags", 0) & COMPONENTS_V2
    ]


async def reveal(h: Harness, card: Message) -> Reply:
    return await h.click(h.current(card), "secreta:revelar:1", user=GM)


# -- /donjon hechos ------------------------------------------------------------------------------


async def test_the_gm_sees_a_secret_tests_facts_privately_marked_secret(table: Harness) -> None:
    await secret_facts(table, AMBUSH)
    asked = await table.slash("donjon hechos", user=GM)
    public, private = asked.messages
    assert not public.ephemeral and AMBUSH not in str(public.data)
    assert private.ephemeral
    [embed] = private.data["embeds"]
    assert embed["title"] == "🔒 Hechos de pruebas secretas, aún sin revelar"
    assert embed["fields"] == [
        {"name": f"🔒 Prueba secreta #1 · narra <@{PLAYER.id}>", "value": f"• {AMBUSH}", "inline": False}
    ]


async def test_in_the_gm_channel_the_gm_sees_them_in_place(linked: Harness) -> None:
    await secret_facts(linked, AMBUSH)
    asked = await linked.slash("donjon hechos", user=GM, channel_id=GM_CHANNEL_ID)
    public, secret = asked.messages
    assert {public.channel_id, secret.channel_id} == {GM_CHANNEL_ID}
    assert not public.ephemeral and not secret.ephemeral
    assert AMBUSH not in str(public.data) and f"• {AMBUSH}" in str(secret.data)


async def test_in_english_the_gm_reads_them_in_english(table: Harness) -> None:
    await secret_facts(table, AMBUSH)
    asked = await table.slash("donjon hechos", user=GM, locale="en-US")
    private = asked.messages[-1]
    [embed] = private.data["embeds"]
    assert embed["title"] == "🔒 Facts of secret tests, not yet revealed"
    assert embed["fields"][0]["name"] == f"🔒 Secret test #1 · <@{PLAYER.id}> narrates"


async def test_a_player_asking_sees_nothing_of_a_secret_test(linked: Harness) -> None:
    await secret_facts(linked, AMBUSH)
    asked = await linked.slash("donjon hechos", user=PLAYER)
    assert len(asked.messages) == 1
    assert asked.text == "Hechos por narrar\nNo hay hechos pendientes de narrar."
    assert AMBUSH not in await pending_on_the_board(linked)


# -- the reveal ------------------------------------------------------------------------------------


async def test_the_reveal_posts_the_narration_at_the_table_once(linked: Harness) -> None:
    """Narrated in secret, the first fact stays narrated; the table gets the rest to narrate,
    once for a double click and a replay, pinging the narrator alone."""
    card, narration = await secret_facts(linked, AMBUSH, RATS)
    await linked.click(narration, "donjon:narrado:1:1", user=GM)
    revealing = linked.current(card)
    await asyncio.gather(reveal(linked, card), reveal(linked, card))
    press = {"custom_id": "secreta:revelar:1", "component_type": 2}
    for _ in range(2):
        await linked.dispatch(
            3,
            press,
            message=revealing,
            user=GM,
            locale="es-ES",
            channel_id=GM_CHANNEL_ID,
            interaction_id=4242,
        )
    [posted] = narrations_at_the_table(linked)
    assert posted.custom_ids == ["donjon:narrado:1:2"]
    assert f"~~1. {AMBUSH}~~ ✓ narrado" in shown(posted) and f"2. {RATS}" in shown(posted)
    assert posted.data["allowed_mentions"] == {"parse": [], "users": [PLAYER.id]}
    board = await pending_on_the_board(linked)
    assert RATS in board and AMBUSH not in board
    done = await linked.click(posted, "donjon:narrado:1:2", user=PLAYER)
    assert "Narrado ✓" in done.text


async def test_without_a_gm_channel_the_reveal_brings_the_private_narration_to_the_table(
    table: Harness,
) -> None:
    card, _ = await secret_facts(table, AMBUSH)
    await reveal(table, card)
    [posted] = narrations_at_the_table(table)
    assert posted.custom_ids == ["donjon:narrado:1:1"]
    assert f"1. {AMBUSH}" in shown(posted)


async def test_after_the_reveal_the_gms_copy_points_to_the_table(linked: Harness) -> None:
    card, narration = await secret_facts(linked, AMBUSH, RATS)
    await reveal(linked, card)
    refused = await linked.click(narration, "donjon:narrado:1:1", user=GM)
    assert refused.ephemeral
    assert refused.text == f"Esta narración está ahora en la mesa, en <#{CHANNEL_ID}>: márcala allí."
    assert (await stored(linked)).data["law"]["facts"][0]["narrated"] is False


async def test_a_secret_test_narrated_whole_is_revealed_without_a_narration(linked: Harness) -> None:
    card, narration = await secret_facts(linked, AMBUSH)
    await linked.click(narration, "donjon:narrado:1:1", user=GM)
    revealed = await reveal(linked, card)
    assert narrations_at_the_table(linked) == []
    assert AMBUSH in str(revealed.calls)


async def test_revealed_before_its_facts_the_table_tells_and_narrates_them(linked: Harness) -> None:
    card = await secret_test(linked, 1)
    await reveal(linked, card)
    assert narrations_at_the_table(linked) == []
    at_table = next(
        m
        for m in linked.discord.messages.values()
        if m.channel_id == CHANNEL_ID and "donjon:ley:hecho:1" in m.custom_ids
    )
    await tell(linked, at_table, AMBUSH)
    [posted] = narrations_at_the_table(linked)
    assert posted.custom_ids == ["donjon:narrado:1:1"]


# -- the card -------------------------------------------------------------------------------------


async def test_narrating_leaves_nothing_stale_on_the_card(table: Harness) -> None:
    """The card is not redrawn as facts are narrated: what it says stays true."""
    card, narration = await secret_facts(table, AMBUSH, RATS)
    for fact in (1, 2):
        await table.click(table.current(narration), f"donjon:narrado:1:{fact}", user=PLAYER)
    await reveal(table, card)
    record = await stored(table)
    drawn_now = roll_card("es", record)[0].to_dict()
    at_table = table.discord.messages[record.message_id or 0]
    assert at_table.data["embeds"][0]["fields"] == drawn_now["fields"]
    assert f"Todo repartido: narra <@{PLAYER.id}>." in str(drawn_now)


# -- hidden stays hidden -------------------------------------------------------------------------


async def everything_a_player_reads(h: Harness) -> list[str]:
    """The outputs a player reaches at the table, and the chronicle's files the GM shares."""
    await every_page(h, CHANNEL_ID)
    for command, options in (
        ("donjon hechos", {}),
        ("mesa estado", {}),
        ("mesa tablero", {}),
        ("ficha exportar", {}),
        *(("estadisticas", {"de": scope}) for scope in ("mias", "mesa", "bot")),
    ):
        await h.slash(command, **options)
    await h.autocomplete("mesa historial", "reserva", "")
    shared = []
    for form in ("markdown", "csv"):
        chronicle = await h.slash("mesa cronica", user=GM, formato=form)
        shared += [data.decode() for call in chronicle.calls for _, data in call.attachments]
    assert h.bot is not None
    table = await h.bot.store.table_or_default(CHANNEL_ID, None)
    overlay = await board_embed(h.bot.store, "es", table)
    return [*shared, str(overlay.to_dict())]


async def test_a_secret_tests_facts_reach_nothing_a_player_reads_before_the_reveal(linked: Harness) -> None:
    player, gm = Watcher(linked, PLAYER, (CHANNEL_ID,)), Watcher(linked, GM, (CHANNEL_ID, GM_CHANNEL_ID))
    await linked.slash("mesa tablero", user=GM)
    card, narration = await secret_facts(linked, AMBUSH, RATS)
    await linked.click(narration, "donjon:narrado:1:1", user=GM)
    await linked.slash("donjon hechos", user=GM)
    await linked.slash("donjon hechos", user=GM, channel_id=GM_CHANNEL_ID)
    shown_before = await everything_a_player_reads(linked)
    assert linked.bot is not None
    await linked.bot.boards.settled()
    seen = "\n".join(player.seen() + shown_before)
    assert "turquesa" not in seen and "cobalto" not in seen
    assert "turquesa" in "\n".join(gm.seen())
    await reveal(linked, card)
    after = "\n".join(player.seen() + await everything_a_player_reads(linked))
    assert "turquesa" in after and "cobalto" in after


async def test_the_live_board_lists_a_revealed_tests_facts(linked: Harness) -> None:
    board = (await linked.slash("mesa tablero", user=GM)).message
    card, _ = await secret_facts(linked, AMBUSH)
    assert linked.bot is not None
    await linked.bot.boards.settled()
    assert AMBUSH not in str(linked.current(board).data)
    await reveal(linked, card)
    await linked.bot.boards.settled()
    assert AMBUSH in str(linked.current(board).data)


async def test_a_narration_that_follows_a_die_for_a_friend_is_the_tables(table: Harness) -> None:
    """Never secret, the last success given from the private friend menu: its narration is
    posted at the table and narrated there (the reveal's pointer is for revealed tests)."""
    table.script(20, 20, 1, 1)
    panel = (await table.slash("donjon prueba", dados=2, contra=2)).message
    opened = await table.click(panel, "donjon:ley:hecho:1")
    await table.submit(opened.modal_id, {"hecho": AMBUSH}, message=table.current(panel))
    menu = await table.click(table.current(panel), "donjon:ley:amigo:1")
    picked = await table.click(menu.message, "donjon:amigo:1", values=[str(GM.id)], component_type=5)
    [narration] = [m for m in picked.messages if "donjon:narrado:1:1" in m.custom_ids]
    assert not narration.ephemeral
    done = await table.click(narration, "donjon:narrado:1:1", user=GM)
    assert "Narrado ✓" in done.text


async def test_many_long_pending_facts_fit_one_answer(table: Harness) -> None:
    """Eight tests of six facts whose markdown doubles them: more than a field's 1,024
    characters and a message's 6,000, so the answer keeps whole facts and whole tests."""
    for _ in range(8):
        await told(table, *(f"{n}" + "*" * 199 for n in range(6)))
    asked = await table.slash("donjon hechos")
    [embed] = asked.data["embeds"]
    assert embed["footer"]["text"] == "Y 1 prueba más con hechos por narrar."
    assert len(embed["fields"]) == 7
    for field in embed["fields"]:
        *facts, rest = field["value"].split("\n")
        assert [len(fact) for fact in facts] == [401, 401] and rest == "… y 4 más"


async def test_a_narration_discord_refuses_after_the_reveal_is_told_to_the_gm(
    linked: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The card reached the table; its narration did not (here: a view Discord refuses, more
    than its 4,000 characters of text). The reveal stands and the GM is told, privately,
    that the facts still wait (no generic error)."""
    card, _ = await secret_facts(linked, AMBUSH)
    monkeypatch.setattr(components, "narration_view", refused_view)
    with linked.discord.expect_refusals() as refused:
        revealed = await reveal(linked, card)
    assert len(refused) == 1
    assert narrations_at_the_table(linked) == []
    told = [m for m in revealed.messages if m.ephemeral]
    assert told and told[-1].data["content"].startswith(f"La tirada ya está en <#{CHANNEL_ID}>")
    assert "Algo ha fallado" not in str([m.data for m in revealed.messages])
    assert AMBUSH in await pending_on_the_board(linked)


def refused_view(lang: object, record_id: int, law: object) -> discord.ui.LayoutView:
    """A narration Discord refuses: more than a V2 message's 4,000 characters of text."""
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("x" * 4001))
    return view


async def test_a_narration_discord_refused_is_marked_from_the_gms_notice(
    linked: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No narration reached the table and the GM's copy points there: the facts stay
    pending (nobody has narrated them) and the GM's private notice lists them with the
    *Narrado* that marks them, once; then the board stops waiting for them."""
    card, _ = await secret_facts(linked, AMBUSH, RATS)
    monkeypatch.setattr(components, "narration_view", refused_view)
    with linked.discord.expect_refusals():
        revealed = await reveal(linked, card)
    notice = [m for m in revealed.messages if m.ephemeral][-1]
    assert AMBUSH in str(notice.data) and RATS in str(notice.data)
    assert AMBUSH in await pending_on_the_board(linked)
    marked = await linked.click(notice, "donjon:narrado:1", user=GM)
    assert "Narrado ✓" in marked.text
    assert "siguen por narrar" not in str(linked.current(notice).data)
    assert AMBUSH not in await pending_on_the_board(linked)
    assert all(fact.narrated for fact in (await law_of(linked)).facts)


async def test_the_gms_notice_shows_a_fact_narrated_in_secret_done_and_marks_the_rest_once(
    linked: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notice lists the facts as the books hold them: one the GM narrated before the
    reveal is struck through, the other waits; two presses at once of its *Narrado* mark
    what was left once, and the second is told so."""
    card, narration = await secret_facts(linked, AMBUSH, RATS)
    await linked.click(narration, "donjon:narrado:1:1", user=GM)
    monkeypatch.setattr(components, "narration_view", refused_view)
    with linked.discord.expect_refusals():
        revealed = await reveal(linked, card)
    notice = [m for m in revealed.messages if m.ephemeral][-1]
    [description] = [embed["description"] for embed in notice.data["embeds"]]
    assert f"~~1. {AMBUSH}~~ ✓ narrado" in description
    assert f"2. {RATS}" in description and f"~~2. {RATS}" not in description
    first, second = await asyncio.gather(
        linked.click(notice, "donjon:narrado:1", user=GM), linked.click(notice, "donjon:narrado:1", user=GM)
    )
    assert sorted(["ya están narrados" in r.text for r in (first, second)]) == [False, True]
    assert all(fact.narrated for fact in (await law_of(linked)).facts)
    assert RATS not in await pending_on_the_board(linked)
