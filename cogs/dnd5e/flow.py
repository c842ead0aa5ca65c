"""The life of a D&D roll: a d20 test (a check, a save, an attack) or any dice expression,
from its options (a command's, or a stored roll's for *Repetir*, which calls the same
functions for whoever presses): ask the rules, record, post. What the options become as
stored data is ``cogs.dnd5e.build``'s."""

from __future__ import annotations

from typing import Any

import d20
import discord

from bot import embeds, render, rolls, seen
from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.i18n import lang_for, t
from bot.models import Record
from bot.repeat import Asked, asked, asked_of, codec
from bot.repeat import button as repeat_button
from bot.reveal import is_secret
from bot.sheets import access
from cogs.dnd5e.afflictions import roll_whys
from cogs.dnd5e.build import BUILDERS, Options
from cogs.dnd5e.components import roll_card
from cogs.dnd5e.damage import damage_button
from cogs.dnd5e.state import EXPRESSION_KIND, INSPIRATION, KIND, damage_type_name
from cogs.dnd5e.vitals import open_tracker
from rules.dnd5e import checks
from rules.dnd5e.checks import Mode
from rules.expression import roll_expression

ADVANTAGE = {
    Mode.NORMAL: d20.AdvType.NONE,
    Mode.ADVANTAGE: d20.AdvType.ADV,
    Mode.DISADVANTAGE: d20.AdvType.DIS,
}


async def roll_test(
    bot: Tirada,
    interaction: discord.Interaction,
    kind: str,
    options: Options,
    motivo: str | None,
    secret: bool,
) -> None:
    """Roll a test from its options, record and post it with *Repetir* (and the
    inspiration buttons if the roller holds it). *Repetir* comes back here, with the
    ``motivo`` already made safe (making it safe twice would escape it twice)."""
    table = await current_table(interaction)
    secret = is_secret(interaction, table, secret)
    gm = is_gm(table, interaction)
    whys = await roll_whys(bot.store, table, kind, options, interaction.user.id, gm)
    data = BUILDERS[kind](bot.rng, options, whys)
    data |= {"kind": kind, **asked(options, secreta=secret, motivo=motivo)}
    record = await rolls.record(bot.store, interaction, table, KIND, data, f"dnd.{kind}", secret=secret)
    lang = lang_for(interaction.locale)
    # The table's pools as this interaction read them (with what its roll wrote): no read.
    pools = await seen.pools(interaction, table.channel_id)
    holds = pools.get((INSPIRATION, interaction.user.id), 0) > 0
    embed, view = roll_card(lang, record, holds)
    await rolls.post(bot.store, interaction, table, record, embed, view, secret=secret)


async def repeat_test(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir*: the same test, for whoever presses, the same way and reason (a roll
    made before *Repetir* kept its options has none to repeat)."""
    how = asked_of(record.data)
    if how.options.get("ficha"):
        await access.check_repeat(interaction, record, character=how.options["ficha"])
    await roll_test(
        interaction.client, interaction, record.data["kind"], how.options, how.motivo, how.secreta
    )


async def roll_dice(
    bot: Tirada,
    interaction: discord.Interaction,
    expresion: str,
    ventaja: bool,
    desventaja: bool,
    motivo: str | None,
    secret: bool,
    kind: str | None = None,
) -> None:
    """Any expression; advantage turns its first d20 into 2d20kh1 (disadvantage, kl1).
    Recorded with its options so a secret one can be revealed and any can be repeated;
    ``motivo`` comes already made safe."""
    table = await current_table(interaction)
    secret = is_secret(interaction, table, secret)
    the_mode = checks.mode(ventaja, desventaja)
    roll = roll_expression(expresion, bot.rng, ADVANTAGE[the_mode])
    lang = lang_for(interaction.locale)
    embed = embeds.card(t(lang, "dnd.title.tirar"), t(lang, "dnd.roll.by", user=interaction.user.id))
    kind_name = damage_type_name(lang, kind or "")
    mode_key = "dnd.mode.cancelled" if ventaja and desventaja else f"dnd.mode.{the_mode.value}"
    embeds.field(
        embed,
        t(lang, "dnd.roll.dice", mode=t(lang, mode_key)),
        f"{render.expression(roll.tree)} = **{roll.total}** {kind_name}".strip(),
        inline=False,
    )
    options = {"expresion": expresion, "ventaja": ventaja, "desventaja": desventaja, "tipo": kind}
    data = {
        **asked(options, secreta=secret, motivo=motivo),
        # What was rolled, for the chronicle, the dice statistics (as /tirar keeps it) and
        # the damage it deals.
        "total": roll.total,
        "dados": roll.faces,
    }
    record = await rolls.record(
        bot.store, interaction, table, EXPRESSION_KIND, data, "dnd.tirar", secret=secret
    )
    view = discord.ui.View(timeout=None)
    view.add_item(repeat_button(lang, record.id))
    if await open_tracker(bot.store, table.channel_id) is not None:
        view.add_item(damage_button(lang, record.id))
    embed = embeds.titled(embed, motivo)
    await rolls.post(bot.store, interaction, table, record, embed, view, secret=secret)


def dice_before_options(data: dict[str, Any]) -> Asked | None:
    """A ``/dnd tirar`` stored before every roll kept its options: them at the top of its
    data (none at all before *Repetir*)."""
    if "options" in data or "expresion" not in data:
        return None
    options = {key: data.get(key) for key in ("expresion", "ventaja", "desventaja", "tipo")}
    return Asked(options, data["secreta"], motivo=data["motivo"])


DICE = codec(dice_before_options)


async def repeat_dice(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir* on ``/dnd tirar``: the same expression and mode, for whoever presses."""
    how = asked_of(record.data, DICE)
    options = how.options
    await roll_dice(
        interaction.client,
        interaction,
        options["expresion"],
        options["ventaja"],
        options["desventaja"],
        how.motivo,
        how.secreta,
        options["tipo"],
    )
