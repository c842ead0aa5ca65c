"""Base View, Modal and persistent-button pieces whose errors reach the one handler.

discord.py sends View and Modal errors to ``on_error`` (not the tree's), and only logs
errors raised by a ``DynamicItem`` callback: without these bases a failing button would
leave the player with "This interaction failed" and no answer.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import answer_error


class View(discord.ui.View):
    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        await answer_error(interaction, error)


class Modal(discord.ui.Modal):
    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await answer_error(interaction, error)


class Guarded:
    """Mixin for ``DynamicItem`` buttons: implement ``run``; errors get answered."""

    async def run(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.run(interaction)
        except Exception as error:
            await answer_error(interaction, error)
