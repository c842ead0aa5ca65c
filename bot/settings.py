"""Settings from the environment and ``.env`` (see ``.env.example`` for each one)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

# A PostgreSQL URL in TIRADA_DB selects the PostgreSQL store; anything else is a file path.
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

# Three base64url parts separated by dots: the shape of every Discord bot token.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr
    # An SQLite file (the default), or a PostgreSQL URL for several processes (docs/escalar.md).
    tirada_db: Path | str = Path("tirada.db")
    tirada_dev_guild: int | None = Field(default=None, gt=0)
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # How many times to try reaching Discord at start (waiting 1, 2, 4... s in between).
    tirada_start_attempts: int = Field(default=6, ge=1, le=20)
    # Seconds a live board waits after a table's change before it is edited, so that a burst
    # of changes is one edit (the end-to-end tests shorten it).
    tirada_board_delay: float = Field(default=1.0, gt=0, le=60)
    # Discord shards: how many the bot has in all, and which of them this process runs
    # ("0,1"). Unset: one process, no sharding; a count without ids: this process runs all.
    tirada_shard_count: int | None = Field(default=None, ge=1, le=1024)
    tirada_shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    # The optional web server (bot/web: overlay, /healthz, /metrics): off while the port is
    # unset; on the loopback by default, meant to sit behind a reverse proxy (README).
    tirada_web_port: int | None = Field(default=None, ge=0, le=65535)
    tirada_web_host: str = "127.0.0.1"
    # The address the overlay's links start with, as the streamers' browsers reach it (the
    # reverse proxy's https://...); unset: http://host:port.
    tirada_web_url: str | None = None

    @field_validator("discord_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not _TOKEN.match(value.get_secret_value().strip()):
            raise ValueError("malformed token")
        return value

    @field_validator("tirada_db", mode="plain")
    @classmethod
    def _file_or_url(cls, value: object) -> Path | str:
        """A PostgreSQL URL stays text; anything else names a file."""
        if is_postgres(value):
            return str(value)
        if isinstance(value, str | Path) and str(value):
            return Path(value)
        raise ValueError("a file path or a postgresql:// URL")

    @field_validator(
        "discord_api_base",
        "discord_gateway_url",
        "tirada_dev_guild",
        "tirada_shard_count",
        "tirada_web_port",
        "tirada_web_url",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("tirada_shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",")]
            return None if parts == [""] else parts
        return value

    @field_validator("tirada_shard_ids")
    @classmethod
    def _shards_exist(cls, ids: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        """Ids need a count, lie below it and appear once: Discord refuses anything else."""
        if ids is None:
            return None
        count = info.data.get("tirada_shard_count")
        if count is None or not ids or len(set(ids)) != len(ids) or not all(0 <= i < count for i in ids):
            raise ValueError("distinct shard ids from 0 to TIRADA_SHARD_COUNT - 1")
        return ids

    @field_validator("tirada_web_url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        """An http(s) address without a trailing slash: the overlay's path is added to it."""
        if value is None:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise ValueError("an http:// or https:// address")
        return urlunsplit(parts).rstrip("/")

    @property
    def sharded(self) -> bool:
        return self.tirada_shard_count is not None

    @property
    def holds_shard_zero(self) -> bool:
        """The process that syncs commands: one sync for the whole bot, not one per process."""
        return self.tirada_shard_ids is None or 0 in self.tirada_shard_ids

    def holds_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard Discord sends the guild's events to (Discord's
        rule: ``(guild_id >> 22) % shard_count``), so the guild's live boards are this
        process's to edit and no other's. No guild (a table made before guilds were kept):
        the process holding shard 0, where Discord sends what belongs to no guild."""
        if self.tirada_shard_count is None or self.tirada_shard_ids is None:
            return True
        if guild_id is None:
            return self.holds_shard_zero
        return (guild_id >> 22) % self.tirada_shard_count in self.tirada_shard_ids


def is_postgres(target: object) -> bool:
    """``TIRADA_DB`` names a PostgreSQL server rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def shown(target: Path | str) -> str:
    """The database as a log line or a message may show it: a URL without its password."""
    if not is_postgres(target):
        return str(target)
    parts = urlsplit(str(target))
    if parts.password is None:
        return str(target)
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
