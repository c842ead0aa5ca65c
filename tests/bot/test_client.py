"""The bot as a whole: start-up, command sync, the command surface, error answers."""

import asyncio
import importlib
import logging
import pkgutil
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.client import retention
from bot.store import Pruned, Retention, SqlStore, Store
from tests.support.harness import Harness
from tests.support.payloads import GUILD_ID
from tests.support.systems import declare_all

NAME = re.compile(r"^[-_\w]{1,32}$")


def synced(h: Harness) -> list[str]:
    return [c.path for c in h.discord.calls if c.method == "PUT" and c.path.endswith("/commands")]


async def test_commands_sync_globally_once_and_again_only_when_they_change(tmp_path: Path) -> None:
    h = Harness(tmp_path / "t.db")
    await h.start()
    assert synced(h) == ["/applications/900000000000000001/commands"]
    await h.restart()
    assert len(synced(h)) == 1
    assert h.bot is not None
    await h.bot.store.set_meta("commands_hash", "stale")
    await h.restart()
    assert len(synced(h)) == 2
    await h.close()


async def test_only_the_process_holding_shard_0_syncs_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each process of a sharded bot runs setup_hook; one sync is enough for the application."""
    h = Harness(tmp_path / "t.db")
    plain = h.settings
    monkeypatch.setattr(
        h, "settings", lambda: plain().model_copy(update={"tirada_shard_count": 2, "tirada_shard_ids": (1,)})
    )
    await h.start()
    assert synced(h) == []
    monkeypatch.setattr(
        h, "settings", lambda: plain().model_copy(update={"tirada_shard_count": 2, "tirada_shard_ids": (0,)})
    )
    await h.restart()
    assert synced(h) == ["/applications/900000000000000001/commands"]
    await h.close()


async def test_a_dev_guild_is_synced_on_every_start(tmp_path: Path) -> None:
    h = Harness(tmp_path / "t.db", dev_guild=GUILD_ID)
    await h.start()
    await h.restart()
    assert synced(h) == [f"/applications/900000000000000001/guilds/{GUILD_ID}/commands"] * 2
    await h.close()


def walk(command: dict[str, Any]) -> list[dict[str, Any]]:
    found = [command]
    for option in command.get("options", []):
        found += walk(option)
    return found


async def test_the_command_surface_is_spanish_with_valid_english(harness: Harness) -> None:
    commands = harness.discord.commands
    assert {c["name"] for c in commands} >= {"mesa", "tirar"}
    # A user menu's name is free text ("Ver ficha"): the pattern is for slash commands.
    for command in (c for c in commands if c.get("type", 1) == 1):
        for node in walk(command):
            names = [node["name"], *node.get("name_localizations", {}).values()]
            for name in names:
                assert NAME.match(name) and name == name.lower(), name
            assert set(node.get("name_localizations", {})) == {"en-US", "en-GB"}, node["name"]
            if "description" in node:
                descriptions = [node["description"], *node.get("description_localizations", {}).values()]
                assert all(1 <= len(d) <= 100 for d in descriptions), node["name"]
            for choice in node.get("choices", []):
                assert set(choice.get("name_localizations", {})) == {"en-US", "en-GB"}
    roll = next(c for c in commands if c["name"] == "tirar")
    assert roll["name_localizations"]["en-US"] == "roll"


async def test_an_unexpected_error_answers_with_a_reference_that_is_logged(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(self: SqlStore, channel_id: int, **_: Any) -> list[Any]:
        raise RuntimeError("disco roto")

    # /mesa estado's own read after the interaction's context: its players.
    monkeypatch.setattr(SqlStore, "players", broken)
    with caplog.at_level(logging.ERROR):
        reply = await harness.slash("mesa estado")
    assert reply.ephemeral
    ref = re.search(r"referencia a quien lleve el bot: ([0-9A-F]{6})", reply.text)
    assert ref is not None
    logged = [r for r in caplog.records if getattr(r, "ref", None) == ref[1]]
    assert logged and logged[0].exc_info is not None


async def test_every_answer_disables_mentions(harness: Harness) -> None:
    reply = await harness.slash("tirar", expresion="@everyone <@123> 1d20")
    assert reply.callback.payload["data"]["allowed_mentions"] == {"parse": []}
    reply = await harness.slash("tirar", expresion="1d20")
    assert reply.callback.payload["data"]["allowed_mentions"] == {"parse": []}


async def test_a_database_that_times_out_is_a_database_problem_not_discords(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """__main__ retries a timeout as Discord out of reach (exit 4); a database server that
    never answers must end as a database problem (an OSError: exit 3) instead."""

    async def never(*_: Any, **__: Any) -> Store:
        raise TimeoutError

    monkeypatch.setattr(Store, "open", never)
    h = Harness(tmp_path / "t.db")
    with pytest.raises(ConnectionError, match="did not answer"):
        await h.start()
    assert h.bot is None


async def test_a_database_lost_during_a_prune_is_logged_and_the_next_prune_runs(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A PostgreSQL connection cut under the retention ("connection is closed") must not end
    the background task: it is logged, and the next round prunes."""
    assert harness.bot is not None
    bot = harness.bot
    rounds: list[Retention] = []
    real = bot.store.prune

    async def prune(retention: Retention) -> Pruned:
        rounds.append(retention)
        if len(rounds) == 1:
            raise asyncpg.InterfaceError("connection is closed")
        return await real(retention)

    monkeypatch.setattr(bot.store, "prune", prune)
    bot.prune.change_interval(seconds=0.01)
    for _ in range(300):
        if len(rounds) >= 2:
            break
        await asyncio.sleep(0.01)
    assert len(rounds) >= 2 and bot.prune.is_running()
    assert "pruning failed" in caplog.text


# Records that are table state, never forgotten by age: sheets, extended tasks, combats,
# inspiration, Donjon tests (their facts wait to be narrated). Every other kind a cog
# declares is a roll read by nothing but its own buttons, forgotten by the retention.
TABLE_STATE = {
    "mediana_ficha",
    "dune_tarea",
    "dnd_combate",
    "dnd_inspiracion",
    "mediana_combate",
    "donjon_combate",
    "donjon",
}


def declared_kinds() -> set[str]:
    """Every record kind a cog names (``KIND``, ``*_KIND``), from every module of cogs/."""
    import cogs

    kinds = set()
    for module_info in pkgutil.walk_packages(cogs.__path__, "cogs."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (name == "KIND" or name.endswith("_KIND")) and isinstance(value, str):
                kinds.add(value)
    return kinds


def test_every_record_kind_is_either_forgotten_in_time_or_kept_as_table_state() -> None:
    """A new kind must be placed on purpose: a roll left out of the retention piles up forever."""
    declarations = declare_all()
    forgotten = set(retention().kinds)
    assert not forgotten & TABLE_STATE
    assert forgotten | TABLE_STATE == declared_kinds()
    # Each system says which of its kinds are table state (what a newcomer reads first).
    assert {kind for d in declarations for kind in d.kept} == TABLE_STATE


def test_dice_counts_are_kept_as_long_as_statistics_read_them() -> None:
    """/estadisticas reads back to ``MAX_DAYS - 1`` days before today; pruning keeps those."""
    from cogs.estadisticas import MAX_DAYS

    assert retention().dice >= timedelta(days=MAX_DAYS - 1)


async def test_closing_twice_is_harmless(harness: Harness) -> None:
    """A second SIGTERM closes the bot a second time: nothing left to stop is not an error."""
    assert harness.bot is not None
    await harness.bot.close()
    await harness.bot.close()


def test_the_table_cog_loads_after_every_systems_so_mesa_sistema_offers_them_all() -> None:
    """``/mesa sistema``'s choices are the systems declared when its cog loads (cogs/mesa.py)."""
    from bot.client import EXTENSIONS, system_extensions

    assert EXTENSIONS.index("cogs.mesa") > max(EXTENSIONS.index(name) for name in system_extensions())
