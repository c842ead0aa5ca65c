"""An offline Discord for interaction tests and benchmarks: the real discord.py path.

The bot logs in against a recorder that stands in for Discord's REST API (so
``login()`` and ``setup_hook`` run for real), interaction responses and follow-ups go
to a recording webhook adapter (they bypass ``bot.http``), and raw INTERACTION_CREATE
payloads are fed to discord.py's own parser. Command parsing, transformers, checks,
Views, DynamicItems and Modals all run unmodified. We wrote our own rather than pin
``simcord`` because its interactions always carry the en-US locale and ours must be
tested in Spanish first (docs/decisiones.md).

Driving it: :meth:`Harness.slash`, :meth:`Harness.autocomplete`, :meth:`Harness.click`
(buttons and selects, in action rows or beside a section's text) and :meth:`Harness.submit`
(a form: text inputs, and inside Labels the string and user selects, radio groups,
checkbox groups, checkboxes and file uploads, each answered as Discord answers it; see its
docstring for the values). Components V2 answers read like the others: ``Reply.data`` is
the body, ``Reply.text`` includes its Text Displays, ``Message.custom_ids`` its buttons.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import random
import re
import shutil
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks
from discord.ext.commands import ExtensionFailed
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.board.updater import TASK_PREFIX as BOARD_TASKS
from bot.client import Tirada
from bot.i18n import CATALOG
from bot.settings import Settings
from bot.store.postgres_follow import TASK_PREFIX as LISTEN_TASKS
from tests.support.dice import Scripted
from tests.support.discord_schema import ANSWER_SECONDS, COMPONENTS_V2, Refused, check, walk
from tests.support.payloads import (
    ADMIN,
    ALL_PERMISSIONS,
    APP_ID,
    BOT_ALLOW_OVERWRITE,
    BOT_USER_ID,
    CHANNEL_ID,
    GM,
    GM_CHANNEL_ID,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    PLAYER,
    PRIVATE_OVERWRITE,
    TOKEN,
    Message,
    User,
    application_payload,
    guild_payload,
    interaction_payload,
    snowflake,
    text_channel,
    user_payload,
)


def _answers(call: Call) -> bool:
    """An interaction's own answer (a callback, a follow-up, an edit of its response)."""
    return call.path.startswith(("/interactions/", "/webhooks/"))


# The interaction a task is handling, as the harness fed it (the tasks discord.py starts
# for it inherit it).
_feeding: ContextVar[str | None] = ContextVar("harness_feeding", default=None)


@dataclass
class Call:
    """One request the bot made: to the REST API or to the interaction webhooks."""

    method: str
    path: str
    payload: dict[str, Any] | list[Any] | None
    files: int = 0
    # Each attached file's name and content, read as it was sent.
    attachments: list[tuple[str, bytes]] = field(default_factory=list)
    at: float = field(default_factory=time.perf_counter)
    # Made by a live board's own task, in the background: no interaction's doing.
    board: bool = False
    # The token of the interaction whose handling made it, while that one is being fed:
    # two interactions fed at once (a double click) each get their own calls.
    fed_by: str | None = None


@dataclass
class Reply:
    """Everything the bot sent while handling one interaction."""

    calls: list[Call] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    started: float = 0.0

    @property
    def callbacks(self) -> list[Call]:
        return [c for c in self.calls if c.path.endswith("/callback")]

    @property
    def latency(self) -> float:
        """Seconds from INTERACTION_CREATE to the first answer sent to Discord."""
        answers = [c.at for c in self.calls if c.path.startswith(("/interactions/", "/webhooks/"))]
        return min(answers) - self.started

    @property
    def callback(self) -> Call:
        found = [c for c in self.calls if c.path.endswith("/callback")]
        assert len(found) == 1, f"expected one interaction callback, got {len(found)}: {self.calls}"
        return found[0]

    @property
    def data(self) -> dict[str, Any]:
        """The body of the first message sent: the callback's, else the first follow-up's."""
        for call in self.calls:
            payload = call.payload
            if isinstance(payload, dict):
                body = payload.get("data", payload) if call.path.endswith("/callback") else payload
                if body.get("embeds") or body.get("content") or body.get("components"):
                    return body
        raise AssertionError(f"no message in {self.calls}")

    @property
    def embed(self) -> dict[str, Any]:
        return self.data["embeds"][0]

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & 64)

    @property
    def text(self) -> str:
        """All visible text of the first message, for substring assertions (a V2 layout's
        Text Displays included)."""
        parts = [self.data.get("content") or ""]
        parts += [
            c.get("content") or ""
            for _, c in walk(self.data.get("components") or [], ())
            if c.get("type") == 10
        ]
        for embed in self.data.get("embeds", []):
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [embed.get("author", {}).get("name", ""), embed.get("footer", {}).get("text", "")]
            for f in embed.get("fields", []):
                parts += [f["name"], f["value"]]
        return "\n".join(p for p in parts if p)

    @property
    def form(self) -> dict[str, Any]:
        """The form this interaction opened, as the bot sent it (title, components)."""
        payload = self.callback.payload
        assert isinstance(payload, dict) and payload["type"] == 9, f"no form opened: {payload}"
        return dict(payload["data"])

    @property
    def modal_id(self) -> str:
        """The custom_id of the form this interaction opened."""
        return str(self.form["custom_id"])

    @property
    def message(self) -> Message:
        assert self.messages, f"no message posted: {self.calls}"
        return self.messages[0]


class Discord:
    """The recording side: answers the bot's requests like Discord and keeps them.

    It is as strict as Discord: a body past Discord's limits (``discord_schema.check``),
    a second answer to one interaction (40060) or a first answer after 3 s (10062) is
    refused with Discord's own error. A refusal the test did not ask for with
    :meth:`expect_refusals` makes the harness fail the test that caused it.
    """

    def __init__(self) -> None:
        self.calls: list[Call] = []
        # The tokens of the interactions being fed now (``Harness.feed``).
        self.feeding: set[str] = set()
        self.messages: dict[int, Message] = {}
        self.commands: list[dict[str, Any]] = []
        self._interactions: dict[str, tuple[int, int, int | None]] = {}
        # Statuses (or TIMEOUT) the next webhook calls fail with, 0 to let one through:
        # Discord failing the answer after discord.py's own retries.
        self.fail_next: list[int] = []
        # Channels whose messages the REST API refuses (deleted, or closed to the bot).
        self.closed_channels: set[int] = set()
        # Attachments a user sent, by URL: what the CDN serves.
        self.uploads: dict[str, bytes] = {}
        # Statuses the next message edits through the REST API fail with (a 429 that
        # outlasted discord.py's own retries); pins refused for want of the permission.
        self.fail_edits: list[int] = []
        self.refuse_pins = False
        self.pinned: set[int] = set()
        # Messages a board's task posted again (a deleted board): no interaction's answer.
        self.board_messages: set[int] = set()
        # Every refusal Discord answered, and those no test asked for (they fail it).
        self.refusals: list[Refused] = []
        self.violations: list[str] = []
        self._expected: list[Refused] | None = None
        self._delivered: dict[str, int] = {}
        self._created: dict[str, float] = {}
        self._acknowledged: set[str] = set()
        # The message each interaction's first answer posted or updated (its @original).
        self._originals: dict[str, int] = {}

    async def cdn(self, url: str) -> bytes:
        """Discord's CDN: an attachment's bytes (``Attachment.read``)."""
        return self.uploads[url]

    def register(self, token: str, interaction_id: int, channel_id: int, message_id: int | None) -> None:
        self._interactions[token] = (interaction_id, channel_id, message_id)
        self._delivered[token] = self._delivered.get(token, 0) + 1
        self._created.setdefault(token, time.monotonic())

    def age(self, token: str, seconds: float) -> None:
        """Pretend the interaction was created ``seconds`` earlier (to test the 3 s window)."""
        self._created[token] -= seconds

    @contextlib.contextmanager
    def expect_refusals(self) -> Iterator[list[Refused]]:
        """Let Discord refuse requests without failing the test: to test the bot's reaction."""
        self._expected = caught = []
        try:
            yield caught
        finally:
            self._expected = None

    def _refuse(self, refused: Refused, *, violation: bool = True) -> None:
        """Answer like Discord; remember it as a violation unless the test expects it."""
        self.refusals.append(refused)
        if self._expected is not None:
            self._expected.append(refused)
        elif violation:
            self.violations.append(str(refused))
        kind = {403: discord.Forbidden, 404: discord.NotFound}.get(refused.status, discord.HTTPException)
        raise kind(_FakeResponse(refused.status), refused.body)

    def _validate(self, method: str, path: str, payload: Any, token: str = "") -> None:
        try:
            check(method, path, payload, components_v2=self._edits_v2(path, payload, token))
        except Refused as refused:
            self._refuse(refused)

    def _edits_v2(self, path: str, payload: Any, token: str) -> bool:
        """Whether the request edits a message sent with ``IS_COMPONENTS_V2``: the flag stays
        with the message, so the edit is held to V2's rules whatever flags it sends."""
        edited = re.search(r"/messages/(\d+|@original)$", path)
        message_id: int | None = None
        if path.endswith("/callback") and isinstance(payload, dict) and payload.get("type") == 7:
            message_id = self._interactions.get(token, (0, 0, None))[2]
        elif edited and edited[1] == "@original":
            message_id = self._originals.get(token, self._interactions.get(token, (0, 0, None))[2])
        elif edited:
            message_id = int(edited[1])
        message = self.messages.get(message_id) if message_id is not None else None
        return message is not None and bool((message.data.get("flags") or 0) & COMPONENTS_V2)

    def _acknowledge(self, token: str) -> None:
        """The first answer of an interaction: once, and within 3 s of its creation.

        A second answer is a bot bug, unless the interaction was delivered twice (a
        replay: Discord refuses the duplicate's answer and the bot must shrug it off).
        Wall time is only measured to refuse a late answer, never asserted.
        """
        if token in self._acknowledged:
            body = {"code": 40060, "message": "Interaction has already been acknowledged."}
            self._refuse(Refused(400, body), violation=self._delivered.get(token, 0) < 2)
        if time.monotonic() - self._created.get(token, time.monotonic()) > ANSWER_SECONDS:
            self._refuse(Refused(404, {"code": 10062, "message": "Unknown interaction"}), violation=False)

    def forget(self) -> None:
        """Drop everything recorded so far. Only between interactions: a load run calls it
        after each batch, so that what the process holds is the bot's, not this record's
        (real Discord keeps the messages in its own memory, not in the bot's). Pinned
        messages (the live boards) stay: the bot goes on editing them. So does nothing a
        later interaction needs: each one has its own token."""
        self.calls.clear()
        self.messages = {i: m for i, m in self.messages.items() if i in self.pinned}
        for per_token in (
            self._interactions,
            self._delivered,
            self._created,
            self._acknowledged,
            self._originals,
        ):
            per_token.clear()

    async def rest(self, route: discord.http.Route, **kwargs: Any) -> Any:
        payload = kwargs.get("json")
        task = asyncio.current_task()
        board = task is not None and task.get_name().startswith(BOARD_TASKS)
        fed = _feeding.get()
        fed_by = fed if fed in self.feeding else None
        self.calls.append(Call(route.method, _path(route), payload, board=board, fed_by=fed_by))
        self._validate(route.method, _path(route), payload)
        path = route.path
        if path == "/users/@me":
            return user_payload(BOT_USER_ID, "Tirada", bot=True)
        if path == "/oauth2/applications/@me":
            return application_payload()
        if path.endswith("/commands") and route.method == "PUT":
            self.commands = list(payload or [])
            return [
                {
                    "description": "",
                    **c,
                    "id": str(snowflake()),
                    "application_id": str(APP_ID),
                    "version": "1",
                }
                for c in self.commands
            ]
        if path == "/channels/{channel_id}/messages" and route.method == "POST":
            if int(route.channel_id) in self.closed_channels:
                raise discord.Forbidden(_FakeResponse(403), {"message": "Missing Access", "code": 50001})
            message = self._post(int(route.channel_id), payload or {}, ephemeral=False)
            if board:
                self.board_messages.add(message.id)
            return message.payload()
        if path == "/channels/{channel_id}/messages/{message_id}":
            return self._message_request(route, payload or {})
        if path == "/channels/{channel_id}/messages/pins/{message_id}":
            if self.refuse_pins:
                raise discord.Forbidden(_FakeResponse(403), {"message": "Missing Permissions", "code": 50013})
            self.pinned.add(int(route.url.rsplit("/", 1)[1]))
        return {}

    def _message_request(self, route: discord.http.Route, payload: dict[str, Any]) -> Any:
        """An edit or a deletion of a posted message; an unknown one is Discord's 10008."""
        message_id = int(route.url.rsplit("/", 1)[1])
        if message_id not in self.messages:
            raise discord.NotFound(_FakeResponse(404), {"message": "Unknown Message", "code": 10008})
        if route.method == "DELETE":
            del self.messages[message_id]
            return None
        if self.fail_edits:
            status = self.fail_edits.pop(0)
            raise discord.HTTPException(_FakeResponse(status), {"message": "fake failure", "code": 0})
        return self._update(message_id, payload).payload()

    async def webhook(self, route: discord.http.Route, **kwargs: Any) -> Any:
        payload = kwargs.get("payload")
        files = kwargs.get("files") or []
        if payload is None and kwargs.get("multipart"):
            part = next(p for p in kwargs["multipart"] if p["name"] == "payload_json")
            payload = json.loads(part["value"])
        path = _path(route)
        attachments = [(f.filename, _content(f)) for f in files]
        call = Call(route.method, path, payload, files=len(files), attachments=attachments)
        self.calls.append(call)
        token = route.webhook_token or ""
        self._validate(route.method, path, payload, token)
        if path.endswith("/callback"):
            self._acknowledge(token)
        status = self.fail_next.pop(0) if self.fail_next else 0
        if status:
            if status == TIMEOUT:
                raise TimeoutError("fake timeout")
            raise discord.HTTPException(_FakeResponse(status), {"message": "fake failure", "code": 0})
        if path.endswith("/callback"):
            self._acknowledged.add(token)
        interaction_id, channel_id, message_id = self._interactions.get(token, (0, CHANNEL_ID, None))
        if path.endswith("/callback"):
            return self._callback(interaction_id, channel_id, message_id, payload or {}, token)
        if route.method == "POST":  # a follow-up
            data = payload or {}
            return self._post(
                channel_id, data, ephemeral=bool(data.get("flags", 0) & 64), token=token
            ).payload()
        if route.method == "PATCH":  # edit of the original or of a follow-up
            return self._edit_answer(token, path, channel_id, payload or {}).payload()
        return {}

    def _edit_answer(self, token: str, path: str, channel_id: int, data: dict[str, Any]) -> Message:
        """An edit through an interaction's token: refused once the token has expired
        (15 minutes after the interaction); ``@original`` is the message its first answer
        posted or updated, which takes the new body."""
        if time.monotonic() - self._created.get(token, time.monotonic()) > TOKEN_SECONDS:
            self._refuse(Refused(401, {"code": 50027, "message": "Invalid Webhook Token"}))
        edited = re.search(r"/messages/(\d+|@original)$", path)
        message_id: int | None = None
        if edited and edited[1] == "@original":
            message_id = self._originals.get(token, self._interactions.get(token, (0, 0, None))[2])
        elif edited:
            message_id = int(edited[1])
        if message_id in self.messages:
            return self._update(message_id, data)
        return self._edit(channel_id, data)

    def _callback(
        self, interaction_id: int, channel_id: int, message_id: int | None, body: dict[str, Any], token: str
    ) -> dict[str, Any]:
        kind = body.get("type")
        data = body.get("data") or {}
        answer: dict[str, Any] = {"interaction": {"id": str(interaction_id), "type": 2}}
        if kind == 4:
            message = self._post(channel_id, data, ephemeral=bool(data.get("flags", 0) & 64), token=token)
            self._originals[token] = message.id
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": 4, "message": message.payload()}
        elif kind == 7:
            if message_id in self.messages:
                self._update(message_id, data)
            answer["resource"] = {"type": 7}
        elif kind is not None:
            answer["resource"] = {"type": kind}
        return answer

    def posted_after(self, newest: int) -> list[Message]:
        """The messages posted since ``newest`` was, oldest first, that are still there.
        Ids grow with each post and the dict keeps posting order, so they are its tail:
        walked from the end, not over every message of a long test (the sweep posts
        thousands)."""
        ids = list(itertools.takewhile(lambda i: i > newest, reversed(self.messages)))
        return [self.messages[i] for i in reversed(ids)]

    def earlier(self, channel_id: int, data: dict[str, Any]) -> Message:
        """A public message as if the bot had posted it before (an older version's buttons)."""
        return self._post(channel_id, data, ephemeral=False)

    def _post(
        self, channel_id: int, data: dict[str, Any], *, ephemeral: bool, token: str | None = None
    ) -> Message:
        message = Message(snowflake(), channel_id, data, ephemeral, token)
        self.messages[message.id] = message
        return message

    def _edit(self, channel_id: int, data: dict[str, Any]) -> Message:
        return Message(snowflake(), channel_id, data, False)

    def _update(self, message_id: int, data: dict[str, Any]) -> Message:
        """An edit of a posted message: the stored message takes the new body."""
        message = self.messages[message_id]
        message.data = {**message.data, **data}
        return message


TIMEOUT = -1
# Discord, Receiving an Interaction: "Interaction tokens are valid for 15 minutes".
TOKEN_SECONDS = 15 * 60


def _content(file: discord.File) -> bytes:
    """An attachment's bytes, read without moving the file (discord.py sends it next)."""
    fp = file.fp
    position = fp.tell()
    fp.seek(0)
    data = fp.read()
    fp.seek(position)
    return data


def _path(route: discord.http.Route) -> str:
    """The request's path with its parameters filled in, without the API base."""
    return route.url.removeprefix(discord.http.Route.BASE)


class _FakeResponse:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "fake"
        self.headers: dict[str, str] = {}


class _Adapter(AsyncWebhookAdapter):
    def __init__(self, discord_: Discord) -> None:
        super().__init__()
        self.discord = discord_

    async def request(self, route: Any, session: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return await self.discord.webhook(route, **kwargs)


# The GM may see their private channel (a member overwrite, as a server would give them).
GM_ALLOW_OVERWRITE = {
    "id": str(GM.id),
    "type": 1,
    "allow": str(discord.Permissions(view_channel=True).value),
    "deny": "0",
}


@dataclass(frozen=True)
class Upload:
    """A file a user attaches to a command option (``/ficha importar archivo:``)."""

    filename: str
    data: bytes


class Harness:
    """A bot on a database file, driven by raw interaction payloads.

    ``restart()`` closes the bot and starts a new one on the same file, like a host
    restart; messages posted before keep their buttons, as on Discord.
    """

    def __init__(self, db_path: Path | str, *, seed: int = 1, dev_guild: int | None = None) -> None:
        self.db_path = db_path
        self.seed = seed
        self.dev_guild = dev_guild
        self.discord = Discord()
        self.adapter = _Adapter(self.discord)
        self.bot: Tirada | None = None
        self.channels = _channels()
        # Members GUILD_CREATE lists; add the bot's to check its own channel permissions.
        self.members: list[dict[str, Any]] = []
        # The bot ``reset`` keeps from one test to the next, and its view store at its start.
        self._kept: Tirada | None = None
        self._template = Path()
        self._own_views: set[str] = set()
        self._own_items: dict[Any, Any] = {}

    def settings(self) -> Settings:
        return Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_token=TOKEN,
            tirada_db=self.db_path,
            tirada_dev_guild=self.dev_guild,
        )

    def build(self) -> Tirada:
        """The bot to start: a subclass may build another kind (a sharded one)."""
        return Tirada(self.settings(), rng=random.Random(self.seed))

    async def start(self) -> Tirada:
        bot = self.build()
        self._attach(bot)
        bot.commands_payload = functools.partial(translated_once, bot)  # type: ignore[method-assign]
        bot._load_from_module_spec = functools.partial(  # type: ignore[method-assign]
            _load_kept, bot, bot._load_from_module_spec
        )
        await bot.login(TOKEN)
        _COGS.update(_relinked())
        self.assert_accepted()
        bot._connection.parsers["GUILD_CREATE"](guild_payload(self.channels, self.members))
        self.bot = bot
        return bot

    def _attach(self, bot: Tirada) -> None:
        """Send the bot's REST requests and CDN downloads to this harness's recorder."""
        bot.http.request = self.discord.rest  # type: ignore[method-assign]
        bot.http.get_from_cdn = self.discord.cdn  # type: ignore[method-assign]

    def assert_accepted(self) -> None:
        """Fail the test if Discord refused a request the test did not expect refused."""
        violations, self.discord.violations = self.discord.violations, []
        assert not violations, "Discord would refuse what the bot sent:\n" + "\n".join(violations)

    async def close(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            sys.modules.update(_COGS)
            await self.bot.store.close()
            self.bot.release()
            self.bot = None

    async def restart(self, *, seed: int | None = None) -> Tirada:
        await self.close()
        if seed is not None:
            self.seed = seed
        return await self.start()

    async def reset(self, db_path: Path) -> Tirada:
        """The same bot on a new database, as if it had just started there: the next test's.

        A bot is started once per test module (its command tree translated, synced and
        checked: a tenth of a second); each test still gets its own database, a new
        recorder, the default guild, seed 1 and none of the previous test's views. The new
        database is a copy of the one the bot started on, taken before any test wrote to
        it: the schema and the commands' digest a start leaves, without creating the
        schema again (most of a reset's time on a busy disk). The store's half of
        ``Tirada.setup_hook`` and ``close`` runs again, in their order. A bot the test
        restarted or closed is replaced by a new one."""
        self.seed, self.dev_guild = 1, None
        if self.bot is None or self.bot is not self._kept:
            await self.close()
            self.db_path = db_path.with_name(f"started-{db_path.name}")
            self._fresh_guild()
            self._kept = await self.start()
            self._template = self.db_path
            self._own_views = {view.id for view in _waiting(self._kept)}
            self._own_items = dict(self._kept._connection._view_store._dynamic_items)
        bot = self._kept
        self._stop_views(bot)
        await bot._drain()
        await _stopped(bot.prune)
        await bot.close_books()
        await bot.store.close()
        bot.release()
        shutil.copyfile(self._template, db_path)
        self.db_path = db_path
        self._fresh_guild()
        self._attach(bot)
        bot.settings = bot.settings.model_copy(update={"tirada_db": db_path})
        await bot.open_books()
        await bot.follow_books()
        bot.rng = random.Random(self.seed)
        bot._connection.parsers["GUILD_CREATE"](guild_payload(self.channels, self.members))
        return bot

    def _fresh_guild(self) -> None:
        """A new recorder (knowing the commands Discord already holds) and the default guild."""
        commands = self.discord.commands
        self.discord = Discord()
        self.discord.commands = commands
        self.adapter = _Adapter(self.discord)
        self.channels = _channels()
        self.members = []

    def _stop_views(self, bot: Tirada) -> None:
        """Stop the views and forms the previous test left waiting (their 15-minute timers
        too): a click or a submission in the next test finds only what that test posted.
        discord.py drops a stopped view's dynamic items from the store: they come back."""
        for view in _waiting(bot):
            if view.id not in self._own_views:
                view.stop()
        bot._connection._view_store._dynamic_items = dict(self._own_items)

    # -- state ------------------------------------------------------------------------

    async def table_for(self, system: str, *, channel_id: int = CHANNEL_ID) -> Harness:
        """A table of ``system`` in ``channel_id``, run by GM: an administrator names the
        GM, who chooses the system (as a server's table starts)."""
        await self.slash("mesa dj", user=ADMIN, miembro=GM, channel_id=channel_id)
        await self.slash("mesa sistema", user=GM, sistema=system, channel_id=channel_id)
        return self

    def script(self, *faces: int) -> None:
        """The next dice the bot rolls, in order."""
        assert self.bot is not None
        self.bot.rng = Scripted(list(faces))

    async def pool(self, name: str, owner: int = 0, channel_id: int = CHANNEL_ID) -> int:
        assert self.bot is not None
        return await self.bot.store.pool(channel_id, name, owner)

    async def assert_ledger_matches(self, channel_id: int = CHANNEL_ID) -> None:
        """Every pool equals the sum of its ledger rows, a deleted sheet's too (read one by
        one: the table's pools leave them out)."""
        assert self.bot is not None
        sums = await self.bot.store.ledger_sums(channel_id)
        for pool in await self.bot.store.pools(channel_id):
            assert sums.get((pool.pool, pool.owner_id), 0) == pool.value, pool
        for (name, owner), total in sums.items():
            assert await self.bot.store.pool(channel_id, name, owner) == total, (name, owner)

    def current(self, message: Message) -> Message:
        """A posted message as it is now, after any edits."""
        return self.discord.messages[message.id]

    # -- interactions -----------------------------------------------------------------

    async def slash(
        self,
        command: str,
        *,
        user: User = PLAYER,
        locale: str = "es-ES",
        channel_id: int = CHANNEL_ID,
        guild: bool = True,
        user_install: bool = False,
        **options: Any,
    ) -> Reply:
        """``/mesa estado`` as ``slash("mesa estado")``; options by their Spanish names.
        ``guild=False``: in a DM; ``user_install``: in a server without Tirada."""
        data = self._command_data(command.split(), options)
        return await self.dispatch(
            2, data, user=user, locale=locale, channel_id=channel_id, guild=guild, user_install=user_install
        )

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str = "",
        *,
        user: User = PLAYER,
        locale: str = "es-ES",
        channel_id: int = CHANNEL_ID,
        **filled: Any,
    ) -> list[dict[str, Any]]:
        """The suggestions the bot offers for ``option`` while the user types ``typed``,
        with the ``filled`` options already given."""
        path = command.split()
        data = self._command_data(path, filled)
        innermost = data
        while innermost["options"] and innermost["options"][0]["type"] in (1, 2):
            innermost = innermost["options"][0]
        focused = self._option(self.command(path), option, typed, {})
        innermost["options"] = [*innermost["options"], {**focused, "focused": True}]
        reply = await self.dispatch(4, data, user=user, locale=locale, channel_id=channel_id)
        payload = reply.callback.payload
        assert isinstance(payload, dict) and payload["type"] == 8, payload
        return list(payload["data"]["choices"])

    async def click(
        self,
        message: Message,
        custom_id: str,
        *,
        user: User = PLAYER,
        locale: str = "es-ES",
        values: list[str] | None = None,
        picked: list[User] | None = None,
        component_type: int = 2,
        channel_id: int | None = None,
        guild_id: int = GUILD_ID,
    ) -> Reply:
        """Press a component of ``message``; ``channel_id`` and ``guild_id`` make the click
        arrive from elsewhere (a forged or copied ``custom_id``). ``picked``: the users chosen
        in a user select, sent as Discord does (their ids, and the users resolved)."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if picked is not None:
            resolved: dict[str, dict[str, Any]] = {}
            values = [resolve_user(u, resolved) for u in picked]
            data["resolved"] = resolved
        if values is not None:
            data["values"] = values
        return await self.dispatch(
            3,
            data,
            user=user,
            locale=locale,
            channel_id=message.channel_id if channel_id is None else channel_id,
            message=message,
            guild_id=guild_id,
        )

    async def submit(
        self,
        custom_id: str,
        fields: Mapping[str, Any],
        *,
        user: User = PLAYER,
        locale: str = "es-ES",
        message: Message | None = None,
    ) -> Reply:
        """Submit the form ``custom_id`` with ``fields``, keyed by each component's custom_id,
        in the shape Discord sends a MODAL_SUBMIT (interaction type 5):

        - a text input: its text (``str``);
        - a string select or a checkbox group: the values chosen (``list[str]``);
        - a radio group: the value chosen (``str``; ``None`` for none);
        - a checkbox: checked or not (``bool``);
        - a file upload: the files (``list[Upload]``, sent as attachment ids and resolved);
        - a user select: the users (``list[User]``, resolved as Discord does).

        When the bot opened that form (its type-9 answer is recorded), the submission follows
        the form's layout: a component inside a Label answers inside it, a Text Display
        answers with its id, and a select, radio group, checkbox or file upload the test
        leaves out answers with what Discord sends untouched (its defaults); text inputs left
        out are not sent. A value that form could not produce fails the test (a choice it
        does not offer, fewer or more choices than it allows, a required one left empty):
        forge those with :meth:`dispatch`. Fields for a form never opened, or not in it, go
        as action rows holding a text input, the shape of the forms before labels."""
        resolved: dict[str, dict[str, Any]] = {}
        left = dict(fields)
        form = self._opened_form(custom_id)
        answers = self._form_answers(form, left, resolved) if form else []
        answers += [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in left.items()
        ]
        data: dict[str, Any] = {"custom_id": custom_id, "components": answers}
        if resolved:
            data["resolved"] = resolved
        channel = message.channel_id if message else CHANNEL_ID
        return await self.dispatch(5, data, user=user, locale=locale, channel_id=channel, message=message)

    def _opened_form(self, custom_id: str) -> dict[str, Any] | None:
        """The last form the bot opened with that custom_id, as it sent it."""
        for call in reversed(self.discord.calls):
            payload = call.payload
            if not (call.path.endswith("/callback") and isinstance(payload, dict)):
                continue
            if payload.get("type") == 9 and payload["data"].get("custom_id") == custom_id:
                return dict(payload["data"])
        return None

    def _form_answers(
        self, form: dict[str, Any], left: dict[str, Any], resolved: dict[str, dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The submitted components of an opened form, top level first; ``left`` loses the
        fields answered. Components without an id get Discord's sequential ones."""
        answers: list[dict[str, Any]] = []
        numbers = iter(range(1, 1000))
        for item in form.get("components") or []:
            number = item.get("id") or next(numbers)
            if item.get("type") == 10:
                answers.append({"type": 10, "id": number})
                continue
            children = [item["component"]] if item.get("type") == 18 else item.get("components") or []
            inner = [self._answer(c, left, resolved, c.get("id") or next(numbers)) for c in children]
            given = [a for a in inner if a is not None]
            if given and item.get("type") == 18:
                answers.append({"type": 18, "id": number, "component": given[0]})
            elif given:
                answers.append({"type": 1, "id": number, "components": given})
        return answers

    def _answer(
        self, item: dict[str, Any], left: dict[str, Any], resolved: dict[str, dict[str, Any]], number: int
    ) -> dict[str, Any] | None:
        """One component's answer, as the reference's "Interaction Response Structure"s say."""
        kind, custom_id = item.get("type"), item["custom_id"]
        answer: dict[str, Any] = {"type": kind, "id": number, "custom_id": custom_id}
        given = custom_id in left
        value = left.pop(custom_id, None)
        if kind == 4:
            return {**answer, "value": value} if given else None
        if kind == 23:
            return {**answer, "value": bool(value) if given else bool(item.get("default"))}
        options = [o["value"] for o in item.get("options") or []]
        defaults = [o["value"] for o in item.get("options") or [] if o.get("default")]
        if kind == 21:
            chosen = value if given else next(iter(defaults), None)
            assert chosen is None or chosen in options, f"{custom_id}: {chosen!r} is not among {options}"
            assert chosen is not None or item.get("required") is False, f"{custom_id} is required"
            return {**answer, "value": chosen}
        chosen_many = list(value) if given else defaults
        _within(item, chosen_many, options)
        if kind == 19:
            chosen_many = [_upload(self.discord, u, resolved) for u in chosen_many]
        elif kind == 5:
            chosen_many = [resolve_user(u, resolved) for u in chosen_many]
        return {**answer, "values": chosen_many}

    async def dispatch(
        self,
        kind: int,
        data: dict[str, Any],
        *,
        user: User,
        locale: str,
        channel_id: int,
        guild: bool = True,
        message: Message | None = None,
        interaction_id: int | None = None,
        guild_id: int = GUILD_ID,
        user_install: bool = False,
    ) -> Reply:
        """Feed one INTERACTION_CREATE and wait until the bot has finished with it."""
        assert self.bot is not None, "start() the harness first"
        payload = interaction_payload(
            kind,
            data,
            user=user,
            locale=locale,
            channel_id=channel_id,
            guild=guild,
            message=message.payload() if message else None,
            channels=self.channels,
            guild_id=guild_id,
            user_install=user_install,
        )
        if interaction_id is not None:
            payload["id"] = str(interaction_id)
        return await self.feed(payload)

    async def feed(self, payload: dict[str, Any]) -> Reply:
        """Feed a prepared payload (replays feed the same one twice)."""
        assert self.bot is not None
        message_id = int(payload["message"]["id"]) if "message" in payload else None
        self.discord.register(payload["token"], int(payload["id"]), int(payload["channel_id"]), message_id)
        seen_calls, newest = len(self.discord.calls), next(reversed(self.discord.messages), 0)
        before = asyncio.all_tasks()
        started = time.perf_counter()
        token = async_context.set(self.adapter)
        fed = _feeding.set(payload["token"])
        self.discord.feeding.add(payload["token"])
        try:
            self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        finally:
            async_context.reset(token)
            _feeding.reset(fed)
        try:
            await settle(before)
        finally:
            self.discord.feeding.discard(payload["token"])
        self.assert_accepted()
        token = payload["token"]
        calls = [
            c
            for c in self.discord.calls[seen_calls:]
            if token in c.path or not (c.board or c.fed_by not in (None, token) or _answers(c))
        ]
        messages = [
            m
            for m in self.discord.posted_after(newest)
            if m.token in (token, None) and m.id not in self.discord.board_messages
        ]
        return Reply(calls, messages, started)

    def command(self, path: list[str]) -> app_commands.Command[Any, ..., Any]:
        """The command at ``path`` (``["mesa", "estado"]``) in the bot's tree."""
        assert self.bot is not None
        command = self.bot.tree.get_command(path[0])
        assert command is not None, f"no command /{path[0]}"
        for name in path[1:]:
            assert isinstance(command, app_commands.Group)
            command = command.get_command(name)
            assert command is not None, f"no subcommand {name}"
        assert isinstance(command, app_commands.Command)
        return command

    def _command_data(self, path: list[str], options: dict[str, Any]) -> dict[str, Any]:
        command = self.command(path)
        resolved: dict[str, dict[str, Any]] = {}
        built = [self._option(command, name, value, resolved) for name, value in options.items()]
        for name in reversed(path[1:]):
            built = [{"type": 1, "name": name, "options": built}]
        data: dict[str, Any] = {"id": str(snowflake()), "name": path[0], "type": 1, "options": built}
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        command: app_commands.Command[Any, ..., Any],
        name: str,
        value: Any,
        resolved: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        param = next((p for p in command.parameters if p.display_name == name or p.name == name), None)
        assert param is not None, f"/{command.qualified_name} has no option {name}"
        if isinstance(value, User):
            value = resolve_user(value, resolved)
        elif isinstance(value, Upload):
            value = _upload(self.discord, value, resolved)
        elif isinstance(value, dict) and value.get("type") == 0:  # a channel payload
            resolved.setdefault("channels", {})[value["id"]] = dict(value, permissions=str(ALL_PERMISSIONS))
            value = value["id"]
        if param.type is discord.AppCommandOptionType.string and not isinstance(value, str):
            value = str(value)  # Discord sends a string option as text, whatever was typed
        return {"type": param.type.value, "name": param.display_name, "value": value}


def _channels() -> list[dict[str, Any]]:
    """The guild's channels as a new harness has them (tests edit them in place)."""
    return [
        text_channel(CHANNEL_ID, "mesa"),
        text_channel(GM_CHANNEL_ID, "dj", [PRIVATE_OVERWRITE, BOT_ALLOW_OVERWRITE, GM_ALLOW_OVERWRITE]),
        text_channel(OTHER_CHANNEL_ID, "otra-mesa"),
    ]


async def _stopped(loop: tasks.Loop[Any]) -> None:
    """Cancel a background loop and wait until it has stopped (it may be mid-iteration)."""
    task = loop.get_task()
    loop.cancel()
    if task is not None:
        with contextlib.suppress(asyncio.CancelledError):
            await task


def _waiting(bot: Tirada) -> list[discord.ui.view.BaseView | discord.ui.Modal]:
    """Every view and form discord.py's view store holds for ``bot``."""
    store = bot._connection._view_store
    items = [item for items in store._views.values() for item in items.values()]
    views = {item.view.id: item.view for item in items if item.view}
    views |= {view.id: view for view in store._synced_message_views.values()}
    views |= {modal.id: modal for modal in store._modals.values()}
    return list(views.values())


# Every module of cogs/ a bot has loaded, kept from one bot to the next. Closing a bot
# unloads its extensions, and discord.py drops them and their submodules from sys.modules:
# importing cogs/ again, class bodies and command decorators included, was half of each
# start (and all of it compiled anew where PYTHONDONTWRITEBYTECODE is set). A new bot
# still runs each extension's setup; only its submodules come from here.
_COGS: dict[str, ModuleType] = {}


async def _load_kept(
    bot: Tirada, load: Callable[[ModuleSpec, str], Awaitable[None]], spec: ModuleSpec, key: str
) -> None:
    """discord.py's ``Bot._load_from_module_spec`` for an extension an earlier bot of the
    process loaded: its kept module, not a new one executed again (``cogs/mesa.py``'s class
    body and command decorators, and four others: 13 ms of a 35 ms start). Its ``setup``
    still runs, and a failing one is unwound as discord.py unwinds it."""
    lib = _COGS.get(key)
    if lib is None:
        await load(spec, key)
        return
    sys.modules[key] = lib
    try:
        await lib.setup(bot)
    except Exception as error:
        del sys.modules[key]
        await bot._remove_module_references(lib.__name__)
        await bot._call_module_finalizers(lib, key)
        raise ExtensionFailed(key, error) from error
    bot._BotBase__extensions[key] = lib


def _relinked() -> dict[str, ModuleType]:
    """The modules of cogs/ now loaded, each hung on its package again: a fresh extension
    package only gets the submodules it imported for the first time (none, when they are
    kept), and ``monkeypatch.setattr("cogs.dune.cog.X", ...)`` walks those attributes."""
    loaded = {name: module for name, module in sys.modules.items() if name.startswith("cogs.")}
    for name, module in loaded.items():
        package, _, child = name.rpartition(".")
        setattr(sys.modules[package], child, module)
    return loaded


# Each distinct command tree's translated payload, by what its translation reads.
_TRANSLATED: dict[str, list[dict[str, Any]]] = {}


async def translated_once(bot: Tirada) -> list[dict[str, Any]]:
    """``Tirada.commands_payload``, computed once a process for each distinct tree: every
    bot of a test process builds the same tree, and discord.py asks the translator for each
    of its 1,100 strings in each of Discord's 32 locales (30 ms of CPU, a third of a start;
    the key takes 7). The key holds all a translation reads: the translator's class, the
    tree as sent untranslated, and each translatable string with its catalog key and that
    key's entry in every language, so a test that changes a command or one of its
    sentences gets its tree translated anew. The payload is shared: the bot only reads it
    (for its digest and the upload), and the recorder keeps a copy of the list."""
    commands = bot.tree.get_commands()
    strings = [
        (s.message, s.extras, CATALOG.entries.get(s.extras.get("key", ""))) for s in _locale_strings(commands)
    ]
    key = repr([type(bot.tree.translator), [c.to_dict(bot.tree) for c in commands], strings])
    if key not in _TRANSLATED:
        _TRANSLATED[key] = await Tirada.commands_payload(bot)
    return _TRANSLATED[key]


def _locale_strings(nodes: Iterable[Any]) -> Iterator[app_commands.locale_str]:
    """Every translatable string of the commands ``nodes``, as discord.py's translated
    payload reads them: names and descriptions of commands and groups, of their options,
    and the options' choices."""
    for node in nodes:
        parameters = getattr(node, "_params", {}).values()
        children = getattr(node, "_children", {}).values()
        fields = [getattr(node, "_locale_name", None), getattr(node, "_locale_description", None)]
        for parameter in parameters:
            fields += [parameter._rename, parameter.description]
            fields += [choice._locale_name for choice in parameter.choices or ()]
        yield from (f for f in fields if isinstance(f, app_commands.locale_str))
        yield from _locale_strings(children)


def _is_view_timer(task: asyncio.Task[Any]) -> bool:
    """discord.py gives views on ephemeral messages a 15-minute timer, each live board has
    its own refresher (``Boards.settled`` waits for those), and a PostgreSQL store listens to
    other processes all along: not work to wait for."""
    if task.get_name().startswith((BOARD_TASKS, LISTEN_TASKS)):
        return True
    return task.get_coro().__qualname__.endswith("__timeout_task_impl")  # type: ignore[union-attr]


async def settle(before: set[asyncio.Task[Any]], limit: float = 10.0) -> None:
    """Wait until every task started since ``before`` (and any they start) is done."""
    current = asyncio.current_task()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while True:
        pending = [
            t
            for t in asyncio.all_tasks()
            if t not in before and t is not current and not t.done() and not _is_view_timer(t)
        ]
        if not pending:
            return
        remaining = deadline - loop.time()
        assert remaining > 0, f"interaction still running after {limit}s: {pending}"
        await asyncio.wait(pending, timeout=remaining)


def _within(item: dict[str, Any], chosen: list[Any], options: list[str]) -> None:
    """Fail the test if Discord's client could not submit ``chosen`` in that component: a
    value it does not offer, or a count outside its min_values..max_values (none at all is
    allowed only when it is not required)."""
    kind = item.get("type")
    if kind in (3, 22):
        strange = [c for c in chosen if c not in options]
        assert not strange, f"{item['custom_id']}: {strange} not among {options}"
    ceiling = {3: len(options), 22: len(options), 19: 10}.get(kind, 25)
    low = 1 if item.get("min_values") is None else item["min_values"]
    high = (ceiling if kind == 22 else 1) if item.get("max_values") is None else item["max_values"]
    if item.get("required") is False:
        low = 0
    assert low <= len(chosen) <= high, f"{item['custom_id']}: {len(chosen)} chosen, allowed {low}..{high}"


def _upload(discord_: Discord, upload: Upload, resolved: dict[str, dict[str, Any]]) -> str:
    """A file the user attached, put on the CDN and in ``resolved`` as Discord does; the
    value sent for it (its attachment id)."""
    upload_id = str(snowflake())
    url = f"https://cdn.discordapp.test/attachments/{upload_id}/{upload.filename}"
    discord_.uploads[url] = upload.data
    resolved.setdefault("attachments", {})[upload_id] = {
        "id": upload_id,
        "filename": upload.filename,
        "size": len(upload.data),
        "url": url,
        "proxy_url": url,
    }
    return upload_id


def resolve_user(user: User, resolved: dict[str, dict[str, Any]]) -> str:
    """Add ``user`` to an interaction's ``resolved`` (as a user and a member of the guild),
    as Discord does for a user option or a user select; returns the value sent (its id)."""
    resolved.setdefault("users", {})[str(user.id)] = user.payload()
    resolved.setdefault("members", {})[str(user.id)] = {
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "permissions": str(user.permissions),
        "flags": 0,
    }
    return str(user.id)
