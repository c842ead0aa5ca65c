"""``python -m bot`` starts the web server after logging in and stops it on the way out;
its settings are checked like every other one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pydantic import ValidationError

import bot.__main__ as main
from bot.client import Tirada
from bot.settings import Settings
from bot.web.server import Web
from tests.support.harness import Discord
from tests.support.payloads import TOKEN


def settings(tmp_path: Path, **web: Any) -> Settings:
    return Settings(_env_file=None, discord_token=TOKEN, tirada_db=tmp_path / "tirada.db", **web)  # type: ignore[call-arg]


async def test_the_bot_serves_while_it_runs_and_not_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, thawed: None
) -> None:
    fake = Discord()
    seen: dict[str, Any] = {}

    async def login(bot: Tirada, token: str, attempts: int) -> None:
        bot.http.request = fake.rest  # type: ignore[method-assign]
        await bot.login(token)

    async def connect(self: Tirada, *, reconnect: bool = True) -> None:
        web = Web.of(self)
        assert web is not None
        seen["base"], seen["local"] = web.base, f"http://127.0.0.1:{web.port}"
        async with aiohttp.ClientSession() as session, session.get(seen["local"] + "/healthz") as response:
            seen["status"] = response.status

    monkeypatch.setattr(main, "login", login)
    monkeypatch.setattr(Tirada, "connect", connect)
    await main.run(settings(tmp_path, tirada_web_port=0, tirada_web_url="https://tirada.example.org/"))
    assert seen["status"] == 503  # up, but no gateway: not healthy
    assert seen["base"] == "https://tirada.example.org"  # the links' address, never fetched here
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(seen["local"] + "/healthz")


def test_the_web_server_is_off_unless_a_port_is_set(tmp_path: Path) -> None:
    assert settings(tmp_path).tirada_web_port is None
    assert settings(tmp_path, tirada_web_port="").tirada_web_port is None
    assert settings(tmp_path).tirada_web_host == "127.0.0.1"


@pytest.mark.parametrize(
    "web",
    [
        {"tirada_web_port": 70000},
        {"tirada_web_port": -1},
        {"tirada_web_url": "javascript:alert(1)"},
        {"tirada_web_url": "https://tirada.example.org/?x=1"},
        {"tirada_web_url": "tirada.example.org"},
    ],
)
def test_a_bad_web_setting_is_refused(tmp_path: Path, web: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        settings(tmp_path, **web)


def test_the_public_address_loses_its_trailing_slash(tmp_path: Path) -> None:
    assert settings(tmp_path, tirada_web_url="https://tirada.example.org/").tirada_web_url == (
        "https://tirada.example.org"
    )
