"""``python -m bot`` as a real process against a fake Discord on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from tests.support.fake_discord import FakeDiscord
from tests.support.payloads import (
    ADMIN,
    CHANNEL_ID,
    OTHER,
    PLAYER,
    TOKEN,
    Message,
    User,
    interaction_payload,
    snowflake,
    text_channel,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()
    assert not server.refused, "Discord would refuse what the bot sent: " + "; ".join(
        map(str, server.refused)
    )


async def start_bot(
    fake: FakeDiscord, tmp_path: Path, db: str | None = None, **extra: str
) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TIRADA_"))}
    env |= {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        "TIRADA_DB": db or str(tmp_path / "datos" / "tirada.db"),
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "LOG_LEVEL": "INFO",
        # A board's edit 50 ms after a change instead of a second: the tests wait for edits.
        "TIRADA_BOARD_DELAY": "0.05",
    } | extra
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


def roll_command(expression: str) -> dict[str, object]:
    data = {
        "id": str(snowflake()),
        "name": "tirar",
        "type": 1,
        "options": [{"type": 3, "name": "expresion", "value": expression}],
    }
    return interaction_payload(2, data, user=PLAYER, locale="es-ES", channel_id=920000000000000001)


async def test_the_bot_process_rolls_and_stops_cleanly(fake: FakeDiscord, tmp_path: Path) -> None:
    process = await start_bot(fake, tmp_path)
    try:
        await asyncio.wait_for(fake.identified.wait(), timeout=30)
        sync = await fake.wait_for("PUT", r"^/applications/\d+/commands$")
        assert any(c["name"] == "tirar" for c in sync.body)

        payload = roll_command("1d20+5")
        await fake.dispatch("INTERACTION_CREATE", payload)
        callback = await fake.wait_for("POST", rf"^/interactions/{payload['id']}/[^/]+/callback$")
        assert callback.body["type"] == 4
        embed = callback.body["data"]["embeds"][0]
        assert embed["title"] == "🎲 1d20 + 5"
        total = int(embed["fields"][1]["value"].strip("*"))
        assert 6 <= total <= 25
        assert callback.body["data"]["allowed_mentions"] == {"parse": []}

        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0
    logs = [json.loads(line) for line in stderr.decode().splitlines() if line.startswith("{")]
    assert any(entry["msg"] == "stopped" for entry in logs)
    assert not [entry for entry in logs if entry["level"] == "ERROR"], stderr.decode()[-3000:]
    frozen = [entry["objects"] for entry in logs if entry["msg"] == "start-up's memory frozen"]
    assert len(frozen) == 1 and frozen[0] > 50_000, frozen
    assert (tmp_path / "datos" / "tirada.db").exists()


async def test_an_unusable_database_path_exits_with_one_clear_line(fake: FakeDiscord, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    process = await start_bot(fake, tmp_path, db=str(blocker / "tirada.db"))
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 3
    lines = [line for line in stderr.decode().splitlines() if not line.startswith("{")]
    assert len(lines) == 1
    assert "No puedo abrir la base de datos" in lines[0]
    assert "I can't open the database" in lines[0]


async def test_a_second_process_on_the_same_sqlite_file_exits_6_with_one_line(served: Served) -> None:
    """A second process on the served process's file exits at once; the first serves on
    (and stops with 0 at the module's end, where ``served`` checks it)."""
    second = await start_bot(served.fake, served.folder, db=str(served.database))
    _, stderr = await asyncio.wait_for(second.communicate(), timeout=30)
    assert second.returncode == 6
    lines = [line for line in stderr.decode().splitlines() if not line.startswith("{")]
    assert len(lines) == 1
    assert "Otro proceso de Tirada ya usa" in lines[0] and "Another Tirada process" in lines[0]
    assert served.process.returncode is None


def closed_port() -> int:
    """A local port nothing listens on: connecting to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_postgresql_server_that_is_not_there_exits_3_without_showing_the_password(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    url = f"postgresql://tirada:secreto@127.0.0.1:{closed_port()}/tirada"
    process = await start_bot(fake, tmp_path, db=url)
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 3
    lines = [line for line in stderr.decode().splitlines() if not line.startswith("{")]
    assert len(lines) == 1
    assert "No puedo abrir la base de datos postgresql://tirada:***@127.0.0.1" in lines[0]
    assert "secreto" not in stderr.decode()


async def test_no_network_at_start_is_retried_then_exits_4_saying_discord_is_unreachable(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    port = closed_port()
    process = await start_bot(
        fake,
        tmp_path,
        DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/gateway",
        TIRADA_START_ATTEMPTS="2",
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 4
    text = stderr.decode().splitlines()
    logs = [json.loads(line) for line in text if line.startswith("{")]
    lines = [line for line in text if not line.startswith("{")]
    assert [e["msg"] for e in logs if e["level"] == "WARNING" and "retrying" in e["msg"]] == [
        "cannot reach Discord; retrying"
    ]
    assert len(lines) == 1
    assert "No consigo conectar con Discord tras 2 intentos" in lines[0]
    assert "I can't reach Discord after 2 attempts" in lines[0]
    assert "base de datos" in lines[0] and "No puedo abrir" not in lines[0]
    assert not (tmp_path / "datos").exists()


async def test_a_token_discord_rejects_exits_5_saying_to_reset_it(fake: FakeDiscord, tmp_path: Path) -> None:
    fake.reject_token = True
    process = await start_bot(fake, tmp_path)
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 5
    lines = [line for line in stderr.decode().splitlines() if not line.startswith("{")]
    assert len(lines) == 1
    assert "Discord ha rechazado DISCORD_TOKEN" in lines[0] and "Reset Token" in lines[0]
    assert "forma de token" not in lines[0]


async def truncated_database(path: Path) -> None:
    """A real database cut in half, as a full disk or an interrupted copy leaves it."""
    store = await Store.open(path)
    await store.close()
    cut_in_half(path)


def cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
async def test_a_corrupt_database_exits_3_without_hanging(
    fake: FakeDiscord, tmp_path: Path, damage: str
) -> None:
    """The worker thread of the connection that failed is closed too, so the process ends
    (before, it printed the line and hung forever: a supervisor never saw exit 3)."""
    db = tmp_path / "tirada.db"
    if damage == "garbage":
        db.write_bytes(b"not a database at all, just garbage " * 200)
    else:
        await truncated_database(db)
    process = await start_bot(fake, tmp_path, db=str(db))
    try:
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 3, stderr.decode()[-2000:]
    lines = [line for line in stderr.decode().splitlines() if not line.startswith("{")]
    assert len(lines) == 1 and "No puedo abrir la base de datos" in lines[0]


def command(path: list[str], options: list[dict[str, object]]) -> dict[str, object]:
    """A slash command's data: ``/dune impulso gastar cantidad:1`` as nested options."""
    built: list[dict[str, object]] = options
    for depth, name in reversed(list(enumerate(path[1:], start=1))):
        kind = 1 if depth == len(path) - 1 else 2
        built = [{"type": kind, "name": name, "options": built}]
    return {"id": str(snowflake()), "name": path[0], "type": 1, "options": built}


def payload_for(
    data: dict[str, object],
    user=ADMIN,
    message: dict | None = None,
    kind: int = 2,
    channel_id: int = CHANNEL_ID,
) -> dict:
    return interaction_payload(kind, data, user=user, locale="es-ES", channel_id=channel_id, message=message)


async def test_sigkill_in_a_burst_loses_nothing_and_old_buttons_answer(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    process = await start_bot(fake, tmp_path)
    try:
        await asyncio.wait_for(fake.identified.wait(), timeout=30)
        setup = payload_for(
            command(["dune", "impulso", "añadir"], [{"type": 4, "name": "cantidad", "value": 6}])
        )
        await fake.dispatch("INTERACTION_CREATE", setup)
        await fake.wait_for("POST", rf"^/interactions/{setup['id']}/")
        roll = payload_for(
            command(
                ["dune", "tirada"],
                [
                    {"type": 3, "name": "habilidad", "value": "20"},
                    {"type": 3, "name": "motivacion", "value": "20"},
                ],
            ),
            user=PLAYER,
        )
        await fake.dispatch("INTERACTION_CREATE", roll)
        posted = await fake.wait_for("POST", rf"^/interactions/{roll['id']}/")
        burst = [
            payload_for(
                command(["dune", "impulso", "gastar"], [{"type": 4, "name": "cantidad", "value": 1}]),
                user=PLAYER,
            )
            if i % 2
            else payload_for(
                command(["dune", "amenaza", "añadir"], [{"type": 4, "name": "cantidad", "value": 1}]),
                user=PLAYER,
            )
            for i in range(40)
        ]
        for payload in burst:
            await fake.dispatch("INTERACTION_CREATE", payload)
        await fake.wait_for("POST", rf"^/interactions/{burst[3]['id']}/")
        process.kill()
        await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == -signal.SIGKILL

    fake.identified.clear()
    again = await start_bot(fake, tmp_path)
    try:
        await asyncio.wait_for(fake.identified.wait(), timeout=30)
        message = Message(snowflake(), CHANNEL_ID, posted.body["data"], ephemeral=False)
        custom_id = next(c for c in message.custom_ids if c.startswith("dune:guardar"))
        click = payload_for(
            {"custom_id": custom_id, "component_type": 2}, user=PLAYER, message=message.payload(), kind=3
        )
        await fake.dispatch("INTERACTION_CREATE", click)
        answer = await fake.wait_for("POST", rf"^/interactions/{click['id']}/")
        assert answer.body["type"] in (4, 7)
        again.send_signal(signal.SIGTERM)
        await asyncio.wait_for(again.communicate(), timeout=30)
    finally:
        if again.returncode is None:
            again.kill()
            await again.wait()
    assert again.returncode == 0

    store = await Store.open(tmp_path / "datos" / "tirada.db")
    sums = await store.ledger_sums(CHANNEL_ID)
    pools = await store.pools(CHANNEL_ID)
    await store.close()
    assert pools, "the setup and some of the burst were committed"
    for pool in pools:
        assert sums.get((pool.pool, pool.owner_id), 0) == pool.value
        assert pool.value >= 0
    values = {p.pool: p.value for p in pools}
    assert values["impulso"] <= 6


# The tables of the tests that share one served process, a channel each (GUILD_ID's).
BOARD_TABLE, FORMS_TABLE, SHEET_TABLE, REQUESTS_TABLE = (CHANNEL_ID + n for n in range(1, 5))


@dataclass
class Served:
    """One healthy ``python -m bot`` shared by the tests of this module that only need one
    serving (a process start is over a second of CPU): each plays at a table of its own,
    and the process is stopped once, at the end, where its exit and its logs are checked."""

    fake: FakeDiscord
    process: asyncio.subprocess.Process
    database: Path
    folder: Path
    stderr: list[str] = field(default_factory=list)


async def read_lines(stream: asyncio.StreamReader, into: list[str]) -> None:
    """Keep reading a process's stderr, so that its logs never fill the pipe and block it."""
    async for line in stream:
        into.append(line.decode())


@pytest.fixture(scope="module")
async def served(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    fake = FakeDiscord()
    tables = (BOARD_TABLE, FORMS_TABLE, SHEET_TABLE, REQUESTS_TABLE)
    fake.guilds[0]["channels"] += [text_channel(c, f"mesa-{c % 10}") for c in tables]
    await fake.start()
    folder = tmp_path_factory.mktemp("served")
    process = await start_bot(fake, folder)
    assert process.stderr is not None
    running = Served(fake, process, folder / "datos" / "tirada.db", folder)
    reader = asyncio.create_task(read_lines(process.stderr, running.stderr))
    try:
        await asyncio.wait_for(fake.identified.wait(), timeout=30)
        yield running
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), timeout=30)
        await reader
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await fake.stop()
    stderr = "".join(running.stderr)
    assert process.returncode == 0, stderr[-3000:]
    logs = [json.loads(line) for line in running.stderr if line.startswith("{")]
    assert any(entry["msg"] == "stopped" for entry in logs)
    assert not [entry for entry in logs if entry["level"] == "ERROR"], stderr[-3000:]
    assert not fake.refused, "Discord would refuse what the bot sent: " + "; ".join(map(str, fake.refused))


async def board_shows(fake: FakeDiscord, board_id: str, needle: str, seconds: float = 20.0) -> None:
    """Wait until the board message has been edited to show ``needle``."""

    def edited() -> bool:
        return any(
            r.method == "PATCH" and r.path.endswith(f"/messages/{board_id}") and needle in json.dumps(r.body)
            for r in fake.requests
        )

    async with asyncio.timeout(seconds), fake.changed:
        await fake.changed.wait_for(edited)


async def test_the_board_follows_a_button_press(served: Served) -> None:
    """The live board in the real process: posted by /mesa tablero, edited after a command
    and again after the reset button is pressed."""
    fake, table = served.fake, BOARD_TABLE
    for path, options in (
        (["mesa", "dj"], []),
        (["mesa", "sistema"], [{"type": 3, "name": "sistema", "value": "dune"}]),
        (["mesa", "tablero"], []),
    ):
        payload = payload_for(command(path, options), channel_id=table)
        await fake.dispatch("INTERACTION_CREATE", payload)
        await fake.wait_for("POST", rf"^/webhooks/\d+/{payload['token']}|^/interactions/{payload['id']}/")
    posted = await fake.wait_for("POST", rf"^/channels/{table}/messages$")
    assert "Tablero de la mesa" in json.dumps(posted.body, ensure_ascii=False)
    pinned = await fake.wait_for("PUT", rf"^/channels/{table}/messages/pins/\d+$")
    board_id = pinned.path.rsplit("/", 1)[1]

    added = payload_for(
        command(["dune", "impulso", "añadir"], [{"type": 4, "name": "cantidad", "value": 3}]),
        channel_id=table,
    )
    await fake.dispatch("INTERACTION_CREATE", added)
    await board_shows(fake, board_id, "**3**/6")

    reset = f"mesa:reiniciar:si:{table}"
    button = {"type": 1, "components": [{"type": 2, "style": 4, "label": "Sí", "custom_id": reset}]}
    message = Message(snowflake(), table, {"components": [button]}, ephemeral=False)
    click = payload_for(
        {"custom_id": reset, "component_type": 2}, message=message.payload(), kind=3, channel_id=table
    )
    await fake.dispatch("INTERACTION_CREATE", click)
    await fake.wait_for("POST", rf"^/interactions/{click['id']}/")
    await board_shows(fake, board_id, "**0**/6")
    assert served.process.returncode is None


async def answer(fake: FakeDiscord, payload: dict) -> dict:
    """Deliver an interaction to the bot process and return the body of its first answer."""
    await fake.dispatch("INTERACTION_CREATE", payload)
    return (await fake.wait_for("POST", rf"^/interactions/{payload['id']}/")).body


def press(body: dict, prefix: str, locale: str, user: User, channel_id: int) -> dict:
    """A click by ``user`` on the button of ``body`` whose custom_id starts with ``prefix``."""
    data = body["data"]
    posted = Message(snowflake(), channel_id, data, False).payload()
    custom_id = next(c for c in Message(0, channel_id, data, False).custom_ids if c.startswith(prefix))
    click = {"custom_id": custom_id, "component_type": 2}
    return interaction_payload(3, click, user=user, locale=locale, channel_id=channel_id, message=posted)


def option(name: str, value: object, kind: int = 4) -> dict[str, object]:
    return {"type": kind, "name": name, "value": value}


def questioned(item: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A form's question as ``(label, component)``: a Label holds its component, an action
    row (the forms before labels) its text input, which carries the label."""
    if item["type"] == 18:
        return item["label"], item["component"]
    (component,) = item["components"]
    return component["label"], component


async def test_the_three_forms_issue_13_found_refused_open_in_both_languages(served: Served) -> None:
    """Narrar hecho and Unirme (Donjon), Ayudar (Dune): Discord refused all three before."""
    fake, table = served.fake, FORMS_TABLE

    def at_table(data: dict[str, object], user: User = ADMIN) -> dict:
        return payload_for(data, user=user, channel_id=table)

    panels = []
    await answer(fake, at_table(command(["mesa", "sistema"], [option("sistema", "donjon", 3)])))
    test = command(["donjon", "prueba"], [option("dados", 100), option("contra", 100)])
    # ADMIN runs the table (it has no GM yet) and presses the panels; PLAYER helps in Dune.
    panels.append((await answer(fake, at_table(test)), "donjon:ley:hecho:", "hecho", ADMIN))
    combat = await answer(fake, at_table(command(["donjon", "iniciativa"], [])))
    panels.append((combat, "donjon:ini:unirme:", "dados", ADMIN))
    await answer(fake, at_table(command(["mesa", "sistema"], [option("sistema", "dune", 3)])))
    assist = command(["dune", "ayuda"], [option("habilidad", 10), option("motivacion", 10)])
    panels.append((await answer(fake, at_table(assist)), "dune:ayuda:unirme:", "enfoque", PLAYER))
    for body, prefix, field_id, user in panels:
        for locale in ("es-ES", "en-US"):
            form = await answer(fake, press(body, prefix, locale, user, table))
            assert form["type"] == 9, form
            inputs = [questioned(item) for item in form["data"]["components"]]
            assert any(i["custom_id"] == field_id for _, i in inputs)
            assert all(len(label) <= 45 for label, _ in inputs)
    assert not fake.refused


async def test_a_player_creates_a_sheet_and_rolls_by_name(served: Served) -> None:
    """/ficha crear, then /dune tirada by skill and drive name, through ``python -m bot``."""
    fake, table = served.fake, SHEET_TABLE
    await answer(
        fake, payload_for(command(["mesa", "sistema"], [option("sistema", "dune", 3)]), channel_id=table)
    )
    created = await answer(
        fake,
        payload_for(
            command(["ficha", "crear"], [option("nombre", "Irulan", 3)]), user=PLAYER, channel_id=table
        ),
    )
    assert "Irulan" in created["data"]["content"], created
    edit = [option("campo", "habilidades.comunicacion", 3), option("valor", "6", 3)]
    await answer(fake, payload_for(command(["ficha", "editar"], edit), user=PLAYER, channel_id=table))
    by_name = [option("habilidad", "comunicacion", 3), option("motivacion", "Verdad", 3)]
    rolled = await answer(
        fake, payload_for(command(["dune", "tirada"], by_name), user=PLAYER, channel_id=table)
    )
    assert "Comunicación 6 + Verdad 4 = 10" in rolled["data"]["embeds"][0]["description"]
    assert not fake.refused


async def test_the_tables_requests_through_the_process(served: Served) -> None:
    """Issue 21 end to end: a saved roll is created and rolled; the GM (the admin, at a
    table without GM) gets the chronicle as a file; the player's statistics count that d20;
    a roll works in a DM, a table command there says where it works. (The player is OTHER,
    whom no other test of the served process rolls for: the statistics are a player's.)"""
    fake, table, player = served.fake, REQUESTS_TABLE, OTHER
    sync = await fake.wait_for("PUT", r"^/applications/\d+/commands$")
    assert any(c["name"] == "guardada" for c in sync.body)

    created = await answer(
        fake,
        payload_for(
            command(
                ["guardada", "crear"],
                [
                    {"type": 3, "name": "nombre", "value": "ataque"},
                    {"type": 3, "name": "expresion", "value": "1d20+{bono}"},
                    {"type": 3, "name": "valores", "value": "bono=5"},
                ],
            ),
            user=player,
            channel_id=table,
        ),
    )
    assert created["data"]["flags"] & 64
    rolled = await answer(
        fake,
        payload_for(
            command(["guardada", "tirar"], [{"type": 3, "name": "nombre", "value": "ataque"}]),
            user=player,
            channel_id=table,
        ),
    )
    assert rolled["data"]["embeds"][0]["title"] == "ataque — 🎲 1d20 + 5"

    chronicle = payload_for(command(["mesa", "cronica"], []), channel_id=table)
    assert (await answer(fake, chronicle))["type"] == 5
    sent = await fake.wait_for("POST", rf"^/webhooks/\d+/{chronicle['token']}")
    assert sent.body["files"] and sent.body["files"][0].endswith("_1.md")

    statistics = payload_for(command(["estadisticas"], []), user=player, channel_id=table)
    assert (await answer(fake, statistics))["type"] == 5
    judged = await fake.wait_for("POST", rf"^/webhooks/\d+/{statistics['token']}")
    assert "Tus d20 (tirar, n = 1)" in judged.body["embeds"][0]["description"]
    assert judged.body["files"] == ["estadisticas.png"]

    in_a_dm = roll_command("1d6")
    in_a_dm = interaction_payload(2, in_a_dm["data"], user=player, locale="en-US", channel_id=1, guild=False)
    assert (await answer(fake, in_a_dm))["data"]["embeds"][0]["title"] == "🎲 1d6"
    table_in_a_dm = interaction_payload(
        2, command(["mesa", "estado"], []), user=player, locale="en-US", channel_id=1, guild=False
    )
    refusal = (await answer(fake, table_in_a_dm))["data"]["embeds"][0]["description"]
    assert refusal.startswith("This command works in a server with Tirada")
