"""Everything the bot can send, at its longest, in both languages, through the strict Discord.

The sweep knows no cog: it reads the command tree, runs every command of every game
system with its options at their bounds (largest numbers, longest texts, every choice),
asks every autocomplete, then presses every button and select of every message it got
and fills every form it opened (each field at its maximum length, then at one
character), following the messages those answers post; every form the code defines must
open, and each of its fields be filled at both ends. The offline Discord checks each
request against Discord's limits (tests/support/discord_schema.py), so a new catalog
sentence, component or panel past a limit fails here without a case written for it.
Names are the longest Discord allows (32 characters).
"""

from __future__ import annotations

import importlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from discord import AppCommandOptionType, AppCommandType, app_commands

from bot import charts
from bot.board.render import SHEETS_BUTTON as BOARD_BUTTON
from bot.internals import open_forms
from bot.ui import Modal
from rules.donjon import posted as donjon_posted
from tests.support.harness import Harness, Message, Reply, Upload, resolve_user
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, MANAGE_PERMISSIONS, OTHER, User

LONGEST_NAME = 32  # Discord's display names
BOSS = User(GM.id, ("Directora de juego Maximiliana " * 2)[:LONGEST_NAME], MANAGE_PERMISSIONS)
RIVAL = User(OTHER.id, ("Otro jugador con nombre larguísimo " * 2)[:LONGEST_NAME])
# Free-text options need a legal value to reach past the refusal: the longest one we know
# of per option; others get their maximum length of "x".
LONG_TEXT = {
    "expresion": "+".join(["10d100kh5"] * 18),
    "daño": "+".join(["8d6"] * 40),
    "dados": "3d10+3d10+3d10+3d10",
    "nombre": "Guardia de la Torre Negra del Norte 1",
}
# A character sheet of each system (/ficha importar): the one for the table's system is kept.
SHEETS = Path(__file__).resolve().parent.parent / "docs" / "fichas"
SYSTEMS = ("donjon", "dune", "dnd5e", "mediana")
PRESSES_PER_SYSTEM = 600
USER_SELECT = 5  # Discord's component type
# The form fields the bot asks, as Discord types them: text input, string select, radio
# group, checkbox, user select.
FORM_FIELDS = {4, 3, 21, 23, USER_SELECT}
# Buttons a player other than the one who rolled presses (the roller is refused: "no puedes
# ayudarte a ti mismo"): the sweep presses them, and fills the forms they open, as RIVAL.
HELPER_BUTTONS = ("dune:ayuda:unirme:", "dune:contra-ayuda:unirme:")
# Panels of one kind pressed (per locale), and presses of one component as its panel changes.
PANELS_PER_KIND = 3
PRESSES_PER_COMPONENT = 30
# Buttons the bot still answers on messages older versions posted but no longer sends: the
# sweep presses each on a copy of the message carrying its successor (current prefix: old).
LEGACY = {"rep:repetir:": "tirar:repetir:", "dune:contra-responder:responder:": "dune:contra:"}
# Options Discord lets a command leave out (typed bare, it opens a form) that the command typed
# with other options still needs (it names them missing): filled as the required ones, so the
# cards behind them are reached.
NEEDED = {"dune enfrentada": {"habilidad", "motivacion"}, "dune tirada": {"habilidad", "motivacion"}}
# Ids in a custom_id (records, users, a form's random suffix): what makes panels one kind.
_IDS = re.compile(r"[0-9a-f]{8}$|\d+")
# The panels only a small roll walks to their end, swept first with their dice scripted (after
# the commands that set each up), so what they reach never depends on the seeded dice: Donjon's Ley
# de los Éxitos with 4 successes to spend (a fact form, a banked die, a friend's die) then the
# narration's *Narrado*; D&D's hit by a holder of Heroic Inspiration (its damage dice menu),
# with an ogre on the tracker that the hit leaves standing (the sheet panel's attack form
# then offers a creature first);
# Dune's failed test by a holder of Determinación (the menu of the dice it may reroll), then
# twice a passed one (two critical dice) with the group pool of Impulso full: 6 for the
# question the crawl buys first, then *Crear rasgo* and *Recurso*, 2 each, whose forms a
# test opens until answered (each test fills one end of the *Recurso* form).
SMALL_PANELS = {
    "dune": [
        (
            [(["dune", "determinacion", "dar"], {"jugador": BOSS})],
            ["dune", "tirada"],
            {"habilidad": 6, "motivacion": 6, "dificultad": 1},
            (15, 3),
        ),
        *[
            (
                [(["dune", "impulso", "añadir"], {"cantidad": 6})],
                ["dune", "tirada"],
                {"habilidad": 6, "motivacion": 6, "dificultad": 1},
                (1, 1),
            )
        ]
        * 2,
    ],
    "donjon": [([], ["donjon", "prueba"], {"dados": 4, "contra": 1}, (15, 15, 15, 15, 4))],
    "dnd5e": [
        (
            [
                (["dnd", "inspiracion", "dar"], {"jugador": BOSS}),
                (["dnd", "iniciativa", "panel"], {}),
                (
                    ["dnd", "iniciativa", "monstruos"],
                    {"nombre": "Ogro", "modificador": -1, "pg": 59, "ca": 11},
                ),
            ],
            ["dnd", "ataque"],
            {"ca": 10, "bonificador": 5, "dano": "2d6"},
            (15, 3, 4),
        )
    ],
}

# What bot/charts.py imports to draw and save its first chart.
CHART_MODULES = (
    "matplotlib.figure",
    "matplotlib.patches",
    "matplotlib.lines",
    "matplotlib.backends.backend_agg",
)


@pytest.fixture(autouse=True)
def charts_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each distinct chart is drawn for real once, its PNG kept for when it is asked again:
    a sweep asks for about 90 charts, 21 of them distinct, and drawing them all was two
    thirds of its time. What the first drawing imports is imported here, outside any
    interaction: on a clean clone matplotlib's import writes its bytecode (2.8 s of CPU),
    and with both locales starting together at a load of 9 the first chart's interaction
    passed the harness's 10 s (``settle``)."""
    for module in CHART_MODULES:
        importlib.import_module(module)
    for name in ("bar_chart", "against_chart"):
        monkeypatch.setattr(charts, name, _once(getattr(charts, name)))


def _once(draw: Callable[..., Awaitable[bytes]]) -> Callable[..., Awaitable[bytes]]:
    drawn: dict[str, bytes] = {}

    async def drawn_once(*args: Any) -> bytes:
        key = repr(args)
        if key not in drawn:
            drawn[key] = await draw(*args)
        return drawn[key]

    return drawn_once


@dataclass
class Sweep:
    h: Harness
    locale: str
    panels: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    last_seen: dict[str, str] = field(default_factory=dict)
    times: Counter[str] = field(default_factory=Counter)
    pressed: list[str] = field(default_factory=list)
    presses: int = 0
    sent: int = 0
    # Each kind of form field filled, and at which end: (component type, longest).
    filled: set[tuple[int, bool]] = field(default_factory=set)
    # Each form opened (its class, :func:`form_name`) with the fields it asked, and each
    # field filled at which end: (form, field's custom_id, longest).
    asked: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    answered: set[tuple[str, str, bool]] = field(default_factory=set)

    async def command(self, path: list[str], options: dict[str, Any]) -> Reply:
        """BOSS types a command; a form it opens counts as asked, filled or not."""
        self.sent += 1
        reply = await self.h.slash(" ".join(path), user=BOSS, locale=self.locale, **options)
        form = opened_form(reply)
        if form is not None:
            self.ask(form)
        return reply

    def ask(self, form: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        """Note an opened ``form``'s fields as asked: its name and those fields."""
        name, fields = form_name(self.h, form), form_fields(form["components"])
        self.asked[name] |= {item["custom_id"] for item in fields}
        return name, fields

    def worth_pressing(self, message: Message, custom_id: str) -> bool:
        """A component on one of the first panels of its kind, on a message that changed
        since it was last pressed (so a panel is walked to its end: every fact, every turn)."""
        kind = _IDS.sub("#", custom_id)
        state = json.dumps(message.data, sort_keys=True)
        if self.last_seen.get(custom_id) == state or self.times[custom_id] >= PRESSES_PER_COMPONENT:
            return False
        return custom_id in self.panels[kind] or len(self.panels[kind]) < PANELS_PER_KIND

    def kind_presses(self, component: dict[str, Any]) -> int:
        """How often a component of this kind was pressed: of two equally fresh ones, the
        kind never pressed goes first, then a button before a menu (a menu that settles a
        panel, like Dune's opposed choice, would otherwise always beat the button beside it,
        which then never shows again)."""
        kind = _IDS.sub("#", component["custom_id"])
        return sum(1 for pressed in self.pressed if _IDS.sub("#", pressed) == kind)

    def mark(self, message: Message, custom_id: str) -> None:
        self.panels[_IDS.sub("#", custom_id)].add(custom_id)
        self.last_seen[custom_id] = json.dumps(message.data, sort_keys=True)
        self.times[custom_id] += 1
        self.pressed.append(custom_id)

    async def crawl(self, replies: list[Reply]) -> None:
        """Press every component, following the messages the answers post or change. A
        message's least pressed component goes next, so every button of a panel is pressed
        before the first one spends all of it."""
        queue = [m for r in replies for m in r.messages]
        while queue and self.presses < PRESSES_PER_SYSTEM:
            posted = queue.pop(0)
            if posted.id not in self.h.discord.messages:
                continue  # deleted since (a board moved by /mesa tablero run again)
            message = self.h.current(posted)
            fresh = [c for c in components(message) if self.worth_pressing(message, c["custom_id"])]
            if not fresh:
                continue
            component = min(
                fresh, key=lambda c: (self.times[c["custom_id"]], self.kind_presses(c), c["type"] != 2)
            )
            self.mark(message, component["custom_id"])
            replies = await self.press(message, component)
            replies += await self.press_legacy(message, component["custom_id"])
            queue += [m for r in replies for m in r.messages]
            queue.append(message)

    async def press_legacy(self, message: Message, custom_id: str) -> list[Reply]:
        """Press the old form of ``custom_id`` (once per kind), on a message that carries it."""
        for current, old in LEGACY.items():
            legacy_id = old + custom_id.removeprefix(current)
            if not custom_id.startswith(current) or any(p.startswith(old) for p in self.pressed):
                continue
            data = json.loads(json.dumps(message.data).replace(f'"{custom_id}"', f'"{legacy_id}"'))
            earlier = self.h.discord.earlier(message.channel_id, data)
            self.pressed.append(legacy_id)
            return await self.press(earlier, {"type": 2, "custom_id": legacy_id})
        return []

    async def press(self, message: Message, component: dict[str, Any]) -> list[Reply]:
        """Press ``component`` (as :func:`presser` says); a form it opens is filled at both
        ends, pressed again the same way for the second, the end this form still lacks
        first (a form its first answer closes, like *Éxito a un precio*, opens once a
        panel: its other end is filled on the next panel)."""
        self.presses += 1
        values = None
        if component["type"] == 3:
            values = [o["value"] for o in component["options"][: max(1, component.get("min_values", 1))]]
        user = presser(component["custom_id"])

        async def click() -> Reply:
            return await self.h.click(
                self.h.current(message),
                component["custom_id"],
                user=user,
                locale=self.locale,
                values=values,
                picked=[RIVAL] if component["type"] == USER_SELECT else None,
                component_type=component["type"],
            )

        reply = await click()
        form = opened_form(reply)
        if form is None:
            return [reply]
        replies = [reply]
        for turn, longest in enumerate(sorted((True, False), key=lambda end: self.answered_at(form, end))):
            if turn:
                reply = await click()
                form = opened_form(reply)
                if form is None:
                    break
            replies.append(await self.submit(form, longest, self.h.current(message), user))
        return replies

    def answered_at(self, form: dict[str, Any], longest: bool) -> bool:
        """Whether every field this opened ``form`` asks was filled at that end already."""
        name = form_name(self.h, form)
        fields = form_fields(form["components"])
        return all((name, item["custom_id"], longest) in self.answered for item in fields)

    def unanswered(self) -> list[str]:
        """Each field of a form the bot opened that was not filled at both ends."""
        return sorted(
            f"{name} {custom_id} {'longest' if longest else 'shortest'}"
            for name, fields in self.asked.items()
            for custom_id in fields
            for longest in (True, False)
            if (name, custom_id, longest) not in self.answered
        )

    async def submit(
        self, form: dict[str, Any], longest: bool, message: Message | None, user: User = BOSS
    ) -> Reply:
        """Fill every field of ``form`` at one end: the longest text, the last choice and a
        ticked box, or the shortest, the first choice and an empty box. ``message``: the one
        whose button opened it (None: a command did); ``user``: who opened it."""
        name, fields = self.ask(form)
        self.answered |= {(name, item["custom_id"], longest) for item in fields}
        rows = [
            {"type": 18, "component": answer(row["component"], longest)}
            if "component" in row
            else {"type": 1, "components": [answer(i, longest) for i in row.get("components", [])]}
            for row in form["components"]
        ]
        data: dict[str, Any] = {"custom_id": form["custom_id"], "components": rows}
        if any(item["type"] == USER_SELECT for item in form_fields(rows)):
            resolved: dict[str, dict[str, Any]] = {}
            resolve_user(RIVAL, resolved)
            data["resolved"] = resolved
        self.filled |= {(item["type"], longest) for item in form_fields(rows)}
        channel_id = CHANNEL_ID if message is None else message.channel_id
        return await self.h.dispatch(
            5, data, user=user, locale=self.locale, channel_id=channel_id, message=message
        )


def presser(custom_id: str) -> User:
    """Who presses a component: RIVAL for :data:`HELPER_BUTTONS`, BOSS for the rest."""
    return RIVAL if custom_id.startswith(HELPER_BUTTONS) else BOSS


def form_name(h: Harness, form: dict[str, Any]) -> str:
    """The class of the opened ``form`` (custom_ids repeat: Dune's test and opposed test
    forms are both ``ficha:dune``), from the forms discord.py holds open."""
    assert h.bot is not None
    opened = cast(dict[str, Modal], open_forms(h.bot))[form["custom_id"]]
    return qualified(type(opened))


def qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def defined_forms() -> list[str]:
    """Every form the bot's code defines: the subclasses of :class:`bot.ui.Modal` no other
    form extends (Donjon's ``PoolForm`` only holds the questions its two forms share)."""
    found, classes = set(), list(Modal.__subclasses__())
    while classes:
        cls = classes.pop()
        classes += cls.__subclasses__()
        if cls.__module__.startswith(("bot.", "cogs.")) and not cls.__subclasses__():
            found.add(qualified(cls))
    return sorted(found)


def form_fields(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A form's fields, opened or submitted: each label's component and each row's inputs
    (a text display asks nothing)."""
    inner = ([row["component"]] if "component" in row else row.get("components") or [] for row in rows)
    return [item for items in inner for item in items if "custom_id" in item]


def answer(item: dict[str, Any], longest: bool) -> dict[str, Any]:
    """What Discord sends back for one field of a form (a text input, a select, a radio
    group, a checkbox or a member picker: the rival) filled at one end."""
    kind, custom_id = item.get("type", 4), item["custom_id"]
    options = item.get("options") or [{"value": ""}]
    picked = options[-1 if longest else 0]["value"]
    if kind == 3:
        return {"type": 3, "custom_id": custom_id, "values": [picked]}
    if kind == 21:
        return {"type": 21, "custom_id": custom_id, "value": picked}
    if kind == 23:
        return {"type": 23, "custom_id": custom_id, "value": longest}
    if kind == USER_SELECT:
        return {"type": USER_SELECT, "custom_id": custom_id, "values": [str(RIVAL.id)]}
    return {
        "type": 4,
        "custom_id": custom_id,
        "value": "9" * item.get("max_length", 4000) if longest else "1",
    }


def components(message: Message) -> list[dict[str, Any]]:
    """The message's enabled buttons and menus: in its rows, and in a V2 message's
    containers and as its sections' accessories."""

    def walk(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        found = []
        for node in nodes:
            if "custom_id" in node and not node.get("disabled"):
                found.append(node)
            found += walk(node.get("components") or [])
            if isinstance(node.get("accessory"), dict):
                found += walk([node["accessory"]])
        return found

    return walk(message.data.get("components") or [])


def opened_form(reply: Reply) -> dict[str, Any] | None:
    calls = [c.payload for c in reply.callbacks if isinstance(c.payload, dict) and c.payload.get("type") == 9]
    return calls[0]["data"] if calls else None


def walk(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> list[list[str]]:
    if isinstance(command, app_commands.Group):
        return [[command.name, *path] for sub in command.commands for path in walk(sub)]
    return [[command.name]]


def candidates(h: Harness, param: app_commands.Parameter) -> list[Any]:
    """The values worth trying for one option: its bounds, every choice, the longest text."""
    if param.choices:
        return [c.value for c in param.choices]
    kind = param.type
    if kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        high = param.max_value if param.max_value is not None else 100
        low = param.min_value if param.min_value is not None else 0
        return [high, low]
    if kind is AppCommandOptionType.boolean:
        return [True, False]
    if kind is AppCommandOptionType.user:
        return [RIVAL, BOSS]
    if kind is AppCommandOptionType.channel:
        return [h.channels[1]]
    if kind is AppCommandOptionType.attachment:
        return [Upload(f"{system}.json", (SHEETS / f"{system}.json").read_bytes()) for system in SYSTEMS]
    longest = int(param.max_value) if param.max_value is not None else 100
    return [LONG_TEXT.get(param.name, "x" * longest), "x" * longest]


def variants(h: Harness, command: app_commands.Command[Any, ..., Any]) -> list[dict[str, Any]]:
    """Required options only (with the leading option when it is optional: a number a
    character sheet may give instead, like Donjon's dice); every option at its first value;
    then each other value alone."""
    params = [p for p in command.parameters if not p.autocomplete]
    first = {p.display_name: candidates(h, p)[0] for p in params}
    required = {p.display_name: first[p.display_name] for p in params if p.required}
    if params and not params[0].required:
        required[params[0].display_name] = first[params[0].display_name]
    found = [required, dict(first)]
    for p in params:
        for value in candidates(h, p)[1:]:
            found.append({**first, p.display_name: value})
    return found


async def suggested(
    sweep: Sweep, path: list[str], command: app_commands.Command[Any, ..., Any]
) -> dict[str, Any]:
    """Ask every autocomplete (its answer is checked too); keep a suggestion for the required ones."""
    chosen = {}
    for param in command.parameters:
        if param.autocomplete:
            choices = await sweep.h.autocomplete(
                " ".join(path), param.display_name, user=BOSS, locale=sweep.locale
            )
            if needs(command, param) and choices:
                chosen[param.display_name] = choices[0]["value"]
    return chosen


async def table(sweep: Sweep, system: str) -> None:
    """BOSS runs a table of ``system`` (again: a command may have named another GM)."""
    await sweep.h.slash("mesa dj", user=ADMIN, miembro=BOSS)
    await sweep.command(["mesa", "sistema"], {"sistema": system})


async def sweep_small_panel(sweep: Sweep, system: str) -> None:
    """Roll each of the system's small panels with its scripted dice, then sweep it (seeded
    dice again)."""
    assert sweep.h.bot is not None
    for setup, path, options, faces in SMALL_PANELS.get(system, []):
        seeded = sweep.h.bot.rng
        await table(sweep, system)
        for before, before_options in setup:
            await sweep.command(before, before_options)
        sweep.h.script(*faces)
        reply = await sweep.command(path, options)
        sweep.h.bot.rng = seeded
        await sweep.crawl([reply])
    if system != "donjon":
        return
    # Spent to its end: a die given to the friend picked in the select, the facts narrated.
    record = await sweep.h.bot.store.record(int(reply.message.custom_ids[0].rsplit(":", 1)[1]))
    assert record is not None
    law = donjon_posted.from_data(record.data).law
    assert law is not None and law.narrated and RIVAL.id in law.banked
    await sweep_old_narration(sweep, reply.message.channel_id, record.id)


async def with_sheet(sweep: Sweep, system: str) -> str:
    """BOSS imports the example sheet of ``system`` (it becomes their active one): its name."""
    raw = (SHEETS / f"{system}.json").read_bytes()
    await sweep.command(["ficha", "importar"], {"archivo": Upload(f"{system}.json", raw)})
    return str(json.loads(raw)["nombre"])


def unfilled(command: app_commands.Command[Any, ..., Any], fixed: dict[str, Any]) -> bool:
    """A required, autocompleted option got no suggestion (a name only a sheet gives)."""
    return any(
        needs(command, p) and p.autocomplete and p.display_name not in fixed for p in command.parameters
    )


def needs(command: app_commands.Command[Any, ..., Any], param: app_commands.Parameter) -> bool:
    """Whether the typed command needs ``param``: required, or one of :data:`NEEDED`."""
    return param.required or param.name in NEEDED.get(command.qualified_name, set())


async def sweep_sheet_panel(sweep: Sweep, system: str) -> None:
    """The character panel of the system's example sheet: every button of every page, and
    each form it opens filled at both ends (the cards it rolls are the typed commands', which
    the sweep reaches anyway); then the forms the commands typed with no option open, and
    the board's *Fichas* with its menu of sheets."""
    await table(sweep, system)
    name = await with_sheet(sweep, system)
    await sweep_pages(sweep, (await sweep.command(["ficha", "ver"], {})).message)
    await sweep_bare_forms(sweep)
    await sweep_board_sheets(sweep, system)
    await sweep.command(["ficha", "borrar"], {"ficha": name})


async def sweep_pages(sweep: Sweep, message: Message) -> None:
    """Every button of every page of one panel, each form it opens filled at both ends."""
    while True:
        shown = components(sweep.h.current(message))
        for component in (c for c in shown if not c["custom_id"].startswith("ficha:pagina:")):
            sweep.mark(sweep.h.current(message), component["custom_id"])
            await sweep.press(message, component)
        turns = [c for c in shown if c["custom_id"].startswith("ficha:pagina:")]
        last = [p for p in page_buttons(sweep.h.current(message)) if p.get("disabled")][-1:]
        if not turns or (last and last[0] is page_buttons(sweep.h.current(message))[-1]):
            break  # one page, or the last (its *Siguiente* is disabled)
        sweep.mark(sweep.h.current(message), turns[-1]["custom_id"])
        await sweep.press(message, turns[-1])


async def sweep_bare_forms(sweep: Sweep) -> None:
    """Every command whose options are all optional typed with none, from the active sheet:
    those that open a form (``bot.forms.open_bare``) get it filled at both ends."""
    assert sweep.h.bot is not None
    for top in sweep.h.bot.tree.get_commands(type=AppCommandType.chat_input):
        for path in walk(top):
            params = sweep.h.command(path).parameters
            if not params or any(p.required for p in params):
                continue  # typed bare by the sweep already, or never typed bare
            reply = await sweep.command(path, {})
            form = opened_form(reply)
            if form is None:
                continue
            await sweep.submit(form, True, None)
            again = opened_form(await sweep.command(path, {}))
            assert again is not None
            await sweep.submit(again, False, None)


async def sweep_board_sheets(sweep: Sweep, system: str) -> None:
    """The board's *Fichas* pressed by the GM with two sheets to choose from (the example
    and an NPC): its menu at both ends, each choice opening its panel."""
    await sweep.command(["ficha", "crear"], {"nombre": LONG_TEXT["nombre"], "pnj": True})
    placed = await sweep.command(["mesa", "tablero"], {})
    board = next(m for m in placed.messages if BOARD_BUTTON in m.custom_ids)
    sweep.mark(board, BOARD_BUTTON)
    menu = await sweep.press(board, {"type": 2, "custom_id": BOARD_BUTTON})
    chooser = next(c for c in components(menu[0].message) if c["type"] == 3)
    for option in (chooser["options"][-1], chooser["options"][0]):
        sweep.mark(menu[0].message, chooser["custom_id"])
        await sweep.press(menu[0].message, {**chooser, "options": [option]})
    await sweep.command(["ficha", "borrar"], {"ficha": LONG_TEXT["nombre"]})


def page_buttons(message: Message) -> list[dict[str, Any]]:
    """The panel's *Anterior* and *Siguiente*, disabled or not, in that order."""

    def walk(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        found = [n for n in nodes if str(n.get("custom_id", "")).startswith("ficha:pagina:")]
        for node in nodes:
            found += walk(node.get("components") or [])
        return found

    return walk(message.data.get("components") or [])


async def sweep_system(sweep: Sweep, system: str) -> None:
    h = sweep.h
    sweep.presses = 0
    assert h.bot is not None
    await sweep_small_panel(sweep, system)
    await sweep_sheet_panel(sweep, system)
    # /mesa first, whatever order the cogs load in: the table's settings at their bounds
    # before the systems' commands read them.
    tops = sorted(h.bot.tree.get_commands(type=AppCommandType.chat_input), key=lambda c: c.name != "mesa")
    for top in tops:
        for path in walk(top):
            command = h.command(path)
            await table(sweep, system)
            fixed = await suggested(sweep, path, command)
            sheet = None
            if unfilled(command, fixed):
                # Names only a sheet gives (a roll by name): the system's example sheet, for
                # this command and its panels only.
                sheet = await with_sheet(sweep, system)
                fixed = await suggested(sweep, path, command)
            if not unfilled(command, fixed):
                replies = [
                    await sweep.command(path, {**options, **fixed}) for options in variants(h, command)
                ]
                await sweep.crawl(replies)
            if sheet is not None:
                await sweep.command(["ficha", "borrar"], {"ficha": sheet})


@pytest.mark.parametrize("locale", ["es-ES", "en-US"])
async def test_everything_the_bot_sends_fits_discords_limits(harness: Harness, locale: str) -> None:
    sweep = Sweep(harness, locale)
    offered = next(p for p in harness.command(["mesa", "sistema"]).parameters if p.name == "sistema").choices
    # Every system /mesa sistema offers, in the sweep's own order: a pass leaves a table's
    # settings (Donjon's die) at their bounds and counts presses per kind of panel, so what a
    # later pass reaches depends on the passes before it.
    assert sorted(str(system.value) for system in offered) == sorted(SYSTEMS)
    for system in SYSTEMS:
        await sweep_system(sweep, system)
    # Every kind of button and select the bot registers was reached and pressed, and every
    # kind of form field it asks (text, select, radio group, checkbox, member picker) filled
    # at both ends.
    assert unreached(harness, sweep.pressed) == []
    assert sweep.filled == {(kind, end) for kind in FORM_FIELDS for end in (True, False)}
    # Every form the code defines was opened, and each field of each form opened filled at
    # both ends.
    assert sorted(set(defined_forms()) - set(sweep.asked)) == []
    assert sweep.unanswered() == []


def unreached(h: Harness, pressed: list[str]) -> list[str]:
    """The registered persistent components (discord.py's DynamicItems) never pressed."""
    assert h.bot is not None
    templates = h.bot._connection._view_store._dynamic_items
    return sorted(
        f"{cls.__name__} ({pattern.pattern})"
        for pattern, cls in templates.items()
        if not any(pattern.fullmatch(custom_id) for custom_id in pressed)
    )


async def sweep_old_narration(sweep: Sweep, channel_id: int, record_id: int) -> None:
    """A narration as it was posted before each fact had its own *Narrado* (an embed, one
    button for every fact), pressed once the facts are narrated: its button still answers."""
    button = {"type": 2, "style": 3, "label": "Narrado", "custom_id": f"donjon:narrado:{record_id}"}
    data = {"embeds": [{"title": "Hechos para narrar"}], "components": [{"type": 1, "components": [button]}]}
    old = sweep.h.discord.earlier(channel_id, data)
    sweep.mark(old, button["custom_id"])
    await sweep.press(old, button)
