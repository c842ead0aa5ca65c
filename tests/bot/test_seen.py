"""One read per interaction (bot/seen.py): the table, the roll a button names and the
table's pools are read once, however many checks and renders ask; a write is seen by
what is drawn after it."""

from __future__ import annotations

import asyncio
import enum
import json
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot import seen
from tests.support.harness import Harness, Message
from tests.support.payloads import GM, GM_CHANNEL_ID, PLAYER

# The store's reads of a table's row, of one record and of a table's pools (``context``
# reads the table and its pools at once, so it counts as a read of each).
# (``table_or_default`` reads through ``table``: counting both would count one read twice.)
READS = ("table", "context", "record", "pools", "pool")


@pytest.fixture
async def dune(harness: Harness) -> Harness:
    await harness.table_for("dune")
    return harness


def count_reads(h: Harness, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each of the store's reads runs from now on."""
    assert h.bot is not None
    store = h.bot.store
    counted: Counter[str] = Counter()

    def counting(name: str, read: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return await read(*args, **kwargs)

        return wrapper

    for name in READS:
        monkeypatch.setattr(store, name, counting(name, getattr(store, name)))
    return counted


def tables_read(counted: Counter[str]) -> int:
    return counted["table"] + counted["context"]


def pools_read(counted: Counter[str]) -> int:
    return counted["pools"] + counted["pool"] + counted["context"]


def guardar(message: Message) -> str:
    return next(c for c in message.custom_ids if c.startswith("dune:guardar"))


async def test_a_panel_press_reads_its_table_its_roll_and_its_pools_once(
    dune: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard, the GM check, the decision and the card all ask; the store answers once,
    in one statement: the button's record comes with its channel's table and pools."""
    dune.script(1, 1)
    reply = await dune.slash("dune tirada", habilidad=6, motivacion=6, dificultad=0)
    reads = count_reads(dune, monkeypatch)
    saved = await dune.click(reply.message, guardar(reply.message))
    assert "Impulso: **4**/6" in saved.text
    assert reads == Counter({"context": 1})


async def test_a_roll_is_drawn_as_written_not_read_back(
    dune: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = count_reads(dune, monkeypatch)
    dune.script(20, 20)
    reply = await dune.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    assert "Chequeo · objetivo 12 · dificultad 1" in reply.text
    assert reads["record"] == 0
    assert tables_read(reads) == 1
    assert pools_read(reads) == 1


async def test_what_an_interaction_wrote_is_what_its_card_shows(dune: Harness) -> None:
    """A test reads the pools to pay, then writes: its card shows the pools as the payment
    left them (read before, with what was written), and the next interaction reads afresh."""
    await dune.slash("dune impulso añadir", user=GM, cantidad=4)
    dune.script(20, 20, 20)
    paid = await dune.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1, dados_extra=1)
    assert "Impulso: **3**/6" in paid.text
    shown = await dune.slash("dune impulso ver")
    assert "Impulso: **3**/6" in shown.text
    assert await dune.pool("impulso") == 3
    await dune.assert_ledger_matches()


async def test_a_stale_roll_is_read_again_before_deciding_again(dune: Harness) -> None:
    """Two presses of Guardar at once: the second finds the roll changed, reads it again
    and is refused on what is there now (the Impulso is saved once)."""
    dune.script(1, 1)
    reply = await dune.slash("dune tirada", habilidad=6, motivacion=6, dificultad=0, user=PLAYER)
    first, second = await asyncio.gather(
        dune.click(reply.message, guardar(reply.message)), dune.click(reply.message, guardar(reply.message))
    )
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    assert await dune.pool("impulso") == 4
    await dune.assert_ledger_matches()


async def test_a_press_in_the_gm_channel_reads_the_tables_once(
    dune: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A secret roll's panel lives in the GM channel: the table it belongs to is among the
    ones that channel serves, read in the same query, with the roll."""
    channel = next(c for c in dune.channels if int(c["id"]) == GM_CHANNEL_ID)
    await dune.slash("mesa canal-dj", user=GM, canal=channel)
    dune.script(1, 1)
    reply = await dune.slash("dune tirada", user=GM, habilidad=6, motivacion=6, dificultad=0, secreta=True)
    [secret] = [m for m in reply.messages if m.channel_id == GM_CHANNEL_ID and not m.ephemeral]
    reads = count_reads(dune, monkeypatch)
    saved = await dune.click(secret, guardar(secret), user=GM, channel_id=GM_CHANNEL_ID)
    assert not saved.ephemeral, saved.text
    assert (reads["context"], reads["table"], reads["record"]) == (1, 0, 0)


def typed(value: Any) -> Any:
    """A value with each part's type beside it, so equal values of other types differ."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value).__name__, [typed(v) for v in value])
    return (type(value).__name__, value)


class Level(enum.IntEnum):
    HIGH = 3


class Word(enum.StrEnum):
    YES = "sí"


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"roll": {"dice": [1, 2, 3], "kept": (0, 2), "total": 5.5, "reason": None, "secret": False}},
        {"nested": [({"a": (1, [2, (3,)])},), []], "text": "ñ", "big": 10**30, "neg": -0.0},
        {"by_number": {1: "one", 2.5: "half", False: "no", None: "none"}},
        {"enums": [Level.HIGH, Word.YES], "key": {Word.YES: Level.HIGH}},
    ],
)
def test_a_record_as_written_holds_its_data_as_the_store_reads_it(data: dict[str, Any]) -> None:
    """Tuples become lists, keys text, enums their values: what JSON makes of them."""
    assert typed(seen.stored(data)) == typed(json.loads(json.dumps(data)))


def test_data_already_as_the_store_reads_it_is_copied_without_writing_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = {"roll": {"dice": [1, 2], "kept": [0], "total": 3, "reason": None, "odds": 0.5}}

    def refused(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("written as JSON")

    monkeypatch.setattr(json, "dumps", refused)
    copied = seen.stored(data)
    assert copied == data and copied is not data and copied["roll"]["dice"] is not data["roll"]["dice"]
