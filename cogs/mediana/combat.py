"""Mediana initiative: the combat tracker's embed, buttons and form, and its round decisions."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds
from bot.checks import is_gm, roll_table
from bot.client import Tirada
from bot.errors import Refusal, update
from bot.i18n import Lang, lang_for, t
from bot.models import RollRecord
from bot.rolls import Decision, act, load
from bot.ui import Modal, StepButton, parse_int
from cogs.mediana.state import COMBAT_KIND, MAX_COMBATANTS, health_from, sheet
from rules import mediana

# -- initiative -----------------------------------------------------------------------------------


def combat_embed(lang: Lang, state: dict[str, Any]) -> discord.Embed:
    title = t(lang, "mediana.combat.title", round=state["round"])
    head = t(lang, "mediana.combat.ended") if state["ended"] else t(lang, "mediana.combat.help")
    embed = embeds.card(title, head)
    ordered = sorted(state["combatants"], key=lambda c: -c["total"])
    lines = [
        t(
            lang,
            "mediana.combat.line",
            name=discord.utils.escape_markdown(c["name"]),
            total=c["total"],
            actions=mediana.actions(c["total"]),
        )
        for c in ordered
    ]
    embeds.field(embed, t(lang, "mediana.combat.order"), "\n".join(lines) or "—", inline=False)
    return embed


def combat_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    if record.data["ended"]:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(CombatButton(record.id, "unirme", 0, t(lang, "mediana.button.unirme")))
    view.add_item(CombatButton(record.id, "pnj", 0, t(lang, "mediana.button.pnj")))
    view.add_item(
        CombatButton(
            record.id,
            "ronda",
            record.data["round"],
            t(lang, "mediana.button.ronda"),
            discord.ButtonStyle.primary,
        )
    )
    view.add_item(
        CombatButton(record.id, "terminar", 0, t(lang, "mediana.button.terminar"), discord.ButtonStyle.danger)
    )
    return view


def initiative_roll(bot: Tirada, bonus: int, encumbrance: int, rank: str) -> int:
    """Bonus + 1o3d10 (exploding, as a skill test) − armour's encumbrance."""
    return mediana.roll_test(bot.rng, bonus - encumbrance, None, rank).total


class CombatButton(
    StepButton,
    template=r"mediana:ini:(?P<action>unirme|pnj|ronda|terminar):(?P<record>[0-9]{1,18}):(?P<step>[0-9]{1,6})",
):
    prefix = "mediana:ini"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.record_id, COMBAT_KIND)
        if record.data["ended"]:
            raise Refusal("mediana.combat.is_over")
        gm = is_gm(await roll_table(interaction, record), interaction)
        if self.action in ("pnj", "ronda", "terminar") and not gm:
            raise Refusal("error.not_gm")
        if self.action in ("unirme", "pnj"):
            await interaction.response.send_modal(JoinModal(self.record_id, lang, npc=self.action == "pnj"))
            return
        step = self.step

        def decide(current: RollRecord) -> Decision:
            if self.action == "terminar":
                return Decision({**current.data, "ended": True}, (), "mediana.combat.end")
            return new_round(bot, current, step)

        record, _ = await act(bot.store, interaction, self.record_id, COMBAT_KIND, decide)
        await update(interaction, embed=combat_embed(lang, record.data), view=combat_view(lang, record))


def new_round(bot: Tirada, record: RollRecord, round_: int) -> Decision:
    """ "Una vez actúe el último en la iniciativa, se vuelve a tirar esta": everyone rerolls."""
    state = record.data
    if state["round"] != round_:
        raise Refusal("mediana.combat.already_moved")
    rolled = [
        {**c, "total": initiative_roll(bot, c["bonus"], c["encumbrance"], c["rank"])}
        for c in state["combatants"]
    ]
    return Decision({**state, "combatants": rolled, "round": round_ + 1}, (), "mediana.combat.round")


class JoinModal(Modal):
    def __init__(self, combat_id: int, lang: Lang, *, npc: bool = False) -> None:
        custom_id = f"mediana:{'pnj' if npc else 'unirme'}-modal:{combat_id}"
        super().__init__(title=t(lang, "mediana.join.title"), custom_id=custom_id)
        self.combat_id = combat_id
        self.npc = npc
        self.name: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "mediana.join.name"), custom_id="nombre", max_length=40, required=npc
        )
        self.bonus: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "mediana.join.bonus"), custom_id="bono", max_length=3
        )
        self.encumbrance: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "mediana.join.encumbrance"), custom_id="estorbo", max_length=2, required=False
        )
        for item in (self.name, self.bonus, self.encumbrance):
            self.add_item(item)

    async def on_submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        combat = await load(bot.store, self.combat_id, COMBAT_KIND)
        bonus = parse_int(self.bonus.value, "bono", -mediana.MAX_SCORE, mediana.MAX_SCORE)
        encumbrance = parse_int(self.encumbrance.value or "0", "estorbo", 0, mediana.MAX_SCORE)
        name = " ".join(self.name.value.split())[:40] or interaction.user.display_name[:40]
        rank = "medio"
        if not self.npc:
            health = health_from(await sheet(bot, combat.channel_id, interaction.user.id))
            rank = mediana.effective_rank(badly_hurt=bool(health and health.badly_hurt))
        key = f"n{interaction.id}" if self.npc else f"u{interaction.user.id}"
        entry = {"key": key, "name": name, "bonus": bonus, "encumbrance": encumbrance, "rank": rank}
        entry["total"] = initiative_roll(bot, bonus, encumbrance, rank)

        def join(current: RollRecord) -> Decision:
            others = [c for c in current.data["combatants"] if c["key"] != key]
            if len(others) >= MAX_COMBATANTS:
                raise Refusal("mediana.combat.full", max=MAX_COMBATANTS)
            return Decision({**current.data, "combatants": [*others, entry]}, (), "mediana.combat.join")

        record, _ = await act(bot.store, interaction, self.combat_id, COMBAT_KIND, join)
        await update(interaction, embed=combat_embed(lang, record.data), view=combat_view(lang, record))
