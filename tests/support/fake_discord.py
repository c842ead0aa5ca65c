"""A fake Discord on 127.0.0.1: REST and a gateway websocket, for end-to-end tests.

``python -m bot`` is pointed at it with ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``.
It speaks just enough of API v10 for discord.py 2.7: HELLO, IDENTIFY, READY (with a
``shard`` pair), GUILD_CREATE, heartbeats, and it records every REST request so a test
can wait for the interaction callback. Messages posted or edited through REST (the live
board) are answered as Discord would, with the message.

It shards as Discord does: IDENTIFY carries ``shard: [id, count]`` (none means ``[0, 1]``),
READY answers with that pair and only the guilds the shard owns, and every event of a
guild (its GUILD_CREATE, its interactions) reaches only the connection of the shard that
owns it, ``(guild_id >> 22) % count``; events outside guilds (DMs) go to shard 0.

Bodies go out as exactly ``application/json`` (aiohttp's default adds a charset and
discord.py then reads the body as text).

Like the in-process harness it is as strict as Discord: a body past Discord's limits is
answered with Discord's 400 (code 50035) and kept in ``refused`` for the test to fail on.
It remembers which messages were sent with ``IS_COMPONENTS_V2``: an edit of one is held to
V2's rules, and cannot take the flag away.
``reject_token`` makes it answer 401 to the login, as Discord does to a reset token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from tests.support.discord_schema import COMPONENTS_V2, Refused, check
from tests.support.payloads import (
    APP_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    Message,
    application_payload,
    guild_payload,
    snowflake,
    text_channel,
    user_payload,
)


@dataclass
class Request:
    method: str
    path: str
    body: Any


async def _body(request: web.Request) -> Any:
    """A request's JSON, also from a multipart upload (its ``payload_json`` part; the files'
    names are added as ``files`` so a test can see what was attached)."""
    if not request.can_read_body:
        return None
    if not request.content_type.startswith("multipart/"):
        return await request.json()
    body: dict[str, Any] = {"files": []}
    reader = await request.multipart()
    async for part in reader:
        if part.name == "payload_json":
            body |= json.loads(await part.text())
        else:
            body["files"].append(part.filename)
            await part.read()
    return body


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def shard_of(guild_id: int, count: int) -> int:
    """The shard that owns a guild: Discord's formula."""
    return (guild_id >> 22) % count


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, if any."""
    if event == "GUILD_CREATE":
        return int(data["id"])
    return int(data["guild_id"]) if data.get("guild_id") else None


class FakeDiscord:
    def __init__(self, *, shards: int = 1) -> None:
        self.requests: list[Request] = []
        self.identified = asyncio.Event()
        self.changed = asyncio.Condition()
        # The guilds the bot is in (each sent to its shard at READY); shard count advised.
        self.guilds: list[dict[str, Any]] = [guild_payload([text_channel(CHANNEL_ID, "mesa")])]
        self.shards = shards
        self.ready: list[tuple[int, int]] = []
        # Every open connection and its shard pair, known once it identified.
        self._sockets: dict[web.WebSocketResponse, tuple[int, int] | None] = {}
        self._sequence = 0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.refused: list[Refused] = []
        self.reject_token = False
        # The messages sent with the components V2 flag (it stays with them).
        self.v2_messages: set[int] = set()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def wait_for(self, method: str, pattern: str, seconds: float = 20.0) -> Request:
        """The first recorded request matching ``method`` and the path regex."""
        regex = re.compile(pattern)

        def found() -> Request | None:
            return next((r for r in self.requests if r.method == method and regex.search(r.path)), None)

        async with asyncio.timeout(seconds), self.changed:
            await self.changed.wait_for(lambda: found() is not None)
        result = found()
        assert result is not None
        return result

    async def wait_ready(self, shard_id: int, seconds: float = 30.0) -> None:
        """Until the connection of ``shard_id`` has had its READY."""
        async with asyncio.timeout(seconds), self.changed:
            await self.changed.wait_for(lambda: any(pair[0] == shard_id for pair in self.ready))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway DISPATCH (op 0) to the connection owning the event's guild."""
        guild = guild_of(event, data)
        for ws, pair in list(self._sockets.items()):
            if pair is not None and pair[0] == (0 if guild is None else shard_of(guild, pair[1])):
                await self._send(ws, event, data)

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        self._sequence += 1
        with contextlib.suppress(ConnectionResetError):
            await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._sequence, "d": data}))

    # -- REST -------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body = await _body(request)
        async with self.changed:
            self.requests.append(Request(request.method, path, body))
            self.changed.notify_all()
        edited = re.search(r"/messages/(\d+)$", path)
        try:
            check(
                request.method, path, body, components_v2=bool(edited) and int(edited[1]) in self.v2_messages
            )
        except Refused as refused:
            self.refused.append(refused)
            return _json(refused.body, status=refused.status)
        if path == "/users/@me" and self.reject_token:
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        if path == "/users/@me":
            return _json(user_payload(BOT_USER_ID, "Tirada", bot=True))
        if path == "/oauth2/applications/@me":
            return _json(application_payload())
        if path in ("/gateway", "/gateway/bot"):
            return _json(
                {
                    "url": self.gateway_url,
                    "shards": self.shards,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 1000,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        if path.endswith("/commands") and request.method == "PUT":
            return _json(
                [dict(c, id=str(snowflake()), application_id=str(APP_ID), version="1") for c in body or []]
            )
        if path.endswith("/callback"):
            return _json({"interaction": {"id": path.split("/")[2], "type": 2}})
        posted = re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", path)
        if posted and request.method in ("POST", "PATCH"):
            message_id = int(posted[2]) if posted[2] else snowflake()
            return _json(self._sent(Message(message_id, int(posted[1]), body or {}, ephemeral=False)))
        if re.fullmatch(r"/webhooks/\d+/[^/]+", path) and request.method == "POST":  # a follow-up
            return _json(self._sent(Message(snowflake(), CHANNEL_ID, body or {}, False)))
        return _json({})

    def _sent(self, message: Message) -> dict[str, Any]:
        """A posted or edited message's payload; one sent with the V2 flag is remembered."""
        if (message.data.get("flags") or 0) & COMPONENTS_V2:
            self.v2_messages.add(message.id)
        payload = message.payload()
        if message.id in self.v2_messages:
            payload["flags"] = (payload["flags"] or 0) | COMPONENTS_V2
        return payload

    # -- gateway ----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets[ws] = None
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        with contextlib.suppress(ConnectionResetError):
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                if frame["op"] == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif frame["op"] == 2:
                    await self._ready(ws, tuple(frame["d"].get("shard") or (0, 1)))
        self._sockets.pop(ws, None)
        return ws

    async def _ready(self, ws: web.WebSocketResponse, pair: tuple[int, ...]) -> None:
        shard_id, count = pair
        owned = [g for g in self.guilds if shard_of(int(g["id"]), count) == shard_id]
        await self._send(
            ws,
            "READY",
            {
                "v": 10,
                "user": user_payload(BOT_USER_ID, "Tirada", bot=True),
                "guilds": [{"id": g["id"], "unavailable": True} for g in owned],
                "session_id": f"fake-session-{shard_id}",
                "resume_gateway_url": self.gateway_url,
                "shard": [shard_id, count],
                "application": {"id": str(APP_ID), "flags": 0},
            },
        )
        for guild in owned:
            await self._send(ws, "GUILD_CREATE", guild)
        self._sockets[ws] = (shard_id, count)
        async with self.changed:
            self.ready.append((shard_id, count))
            self.changed.notify_all()
        self.identified.set()
