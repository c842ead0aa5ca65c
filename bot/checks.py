"""Who may do what at a table, and which table an interaction acts on.

discord.py never checks ``default_permissions`` on an incoming interaction, so every
permission rule that matters is checked here, in code. A table is a channel; its GM may
link a private GM channel, and an interaction there acts on the linked table (the one the
``mesa`` option names, or the only one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot import seen
from bot.delivery import send
from bot.errors import Refusal
from bot.host import Host
from bot.i18n import T
from bot.models import Record, Table

F = TypeVar("F", bound=Callable[..., object])


# Where a command may be used; Discord reads it at sync, and ``usable_here`` checks it on
# every interaction (a payload can arrive from anywhere). By default: a server that has
# Tirada installed. The commands that need no table also work from a user's own install,
# in direct messages and in servers without the bot.
SERVER_INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
SERVER_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
ANYWHERE_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
ANYWHERE_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


def anywhere(func: F) -> F:
    """Declare a command usable everywhere: user installs, DMs, servers without Tirada."""
    installed = app_commands.allowed_installs(guilds=True, users=True)(func)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(installed)


def with_tirada(interaction: discord.Interaction) -> bool:
    """Whether this interaction comes from a server that installed Tirada (where tables are)."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def usable_here(interaction: discord.Interaction) -> bool:
    """A command declared for servers with Tirada is usable only there; one declared for
    user installs, anywhere. Where Tirada is installed the command is not looked up: the
    tree finds it again to run it (``interaction.command`` is not yet remembered here)."""
    if with_tirada(interaction):
        return True
    command = interaction.command
    if command is None:
        return True
    root = command if isinstance(command, app_commands.ContextMenu) else command.root_parent or command
    installs = root.allowed_installs
    return installs is not None and bool(installs.user)


def can_manage(interaction: discord.Interaction, table: Table | None = None) -> bool:
    """Whether the user may manage the table's channel (the interaction's own without a
    table). Asked from a GM channel, it is the table channel's permissions that count, and
    a table of another server is never managed from here."""
    if interaction.guild_id is None:
        return False
    if table is None or interaction.channel_id == table.channel_id:
        return interaction.permissions.manage_channels
    if table.guild_id is not None and table.guild_id != interaction.guild_id:
        return False
    channel = interaction.guild.get_channel(table.channel_id) if interaction.guild else None
    member = interaction.user
    if channel is None or not isinstance(member, discord.Member):
        return False
    return channel.permissions_for(member).manage_channels


def is_gm(table: Table, interaction: discord.Interaction) -> bool:
    """The table's GM; while a table has none, whoever may manage its channel acts as GM."""
    if table.gm_id is not None:
        return table.gm_id == interaction.user.id
    return can_manage(interaction, table)


def in_gm_channel(table: Table, interaction: discord.Interaction) -> bool:
    return interaction.channel_id != table.channel_id


async def answer_gm(interaction: discord.Interaction, table: Table, **kwargs: Any) -> int | None:
    """A GM command's answer: private in the table's channel (the table sees the effect in
    its pools), in place in the GM channel, which is private already."""
    return await send(interaction, ephemeral=not in_gm_channel(table, interaction), **kwargs)


def _client(interaction: discord.Interaction) -> Host:
    """The bot: every interaction this process sees comes from its one client. (These checks
    also take interactions typed for any client, from cogs not yet typed ``[Tirada]``.)"""
    return cast(Host, interaction.client)


def channel_of(interaction: discord.Interaction) -> int:
    """The channel this interaction came from. A channel discord.py cannot build (a DM's
    partial channel with no type, or a type it does not know) leaves no id, and every
    table, roll and record hangs on one: refused in words, not asserted."""
    if interaction.channel_id is None:
        raise Refusal("error.no_channel")
    return interaction.channel_id


async def current_table(interaction: discord.Interaction, mesa: str | None = None) -> Table:
    """The table this interaction acts on: its own channel's, or from a GM channel the
    linked table named by ``mesa`` (a channel id from the autocomplete) or the only one."""
    channel_id = channel_of(interaction)
    own, served = await seen.tables_seen_from(interaction, channel_id)
    if not served:
        return own or Table(channel_id, interaction.guild_id)
    if mesa:
        chosen = next((table for table in served if str(table.channel_id) == mesa.strip()), None)
        if chosen is None:
            raise Refusal("mesa.gm_channel.unknown_table")
        return chosen
    if len(served) > 1:
        key = "which_table" if _takes_table_option(interaction) else "which_table_elsewhere"
        raise Refusal(f"mesa.gm_channel.{key}", count=len(served))
    return served[0]


def _takes_table_option(interaction: discord.Interaction) -> bool:
    command = interaction.command
    return isinstance(command, app_commands.Command) and any(p.name == "mesa" for p in command.parameters)


async def check_origin(interaction: discord.Interaction, table_channel_id: int) -> None:
    """Refuse a component whose record belongs to a table other than the one it is pressed
    at: the table's own channel or its linked GM channel, in the same server.

    A ``custom_id`` names its record, and today discord.py only builds components that
    are on the message Discord delivered; this check does not rely on that.
    """
    table = await seen.table(interaction, table_channel_id, interaction.guild_id)
    same_server = table.guild_id is None or table.guild_id == interaction.guild_id
    if not same_server or interaction.channel_id not in (table.channel_id, table.gm_channel_id):
        raise Refusal("error.wrong_place")


async def record_channel(interaction: discord.Interaction, record_id: int) -> int:
    """The channel of the table a posted roll belongs to (a refusal if it is gone)."""
    record = await seen.record(interaction, record_id)
    if record is None:
        raise Refusal("error.roll_gone")
    return record.channel_id


async def table_of(interaction: discord.Interaction, record: Record) -> Table:
    """The table a posted roll belongs to, wherever its message is: a secret roll's
    buttons live in the GM channel, yet act on the table."""
    return await seen.table(interaction, record.channel_id, interaction.guild_id)


async def served_tables(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Autocomplete for ``mesa``: the tables this GM channel serves, by channel name."""
    assert interaction.channel_id is not None
    choices = []
    for table in await _client(interaction).store.tables_served(interaction.channel_id):
        channel = interaction.guild.get_channel(table.channel_id) if interaction.guild else None
        name = f"#{channel.name}" if channel is not None else str(table.channel_id)
        if current.lower() in name.lower():
            choices.append(Choice(name=name[:100], value=str(table.channel_id)))
    return choices[:25]


async def gm_table(interaction: discord.Interaction, mesa: str | None = None) -> Table:
    """The table, if the user is its GM; else a refusal saying so."""
    table = await current_table(interaction, mesa)
    if not is_gm(table, interaction):
        raise Refusal("error.not_gm")
    return table


def table_option(func: F) -> F:
    """Declare the ``mesa`` option a GM command takes in a GM channel serving several
    tables (autocompleted from the tables it serves)."""
    described = app_commands.describe(mesa=T("comun.opt.mesa.desc"))(func)
    renamed = app_commands.rename(mesa=T("comun.opt.mesa"))(described)
    return app_commands.autocomplete(mesa=served_tables)(renamed)


# What a roll is for (``motivo``): short enough to lead a title, like a character's line.
REASON_LIMIT = 100


def reason(text: str | None) -> str | None:
    """A roll's ``motivo`` made safe for a title: one line, no markdown, within its bound.
    Discord does not enforce the declared length, so a longer one is refused, not cut."""
    if text is None:
        return None
    line = " ".join(text.split())
    if len(line) > REASON_LIMIT:
        raise Refusal("error.reason_too_long", max=REASON_LIMIT, length=len(line))
    return discord.utils.escape_mentions(discord.utils.escape_markdown(line)) or None


def reason_option(func: F) -> F:
    """Declare the ``motivo`` option every roll command takes: what the roll is for."""
    described = app_commands.describe(motivo=T("comun.opt.motivo.desc"))(func)
    return app_commands.rename(motivo=T("comun.opt.motivo"))(described)


def secret_option(func: F) -> F:
    """Declare the ``secreta`` option every roll command takes."""
    described = app_commands.describe(secreta=T("comun.opt.secreta.desc"))(func)
    return app_commands.rename(secreta=T("comun.opt.secreta"))(described)
