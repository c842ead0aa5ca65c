"""Mediana initiative: the combat panel (order, dice, whose turn), its buttons and form.
The decisions are ``rules.mediana.combat.Combat``'s; this module reads and writes it."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds
from bot.checks import is_gm, table_of
from bot.client import Tirada
from bot.delivery import update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Record
from bot.panel import labelled, number_or_none, number_picked, number_select, worded
from bot.rolls import Decision, act, load
from bot.ui import Modal, StepButton
from cogs.mediana import sheet
from cogs.mediana.forms import RIVAL_ATTRIBUTES
from cogs.mediana.render import throws_text
from cogs.mediana.state import COMBAT_KIND, badly_hurt, current_ranks
from rules.mediana import combat as mediana_combat
from rules.mediana import ranks as mediana_ranks
from rules.mediana.combat import Combat, Fighter


def fighter_line(lang: Lang, fighter: Fighter, acting: bool) -> str:
    marker = "▶️ " if acting else ""
    dice = ""
    if fighter.roll is not None:
        dice = " · " + throws_text(fighter.roll)
    return (
        marker
        + t(
            lang,
            "mediana.combat.line",
            name=discord.utils.escape_markdown(fighter.name),
            total=fighter.total,
            actions=mediana_combat.actions(fighter.total),
        )
        + dice
    )


def combat_embed(lang: Lang, record: Record) -> discord.Embed:
    combat = mediana_combat.combat_from_data(record.data)
    acting = combat.acting
    if combat.ended:
        head = t(lang, "mediana.combat.ended")
    elif acting is None:
        head = t(lang, "mediana.combat.help")
    else:
        head = t(lang, "mediana.combat.acts", name=discord.utils.escape_markdown(acting.name))
    embed = embeds.card(t(lang, "mediana.combat.title", round=combat.round), head)
    lines = [fighter_line(lang, f, acting is not None and f.key == acting.key) for f in combat.order]
    embeds.field(embed, t(lang, "mediana.combat.order"), "\n".join(lines) or "—", inline=False)
    return embed


def combat_view(lang: Lang, record: Record) -> discord.ui.View | None:
    combat = mediana_combat.combat_from_data(record.data)
    if combat.ended:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(CombatButton.draw(record.id, "unirme", 0, t(lang, "mediana.button.unirme")))
    view.add_item(CombatButton.draw(record.id, "pnj", 0, t(lang, "mediana.button.pnj")))
    if combat.fighters:
        view.add_item(
            CombatButton.draw(
                record.id,
                "siguiente",
                combat.step,
                t(lang, "mediana.button.siguiente"),
                discord.ButtonStyle.primary,
            )
        )
    view.add_item(CombatButton.draw(record.id, "ronda", combat.round, t(lang, "mediana.button.ronda")))
    view.add_item(
        CombatButton.draw(
            record.id, "terminar", 0, t(lang, "mediana.button.terminar"), discord.ButtonStyle.danger
        )
    )
    return view


def acting_user(combat: Combat) -> int | None:
    """The player whose character acts now (None for an NPC)."""
    acting = combat.acting
    return int(acting.key[1:]) if acting is not None and acting.key.startswith("u") else None


class CombatButton(
    StepButton,
    template=r"mediana:ini:(?P<action>unirme|pnj|siguiente|ronda|terminar):(?P<record>[0-9]{1,18}):(?P<step>[0-9]{1,6})",
):
    prefix = "mediana:ini"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, COMBAT_KIND)
        combat = mediana_combat.combat_from_data(record.data)
        if combat.ended:
            raise Refusal("mediana.combat.is_over")
        gm = is_gm(await table_of(interaction, record), interaction)
        if self.action in ("pnj", "ronda", "terminar") and not gm:
            raise Refusal("error.not_gm")
        if self.action == "siguiente" and not (gm or acting_user(combat) == interaction.user.id):
            raise Refusal("mediana.combat.not_your_turn")
        if self.action == "unirme" and any(f.key == f"u{interaction.user.id}" for f in combat.fighters):
            raise Refusal("mediana.combat.already_joined")
        if self.action in ("unirme", "pnj"):
            await interaction.response.send_modal(JoinModal(self.record_id, lang, npc=self.action == "pnj"))
            return
        keys = [f.key for f in combat.fighters]
        ranks = await current_ranks(bot, record.channel_id, keys)
        step = self.step

        def decide(current: Record) -> Decision:
            now = mediana_combat.combat_from_data(current.data)
            if self.action == "terminar":
                moved, reason = now.finish(), "mediana.combat.end"
            elif self.action == "ronda":
                moved, reason = now.new_round(bot.rng, step, ranks), "mediana.combat.round"
            else:
                moved, reason = now.next(bot.rng, step, ranks), "mediana.combat.next"
            return Decision(mediana_combat.combat_to_data(moved), (), reason)

        record, _ = await act(bot.store, interaction, self.record_id, COMBAT_KIND, decide)
        await update(interaction, embed=combat_embed(lang, record), view=combat_view(lang, record))
        if self.action == "siguiente":
            await announce_turn(interaction, lang, mediana_combat.combat_from_data(record.data))


async def announce_turn(interaction: discord.Interaction[Tirada], lang: Lang, combat: Combat) -> None:
    """Tell the table whose turn it is, pinging only that player (an NPC pings nobody)."""
    acting = combat.acting
    if acting is None:
        return
    text = t(
        lang, "mediana.combat.your_turn", name=discord.utils.escape_markdown(acting.name), round=combat.round
    )
    user_id = acting_user(combat)
    mentions = discord.AllowedMentions(users=[discord.Object(user_id)] if user_id else False)
    await interaction.followup.send(
        content=f"<@{user_id}>" if user_id else discord.utils.MISSING,
        embed=embeds.card(text),
        allowed_mentions=mentions,
    )


# "todos tiran iniciativa": the book gives no scale for the bonus, so the form offers the
# opposed form's attribute scale (``RIVAL_ATTRIBUTES``, -4 to 20).
INITIATIVE_BONUSES = RIVAL_ATTRIBUTES
# An armour's estorbo ("el estorbo hay que restarlo a la iniciativa"): 0 to 23 after the
# sheet's (an NPC: none, then 1 to 23).
ENCUMBRANCES = range(0, 24)


def encumbrance_select(lang: Lang, npc: bool) -> discord.ui.Select[Any]:
    """The estorbo picked: first (chosen) the sheet's armour's, or none for an NPC."""
    if npc:
        none = discord.SelectOption(label=t(lang, "mediana.join.no_armour"), value="0", default=True)
        return number_select("estorbo", ENCUMBRANCES[1:], none)
    return number_select("estorbo", ENCUMBRANCES, worded(t(lang, "mediana.join.from_sheet")))


class JoinModal(Modal):
    """The name (an NPC's, or the player's own), the initiative bonus and the estorbo, picked."""

    def __init__(self, combat_id: int, lang: Lang, *, npc: bool = False) -> None:
        custom_id = f"mediana:{'pnj' if npc else 'unirme'}-modal:{combat_id}"
        super().__init__(title=t(lang, "mediana.join.title"), custom_id=custom_id)
        self.combat_id = combat_id
        self.npc = npc
        self.name: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "mediana.join.name"), custom_id="nombre", max_length=40, required=npc
        )
        self.add_item(self.name)
        self.bonus = number_select("bono", INITIATIVE_BONUSES)
        lowest, highest = INITIATIVE_BONUSES[0], INITIATIVE_BONUSES[-1]
        self.add_item(labelled(t(lang, "mediana.join.bonus", min=lowest, max=highest), self.bonus))
        self.encumbrance = encumbrance_select(lang, npc)
        self.add_item(labelled(t(lang, "mediana.join.encumbrance"), self.encumbrance))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        """Join once a round (the rules refuse a second roll); a player rolls at the rank
        their PV sheet gives now."""
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.combat_id, COMBAT_KIND)
        bonus = number_picked(self.bonus)
        encumbrance = number_or_none(self.encumbrance)
        if encumbrance is None:
            encumbrance = await sheet.worn(bot, interaction)
        name = " ".join(self.name.value.split())[:40] or interaction.user.display_name[:40]
        hurt = not self.npc and await badly_hurt(bot, record.channel_id, interaction.user.id)
        rank = mediana_ranks.effective_rank(badly_hurt=hurt)
        key = f"n{interaction.id}" if self.npc else f"u{interaction.user.id}"

        def join(current: Record) -> Decision:
            combat = mediana_combat.combat_from_data(current.data).join(
                bot.rng, key, name, bonus, encumbrance, rank
            )
            return Decision(mediana_combat.combat_to_data(combat), (), "mediana.combat.join")

        record, _ = await act(bot.store, interaction, self.combat_id, COMBAT_KIND, join)
        await update(interaction, embed=combat_embed(lang, record), view=combat_view(lang, record))
