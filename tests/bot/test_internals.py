"""Each private internal ``bot.internals`` relies on still exists and behaves: a library
upgrade that renames one fails here, not in production."""

from __future__ import annotations

import asyncio
import inspect
import random
import sqlite3
import threading

import aiosqlite
import d20
import discord
import discord.app_commands.tree
import discord.ui.modal
import discord.ui.view

from bot.internals import (
    IN_FLIGHT_TASK_PREFIXES,
    connection_of,
    in_flight_interactions,
    open_forms,
    run_on_connection,
)
from bot.render import MarkStringifier
from rules.expression import roll_expression


def test_discord_still_names_its_interaction_tasks_with_our_prefixes() -> None:
    sources = {
        "CommandTree-invoker": inspect.getsource(discord.app_commands.tree),
        "discord-ui-view-dispatch-": inspect.getsource(discord.ui.view),
        "discord-ui-modal-dispatch-": inspect.getsource(discord.ui.modal),
    }
    for name, source in sources.items():
        assert name in source, name
        assert name.startswith(IN_FLIGHT_TASK_PREFIXES)


async def test_in_flight_interactions_are_the_named_tasks_only() -> None:
    release = asyncio.Event()
    command = asyncio.create_task(release.wait(), name="CommandTree-invoker")
    button = asyncio.create_task(release.wait(), name="discord-ui-view-dispatch-1")
    other = asyncio.create_task(release.wait(), name="heartbeat")
    try:
        assert set(in_flight_interactions()) == {command, button}
    finally:
        release.set()
        await asyncio.gather(command, button, other)
    assert in_flight_interactions() == []


async def test_open_forms_is_discord_registry_of_sent_modals() -> None:
    client = discord.Client(intents=discord.Intents.none())
    modal = discord.ui.Modal(title="Form", custom_id="tirada:form:1")
    modal.add_item(discord.ui.TextInput(label="Text"))
    assert "tirada:form:1" not in open_forms(client)
    client._connection.store_view(modal)
    assert "tirada:form:1" in open_forms(client)
    client._connection._view_store.remove_view(modal)
    assert "tirada:form:1" not in open_forms(client)


async def test_run_on_connection_runs_the_whole_function_on_aiosqlite_thread() -> None:
    loop_thread = threading.get_ident()

    def work(connection: sqlite3.Connection, value: int) -> tuple[int, int]:
        connection.execute("CREATE TABLE t (v INTEGER)")
        connection.execute("INSERT INTO t VALUES (?)", (value,))
        (stored,) = connection.execute("SELECT v FROM t").fetchone()
        return stored, threading.get_ident()

    async with aiosqlite.connect(":memory:") as db:
        stored, thread = await run_on_connection(db, work, 7)
    assert stored == 7
    assert thread != loop_thread


async def test_connection_of_is_the_connection_aiosqlite_s_thread_runs_on() -> None:
    """The loop may use it while the thread has nothing queued (``bot.store.sqlite``): what
    one side writes, the other reads, on the one connection."""
    async with aiosqlite.connect(":memory:", check_same_thread=False) as db:
        on_thread = await run_on_connection(db, lambda connection: connection)
        assert connection_of(db) is on_thread
        connection_of(db).execute("CREATE TABLE t (v INTEGER)")
        connection_of(db).execute("INSERT INTO t VALUES (7)")
        assert await run_on_connection(db, lambda c: c.execute("SELECT v FROM t").fetchone()[0]) == 7


def test_d20_stringifier_still_dispatches_to_the_methods_we_override() -> None:
    """``bot.render.MarkStringifier`` overrides d20's ``_str_die``/``_str_expression``."""
    for name in ("_str_die", "_str_expression", "_stringify"):
        assert callable(getattr(d20.SimpleStringifier, name, None)), name
    rolled = roll_expression("2d6kh1", random.Random(3))
    assert MarkStringifier().stringify(rolled.tree) == "2d6kh1 (~~2~~, **5**)"
