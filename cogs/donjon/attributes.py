"""Donjon's *Generación de Atributos*: the rolled methods, their reroll, and the improved
player's swap of one point.

A roll stores its method, the dice and (after a swap) the scores. *Repetir* is the
reroll of the methods that have one ("Si los puntajes de un personaje suman 15 o menos, el
jugador puede tirar todos los dados nuevamente"): offered only then, to the player who
rolled, once per roll. The swap ("agregar un punto a un Atributo restándole un punto a
otro") is made once, on the player's latest roll of that method, and closes its reroll.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds, render, repeat, rolls
from bot.checks import current_table
from bot.client import Tirada
from bot.delivery import send
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Record
from bot.reveal import is_secret
from bot.rolls import Decision, act
from cogs.donjon.state import ATTRIBUTES_KIND
from rules.dice import Die, Mark
from rules.donjon import attributes
from rules.errors import RuleError

SWAP_METHOD = "jugador_mejorado"


def stored_roll(data: dict[str, Any]) -> attributes.AttributeRoll:
    rolls = tuple((a, b, c) for a, b, c in data["rolls"])
    return attributes.AttributeRoll(rolls, data["method"] == "eleccion")


def may_reroll(data: dict[str, Any]) -> bool:
    return (
        "rolls" in data
        and not data.get("rerolled")
        and not data.get("scores")
        and attributes.offers_reroll(data["method"], stored_roll(data))
    )


def median_dice(rolled: tuple[int, ...]) -> str:
    """The three d6 with the median kept and the other two struck through."""
    middle = sorted(range(3), key=lambda i: rolled[i])[1]
    return render.dice(
        Die(6, v, frozenset() if i == middle else frozenset({Mark.DROPPED})) for i, v in enumerate(rolled)
    )


def attributes_embed(lang: Lang, data: dict[str, Any]) -> discord.Embed:
    method = data["method"]
    roll = stored_roll(data)
    scores = data.get("scores") or roll.medians
    lines = []
    for index, rolled in enumerate(roll.rolls):
        dice = median_dice(rolled)
        if method == "eleccion":
            lines.append(t(lang, "donjon.attr.free", n=index + 1, dice=dice, value=scores[index]))
        else:
            lines.append(
                t(lang, f"donjon.attr.{attributes.ATTRIBUTES[index]}", value=scores[index]) + f" · {dice}"
            )
    if data.get("scores"):
        plus, minus = data["swap"]
        lines.append(
            t(
                lang,
                "donjon.attr.swapped",
                plus=t(lang, f"donjon.attr.name.{plus}"),
                minus=t(lang, f"donjon.attr.name.{minus}"),
            )
        )
    footer = t(lang, "donjon.attr.total", total=sum(scores))
    if may_reroll(data):
        footer = t(lang, "donjon.attr.may_reroll", total=roll.total)
    elif method == SWAP_METHOD and not data.get("scores"):
        footer = t(lang, "donjon.attr.may_swap", total=roll.total)
    embed = embeds.card(t(lang, f"donjon.metodo.{method}"), "\n".join(lines))
    embed.set_footer(text=footer)
    return embeds.titled(embed, data.get("motivo"))


def attributes_view(lang: Lang, record: Record) -> discord.ui.View | None:
    if not may_reroll(record.data):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(repeat.button(lang, record.id))
    return view


async def roll_attributes(
    interaction: discord.Interaction[Tirada], method: str, *, secreta: bool = False, motivo: str | None = None
) -> None:
    bot = interaction.client
    if method not in attributes.ROLLED_METHODS:
        raise Refusal("donjon.bad_method", method=method)
    table = await current_table(interaction)
    secret = is_secret(interaction, table, secreta)
    roll = attributes.roll_attributes(bot.rng, method == "eleccion")
    data = {
        "method": method,
        "rolls": [list(r) for r in roll.rolls],
        "secreta": secret,
        "motivo": motivo,
    }
    await rolls.publish(
        bot.store,
        interaction,
        table,
        ATTRIBUTES_KIND,
        data,
        "donjon.atributos",
        lambda lang, record: (attributes_embed(lang, record.data), attributes_view(lang, record)),
        secret=secret,
    )


async def reroll(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir* on attributes: the improved methods' reroll, for the player who rolled."""
    if interaction.user.id != record.user_id:
        raise Refusal("donjon.attr.not_yours")

    def close(current: Record) -> Decision:
        if not may_reroll(current.data):
            raise Refusal("donjon.attr.no_reroll")
        return Decision({**current.data, "rerolled": True}, (), "donjon.atributos")

    closed, _ = await act(interaction.client.store, interaction, record.id, ATTRIBUTES_KIND, close, step=1)
    data = closed.data
    await roll_attributes(
        interaction, data["method"], secreta=bool(data.get("secreta")), motivo=data.get("motivo")
    )
    await edit_posted(interaction, closed, attributes_embed(lang_for(interaction.locale), data))


async def edit_posted(interaction: discord.Interaction[Tirada], record: Record, embed: discord.Embed) -> None:
    """Show a roll's new state on its public message (a secret one lives in the GM channel,
    where its GM sees the answer anyway), without its reroll button."""
    if record.message_id is None or record.data.get("secreta"):
        return
    channel = interaction.client.get_partial_messageable(record.channel_id, guild_id=interaction.guild_id)
    await channel.get_partial_message(record.message_id).edit(embed=embed, view=None)


async def swap(interaction: discord.Interaction[Tirada], plus: str, minus: str) -> None:
    """A Elección del Jugador Mejorado: one point from ``minus`` to ``plus`` on the caller's
    latest roll of that method at this table."""
    bot = interaction.client
    table = await current_table(interaction)
    latest = next(
        (
            r
            for r in await bot.store.records(table.channel_id, ATTRIBUTES_KIND, limit=50)
            if r.user_id == interaction.user.id and r.data.get("method") == SWAP_METHOD
        ),
        None,
    )
    if latest is None or latest.data.get("rerolled"):
        raise Refusal("donjon.attr.nothing_to_swap")
    lang = lang_for(interaction.locale)

    def apply(current: Record) -> Decision:
        data = current.data
        if data.get("scores"):
            raise Refusal("donjon.attr.already_swapped")
        try:
            scores = attributes.swap_point(stored_roll(data).medians, plus, minus)
        except RuleError as error:
            if error.key != "donjon.swap_range":
                raise
            name = t(lang, f"donjon.attr.name.{error.params['attribute']}")
            raise Refusal("donjon.swap_range", attribute=name, score=error.params["score"]) from error
        return Decision({**data, "scores": list(scores), "swap": [plus, minus]}, (), "donjon.atributos")

    record, _ = await act(bot.store, interaction, latest.id, ATTRIBUTES_KIND, apply)
    embed = attributes_embed(lang, record.data)
    await send(interaction, embed=embed, ephemeral=bool(record.data.get("secreta")))
    await edit_posted(interaction, record, embed)
