"""Settings: the shard settings (TIRADA_SHARD_COUNT, TIRADA_SHARD_IDS) and the bot they pick,
and the live boards' delay (TIRADA_BOARD_DELAY)."""

from pathlib import Path

import pytest
from discord.ext import commands
from pydantic import ValidationError

from bot.client import ShardedTirada, Tirada
from bot.settings import Settings
from tests.support.payloads import TOKEN


def settings(**env: str) -> Settings:
    return Settings(_env_file=None, discord_token=TOKEN, **env)  # type: ignore[call-arg]


def test_unset_shards_mean_one_unsharded_process_that_syncs() -> None:
    plain = settings()
    assert not plain.sharded and plain.holds_shard_zero
    bot = Tirada.for_settings(plain)
    assert type(bot) is Tirada and not isinstance(bot, commands.AutoShardedBot)


def test_shard_ids_are_read_comma_separated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIRADA_SHARD_COUNT", "4")
    monkeypatch.setenv("TIRADA_SHARD_IDS", "2, 3")
    read = Settings(_env_file=None, discord_token=TOKEN)  # type: ignore[call-arg]
    assert read.tirada_shard_count == 4 and read.tirada_shard_ids == (2, 3)
    assert not read.holds_shard_zero


def test_a_sharded_process_runs_discord_pys_auto_sharded_bot_over_its_shards() -> None:
    bot = Tirada.for_settings(settings(tirada_shard_count="2", tirada_shard_ids="1"))
    assert isinstance(bot, ShardedTirada) and isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (2, [1])


def test_a_guild_belongs_to_the_process_running_its_shard() -> None:
    """Discord's rule, ``(guild_id >> 22) % shard_count``: that process edits its boards."""
    shard_1 = settings(tirada_shard_count="2", tirada_shard_ids="1")
    assert shard_1.holds_guild(1 << 22) and not shard_1.holds_guild(2 << 22)
    assert not shard_1.holds_guild(None) and settings(tirada_shard_count="2").holds_guild(2 << 22)
    assert settings().holds_guild(None)


def test_a_count_without_ids_holds_every_shard_in_this_process() -> None:
    bot = Tirada.for_settings(settings(tirada_shard_count="3"))
    assert isinstance(bot, ShardedTirada) and bot.shard_ids is None and bot.shard_count == 3


@pytest.mark.parametrize(
    ("count", "ids"), [("2", "2"), ("2", "0,0"), ("", "0"), ("2", "-1"), ("2", "uno"), ("0", "")]
)
def test_impossible_shards_are_named_as_bad_settings(count: str, ids: str) -> None:
    with pytest.raises(ValidationError) as error:
        settings(tirada_shard_count=count, tirada_shard_ids=ids)
    assert {str(e["loc"][0]) for e in error.value.errors()} <= {"tirada_shard_count", "tirada_shard_ids"}


def test_the_boards_wait_a_second_after_a_change_unless_told_otherwise() -> None:
    assert settings().tirada_board_delay == 1.0
    assert settings(tirada_board_delay="0.05").tirada_board_delay == 0.05
    for refused in ("0", "-1", "61", "pronto"):
        with pytest.raises(ValidationError):
            settings(tirada_board_delay=refused)


async def test_the_bot_gives_its_boards_the_delay_it_was_set(tmp_path: Path) -> None:
    bot = Tirada(settings(tirada_db=str(tmp_path / "tirada.db"), tirada_board_delay="0.25"))
    try:
        await bot.open_books()
        assert bot.boards.delay == 0.25
    finally:
        await bot.store.close()
        bot.release()
