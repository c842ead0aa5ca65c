"""Hidden stays hidden (issue 28): what a player may not see never reaches an output they
can read. The GM's secret rolls before their reveal, a player's private rolls, an NPC
sheet's numbers and a hidden Amenaza are each given a distinctive value, and every output
a player reaches is searched for it."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import charts
from tests.support.harness import Call, Harness, Reply, Upload
from tests.support.payloads import (
    CHANNEL_ID,
    GM,
    GM_CHANNEL_ID,
    OTHER,
    OTHER_CHANNEL_ID,
    PLAYER,
    User,
    text_channel,
)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "fichas"


def npc_sheet(system: str, name: str, **fields: Any) -> Upload:
    """The example sheet of ``system`` renamed, with ``fields`` (top level) replaced."""
    data = json.loads((DOCS / f"{system}.json").read_text()) | {"nombre": name} | fields
    return Upload(f"{system}.json", json.dumps(data).encode())


def number(n: int) -> str:
    """``n`` as a whole number: not a digit of a longer one (an id, a timestamp), nor of a
    decimal (93,6 %)."""
    return rf"(?<![\d.,]){n}(?![.,]?\d)"


async def test_a_deleted_npc_sheets_hit_points_stay_off_a_players_history(harness: Harness) -> None:
    """The hiding is the row's own: deleting the sheet does not make its numbers public."""
    await harness.table_for("dnd5e")
    upload = npc_sheet("dnd5e", "Capitana", pg={"actuales": 83, "maximos": 83, "temporales": 0})
    await harness.slash("ficha importar", user=GM, archivo=upload, pnj=True)
    await harness.slash("ficha editar", user=GM, ficha="Capitana", campo="pg.actuales", valor="71")
    assert re.search(number(71), (await harness.slash("mesa historial", user=GM)).text)
    await harness.slash("ficha borrar", user=GM, ficha="Capitana")
    seen = (await harness.slash("mesa historial", user=OTHER)).text
    assert not re.search(number(83), seen) and not re.search(number(71), seen), seen
    assert re.search(number(71), (await harness.slash("mesa historial", user=GM)).text)


THIRD_CHANNEL_ID = 920000000000000009
DUNE, DND, DONJON = CHANNEL_ID, OTHER_CHANNEL_ID, THIRD_CHANNEL_ID
TABLES = (DUNE, DND, DONJON)


# Each hidden thing with a value nothing else in the session shows (numbers of 60 and
# more: the chronicle's times show minutes; none a Discord flag), searched as a whole.
HIDDEN = {
    "a GM's secret roll": (number(777), "Emboscada zafiro", r"\bd1000\b"),
    "another player's private roll": (number(555), "Diario ámbar", r"\bd999\b"),
    "a hidden Amenaza": (number(92), number(93)),
    "an NPC sheet's hit points": (number(617), number(583)),
    "a deleted NPC sheet's hit points": (number(641), number(606)),
    "a monster's hit points": (number(659),),
    "a Donjon NPC's Heridas, Provisiones and Riqueza": (number(67), number(73), number(78), number(89)),
}


@pytest.fixture(autouse=True)
def readable_charts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chart is something a player reads too: drawn here as the text it is drawn from."""

    async def draw(*args: object) -> bytes:
        return repr(args).encode()

    monkeypatch.setattr(charts, "against_chart", draw)


@pytest.fixture
async def three_tables(tmp_path: Path) -> AsyncIterator[Harness]:
    """The harness's server with a third table channel."""
    h = Harness(tmp_path / "tirada.db")
    h.channels.append(text_channel(THIRD_CHANNEL_ID, "tercera-mesa"))
    await h.start()
    yield h
    await h.close()


class Watcher:
    """Who made each interaction, so that every request the bot made can be told apart:
    what the watching player could read, and what only someone else could."""

    def __init__(self, h: Harness, player: User, channels: tuple[int, ...] = TABLES) -> None:
        self.h, self.player, self.channels = h, player, channels
        # Each interaction's token: who made it, where, and on which message (a click's).
        self.made: dict[str, tuple[int, int, int | None]] = {}
        feed = h.feed

        async def feed_and_note(payload: dict[str, Any]) -> Reply:
            who = payload.get("member", {}).get("user") or payload["user"]
            clicked = payload.get("message", {}).get("id")
            self.made[payload["token"]] = (
                int(who["id"]),
                int(payload["channel_id"]),
                None if clicked is None else int(clicked),
            )
            return await feed(payload)

        h.feed = feed_and_note  # type: ignore[method-assign]

    def seen(self) -> list[str]:
        """Every request body (and attached file) the player could read: messages posted
        or edited in a table channel, answers to the player's own interactions, and others'
        answers posted in a table channel for everyone."""
        discord = self.h.discord
        public: dict[str, bool] = {}
        shown = []
        for call in discord.calls:
            token = next((t for t in self.made if t in call.path), None)
            if token is None:
                visible = any(call.path.startswith(f"/channels/{channel}/") for channel in self.channels)
            elif self.made[token][0] == self.player.id:
                visible = True
            else:
                visible = self.others_answer(call, token, public)
            if visible:
                shown.append(json.dumps(call.payload, ensure_ascii=False))
                shown += [data.decode(errors="replace") for _, data in call.attachments]
        return shown

    def others_answer(self, call: Call, token: str, public: dict[str, bool]) -> bool:
        """Whether an answer to someone else's interaction is a message everyone at a table
        channel sees: a new one not flagged ephemeral, or an edit of such a message."""
        discord = self.h.discord
        _, channel_id, message_id = self.made[token]
        if channel_id not in self.channels or not isinstance(call.payload, dict):
            return False
        body = call.payload.get("data") or {}
        kind = call.payload.get("type")
        if call.path.endswith("/callback") and kind in (4, 5):
            public[token] = not body.get("flags", 0) & 64
            return public[token]
        if call.path.endswith("/callback") and kind in (6, 7):
            message = discord.messages.get(message_id or 0)
            return message is not None and not message.ephemeral
        if call.path.endswith("/messages/@original"):
            return public.get(token, False)
        if call.method == "POST":
            return not call.payload.get("flags", 0) & 64
        edited = discord.messages.get(int(call.path.rsplit("/", 1)[1]))
        return edited is not None and not edited.ephemeral


def leaks(shown: list[str]) -> dict[str, list[str]]:
    """Each hidden thing found in what was shown, with the text around it."""
    found: dict[str, list[str]] = {}
    for thing, patterns in HIDDEN.items():
        for pattern in patterns:
            for text in shown:
                for match in re.finditer(pattern, text):
                    found.setdefault(thing, []).append(text[max(0, match.start() - 80) : match.end() + 40])
    return found


async def sheet_id(h: Harness, channel_id: int, name: str) -> str:
    assert h.bot is not None
    return next(str(row.id) for row in await h.bot.store.sheets(channel_id) if row.name == name)


async def dune_session(h: Harness) -> None:
    """Secret rolls (one revealed), a private roll, a hidden Amenaza of 93."""
    await h.table_for("dune", channel_id=DUNE)
    gm_channel = next(c for c in h.channels if int(c["id"]) == GM_CHANNEL_ID)
    await h.slash("mesa canal-dj", user=GM, canal=gm_channel)
    await h.slash("mesa tablero", user=GM, ocultar_amenaza=True)
    for amount in (20, 20, 20, 20, 12):
        await h.slash("dune amenaza añadir", user=GM, cantidad=amount)
    await h.slash("dune amenaza añadir", cantidad=1)
    h.script(777)
    await h.slash("tirar", user=GM, expresion="1d1000", secreta=True, motivo="Emboscada zafiro")
    h.script(7)
    shown = await h.slash("tirar", user=GM, expresion="1d20", secreta=True, motivo="Trampa")
    secret = next(m for m in shown.messages if m.channel_id == GM_CHANNEL_ID)
    await h.click(secret, next(c for c in secret.custom_ids if c.startswith("secreta:revelar:")), user=GM)
    h.script(555)
    await h.slash("tirar", user=OTHER, expresion="1d999", privada=True, motivo="Diario ámbar")
    h.script(3, 18, 11)
    await h.slash("dune tirada", user=GM, habilidad=6, motivacion=6, pnj=True, dados_extra=1)
    h.script(4, 9)
    await h.slash("dune tirada", habilidad=6, motivacion=6)
    await h.slash("dune amenaza ver")
    await h.slash("dune amenaza ver", user=GM)
    await h.slash("dune impulso ver")


async def dnd_session(h: Harness) -> None:
    """Two NPC sheets (one deleted, its last change undone) and a monster in combat."""
    await h.table_for("dnd5e", channel_id=DND)
    for name, hp, now in (("Capitana Ónice", 617, 583), ("Sargento Brea", 641, 606)):
        upload = npc_sheet("dnd5e", name, pg={"actuales": hp, "maximos": hp, "temporales": 0})
        await h.slash("ficha importar", user=GM, archivo=upload, pnj=True, channel_id=DND)
        await h.slash(
            "ficha editar", user=GM, ficha=name, campo="pg.actuales", valor=str(now), channel_id=DND
        )
    await h.slash("ficha borrar", user=GM, ficha="Sargento Brea", channel_id=DND)
    await h.slash("mesa deshacer", user=GM, channel_id=DND)
    await h.slash("mesa tablero", user=GM, channel_id=DND)
    panel = (await h.slash("dnd iniciativa panel", channel_id=DND)).message
    captain = await sheet_id(h, DND, "Capitana Ónice")
    h.script(12)
    await h.slash("dnd iniciativa monstruos", user=GM, como=captain, channel_id=DND)
    h.script(9)
    await h.slash(
        "dnd iniciativa monstruos", user=GM, nombre="Ogro", modificador=0, pg=659, ca=11, channel_id=DND
    )
    hit_points = next(c for c in h.current(panel).custom_ids if c.startswith("dnd:pg:"))
    await h.click(h.current(panel), hit_points, user=GM)
    for typed in ("", "Capi", "Ogro"):
        await h.autocomplete("dnd ataque", "objetivo", typed, channel_id=DND)
    await h.autocomplete("ficha ver", "ficha", "", channel_id=DND)
    await h.autocomplete("dnd iniciativa monstruos", "como", "", channel_id=DND)
    await h.slash("ficha ver", ficha=captain, channel_id=DND)


async def donjon_session(h: Harness) -> None:
    """A Donjon NPC's sheet: Heridas 67 then 73, Provisiones 78, Riqueza 89."""
    await h.table_for("donjon", channel_id=DONJON)
    upload = npc_sheet("donjon", "Bruja del Pantano", heridas=67, provisiones=78, riqueza=89)
    await h.slash("ficha importar", user=GM, archivo=upload, pnj=True, channel_id=DONJON)
    await h.slash(
        "ficha editar", user=GM, ficha="Bruja del Pantano", campo="heridas", valor="73", channel_id=DONJON
    )
    await h.slash("mesa tablero", user=GM, channel_id=DONJON)


async def every_page(h: Harness, channel_id: int) -> None:
    """``/mesa historial`` and each older page, through its button."""
    message = (await h.slash("mesa historial", channel_id=channel_id)).message
    for _ in range(20):
        ids = h.current(message).custom_ids
        older = [c for c in ids if c.startswith("mesa:historial:") and c.split(":")[3] != "0"]
        if not older:
            return
        await h.click(h.current(message), older[0])
    raise AssertionError("the history never ends")


async def read_everything(h: Harness) -> list[str]:
    """Every output the player reaches at each table; returns the chronicle's files, which
    the GM gets privately to share with the table."""
    shared = []
    for channel_id in TABLES:
        await every_page(h, channel_id)
        await h.slash("mesa estado", channel_id=channel_id)
        for scope in ("mias", "mesa", "bot"):
            await h.slash("estadisticas", de=scope, channel_id=channel_id)
        await h.autocomplete("mesa historial", "reserva", "", channel_id=channel_id)
        await h.slash("ficha exportar", channel_id=channel_id)
        for form in ("markdown", "csv"):
            chronicle = await h.slash("mesa cronica", user=GM, formato=form, channel_id=channel_id)
            shared += [data.decode() for call in chronicle.calls for _, data in call.attachments]
    return shared


async def test_nothing_hidden_reaches_anything_a_player_reads(three_tables: Harness) -> None:
    """One session at three tables with every kind of hidden thing, then everything the
    player can read, searched for each hidden value."""
    h = three_tables
    watcher, gm, other = Watcher(h, PLAYER), Watcher(h, GM, (*TABLES, GM_CHANNEL_ID)), Watcher(h, OTHER)
    await dune_session(h)
    await dnd_session(h)
    await donjon_session(h)
    shared = await read_everything(h)
    assert h.bot is not None
    await h.bot.boards.settled()
    assert len(shared) == 2 * len(TABLES)
    found = leaks(watcher.seen() + shared)
    assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)
    # The search finds what is there: the GM saw every secret but the private roll, whose
    # roller saw it.
    assert set(leaks(gm.seen())) == set(HIDDEN) - {"another player's private roll"}
    assert "another player's private roll" in leaks(other.seen())
