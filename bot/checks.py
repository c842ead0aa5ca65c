"""Who may do what at a table. discord.py never checks ``default_permissions`` on an
incoming interaction, so every permission rule that matters is checked here, in code."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import RefusedCheck
from bot.models import Table

if TYPE_CHECKING:
    from bot.client import Tirada


def can_manage(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_channels


def is_gm(table: Table, interaction: discord.Interaction) -> bool:
    """The table's GM; while a table has none, whoever may manage the channel acts as GM."""
    if table.gm_id is not None:
        return table.gm_id == interaction.user.id
    return can_manage(interaction)


async def current_table(interaction: discord.Interaction) -> Table:
    client: Tirada = interaction.client  # type: ignore[assignment]
    assert interaction.channel_id is not None
    return await client.store.table_or_default(interaction.channel_id, interaction.guild_id)


def gm_only() -> app_commands.check:  # type: ignore[valid-type]
    """A command check: refuse anyone but the table's GM, with a sentence saying why."""

    async def predicate(interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise RefusedCheck("error.guild_only")
        if not is_gm(await current_table(interaction), interaction):
            raise RefusedCheck("error.not_gm")
        return True

    return app_commands.check(predicate)
