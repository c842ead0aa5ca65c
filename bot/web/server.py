"""The web server in the bot's process (aiohttp, which discord.py already runs on).

Its handlers share the bot's event loop and only await: a page or a scrape never holds up
an interaction (the load test in tests/web checks the answers' times while 200 overlays
are open). Strict everywhere: a Content-Security-Policy that allows only this server's
own script and style and no framing, no CORS headers at all, nothing cached, and a bare
404 for anything unknown, a wrong token included (the same answer as a path that does not
exist: nothing tells a guess apart).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.web import health, tokens
from bot.web.metrics import ANSWERED, Metrics
from bot.web.overlay import Overlays

if TYPE_CHECKING:
    import discord

    from bot.client import Tirada

log = logging.getLogger(__name__)
# The requests aiohttp's handlers log about (its own logger would be "aiohttp.server").
requests_log = logging.getLogger(f"{__name__}.requests")


class RefusedRequests(logging.Filter):
    """aiohttp logs a request its parser refused (a request line or a header past its
    bounds, bytes a URL may not hold: ``HttpProcessingError``, answered 400) as an error with
    its traceback. Anyone who reaches the port can send one, so a scanner would fill the log
    with tracebacks that say nothing about the bot: such a record becomes one line at INFO,
    naming what was wrong. Any other error of a request stays an error, traceback and all."""

    def filter(self, record: logging.LogRecord) -> bool:
        refused = record.exc_info[1] if record.exc_info else None
        if isinstance(refused, HttpProcessingError):
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
            record.msg, record.args = "malformed request refused (%s)", (type(refused).__name__,)
            record.exc_info, record.exc_text = None, None
        return True


requests_log.addFilter(RefusedRequests())

STATIC = Path(__file__).with_name("static")
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}
# What the page waits before reconnecting a dropped stream (server-sent events' retry).
RECONNECT_MS = 1000
OVERLAY_PATH = "/overlay/"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
# Each bot's running server. Kept here, not on the bot: bot.client imports nothing of the
# web server (``python -m bot`` starts it), so the server may read the boards and the bot.
SERVED: weakref.WeakKeyDictionary[Tirada, Web] = weakref.WeakKeyDictionary()


@web.middleware
async def strict(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer gets the strict headers; any error status is bare (no body)."""
    try:
        response = await handler(request)
    except web.HTTPException as error:
        response = web.Response(status=error.status)
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class Web:
    """The server: ``start`` once the store is open, ``close`` before it closes."""

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot
        self.overlays = Overlays(bot)
        self.metrics = Metrics(bot, self.overlays)
        self.app = web.Application(middlewares=[strict], handler_args={"max_field_size": 4096})
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/metrics", self.scrape)
        self.app.router.add_get("/overlay.js", self.asset)
        self.app.router.add_get("/overlay.css", self.asset)
        self.app.router.add_get(OVERLAY_PATH + "{token}", self.page)
        self.app.router.add_get(OVERLAY_PATH + "{token}/events", self.events)
        self._runner: web.AppRunner | None = None
        self.base = ""
        self.port = 0

    @staticmethod
    def of(bot: Tirada) -> Web | None:
        """The bot's server, if it runs one (``/mesa overlay`` asks for it)."""
        return SERVED.get(bot)

    async def start(self, host: str, port: int) -> None:
        """Listen, and start hearing the bot (port 0: any free port, kept in ``port``).
        Called once the bot is logged in (its store open), before it connects."""
        SERVED[self.bot] = self
        self.bot.store.listeners.append(self.overlays.touch)
        self.bot.boards.resynced.append(self.overlays.resync)
        self.overlays.start()
        self.metrics.start()
        for name, listener in self._listeners():
            self.bot.add_listener(listener, name)
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0, logger=requests_log)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        shown = f"[{host}]" if ":" in host else host
        self.base = self.bot.settings.tirada_web_url or f"http://{shown}:{self.port}"
        log.info("web server listening", extra={"host": host, "port": self.port})

    async def close(self) -> None:
        SERVED.pop(self.bot, None)
        if self.overlays.touch in self.bot.store.listeners:
            self.bot.store.listeners.remove(self.overlays.touch)
        if self.overlays.resync in self.bot.boards.resynced:
            self.bot.boards.resynced.remove(self.overlays.resync)
        self.metrics.close()
        for name, listener in self._listeners():
            self.bot.remove_listener(listener, name)
        await self.overlays.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def link(self, token: str) -> str:
        """The overlay's address as browsers reach it: ``TIRADA_WEB_URL`` (the reverse
        proxy), else this server itself."""
        return f"{self.base}{OVERLAY_PATH}{token}"

    # -- the bot's events ---------------------------------------------------------------------

    def _listeners(self) -> list[tuple[str, Callable[..., Coroutine[Any, Any, None]]]]:
        return [
            ("on_interaction", self.on_interaction),
            ("on_app_command_completion", self.on_app_command_completion),
            ("on_interaction_outcome", self.on_interaction_outcome),
            ("on_retention_run", self.on_retention_run),
            ("on_public_roll", self.on_public_roll),
            ("on_public_edit", self.on_public_edit),
        ]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.metrics.arrived(interaction)
        self.overlays.seen(interaction)

    async def on_app_command_completion(self, interaction: discord.Interaction, command: object) -> None:
        self.metrics.outcome(interaction, ANSWERED)

    async def on_interaction_outcome(self, interaction: discord.Interaction, outcome: str) -> None:
        """``bot.ui`` (a component or form answered) and ``bot.errors`` (refused, failed)."""
        self.metrics.outcome(interaction, outcome)

    async def on_retention_run(self, outcome: str) -> None:
        self.metrics.retention_run(outcome)

    async def on_public_roll(self, channel_id: int, message_id: int, embeds: list[discord.Embed]) -> None:
        self.overlays.public_roll(channel_id, message_id, embeds)

    async def on_public_edit(self, channel_id: int, message_id: int, embeds: list[discord.Embed]) -> None:
        self.overlays.public_edit(channel_id, message_id, embeds)

    # -- the routes ------------------------------------------------------------------------------

    async def healthz(self, request: web.Request) -> web.Response:
        status, body = await health.health(self.bot)
        return web.json_response(body, status=status)

    async def scrape(self, request: web.Request) -> web.Response:
        response = web.Response(body=self.metrics.text())
        response.content_type = "text/plain"
        response.charset = "utf-8"
        response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
        return response

    async def asset(self, request: web.Request) -> web.Response:
        name = request.path.removeprefix("/")
        kind = "application/javascript" if name.endswith(".js") else "text/css"
        return web.Response(text=(STATIC / name).read_text("utf-8"), content_type=kind)

    async def page(self, request: web.Request) -> web.Response:
        overlay = await tokens.find(self.bot.store, request.match_info["token"])
        if overlay is None:
            raise web.HTTPNotFound
        html = (STATIC / "overlay.html").read_text("utf-8").replace("{lang}", overlay.lang)
        return web.Response(text=html, content_type="text/html")

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The page's stream: a full snapshot on connect, then each new one (its table's hub
        offers one a ``QUIET`` at most) and the heartbeat's comments; ``revoked`` and the end
        when the link stops working, the end alone when the server closes (the page comes
        back once the bot is up again). It writes the bytes its hub made, as they are."""
        token = request.match_info["token"]
        overlay = await tokens.find(self.bot.store, token)
        if overlay is None:
            raise web.HTTPNotFound
        stream = self.overlays.join(overlay, tokens.digest(token))
        if stream is None:
            raise web.HTTPTooManyRequests
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no", **HEADERS}
        )
        try:
            await response.prepare(request)
            await response.write(f"retry: {RECONNECT_MS}\n\n".encode())
            while (event := await stream.next()) is not None:
                await response.write(event)
            if stream.revoked:
                await response.write(b"event: revoked\ndata: {}\n\n")
        except (ConnectionResetError, OSError):
            log.debug("overlay page went away")
        finally:
            self.overlays.leave(stream)
        return response
