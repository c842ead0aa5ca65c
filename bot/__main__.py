"""``python -m bot``: read the settings, point at Discord (or a stand-in), run until a signal."""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import sys

import discord
import yarl
from pydantic import ValidationError

from bot import logs
from bot.client import Tirada
from bot.i18n import t
from bot.settings import Settings

log = logging.getLogger("bot")


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Aim discord.py at another Discord-compatible server (the end-to-end tests' fake).

    Both must move: discord.py falls back to ``DEFAULT_GATEWAY`` when a session cannot
    be resumed, so setting only the REST base would reconnect to the real gateway.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def both(key: str, **params: str) -> str:
    """A start-up problem in one line, Spanish then English: no locale is known yet."""
    return f"{t('es', key, **params)} / {t('en', key, **params)}"


def settings_problem(error: ValidationError) -> str:
    names = sorted({str(e["loc"][0]).upper() for e in error.errors() if e["loc"]})
    if not names or "DISCORD_TOKEN" in names:
        return both("startup.bad_token")
    return both("startup.bad_setting", names=", ".join(names))


async def run(settings: Settings) -> None:
    bot = Tirada(settings)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, lambda: closing.append(loop.create_task(bot.close())))
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value().strip())
    finally:
        if closing:
            await asyncio.gather(*closing, return_exceptions=True)
        if hasattr(bot, "store"):
            await bot.store.close()
        log.info("stopped")


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        print(settings_problem(error), file=sys.stderr)
        return 2
    logs.setup(settings.log_level)
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print(both("startup.bad_token"), file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error) as error:
        # The database cannot be opened (a missing or unwritable folder, a locked or broken
        # file): one line saying which file and why, and an exit a supervisor will not loop on.
        log.error("cannot open the database", extra={"path": str(settings.tirada_db), "reason": str(error)})
        print(both("startup.bad_db", path=str(settings.tirada_db), reason=str(error)), file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
