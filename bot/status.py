"""``/mesa estado``: the whole table at a glance, in one embed.

Kept apart from the mesa cog as each system keeps its renders apart from its commands.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot import embeds, systems
from bot.errors import pool_name
from bot.hidden import hidden_pools
from bot.i18n import Lang, t
from bot.kinds import SHEET_POOLS
from bot.models import Table

# Players listed in the status, at most: some forty short lines, well inside an embed.
STATUS_PLAYERS = 40


def table_pool_lines(
    lang: Lang,
    system: systems.Declaration | None,
    values: dict[tuple[str, int], int],
    hidden: frozenset[str] = frozenset(),
) -> list[str]:
    """The table's own pools: the system's, zeros included, then any other holding points;
    a ``hidden`` pool's value is the GM's (bot/hidden.py) and reads "oculta"."""
    names = list(system.table_pools) if system else []
    names += sorted(p for (p, owner), v in values.items() if not owner and v and p not in names)
    return [
        t(
            lang,
            "mesa.estado.table_pool",
            pool=pool_name(lang, p),
            value=t(lang, "mesa.estado.hidden") if p in hidden else values.get((p, 0), 0),
        )
        for p in names
    ]


def player_line(lang: Lang, names: list[str], player: int, values: dict[tuple[str, int], int]) -> str:
    """One player's pools on one line: "<@id>: Determinación **1**"."""
    pools = [
        t(lang, "mesa.estado.pool_value", pool=pool_name(lang, p), value=values.get((p, player), 0))
        for p in names
    ]
    return t(lang, "mesa.estado.player", owner=player, pools=" · ".join(pools))


def player_lines(
    lang: Lang, table: Table, players: list[int], values: dict[tuple[str, int], int]
) -> list[str]:
    """Every player with the system's pools, zeros included, and any other pool they hold;
    the GM only for what they hold (a GM's "Determinación 0" is noise)."""
    declaration = systems.declared(table.system)
    system_pools = list(declaration.player_pools) if declaration else []
    lines = []
    for player in players[:STATUS_PLAYERS]:
        held = sorted(p for (p, owner), v in values.items() if owner == player and v)
        names = held if player == table.gm_id else system_pools + [p for p in held if p not in system_pools]
        if names:
            lines.append(player_line(lang, names, player, values))
    return lines


def table_embed(
    lang: Lang, table: Table, pools: Mapping[tuple[str, int], int], players: list[int]
) -> discord.Embed:
    """The whole table at a glance: system, GM, the system's own fields (the Donjon level),
    every pool of the system (zeros included) and every player's own pools (``pools``: each
    value by pool and owner, as the interaction read them)."""
    declaration = systems.declared(table.system)
    embed = embeds.card(t(lang, "mesa.estado.title"), f"<#{table.channel_id}>")
    system = t(lang, f"system.{table.system}") if table.system else t(lang, "mesa.estado.no_system")
    embeds.field(embed, t(lang, "mesa.estado.system"), system)
    gm = f"<@{table.gm_id}>" if table.gm_id else t(lang, "mesa.estado.no_gm")
    embeds.field(embed, t(lang, "mesa.estado.gm"), gm)
    if table.gm_channel_id:
        embeds.field(embed, t(lang, "mesa.estado.gm_channel"), f"<#{table.gm_channel_id}>")
    for name, value in declaration.status(lang, table) if declaration and declaration.status else ():
        embeds.field(embed, name, value)
    # A character sheet's pools are read on the sheet (their owner is the sheet, not a player).
    values = {(pool, owner): value for (pool, owner), value in pools.items() if pool not in SHEET_POOLS}
    hidden = hidden_pools(table)
    pool_text = "\n".join(table_pool_lines(lang, declaration, values, hidden))
    embeds.field(embed, t(lang, "mesa.estado.pools"), pool_text, inline=False)
    everyone = list(dict.fromkeys([*players, *(owner for _, owner in values if owner)]))
    lines = player_lines(lang, table, everyone, values)
    if lines or (declaration and declaration.player_pools):
        for text in field_values(lines) or [t(lang, "mesa.estado.no_players")]:
            embeds.field(embed, t(lang, "mesa.estado.players"), text, inline=False)
    return embed


def field_values(lines: list[str]) -> list[str]:
    """Lines packed into as few field values as Discord's 1,024 characters allow."""
    values: list[str] = []
    for line in lines:
        if values and len(values[-1]) + 1 + len(line) <= embeds.FIELD_LIMIT:
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values
