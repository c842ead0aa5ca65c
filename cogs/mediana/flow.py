"""The life of a Mediana roll: a test, an opposed test, an effect roll and a contest from
their options (a command's, or a stored roll's for *Repetir*, which calls the same
functions for whoever presses): ask the rules, record, post."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds, rolls
from bot.checks import current_table, is_gm, reason
from bot.client import Tirada
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Record, SheetRow, Table
from bot.repeat import Asked, asked, asked_of, codec
from bot.repeat import button as repeat_button
from bot.reveal import is_secret
from bot.sheets import access
from bot.sheets.live import live_field
from cogs.mediana import sheet
from cogs.mediana.components import contest_card, test_card, thrown_card
from cogs.mediana.contest import open_view, roll_entries
from cogs.mediana.health import wound
from cogs.mediana.render import contest_embed, effect_text, target_text, tests_of
from cogs.mediana.sheet_model import MedianaSheet
from cogs.mediana.state import EFFECT_KIND, KIND, badly_hurt
from rules.mediana import checks, contests, effects, ranks


def rank_reasons(base: str, no_skill: bool, hurt: bool) -> list[str]:
    """Why the rank is what it is: the rank chosen for the roll, no skill points, malherido."""
    reasons = [r for r, on in (("sin_habilidad", no_skill), ("malherido", hurt)) if on]
    if base != "medio":
        reasons.insert(0, f"elegido_{base}")
    return reasons


def open_card(lang: Lang, record: Record) -> tuple[discord.Embed, discord.ui.View]:
    """A contest still taking entrants: its card with the buttons to enter and roll."""
    return contest_embed(lang, record, tests_of(record)), open_view(lang, record)


async def roll_test(
    interaction: discord.Interaction[Tirada], options: dict[str, Any], secreta: bool, motivo: str | None
) -> None:
    """A skill or attribute test from its options (a command's, or a roll's for *Repetir*):
    the rank follows the roller's own state, read now. ``motivo`` arrives made safe."""
    bot = interaction.client
    table = await current_table(interaction)
    secret = is_secret(interaction, table, secreta)
    attribute_test = options["habilidad"] is None
    no_skill = not attribute_test and (options["sin_habilidad"] or options["habilidad"] == 0)
    hurt = options["malherido"] or await badly_hurt(bot, table.channel_id, interaction.user.id)
    rank = ranks.effective_rank(options["rango"], no_skill, hurt)
    score = options["atributo"] + (options["habilidad"] or 0) - options["estorbo"]
    test = checks.roll_test(bot.rng, score, options["dificultad"], rank, **checks.roll_kind(attribute_test))
    data = {
        "kind": "atributo" if attribute_test else "tirada",
        "test": checks.roll_to_data(test),
        "reasons": rank_reasons(options["rango"], no_skill, hurt),
        "attack": options.get("ataque", False),
        **asked(options, secreta=secret, motivo=motivo),
    }
    await rolls.publish(
        bot.store,
        interaction,
        table,
        KIND,
        data,
        f"mediana.{data['kind']}",
        test_card,
        secret=secret,
        fresh=thrown_card(test),
    )


async def side(
    bot: Tirada, table: Table, user_id: int | None, prefix: str, options: dict[str, Any]
) -> contests.Side:
    """One side of an opposed test, its rank from its own state: skill points, the rank
    chosen, malherido as told or from the player's PV sheet."""
    hurt = options[f"{prefix}malherido"] or (
        user_id is not None and await badly_hurt(bot, table.channel_id, user_id)
    )
    return contests.Side(
        options[f"{prefix}atributo"],
        options[f"{prefix}habilidad"],
        options[f"{prefix}rango"],
        hurt,
        options[f"{prefix}estorbo"],
    )


async def roll_opposed(
    interaction: discord.Interaction[Tirada], options: dict[str, Any], secreta: bool, motivo: str | None
) -> None:
    """Two characters compete: both roll as skill tests, each at the rank its own state
    gives; a natural 1 or a fumble loses."""
    bot = interaction.client
    table = await current_table(interaction)
    secret = is_secret(interaction, table, secreta)
    rival = options.get("rival")
    sides = [
        await side(bot, table, interaction.user.id, "", options),
        await side(bot, table, rival, "rival_", options),
    ]
    tests = contests.roll_opposed(bot.rng, sides)
    entries = [
        {"user": interaction.user.id, "test": checks.roll_to_data(tests[0])},
        {"user": rival, "test": checks.roll_to_data(tests[1])},
    ]
    for entry, prefix in zip(entries, ("", "rival_"), strict=True):
        if options.get(f"{prefix}ficha"):
            entry["name"] = options[f"{prefix}ficha"]
    data = {"kind": "enfrentada", "entries": entries, **asked(options, secreta=secret, motivo=motivo)}
    await rolls.publish(
        bot.store, interaction, table, KIND, data, "mediana.enfrentada", contest_card, secret=secret
    )


async def roll_damage(
    interaction: discord.Interaction[Tirada],
    options: dict[str, Any],
    secreta: bool,
    motivo: str | None,
    struck: tuple[SheetRow, MedianaSheet] | None = None,
) -> None:
    """An effect roll on its own: d6s exploding on 6, + a d6 per degree, ×2 for a combat
    critical, − armour. Against a target whose PV are in play, the damage comes off them
    in the same operation as the roll's record, so the card tells what the books hold.
    ``struck``: the target as the command already found it (*Repetir* finds it by id)."""
    bot = interaction.client
    table = await current_table(interaction)
    secret = is_secret(interaction, table, secreta)
    spec = effects.parse_effect(options["dados"])
    dice, doubled = effects.effect_dice(spec.dice, options["grados"], options["critico"], in_combat=True)
    if struck is None and options.get("objetivo"):
        struck = await sheet.target(bot, interaction, options["objetivo"])
    effect = effects.roll_effect(
        bot.rng, effects.EffectSpec(dice, spec.bonus), critical=doubled, absorption=options["absorcion"]
    )
    data = {**asked(options, secreta=secret, motivo=motivo), "effect": effects.effect_to_data(effect)}
    untouched = why_untouched(interaction, table, struck[0], secret) if struck else None
    change = wound(struck[0], effect.total) if struck and not untouched and effect.total else None
    record, outcome = await rolls.record_applied(
        bot.store,
        interaction,
        table,
        EFFECT_KIND,
        data,
        "mediana.dano",
        (change,) if change else (),
        secret=secret,
    )
    # The record's effect, not the one just thrown: a replay's record is the first delivery's.
    recorded = effects.effect_from_data(record.data["effect"])
    lang = lang_for(interaction.locale)
    embed = embeds.card(t(lang, "mediana.title.dano"), t(lang, "mediana.roll.by", user=interaction.user.id))
    text = effect_text(lang, recorded, options.get("armadura"))
    embeds.field(embed, t(lang, "mediana.roll.damage"), text, inline=False)
    if struck:
        said = target_text(lang, *struck, outcome, untouched)
        embeds.field(embed, t(lang, "mediana.roll.target"), said, inline=False)
    view = discord.ui.View(timeout=None)
    view.add_item(repeat_button(lang, record.id))
    await rolls.post(bot.store, interaction, table, record, embeds.titled(embed, motivo), view, secret=secret)


def why_untouched(interaction: discord.Interaction, table: Table, row: SheetRow, secret: bool) -> str | None:
    """Why a damage roll leaves its target's PV as they are: they are not in play (an NPC's
    or an inactive sheet's stay in its file), the roll is secret (the PV would show its
    hidden result), or the roller may not change them (another player's sheet). None: taken."""
    if live_field(row, "pv.actuales") is None:
        return "untracked"
    if secret:
        return "secret"
    if not access.writable(is_gm(table, interaction), interaction.user.id, row):
        return "not_theirs"
    return None


async def open_contest(interaction: discord.Interaction[Tirada], motivo: str | None) -> None:
    """Post a contest that players enter with *Participar* and the GM fills with NPCs. One
    opened in the GM channel is secret, as everything rolled there (:func:`is_secret`)."""
    bot = interaction.client
    table = await current_table(interaction)
    secret = is_secret(interaction, table, False)
    data = {"kind": "competicion", "entries": [], "open": True, "motivo": reason(motivo)}
    await rolls.publish(
        bot.store, interaction, table, KIND, data, "mediana.competicion", open_card, secret=secret
    )


async def repeat_contest(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir* a resolved contest: the same sides roll again at once."""
    bot = interaction.client
    table = await current_table(interaction)
    entries = [{k: v for k, v in e.items() if k != "test"} for e in record.data["entries"]]
    data = {**record.data, "entries": await roll_entries(bot, table, entries), "settled": False}
    data.pop("rerolls", None)
    secret = is_secret(interaction, table, False)
    await rolls.publish(
        bot.store, interaction, table, KIND, data, "mediana.competicion", contest_card, secret=secret
    )


def before_options(data: dict[str, Any]) -> Asked | None:
    """A roll stored before every roll kept the same shape: its options held the secrecy
    asked for and the ``motivo`` as typed (made safe at the top of its data)."""
    if "options" not in data or "secreta" in data:
        return None
    options = {k: v for k, v in data["options"].items() if k not in ("secreta", "motivo")}
    return Asked(options, bool(data["options"]["secreta"]), motivo=data.get("motivo"))


ROLLS = codec(before_options)


async def repeat_roll(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir* for a test, an opposed test or a contest: the same options, for whoever
    presses."""
    if record.data["kind"] == "competicion":
        if record.data.get("open"):
            raise Refusal("mediana.contest.not_resolved")
        await repeat_contest(interaction, record)
        return
    how = asked_of(record.data, ROLLS, "mediana.no_repeat")
    if how.options.get("ficha"):
        await access.check_repeat(interaction, record, character=how.options["ficha"])
    if record.data["kind"] == "enfrentada":
        await roll_opposed(interaction, how.options, how.secreta, how.motivo)
    else:
        await roll_test(interaction, how.options, how.secreta, how.motivo)


async def repeat_damage(interaction: discord.Interaction[Tirada], record: Record) -> None:
    how = asked_of(record.data, ROLLS, "mediana.no_repeat")
    await roll_damage(interaction, how.options, how.secreta, how.motivo)
