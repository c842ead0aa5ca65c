"""``/tirar``: any dice expression, rendered with every die's marks, and "Repetir"."""

from __future__ import annotations

from typing import Any

import d20
import discord
from discord import app_commands
from discord.ext import commands

from bot import embeds, render, rolls
from bot.checks import REASON_LIMIT, anywhere, current_table, reason, reason_option, secret_option
from bot.client import Tirada
from bot.delivery import send
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import Record
from bot.repeat import Asked, asked, asked_of, codec
from bot.repeat import button as repeat_button
from bot.reveal import is_secret
from rules.dice import MAX_EXPRESSION_LENGTH
from rules.expression import ExpressionRoll, roll_expression

KIND = "tirar"
# Named once: on Python 3.11 each ``CritType.X`` is a lookup through ``EnumType.__getattr__``.
_CRIT = d20.CritType.CRIT
_FUMBLE = d20.CritType.FAIL


def roll_embed(lang: Lang, user: discord.abc.User, roll: ExpressionRoll) -> discord.Embed:
    embed = embeds.card(t(lang, "tirar.title", expression=roll.expression))
    embed.set_author(name=user.display_name, icon_url=user.display_avatar.url)
    embeds.field(embed, t(lang, "tirar.dice"), render.expression(roll.tree), inline=False)
    embeds.field(embed, t(lang, "tirar.total"), f"**{roll.total}**")
    crit = roll.crit
    if crit is _CRIT:
        embed.colour = embeds.SUCCESS
        embed.set_footer(text=t(lang, "tirar.crit"))
    elif crit is _FUMBLE:
        embed.colour = embeds.FAILURE
        embed.set_footer(text=t(lang, "tirar.fumble"))
    return embed


def before_options(data: dict[str, Any]) -> Asked | None:
    """A roll stored before every roll kept its options: the expression and how it was
    made at the top of its data."""
    if "options" in data:
        return None
    return Asked(
        {"expresion": data["expresion"]}, bool(data.get("secreta")), bool(data["privada"]), data.get("motivo")
    )


ROLLS = codec(before_options)


async def repeat(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir*: the same expression, for whoever presses, the same way and reason."""
    how = asked_of(record.data, ROLLS)
    await roll_and_post(
        interaction.client, interaction, how.options["expresion"], how.privada, how.secreta, how.motivo
    )


async def roll_and_post(
    bot: Tirada,
    interaction: discord.Interaction,
    expression: str,
    private: bool,
    secret: bool,
    motivo: str | None = None,
) -> None:
    """Roll and answer: in public, privately (only the roller sees it) or secretly (the GM
    sees it and may reveal it). "Repetir" repeats it the same way, for the same reason
    (``motivo`` arrives clean: the command cleans what was typed, the roll keeps it so)."""
    table = await current_table(interaction)
    secret = is_secret(interaction, table, secret)
    roll = roll_expression(expression, bot.rng)
    data = {
        **asked({"expresion": expression}, secreta=secret, motivo=motivo, privada=private),
        # What was rolled, for the chronicle and the dice statistics: every face rolled, by size.
        "total": roll.total,
        "dados": roll.faces,
    }
    record = await rolls.record(
        bot.store, interaction, table, KIND, data, "tirar.roll", secret=secret, private=private and not secret
    )
    lang = lang_for(interaction.locale)
    view = discord.ui.View(timeout=None)
    view.add_item(repeat_button(lang, record.id))
    embed = embeds.titled(roll_embed(lang, interaction.user, roll), motivo)
    if private and not secret:
        await send(interaction, embed=embed, view=view, ephemeral=True)
        return
    await rolls.post(bot.store, interaction, table, record, embed, view, secret=secret)


class Tirar(commands.Cog):
    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.repeaters[KIND] = repeat

    async def cog_unload(self) -> None:
        self.bot.repeaters.pop(KIND, None)

    @app_commands.command(name=T("tirar.cmd"), description=T("tirar.cmd.desc"))
    @anywhere
    @options("tirar.opt")
    @reason_option
    @secret_option
    async def tirar(
        self,
        interaction: discord.Interaction,
        expresion: app_commands.Range[str, 1, MAX_EXPRESSION_LENGTH],
        privada: bool = False,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        await roll_and_post(self.bot, interaction, expresion, privada, secreta, reason(motivo))


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Tirar(bot))
