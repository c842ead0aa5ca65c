"""``python -m bot``: read the settings, point at Discord (or a stand-in), run until a signal."""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import sys

import aiohttp
import asyncpg
import discord
import yarl
from pydantic import ValidationError

from bot import heap, logs
from bot.client import Tirada
from bot.i18n import t
from bot.lockfile import AlreadyRunning
from bot.settings import Settings, shown
from bot.web.server import Web

log = logging.getLogger("bot")

# Exit statuses (documented in the README): a supervisor can tell what to fix.
EXIT_SETTINGS = 2  # a setting is missing or malformed (the token's shape included)
EXIT_DATABASE = 3  # the database file cannot be opened
EXIT_UNREACHABLE = 4  # Discord could not be reached at start, after every retry
EXIT_TOKEN_REJECTED = 5  # Discord refused the token
EXIT_ALREADY_RUNNING = 6  # another process already runs on this SQLite file
# Reaching Discord failed (no network, DNS, a firewall, Discord's servers down), as opposed
# to the database failing: aiohttp's connection errors are also OSErrors, so order matters.
NETWORK_ERRORS = (aiohttp.ClientConnectionError, asyncio.TimeoutError, discord.DiscordServerError)
MAX_BACKOFF = 60.0


class Unreachable(Exception):
    """Discord could not be reached at start, ``attempts`` times."""

    def __init__(self, attempts: int, reason: BaseException) -> None:
        super().__init__(attempts, reason)
        self.attempts = attempts
        self.reason = reason


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


async def login(bot: Tirada, token: str, attempts: int) -> None:
    """Log in, retrying with exponential backoff while Discord cannot be reached.

    Only the first step (before ``setup_hook`` has opened the store) is retried: a network
    failure later in ``login`` (the command sync) would run the setup twice.
    """
    for attempt in range(1, attempts + 1):
        try:
            await bot.login(token)
            return
        except NETWORK_ERRORS as error:
            if attempt == attempts or hasattr(bot, "store"):
                raise Unreachable(attempt, error) from error
            delay = min(2.0 ** (attempt - 1), MAX_BACKOFF)
            log.warning(
                "cannot reach Discord; retrying",
                extra={"attempt": attempt, "attempts": attempts, "retry_in": delay, "reason": repr(error)},
            )
            # Each login opens a session on the HTTP client's connector; closing the failed
            # one closes that connector too, so the next login must get a fresh one.
            await bot.http.close()
            bot.http.connector = discord.utils.MISSING
            await asyncio.sleep(delay)


async def run(settings: Settings) -> None:
    bot = Tirada.for_settings(settings)
    token = settings.discord_token.get_secret_value().strip()
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, lambda: closing.append(loop.create_task(bot.close())))
    web: Web | None = None
    try:
        async with bot:
            await login(bot, token, settings.tirada_start_attempts)
            log.info("start-up's memory frozen", extra={"objects": heap.settle()})
            if settings.tirada_web_port is not None:
                web = Web(bot)
                await web.start(settings.tirada_web_host, settings.tirada_web_port)
            await bot.connect()
    finally:
        if web is not None:
            await web.close()
        if closing:
            await asyncio.gather(*closing, return_exceptions=True)
        if hasattr(bot, "store"):
            await bot.store.close()
        bot.release()
        log.info("stopped")


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        print(settings_problem(error), file=sys.stderr)
        return EXIT_SETTINGS
    logs.setup(settings.log_level)
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        log.error("Discord rejected the token")
        print(both("startup.token_rejected"), file=sys.stderr)
        return EXIT_TOKEN_REJECTED
    except Unreachable as error:
        reason = str(error.reason) or type(error.reason).__name__
        log.error("cannot reach Discord; giving up", extra={"attempts": error.attempts, "reason": reason})
        print(both("startup.unreachable", attempts=str(error.attempts), reason=reason), file=sys.stderr)
        return EXIT_UNREACHABLE
    except AlreadyRunning as error:
        log.error("another process runs on this database", extra={"path": str(error.database)})
        print(both("startup.already_running", path=str(error.database)), file=sys.stderr)
        return EXIT_ALREADY_RUNNING
    except (OSError, sqlite3.Error, asyncpg.PostgresError) as error:
        # The database cannot be opened (a missing or unwritable folder, a locked or broken
        # file, a PostgreSQL server refusing or absent): one line saying which and why, and an
        # exit a supervisor will not loop on. A URL is shown without its password.
        where = shown(settings.tirada_db)
        log.error("cannot open the database", extra={"path": where, "reason": str(error)})
        print(both("startup.bad_db", path=where, reason=str(error)), file=sys.stderr)
        return EXIT_DATABASE
    return 0


if __name__ == "__main__":
    sys.exit(main())
