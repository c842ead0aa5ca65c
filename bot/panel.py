"""What a character panel offers: each thing a sheet can roll, and how each system rolls it.

Each system declares its :class:`Game` (``Declaration.panel``, bot/systems.py) and the
panel (``cogs/ficha/panel.py``) reads it from the registry, so no cog imports another.
A system's ``forms`` module lists its sheet's rollables (a skill, a save, an attack, an
Atributo…) and answers a press: it opens the system's form, or rolls at once when the typed
command needs nothing more. Either way the roll goes through the system's own command, so a
press gives the same card, pools, ledger rows and *Repetir* as typing it.
"""

from __future__ import annotations

import zlib
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import discord
from discord import app_commands

from bot.errors import Refusal
from bot.i18n import Lang, t
from bot.models import SheetRow
from bot.sheets.models import SheetBase
from bot.store import Store

# The entries of a sheet's list shown; the rest is counted.
LISTED = 12
# Discord's limits on a form: its title and each label's text.
TITLE_LIMIT = 45
LABEL_LIMIT = 45
# The value a question's worded answer sends (:func:`worded`): never a number, so a number
# question tells it from the numbers it offers.
WORDED = "-"


@dataclass(frozen=True)
class Rollable:
    """One button of the panel. ``key`` says what to roll (``h:sigilo``, ``a:2``: a kind
    letter and a key or list position); ``name`` is what it is called on the sheet, so a
    button drawn before the sheet changed cannot roll something else; ``text`` is the
    line shown beside the button (user text already made safe)."""

    key: str
    name: str
    text: str

    @property
    def check(self) -> str:
        """Eight hex digits of the key and the name, carried in the button's ``custom_id``."""
        return f"{zlib.crc32(f'{self.key}:{self.name}'.encode()):08x}"


@dataclass(frozen=True)
class Roller:
    """Who rolls from a panel: ``como`` is the sheet the typed command would name (the GM
    rolls any sheet by its id; its owner rolls their active one without naming it) and
    ``npc`` whether the sheet is a non-player character's."""

    como: str | None
    npc: bool


Press = Callable[[discord.Interaction, Rollable, SheetBase, Roller], Awaitable[None]]
# A status line read once for a sheet, then worded in each of its readers' languages.
Words = Callable[[Lang], str]
Status = Callable[[Store, SheetRow], Awaitable[Words]]


def no_words(lang: Lang) -> str:
    return ""


async def no_status(store: Store, row: SheetRow) -> Words:
    return no_words


@dataclass(frozen=True)
class Game:
    """A system's part of the panel: what its sheets can roll, what a press does, and a
    line of the live numbers play keeps outside the sheet (Dune's Determinación)."""

    rollables: Callable[[Lang, SheetBase], list[Rollable]]
    press: Press
    status: Status = no_status


def typed_nothing(interaction: discord.Interaction) -> bool:
    """Whether a slash command came with no option at all (through its subcommands): then
    it opens its form instead of refusing what it lacks. (A form's own submit runs the
    command too, and is no slash command.)"""
    if interaction.type is not discord.InteractionType.application_command:
        return False
    data: Any = interaction.data or {}
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []
    return not options


def safe(text: str) -> str:
    """User text as plain text: no markdown, no mention (the answer pings nobody anyway)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def listed(lang: Lang, lines: list[str]) -> str:
    """A sheet's list (its skills, its items…) as lines: the first :data:`LISTED` of them and
    how many more, so a long sheet still fits an embed's 6,000 characters."""
    shown = lines[:LISTED]
    if len(lines) > LISTED:
        shown.append(t(lang, "fichas.more", n=len(lines) - LISTED))
    return "\n".join(shown) or "—"


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def radio(choices: Sequence[tuple[str, str]], default: str, custom_id: str) -> discord.ui.RadioGroup[Any]:
    """A radio group of ``(value, label)`` pairs with ``default`` chosen (2 to 10 of them)."""
    options = [
        discord.RadioGroupOption(label=label[:100], value=value, default=value == default)
        for value, label in choices
    ]
    return discord.ui.RadioGroup(custom_id=custom_id, options=options)


def chosen(value: object, allowed: Collection[str]) -> str:
    """A value a form sent, which must be one it offered: a client may send anything."""
    if not isinstance(value, str) or value not in allowed:
        raise Refusal("fichas.form.bad_choice")
    return value


def picked(select: discord.ui.Select[Any], allowed: Collection[str], empty: str | None = None) -> str:
    """The one value a form's select sent (``empty`` when it sent none), which must be one
    it offered."""
    return chosen(select.values[0] if select.values else empty, allowed)


def worded(label: str) -> discord.SelectOption:
    """A question's worded answer ("none", "the sheet's"), chosen: the first answer of a
    :func:`number_select` (which :func:`number_or_none` reads as None), or of any select."""
    return discord.SelectOption(label=label, value=WORDED, default=True)


def number_select(
    custom_id: str,
    numbers: Iterable[int],
    first: discord.SelectOption | None = None,
    *,
    label: Callable[[int], str] = str,
    default: int | None = None,
) -> discord.ui.Select[Any]:
    """A number picked, not typed: one of ``numbers`` (each shown as ``label`` draws it,
    ``default`` chosen), after ``first`` when given (a worded answer such as "the sheet's",
    then chosen, and the question may be left as it is)."""
    options = [first] if first is not None else []
    options += [discord.SelectOption(label=label(n), value=str(n), default=n == default) for n in numbers]
    return discord.ui.Select(custom_id=custom_id, options=options, required=first is None)


def number_or_none(select: discord.ui.Select[Any]) -> int | None:
    """The number a :func:`number_select` sent, one it offered; None for its :func:`worded`
    answer. A question with a first answer is optional, so a client may clear it: left
    empty, it reads as the answer it was drawn with chosen (the worded one, "Ninguno (0)")."""
    drawn = next((option.value for option in select.options if option.default), None)
    answer = picked(select, {option.value for option in select.options}, drawn)
    return None if answer == WORDED else int(answer)


def number_picked(select: discord.ui.Select[Any]) -> int:
    """The number a :func:`number_select` without a worded answer sent, one it offered."""
    return int(picked(select, {option.value for option in select.options}))


def number_chosen(group: discord.ui.RadioGroup[Any]) -> int:
    """The number a radio group of numbers sent, one it offered."""
    return int(chosen(group.value, {option.value for option in group.options}))


def ticked(value: object) -> bool:
    """A checkbox as a form sent it: only ``true`` ticks it."""
    return value is True


def labelled(
    text: str, component: discord.ui.Item[Any], description: str | None = None
) -> discord.ui.Label[Any]:
    """A form's question: ``text`` kept to Discord's 45 characters above its component."""
    return discord.ui.Label(text=clip(text, LABEL_LIMIT), description=description, component=component)


async def run_command(interaction: discord.Interaction, cog: str, command: str, **options: Any) -> None:
    """Run the slash command ``command`` of the cog named ``cog`` as if typed with
    ``options``: what a panel press or a form does. Found by name, since each cog's module
    imports the forms that call it. (discord.py types a command's function as either a
    method or a plain function, a union no call satisfies.)"""
    found = interaction.client.get_cog(cog)  # type: ignore[attr-defined]
    typed = getattr(found, command, None)
    assert isinstance(typed, app_commands.Command), f"no /{command} in {cog}"
    await cast(Callable[..., Awaitable[None]], typed.callback)(found, interaction, **options)
