"""Slash-command options whose bounds are declared once, and the texts no option holds.

``app_commands.Range[int, 1, 20]`` tells Discord the bounds, but Discord clients can send
anything and discord.py does not check them, so each cog checked the same bound a second
time. ``Bounded(low, high)`` publishes ``min_value``/``max_value`` to Discord and checks the
value with the same numbers, answering with our translated refusal (discord.py's own
``TransformerError`` would only say the value was bad).

A control character (NUL, escape, a line break in a one-line option) or a lone surrogate
is in no text a player means to type: PostgreSQL cannot store a NUL, SQLite's ``length``
stops at one, neither encodes a surrogate, and the rest would reach cards invisible.
:func:`check_texts` refuses them in every text option of every command, before it runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.errors import RefusedCheck, RefusedOption
from rules.errors import RuleError, check_range

# Discord's type of a string option, and of a text input in a form.
STRING_OPTION = 3
TEXT_INPUT = 4
# Unicode's control characters (C0, DEL, C1: category Cc) and surrogates (Cs, never valid
# alone in UTF-8). Both categories are closed sets (Unicode's stability policy), so each is
# matched by its ranges in one C call, where asking each character's category was a Python
# step a character of every command's every text option.
UNTYPABLE_CHAR = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
# The same with a form's paragraph's line breaks, which are typed.
UNTYPABLE_IN_LINES = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def untypable(text: str, *, lines: bool = False) -> bool:
    """Whether ``text`` holds a character no player types (see the module's note); with
    ``lines`` (a form's paragraph), line breaks are typed."""
    return (UNTYPABLE_IN_LINES if lines else UNTYPABLE_CHAR).search(text) is not None


def typable(text: str) -> str:
    """``text`` without those characters, to name it in an answer."""
    return UNTYPABLE_CHAR.sub("", text)


def string_options(options: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
    """Each string option of a command's payload (subcommands nest theirs): name, value."""
    for option in options:
        if option.get("type") == STRING_OPTION and isinstance(option.get("value"), str):
            yield option["name"], option["value"]
        nested = option.get("options")
        if nested:
            yield from string_options(nested)


def check_texts(interaction: discord.Interaction) -> None:
    """Refuse a command whose text options hold a control character, naming the option."""
    data: Any = interaction.data or {}
    for name, value in string_options(data.get("options") or []):
        if untypable(value):
            raise RefusedCheck("error.control_text", option=typable(name))


class Bounded(app_commands.Transformer):
    """A whole number from ``low`` to ``high``: ``app_commands.Transform[int, Bounded(1, 20)]``."""

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return self.low

    @property
    def max_value(self) -> int:
        return self.high

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> int:
        """The value, or the range's refusal naming the option: looked for only then, since
        finding it walks the command's parameters (every in-range option would pay)."""
        number = int(value)
        if not self.low <= number <= self.high:
            try:
                check_range(_option_name(interaction, self, value), number, self.low, self.high)
            except RuleError as refusal:
                raise RefusedOption(refusal) from None
        return number


def _option_name(interaction: discord.Interaction, bounds: Bounded, value: Any) -> str:
    """The name of the option that sent ``value``: discord.py does not tell a transformer
    which parameter it serves. Two options with these bounds and this same value are both
    out of range, so naming the first is right either way."""
    command = interaction.command
    if isinstance(command, app_commands.Command):
        for parameter in command.parameters:
            same_bounds = (parameter.min_value, parameter.max_value) == (bounds.low, bounds.high)
            if same_bounds and getattr(interaction.namespace, parameter.display_name, None) == value:
                return parameter.display_name
    return str(value)
