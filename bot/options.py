"""Slash-command options whose bounds are declared once.

``app_commands.Range[int, 1, 20]`` tells Discord the bounds, but Discord clients can send
anything and discord.py does not check them, so each cog checked the same bound a second
time. ``Bounded(low, high)`` publishes ``min_value``/``max_value`` to Discord and checks the
value with the same numbers, answering with our translated refusal (discord.py's own
``TransformerError`` would only say the value was bad).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.errors import RefusedOption
from rules.errors import RuleError, check_range


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
        try:
            check_range(_option_name(interaction, self, value), int(value), self.low, self.high)
        except RuleError as refusal:
            raise RefusedOption(refusal) from None
        return int(value)


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
