"""Settings from the environment and ``.env`` (see ``.env.example`` for each one)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Three base64url parts separated by dots: the shape of every Discord bot token.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr
    tirada_db: Path = Path("tirada.db")
    tirada_dev_guild: int | None = Field(default=None, gt=0)
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # How many times to try reaching Discord at start (waiting 1, 2, 4... s in between).
    tirada_start_attempts: int = Field(default=6, ge=1, le=20)

    @field_validator("discord_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not _TOKEN.match(value.get_secret_value().strip()):
            raise ValueError("malformed token")
        return value

    @field_validator("discord_api_base", "discord_gateway_url", "tirada_dev_guild", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value
