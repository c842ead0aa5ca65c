"""The live board of each table (issue 19), through the harness: what it shows for each
system, and how it keeps up (bursts coalesced, a 429 retried, deleted, restarted, moved)."""

from __future__ import annotations

import asyncio
import json

import asyncpg
import discord
import pytest

from bot.board import updater
from bot.board.updater import BACKOFF, META_PREFIX, TASK_PREFIX
from bot.models import Change, Operation, Table
from bot.store import Store
from tests.support.harness import Harness, Reply
from tests.support.payloads import CHANNEL_ID, GM, GUILD_ID, PLAYER, Message


class Gate:
    """Virtual time for the boards' waits: a wait ends when the test opens the gate."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        await self.opened.wait()


def quick(h: Harness) -> None:
    """No coalescing wait: the board is redrawn as soon as the loop gets to it."""
    assert h.bot is not None
    h.bot.boards.delay = 0


async def play(h: Harness, system: str) -> Harness:
    await h.table_for(system)
    quick(h)
    return h


def board(h: Harness) -> Message:
    assert h.bot is not None
    return h.discord.messages[h.bot.boards.spots[CHANNEL_ID].message_id]


def text(message: Message) -> str:
    embed = message.data["embeds"][0]
    parts = [message.data.get("content") or "", embed.get("title", ""), embed.get("description", "")]
    parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(p for p in parts if p)


def answer(reply: Reply) -> str:
    """The GM's private answer to /mesa tablero (the board itself is posted first)."""
    private = [m for m in reply.messages if m.token is not None]
    assert private, reply.calls
    return str(private[-1].data["embeds"][0])


async def shown(h: Harness) -> str:
    """The board once every pending change is drawn."""
    assert h.bot is not None
    await h.bot.boards.settled()
    return text(board(h))


def edits(h: Harness) -> int:
    """Message edits through the REST API (the board's; interaction answers are webhooks)."""
    return sum(1 for c in h.discord.calls if c.method == "PATCH" and c.path.startswith("/channels/"))


@pytest.fixture
async def dune(harness: Harness) -> Harness:
    return await play(harness, "dune")


async def test_only_the_gm_posts_the_board_and_it_is_pinned(dune: Harness) -> None:
    refused = await dune.slash("mesa tablero")
    assert refused.ephemeral and "DJ" in refused.text
    assert dune.bot is not None and not dune.bot.boards.spots
    placed = await dune.slash("mesa tablero", user=GM)
    assert f"Tablero publicado y fijado en <#{CHANNEL_ID}>" in answer(placed)
    message = board(dune)
    assert not message.ephemeral and message.channel_id == CHANNEL_ID
    assert any(c.method == "PUT" and c.path.endswith(f"/pins/{message.id}") for c in dune.discord.calls)
    assert "📋 Tablero de la mesa" in text(message)


async def test_without_the_pin_permission_the_answer_names_it(dune: Harness) -> None:
    dune.discord.refuse_pins = True
    placed = await dune.slash("mesa tablero", user=GM, locale="en-US")
    assert "couldn't pin it: give me the “Pin Messages” permission" in answer(placed)
    assert board(dune).channel_id == CHANNEL_ID


async def test_the_dune_board(dune: Harness) -> None:
    await dune.slash("mesa tablero", user=GM)
    await dune.slash("dune impulso añadir", user=GM, cantidad=4)
    await dune.slash("dune amenaza añadir", user=GM, cantidad=5)
    await dune.slash("dune determinacion dar", user=GM, jugador=PLAYER, cantidad=2)
    await dune.slash("dune tarea crear", user=GM, nombre="Forzar la *puerta*", requisito=5)
    dune.script(5, 15)
    await dune.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1, tarea=1)
    await dune.slash("dune impulso gastar", user=PLAYER, cantidad=1)
    await dune.slash("dune amenaza gastar", user=GM, uso="dificultad")
    now = await shown(dune)
    assert "Impulso: **3**/6" in now
    assert "Amenaza: **3**" in now
    assert "Pendiente: +1 de dificultad a la próxima tirada" in now
    assert f"Determinación: <@{PLAYER.id}>: 2/3" in now
    assert "Tareas extendidas abiertas: Forzar la \\*puerta\\*: 2/5 puntos" in now
    assert f"<@{PLAYER.id}> gastó 1 de Impulso (quedan 3)" in now
    await dune.slash("mesa tablero", user=GM, ocultar_amenaza=True, locale="en-US")
    hidden = await shown(dune)
    assert "Threat: hidden" in hidden and "Momentum: **3**/6" in hidden
    assert "Amenaza" not in hidden


async def test_the_donjon_board(harness: Harness) -> None:
    h = await play(harness, "donjon")
    await h.slash("mesa tablero", user=GM)
    await h.slash("donjon ajustes", user=GM, nivel=2)
    await h.slash("donjon banco ajustar", user=GM, cantidad=3, jugador=PLAYER)
    await h.slash("donjon banco ajustar", user=GM, cantidad=1)
    h.script(20, 19, 18, 1, 1, 1)
    panel = (await h.slash("donjon prueba", dados=3, contra=3)).message
    record_id = panel.custom_ids[0].rsplit(":", 1)[1]
    for fact in ("Hay una llave", "La puerta cede", "Huele a azufre"):
        opened = await h.click(h.current(panel), f"donjon:ley:hecho:{record_id}")
        await h.submit(opened.modal_id, {"hecho": fact}, message=h.current(panel))
    now = await shown(h)
    assert "Nivel del Donjon: **2**" in now
    assert f"Dados guardados: El DJ: 1 dado\n<@{PLAYER.id}>: 3 dados" in now
    assert "Hechos por narrar: El DJ narra: Hay una llave · La puerta cede · Huele a azufre" in now


async def test_the_dnd_board_follows_the_turn(harness: Harness) -> None:
    h = await play(harness, "dnd5e")
    await h.slash("mesa tablero", user=GM)
    assert "Ningún combate abierto." in await shown(h)
    panel = (await h.slash("dnd iniciativa panel", user=GM)).message
    h.script(15)
    await h.slash("dnd iniciativa unirme", modificador=2)
    h.script(5)
    await h.slash("dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=1, cantidad=3)
    assert "Iniciativa · sin empezar: 17 · Jugadora\n6 · Goblin ×3" in await shown(h)
    await h.click(h.current(panel), "dnd:ini:empezar:1:0", user=GM)
    assert "Iniciativa · ronda 1: ▶ **17 · Jugadora** (su turno)\n6 · Goblin ×3" in await shown(h)
    await h.click(h.current(panel), "dnd:ini:siguiente:1:0", user=GM)
    assert "17 · Jugadora\n▶ **6 · Goblin ×3** (su turno)" in await shown(h)


async def test_the_mediana_board(harness: Harness) -> None:
    h = await play(harness, "mediana")
    await h.slash("mesa tablero", user=GM, locale="en-US")
    panel = (await h.slash("mediana iniciativa")).message
    opened = await h.click(panel, "mediana:ini:unirme:1:0")
    h.script(10, 10, 2, 5, 5, 5)
    await h.submit(
        opened.modal_id, {"nombre": "", "bono": ["12"], "estorbo": ["2"]}, message=h.current(panel)
    )
    assert "Initiative · round 1: ▶ **25 · Jugadora** (their turn)" in await shown(h)


async def test_a_burst_of_spends_is_one_edit_showing_the_final_pools(dune: Harness) -> None:
    assert dune.bot is not None
    await dune.slash("mesa tablero", user=GM)
    for _ in range(3):
        await dune.slash("dune amenaza añadir", user=GM, cantidad=10)
    await dune.bot.boards.settled()
    gate = Gate()
    dune.bot.boards.sleep = gate.sleep
    before = edits(dune)
    await asyncio.gather(*(dune.slash("dune amenaza gastar", user=GM, cantidad=1) for _ in range(20)))
    assert edits(dune) == before, "nothing is drawn while the burst goes on"
    gate.opened.set()
    now = await shown(dune)
    assert await dune.pool("amenaza") == 10
    assert "Amenaza: **10**" in now
    assert edits(dune) - before == 1


async def test_a_boards_edit_sends_its_drawing_without_copying_it(
    dune: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The redraw only reads the drawing (its fingerprint, the edit's payload): a copy is for
    whoever may change it (the overlay pages)."""
    assert dune.bot is not None
    await dune.slash("mesa tablero", user=GM)
    await dune.bot.boards.settled()
    copies: list[discord.Embed] = []
    copy = discord.Embed.copy

    def counted(embed: discord.Embed) -> discord.Embed:
        copies.append(embed)
        return copy(embed)

    monkeypatch.setattr(discord.Embed, "copy", counted)
    before = edits(dune)
    await dune.slash("dune amenaza añadir", user=GM, cantidad=2)
    assert "Amenaza: **2**" in await shown(dune)
    assert edits(dune) - before == 1
    assert copies == []
    drawn = await dune.bot.boards.drawings.board(CHANNEL_ID, "es")
    assert copies == [dune.bot.boards.drawings._kept[(CHANNEL_ID, "es")]] and drawn is not copies[0]


async def test_a_429_delays_the_edit_but_the_final_state_arrives(dune: Harness) -> None:
    """Each failed edit waits longer before the next try (BACKOFF), then the final state
    arrives. The waits are recorded, not slept: they would be 7 s of the suite's clock."""
    assert dune.bot is not None
    await dune.slash("mesa tablero", user=GM)
    waits: list[float] = []

    async def wait(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(0)

    dune.bot.boards.sleep = wait
    dune.discord.fail_edits = [429, 429]
    spent = await dune.slash("dune amenaza añadir", user=GM, cantidad=2)
    assert not spent.ephemeral, "the interaction's answer never waits for the board"
    assert "Amenaza: **2**" in await shown(dune)
    assert dune.discord.fail_edits == []
    assert waits == [dune.bot.boards.delay, BACKOFF[0], BACKOFF[1]]


@pytest.mark.parametrize(
    "failure",
    [
        asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        # A connection cut under the read leaves asyncpg mid-operation: neither a
        # PostgresError nor an InterfaceError, a database failure all the same.
        asyncpg.InternalClientError("cannot switch to state 15; another operation is in progress"),
    ],
)
async def test_a_database_out_of_reach_while_drawing_is_tried_again(
    dune: Harness, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    """PostgreSQL gone for a moment while the board's task reads the table: the task
    survives, waits and draws the final state (as after a failed edit)."""
    assert dune.bot is not None
    await dune.slash("mesa tablero", user=GM)
    store = dune.bot.store
    read = store.table_or_default
    failures = [failure]

    async def flaky(channel_id: int, guild_id: int | None) -> Table:
        task = asyncio.current_task()
        if failures and task is not None and task.get_name().startswith(TASK_PREFIX):
            raise failures.pop()
        return await read(channel_id, guild_id)

    async def no_wait(seconds: float) -> None:
        pass

    monkeypatch.setattr(store, "table_or_default", flaky)
    dune.bot.boards.sleep = no_wait
    await dune.slash("dune impulso añadir", user=GM, cantidad=2)
    assert "Impulso: **2**/6" in await shown(dune)
    assert not failures


async def test_a_deleted_board_is_posted_again_saying_so_once(dune: Harness) -> None:
    await dune.slash("mesa tablero", user=GM)
    first = board(dune)
    del dune.discord.messages[first.id]
    await dune.slash("dune impulso añadir", user=GM, cantidad=2)
    now = await shown(dune)
    assert board(dune).id != first.id
    assert "se había borrado; aquí está de nuevo" in now and "Impulso: **2**/6" in now
    assert board(dune).id in dune.discord.pinned
    await dune.slash("dune impulso añadir", user=GM, cantidad=1)
    again = await shown(dune)
    assert "se había borrado" not in again and "Impulso: **3**/6" in again


async def test_a_restart_brings_the_board_up_to_date(dune: Harness) -> None:
    assert dune.bot is not None
    await dune.slash("mesa tablero", user=GM)
    dune.bot.boards.sleep = Gate().sleep  # the edit never happens before the restart
    await dune.slash("dune impulso añadir", user=GM, cantidad=5)
    assert "Impulso: **0**/6" in text(board(dune))
    await dune.restart()
    quick(dune)
    assert "Impulso: **5**/6" in await shown(dune)


async def test_a_restarted_shard_process_holds_only_its_own_guilds_boards(
    dune: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With shards, a board is edited only by the process running its guild's shard (the
    guild is read from the table for a board placed before boards remembered it)."""
    assert dune.bot is not None
    await dune.slash("mesa tablero", user=GM)
    spot = dune.bot.boards.spots[CHANNEL_ID]
    assert json.loads(spot.dump())["guild"] == GUILD_ID
    await dune.bot.store.set_meta(META_PREFIX + str(CHANNEL_ID), json.dumps({"message": spot.message_id}))
    plain = dune.settings()
    for shard, held in (((GUILD_ID >> 22) + 1) % 2, False), ((GUILD_ID >> 22) % 2, True):
        sharded = plain.model_copy(update={"tirada_shard_count": 2, "tirada_shard_ids": (shard,)})
        monkeypatch.setattr(dune, "settings", lambda sharded=sharded: sharded)
        await dune.restart()
        assert (CHANNEL_ID in dune.bot.boards.spots) is held
    assert dune.bot.boards.spots[CHANNEL_ID].guild_id == GUILD_ID


async def test_a_change_another_process_makes_redraws_the_board_without_the_sweep(postgres_url: str) -> None:
    """Two processes on one PostgreSQL database: a change written by the other one
    reaches this one's board at once (LISTEN/NOTIFY), not at the five-minute sweep."""
    harness = Harness(postgres_url)
    await harness.start()
    other = await Store.open(postgres_url)
    try:
        await play(harness, "dune")
        await harness.slash("mesa tablero", user=GM)
        assert harness.bot is not None and "Impulso: **0**/6" in await shown(harness)
        heard = asyncio.Event()
        harness.bot.store.listeners.append(lambda channel, _touched: channel == CHANNEL_ID and heard.set())
        await other.apply(Operation(CHANNEL_ID, 5, GM.id, "otra", (Change("impulso", 2, cap=6),)))
        await asyncio.wait_for(heard.wait(), 30)
        assert "Impulso: **2**/6" in await shown(harness)
    finally:
        await other.close()
        await harness.close()


async def test_undo_reset_and_scene_end_show_on_the_board(dune: Harness) -> None:
    await dune.slash("mesa tablero", user=GM)
    await dune.slash("dune impulso añadir", user=GM, cantidad=3)
    await dune.slash("mesa escena-fin", user=GM)
    assert "Impulso: **2**/6" in await shown(dune)
    await dune.slash("mesa deshacer", user=GM)
    assert "Impulso: **3**/6" in await shown(dune)
    ask = await dune.slash("mesa reiniciar", user=GM)
    await dune.click(ask.message, f"mesa:reiniciar:si:{CHANNEL_ID}", user=GM)
    assert "Impulso: **0**/6" in await shown(dune)


async def test_running_it_again_moves_the_board_one_per_table(dune: Harness) -> None:
    await dune.slash("mesa tablero", user=GM)
    first = board(dune)
    await dune.slash("mesa tablero", user=GM)
    assert board(dune).id != first.id
    assert first.id not in dune.discord.messages
    boards = [m for m in dune.discord.messages.values() if "Tablero de la mesa" in str(m.data)]
    assert len(boards) == 1


async def test_a_table_without_a_board_is_never_edited(dune: Harness) -> None:
    await dune.slash("dune impulso añadir", user=GM, cantidad=3)
    assert edits(dune) == 0


async def test_every_system_a_table_plays_declares_its_board_section(harness: Harness) -> None:
    """The board reads the store without importing a cog: each system's cog, once loaded,
    has declared its own section (bot/systems.py), named after what it stores."""
    from bot import systems

    sistema = harness.command(["mesa", "sistema"]).get_parameter("sistema")
    offered = {choice.value for choice in sistema.choices}
    assert {s.name for s in systems.every() if s.board is not None} == offered


async def test_a_redraw_that_changes_nothing_edits_nothing(dune: Harness) -> None:
    assert dune.bot is not None
    await dune.slash("mesa tablero", user=GM)
    await dune.slash("dune amenaza añadir", user=GM, cantidad=2)
    await dune.bot.boards.settled()
    before = edits(dune)
    dune.bot.boards.resync()
    await dune.bot.boards.settled()
    assert edits(dune) == before
    await dune.slash("dune amenaza añadir", user=GM, cantidad=1)
    assert "Amenaza: **3**" in await shown(dune)
    assert edits(dune) == before + 1


async def test_two_boards_placed_at_once_leave_one_and_no_lock_behind(dune: Harness) -> None:
    """One placing at a time a table, and what the boards keep of a quiet table is where its
    board is and a fingerprint of what it shows: no lock, no copy of the drawing (2,000
    tables kept a lock and a drawn board each for the process's life)."""
    assert dune.bot is not None
    await asyncio.gather(dune.slash("mesa tablero", user=GM), dune.slash("mesa tablero", user=GM))
    boards = [m for m in dune.discord.messages.values() if "Tablero de la mesa" in str(m.data)]
    assert len(boards) == 1
    await dune.slash("dune amenaza añadir", user=GM, cantidad=2)
    await dune.bot.boards.settled()
    assert dune.bot.boards._placing == {}
    assert isinstance(dune.bot.boards._shown[CHANNEL_ID], bytes)


async def test_only_the_latest_drawings_are_kept(dune: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept drawing only saves a read to whoever shows the table again before it changes
    (an overlay page, within a second of the board): the least recently drawn go first."""
    assert dune.bot is not None
    monkeypatch.setattr(updater, "DRAWINGS_KEPT", 2)
    drawings = dune.bot.boards.drawings
    first, second, third = CHANNEL_ID, CHANNEL_ID + 1, CHANNEL_ID + 2
    for channel_id in (first, second, third):
        await drawings.board(channel_id, "es")
    made = drawings.made
    await drawings.board(third, "es")
    await drawings.board(second, "es")
    assert drawings.made == made
    await drawings.board(first, "es")
    assert drawings.made == made + 1


def test_the_drawings_kept_outlast_the_overlays_wait_under_load() -> None:
    """At the 2,000-table load's pace (some 30 board drawings a second), the drawings kept
    span seconds of play, more than a board and its overlay pages draw apart (about one), and
    not every table's for the process's life."""
    assert 5 * 30 <= updater.DRAWINGS_KEPT <= 500


def test_a_fingerprint_tells_equal_boards_by_content_without_writing_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every redraw asks for one: equal parts give equal bytes whichever objects hold them,
    any changed part (a number, a field's place) other bytes, and no JSON text is
    written for it (a board's ``json.dumps`` cost some three times ``marshal``'s)."""

    def drawn(impulso: object, title: str = "Tablero") -> discord.Embed:
        embed = discord.Embed(title="".join(title), description="Sistema: Dune")
        embed.add_field(name="Impulso", value=f"**{impulso}**/6")
        embed.add_field(name="Amenaza", value="**3**", inline=False)
        return embed

    def written(*args: object, **kwargs: object) -> str:
        raise AssertionError("wrote JSON text")

    monkeypatch.setattr(json, "dumps", written)
    same = updater.fingerprint(drawn(2))
    assert updater.fingerprint(drawn(2, title="".join(["Tab", "lero"]))) == same
    assert len(same) == 16
    assert updater.fingerprint(drawn(3)) != same
    moved = drawn(2)
    moved.set_field_at(1, name="Amenaza", value="**3**", inline=True)
    assert updater.fingerprint(moved) != same


def test_a_fingerprint_is_the_same_whether_two_parts_share_one_text_or_not() -> None:
    """A format of ``marshal`` that writes an object met before as a reference would give a
    board whose two fields hold one string other bytes than the same board with two equal
    strings: an edit of a board that did not change."""
    shared = "".join(["**", "3", "**"])
    one = discord.Embed(title="Tablero")
    one.add_field(name="Impulso", value=shared)
    one.add_field(name="Amenaza", value=shared)
    two = discord.Embed(title="Tablero")
    two.add_field(name="Impulso", value=shared)
    two.add_field(name="Amenaza", value="".join(["**3", "**"]))
    assert updater.fingerprint(one) == updater.fingerprint(two)


async def test_a_change_made_while_the_board_is_being_posted_is_drawn_once_it_is(
    dune: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change heard after the board was drawn and before it is known to be posted (its
    message on the way to Discord) reaches it: before, ``touch`` found no board to mark."""
    assert dune.bot is not None
    store = dune.bot.store
    draw = updater.board_embed

    async def then_changed(*args: object) -> discord.Embed:
        embed = await draw(*args)  # type: ignore[arg-type]
        await store.apply(Operation(CHANNEL_ID, 77, GM.id, "test", (Change("amenaza", 5),)))
        return embed

    monkeypatch.setattr(updater, "board_embed", then_changed)
    await dune.slash("mesa tablero", user=GM)
    monkeypatch.setattr(updater, "board_embed", draw)
    assert "Amenaza: **5**" in await shown(dune)
