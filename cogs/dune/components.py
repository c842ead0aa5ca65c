"""Dune's buttons, menus and forms (each a DynamicItem whose custom_id carries the roll id, so
panels survive restarts) and ``decide``, which maps a button to the rules and the pool changes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

import discord

from bot import embeds
from bot.checks import is_gm, roll_table
from bot.client import Tirada
from bot.errors import Refusal, send, update
from bot.i18n import Lang, lang_for, t
from bot.models import Change, RollRecord, RollUpdate
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Guarded, Modal, parse_int
from cogs.dune.render import assist_embed, pools_text, roll_embed, saved_text
from cogs.dune.state import (
    AMENAZA,
    ASSIST_KIND,
    KIND,
    RollSpec,
    announce_task,
    determination_change,
    momentum_change,
    threat_change,
)
from rules import dune
from rules.dune import DuneRoll

if TYPE_CHECKING:
    from cogs.dune.cog import Dune


def button(lang: Lang, action: str, roll_id: int, style: discord.ButtonStyle) -> DuneButton:
    return DuneButton(roll_id, action, t(lang, f"dune.button.{action}"), style)


def panel(lang: Lang, roll_id: int, roll: DuneRoll) -> discord.ui.View:
    """The buttons that still make sense for this roll, and only those."""
    view = discord.ui.View(timeout=None)
    primary, secondary, danger = (
        discord.ButtonStyle.primary,
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.danger,
    )
    if roll.test.passed and not roll.price and not roll.closed:
        for use in dune.MOMENTUM_SPENDS:
            if use != "tarea" or roll.task_id is not None:
                view.add_item(button(lang, use, roll_id, primary))
        view.add_item(button(lang, "pnj" if roll.npc else "guardar", roll_id, discord.ButtonStyle.success))
    if roll.complications > 0:
        view.add_item(button(lang, "descartar" if roll.npc else "ignorar", roll_id, secondary))
    if (
        roll.rerollable
        and not roll.npc
        and not roll.closed
        and not (roll.spends or roll.price or roll.ignored)
    ):
        view.add_item(button(lang, "repetir", roll_id, secondary))
    if not roll.test.passed and not roll.price:
        view.add_item(button(lang, "precio", roll_id, danger))
    return view


async def render_roll(bot: Tirada, lang: Lang, record: RollRecord) -> tuple[discord.Embed, discord.ui.View]:
    roll = dune.from_data(record.data)
    pools = await pools_text(bot, lang, record.channel_id, None if roll.npc else record.user_id)
    return roll_embed(lang, record, roll, pools), panel(lang, record.id, roll)


# -- buttons ------------------------------------------------------------------------------


GM_ACTIONS = frozenset({"precio", "pnj", "descartar"})


class DuneButton(
    ActionButton,
    template=r"dune:(?P<action>info|rasgo|recurso|tarea|guardar|pnj|ignorar|descartar|repetir|precio)"
    r":(?P<roll>[0-9]{1,18})",
):
    prefix = "dune"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.roll_id, KIND)
        await check_may_press(interaction, record, self.action)
        if self.action == "repetir":
            await offer_reroll(interaction, record, lang)
            return
        record, applied = await act(
            bot.store, interaction, self.roll_id, KIND, lambda r: decide(self.action, r)
        )
        embed, view = await render_roll(bot, lang, record)
        if self.action == "guardar":
            embeds.field(embed, t(lang, "dune.roll.saved"), saved_text(lang, applied), inline=False)
        await update(interaction, embed=embed, view=view)
        await announce_task(bot, interaction, lang, dune.from_data(record.data).task_id)


async def check_may_press(interaction: discord.Interaction, record: RollRecord, action: str) -> None:
    table = await roll_table(interaction, record)
    gm = is_gm(table, interaction)
    if action in GM_ACTIONS and not gm:
        raise Refusal("error.not_gm")
    if interaction.user.id != record.user_id and not gm:
        raise Refusal("error.not_yours")


def decide(action: str, record: RollRecord) -> Decision:
    """One button's effect on a roll: the rules decide, this maps them to pool changes."""
    roll = dune.from_data(record.data)
    if action in dune.MOMENTUM_SPENDS:
        roll, from_group = dune.spend(roll, action)
        changes = (momentum_change(-from_group),) if from_group else ()
        return Decision(dune.to_data(roll), changes, f"dune.spend.{action}")
    if action == "guardar":
        roll, amount = dune.save(roll)
        return Decision(
            dune.to_data(roll), (momentum_change(amount, clamp=True),) if amount else (), "dune.save"
        )
    if action == "pnj":
        roll = dune.npc_to_threat(roll)
        return Decision(dune.to_data(roll), (threat_change(1),), "dune.npc_threat")
    if action == "ignorar":
        roll = dune.ignore_complication(roll)
        return Decision(dune.to_data(roll), (threat_change(dune.IGNORE_COMPLICATION_THREAT),), "dune.ignore")
    if action == "descartar":
        roll = dune.ignore_complication(roll)
        return Decision(
            dune.to_data(roll), (Change(AMENAZA, -dune.IGNORE_COMPLICATION_THREAT),), "dune.discard"
        )
    if action == "precio":
        return Decision(dune.to_data(dune.success_at_price(roll)), (), "dune.price")
    raise Refusal("error.roll_gone")


class RerollSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dune:dados:(?P<roll>[0-9]{1,18})",
):
    """The dice Determinación rerolls, chosen from a menu (each die at most once)."""

    def __init__(
        self, roll_id: int, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dune:dados:{roll_id}",
                options=options,
                min_values=1,
                max_values=len(options),
                placeholder=placeholder or None,
            )
        )
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> RerollSelect:
        return cls(int(match["roll"]), item.options)

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.roll_id, KIND)
        await check_may_press(interaction, record, "repetir")
        values = (interaction.data or {}).get("values", [])
        indexes = [int(v) for v in values if str(v).isdigit()]

        def reroll(current: RollRecord) -> Decision:
            roll = dune.reroll(dune.from_data(current.data), bot.rng, indexes)
            return Decision(dune.to_data(roll), (determination_change(current.user_id, -1),), "dune.reroll")

        record, _ = await act(bot.store, interaction, self.roll_id, KIND, reroll)
        embed, view = await render_roll(bot, lang, record)
        rerolled = sorted(set(indexes))
        dice = ", ".join(str(i + 1) for i in rerolled)
        await update(
            interaction,
            embed=embeds.card(
                t(lang, "dune.reroll.done", dice=dice, count=len(rerolled)), colour=embeds.SUCCESS
            ),
            view=None,
        )
        if record.message_id is not None and isinstance(interaction.channel, discord.abc.Messageable):
            await interaction.channel.get_partial_message(record.message_id).edit(embed=embed, view=view)


async def offer_reroll(interaction: discord.Interaction, record: RollRecord, lang: Lang) -> None:
    roll = dune.from_data(record.data)
    if dune.from_data(record.data).closed or not roll.rerollable:
        raise Refusal("dune.reroll_too_late")
    options = [
        discord.SelectOption(
            label=t(lang, "dune.reroll.option", die=i + 1, value=roll.slots[i].value), value=str(i)
        )
        for i in roll.rerollable
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(RerollSelect(record.id, options, t(lang, "dune.reroll.placeholder")))
    await send(
        interaction,
        embed=embeds.card(t(lang, "dune.reroll.title"), t(lang, "dune.reroll.help")),
        view=view,
        ephemeral=True,
    )


def assist_view(lang: Lang, prep_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        AssistButton(prep_id, "unirme", t(lang, "dune.button.ayudar"), discord.ButtonStyle.secondary)
    )
    view.add_item(AssistButton(prep_id, "tirar", t(lang, "dune.button.tirar"), discord.ButtonStyle.primary))
    return view


class AssistButton(ActionButton, template=r"dune:ayuda:(?P<action>unirme|tirar):(?P<roll>[0-9]{1,18})"):
    prefix = "dune:ayuda"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.roll_id, ASSIST_KIND)
        if record.data.get("rolled"):
            raise Refusal("dune.ayuda.already_rolled")
        if self.action == "unirme":
            if interaction.user.id == record.user_id:
                raise Refusal("dune.ayuda.leader_cannot_help")
            await interaction.response.send_modal(AssistModal(self.roll_id, lang))
            return
        if interaction.user.id != record.user_id:
            raise Refusal("dune.ayuda.leader_only")
        await roll_assisted(bot, interaction, self.roll_id)


async def roll_assisted(bot: Tirada, interaction: discord.Interaction, prep_id: int) -> None:
    """The leader rolls with every helper who joined; the preparation closes in the same
    operation, so a second "Tirar" finds it closed (or stale) and rolls nothing."""
    record = await load(bot.store, prep_id, ASSIST_KIND)
    helpers = tuple(dune.HelperSpec(h["user"], h["target"], h["focus"]) for h in record.data["helpers"])
    closes = RollUpdate(prep_id, record.version, {**record.data, "rolled": True})
    cog = cast("Dune", bot.get_cog("Dune"))
    await cog.roll_and_post(interaction, RollSpec(**record.data["spec"]), helpers, closes)


class AssistModal(Modal):
    def __init__(self, prep_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "dune.ayuda.modal_title"), custom_id=f"dune:ayuda-modal:{prep_id}")
        self.prep_id = prep_id
        self.objetivo: discord.ui.TextInput[AssistModal] = discord.ui.TextInput(
            label=t(lang, "dune.ayuda.modal_target"), custom_id="objetivo", max_length=2
        )
        self.enfoque: discord.ui.TextInput[AssistModal] = discord.ui.TextInput(
            label=t(lang, "dune.ayuda.modal_focus"), custom_id="enfoque", max_length=2, required=False
        )
        self.add_item(self.objetivo)
        self.add_item(self.enfoque)

    async def on_submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        target = parse_int(self.objetivo.value, "objetivo", 1, 2 * dune.MAX_SCORE)
        focus = (
            parse_int(self.enfoque.value, "enfoque", 1, dune.MAX_SCORE)
            if self.enfoque.value.strip()
            else None
        )
        user_id = interaction.user.id

        def join(current: RollRecord) -> Decision:
            if current.data.get("rolled"):
                raise Refusal("dune.ayuda.already_rolled")
            helpers = [h for h in current.data["helpers"] if h["user"] != user_id]
            if len(helpers) >= dune.MAX_HELPERS:
                raise Refusal("dune.ayuda.full", max=dune.MAX_HELPERS)
            helpers.append({"user": user_id, "target": target, "focus": focus})
            return Decision({**current.data, "helpers": helpers}, (), "dune.assist.join")

        record, _ = await act(bot.store, interaction, self.prep_id, ASSIST_KIND, join)
        await update(interaction, embed=assist_embed(lang, record), view=assist_view(lang, record.id))
