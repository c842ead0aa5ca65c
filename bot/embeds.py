"""Embeds every cog shares: one colour per verdict, refusals that read at a glance."""

from __future__ import annotations

import discord

NEUTRAL = discord.Colour.blurple()
SUCCESS = discord.Colour.green()
FAILURE = discord.Colour.red()
REFUSAL = discord.Colour.orange()

# Discord's own limits, so that no user text can make a message fail to send.
TITLE_LIMIT = 256
FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def titled(embed: discord.Embed, motivo: str | None) -> discord.Embed:
    """Lead a roll's title with what it is for: "Forzar la puerta — Prueba de Fuerza"."""
    if motivo:
        embed.title = clip(f"{motivo} — {embed.title}" if embed.title else motivo, TITLE_LIMIT)
    return embed


def refusal(text: str) -> discord.Embed:
    return discord.Embed(description=clip(text, DESCRIPTION_LIMIT), colour=REFUSAL)


def card(title: str, description: str = "", colour: discord.Colour = NEUTRAL) -> discord.Embed:
    return discord.Embed(
        title=clip(title, TITLE_LIMIT),
        description=clip(description, DESCRIPTION_LIMIT) or None,
        colour=colour,
    )


def field(embed: discord.Embed, name: str, value: str, inline: bool = True) -> discord.Embed:
    """Add a field; an empty value (a line the table turned off) adds none, as Discord
    refuses a field without a value."""
    if not value:
        return embed
    # Clipped only when too long: a card adds a dozen fields, and almost none is.
    if len(name) > TITLE_LIMIT:
        name = clip(name, TITLE_LIMIT)
    if len(value) > FIELD_LIMIT:
        value = clip(value, FIELD_LIMIT)
    return embed.add_field(name=name, value=value, inline=inline)
