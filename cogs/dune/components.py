"""Dune's roll panel: its buttons, menus and forms (each a DynamicItem whose custom_id carries
the roll id, so panels survive restarts), the panel's drawing, and ``decide``, which maps a
button to the rules and the pool changes. (The preparations' menus, which start a test,
are the flow's: ``cogs.dune.flow``.)"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord

from bot import embeds, seen
from bot.checks import is_gm, table_of
from bot.client import Tirada
from bot.delivery import Drawn, send, update
from bot.errors import Refusal
from bot.hidden import threat_hidden
from bot.i18n import Lang, lang_for, t
from bot.models import Applied, Change, Record
from bot.panel import labelled, number_chosen, radio
from bot.repeat import button as repeat_button
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Guarded, Modal, selected
from cogs.dune.render import pools_text, roll_embed, safe, saved_text, task_line
from cogs.dune.state import (
    AMENAZA,
    DETERMINACION,
    KIND,
    SCENE_TEXT_LIMIT,
    Funds,
    announce_task,
    asset_pool,
    determination_change,
    funds_of,
    momentum_change,
    threat_change,
    trait_edit,
    typed_text,
)
from rules.dune import momentum, skill_test
from rules.dune import traits as dune_traits
from rules.dune.skill_test import DuneRoll
from rules.errors import RuleError


def button(
    lang: Lang, action: str, record_id: int, style: discord.ButtonStyle, *, disabled: bool = False
) -> Drawn:
    return DuneButton.draw(record_id, action, t(lang, f"dune.button.{action}"), style, disabled=disabled)


def panel(lang: Lang, record_id: int, roll: DuneRoll, funds: Funds) -> discord.ui.View:
    """The buttons that still make sense for this roll; those the table cannot pay for now
    (or a use this test already had) are shown disabled rather than ending in a refusal."""
    view = discord.ui.View(timeout=None)
    primary, secondary, danger = (
        discord.ButtonStyle.primary,
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.danger,
    )
    if roll.test.passed and not roll.price and not roll.closed:
        available = roll.bonus_left + roll.momentum_left + funds.momentum
        for use, cost in momentum.MOMENTUM_SPENDS.items():
            if use == "tarea" and (roll.task_id is None or roll.extra.get("task", {}).get("opposing")):
                continue
            used = use not in momentum.REPEATABLE_SPENDS and use in roll.spends
            view.add_item(button(lang, use, record_id, primary, disabled=used or cost > available))
        view.add_item(button(lang, "pnj" if roll.npc else "guardar", record_id, discord.ButtonStyle.success))
    if roll.complications > 0:
        broke = roll.npc and funds.threat < skill_test.IGNORE_COMPLICATION_THREAT
        action = "descartar" if roll.npc else "ignorar"
        view.add_item(button(lang, action, record_id, secondary, disabled=broke))
    if roll.rerollable and roll.extra.get("spec", {}).get("drive_statement") is not False:
        view.add_item(button(lang, "repetir", record_id, secondary, disabled=funds.determination < 1))
    if not roll.test.passed and not roll.price and not roll.closed:
        view.add_item(button(lang, "precio", record_id, danger))
    view.add_item(repeat_button(lang, record_id))
    return view


async def render_roll(
    bot: Tirada, interaction: discord.Interaction, lang: Lang, record: Record, roll: DuneRoll
) -> tuple[discord.Embed, discord.ui.View]:
    """A roll's card and panel, drawn from the table and pools this interaction read (or
    wrote: ``bot.seen``), not read again, and from ``roll``, the record's as its caller
    decoded it once (it also announces the roll's task: issue 29)."""
    owner = None if roll.npc else record.user_id
    values = await seen.pools(interaction, record.channel_id)
    table = await seen.table(interaction, record.channel_id, None)
    pools = pools_text(lang, values, owner, table.gm_id, hide_threat=threat_hidden(table))
    progress = await task_line(bot, lang, record, roll)
    embed = roll_embed(lang, record, roll, pools, progress)
    return embed, panel(lang, record.id, roll, funds_of(values, owner))


# -- buttons ------------------------------------------------------------------------------


GM_ACTIONS = frozenset({"precio", "pnj", "descartar"})


class DuneButton(
    ActionButton,
    template=r"dune:(?P<action>info|rasgo|recurso|tarea|guardar|pnj|ignorar|descartar|repetir|precio)"
    r":(?P<record>[0-9]{1,18})",
):
    prefix = "dune"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, KIND)
        await check_may_press(interaction, record, self.action)
        if self.action == "precio":
            await interaction.response.send_modal(PriceModal(self.record_id, lang))
            return
        if self.action == "repetir":
            await offer_reroll(interaction, lang, record)
            return
        if self.action in SCENE_FORMS:
            momentum.spend(skill_test.from_data(record.data), self.action)  # refused now, not after the form
            await interaction.response.send_modal(SCENE_FORMS[self.action](self.record_id, lang))
            return
        record, applied = await act(
            bot.store, interaction, self.record_id, KIND, lambda r: decide(self.action, r)
        )
        await show_update(interaction, lang, record, applied, self.action)


async def show_update(
    interaction: discord.Interaction[Tirada], lang: Lang, record: Record, applied: Applied, action: str
) -> None:
    """Redraw the panel after an action, and announce the task it may have completed."""
    bot = interaction.client
    roll = skill_test.from_data(record.data)
    embed, view = await render_roll(bot, interaction, lang, record, roll)
    if action == "guardar":
        embeds.field(embed, t(lang, "dune.roll.saved"), saved_text(lang, applied), inline=False)
    await update(interaction, embed=embed, view=view)
    await announce_task(bot, interaction, lang, roll.task_id)


async def check_may_press(interaction: discord.Interaction, record: Record, action: str) -> None:
    table = await table_of(interaction, record)
    gm = is_gm(table, interaction)
    if action in GM_ACTIONS and not gm:
        raise Refusal("error.not_gm")
    if interaction.user.id != record.user_id and not gm:
        raise Refusal("error.not_yours")


def decide(action: str, record: Record) -> Decision:
    """One button's effect on a roll: the rules decide, this maps them to pool changes."""
    roll = skill_test.from_data(record.data)
    if action in momentum.MOMENTUM_SPENDS:
        roll, from_group = momentum.spend(roll, action)
        changes = (momentum_change(-from_group),) if from_group else ()
        return Decision(skill_test.to_data(roll), changes, f"dune.spend.{action}")
    if action == "guardar":
        roll, amount = momentum.save(roll)
        return Decision(
            skill_test.to_data(roll), (momentum_change(amount, clamp=True),) if amount else (), "dune.save"
        )
    if action == "pnj":
        roll = momentum.npc_to_threat(roll)
        return Decision(skill_test.to_data(roll), (threat_change(1),), "dune.npc_threat")
    if action == "ignorar":
        roll = skill_test.ignore_complication(roll)
        return Decision(
            skill_test.to_data(roll), (threat_change(skill_test.IGNORE_COMPLICATION_THREAT),), "dune.ignore"
        )
    if action == "descartar":
        roll = skill_test.ignore_complication(roll)
        return Decision(
            skill_test.to_data(roll),
            (Change(AMENAZA, -skill_test.IGNORE_COMPLICATION_THREAT),),
            "dune.discard",
        )
    raise Refusal("error.roll_gone")


async def offer_reroll(interaction: discord.Interaction[Tirada], lang: Lang, record: Record) -> None:
    """ "Repetir con Determinación": a private menu of the roller's dice, to choose which
    to roll again ("siempre puedes decidir NO repetir un dado"). Nothing is paid until a
    choice is made; what the test may not take is refused here already."""
    roll = skill_test.from_data(record.data)
    check_reroll(roll)
    funds = funds_of(await seen.pools(interaction, record.channel_id), record.user_id)
    if funds.determination < 1:
        raise Refusal("pool.not_enough", pool=DETERMINACION, have=funds.determination, need=1)
    message = interaction.message
    panel_id = 0 if message is None or message.flags.ephemeral else message.id
    view = discord.ui.View(timeout=None)
    view.add_item(
        DiceSelect(record.id, panel_id, dice_options(lang, roll), t(lang, "dune.reroll.placeholder"))
    )
    embed = embeds.card(t(lang, "dune.reroll.title"), t(lang, "dune.reroll.help"))
    await send(interaction, embed=embed, view=view, ephemeral=True)


def check_reroll(roll: DuneRoll) -> None:
    """What a reroll needs beyond its point: the rules' own checks, and a drive with a
    statement ("No puedes gastar Determinación si la motivación que empleas no tiene
    declaración"), when a sheet said which."""
    skill_test.check_statement(roll.extra.get("spec", {}).get("drive_statement"))
    if not roll.rerollable:
        skill_test.check_determination(roll)
        raise RuleError("dune.reroll_too_late")


def dice_options(lang: Lang, roll: DuneRoll) -> list[discord.SelectOption]:
    """One option per die of the roller's: "Dado 2: 20"."""
    return [
        discord.SelectOption(label=t(lang, "dune.reroll.die", number=i + 1, value=slot.value), value=str(i))
        for i, slot in enumerate(roll.slots)
    ]


class DiceSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dune:dados:(?P<record>[0-9]{1,18}):(?P<panel>[0-9]{1,20})",
):
    """The dice to reroll with Determinación; ``panel`` is the message whose panel shows
    the roll (0 when that one is private and cannot be edited)."""

    def __init__(
        self,
        record_id: int,
        panel_id: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dune:dados:{record_id}:{panel_id}",
                options=options,
                placeholder=placeholder or None,
                min_values=1,
                max_values=len(options),
            )
        )
        self.record_id = record_id
        self.panel_id = panel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DiceSelect:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(int(match["record"]), int(match["panel"]), options)

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        values = selected(interaction)
        if not all(v.isdigit() and len(v) <= 2 for v in values):
            raise Refusal("error.roll_gone")
        dice = tuple(int(v) for v in values)
        record = await load(interaction, self.record_id, KIND)
        await check_may_press(interaction, record, "repetir")

        def reroll(current: Record) -> Decision:
            roll = skill_test.from_data(current.data)
            check_reroll(roll)
            roll = skill_test.reroll(roll, bot.rng, dice)
            return Decision(
                skill_test.to_data(roll), (determination_change(current.user_id, -1),), "dune.reroll"
            )

        record, _ = await act(bot.store, interaction, self.record_id, KIND, reroll)
        roll = skill_test.from_data(record.data)
        embed, view = await render_roll(bot, interaction, lang, record, roll)
        if self.panel_id:
            channel = bot.get_partial_messageable(interaction.channel_id or record.channel_id)
            await channel.get_partial_message(self.panel_id).edit(embed=embed, view=view)
            await update(interaction, embed=embed, view=None)
        else:
            await update(interaction, embed=embed, view=view)
        await announce_task(bot, interaction, lang, roll.task_id)


class TraitModal(Modal):
    """ "Crear un rasgo ... Gastando 2 puntos puedes crear un rasgo completamente nuevo,
    cambiar uno que exista o eliminarlo": the trait's text, how much it counts (picked, 0
    removing it, up to the rules' most) and the trait it replaces, if any. The spend and
    the trait are one operation."""

    def __init__(self, record_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "dune.trait.modal_title"), custom_id=f"dune:rasgo-modal:{record_id}")
        self.record_id = record_id
        self.text: discord.ui.TextInput[TraitModal] = discord.ui.TextInput(
            custom_id="rasgo", max_length=SCENE_TEXT_LIMIT, required=False
        )
        self.add_item(labelled(t(lang, "dune.trait.modal_text"), self.text))
        counts = [(str(n), str(n)) for n in range(dune_traits.MAX_TRAIT_COUNT + 1)]
        self.count = radio(counts, "1", "cuenta")
        self.add_item(labelled(t(lang, "dune.trait.modal_count"), self.count))
        self.before: discord.ui.TextInput[TraitModal] = discord.ui.TextInput(
            custom_id="sustituye", max_length=SCENE_TEXT_LIMIT, required=False
        )
        self.add_item(labelled(t(lang, "dune.trait.modal_before"), self.before))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        count = number_chosen(self.count)
        text, before = self.text.value, self.before.value.strip() or None
        record = await load(interaction, self.record_id, KIND)
        await check_may_press(interaction, record, "rasgo")

        async def trait(current: Record) -> Decision:
            roll, from_group = momentum.spend(skill_test.from_data(current.data), "rasgo")
            traits = await trait_edit(bot, current.channel_id, text, count, before, "dune.spend.rasgo")
            return scene_decision(roll, from_group, traits, "dune.spend.rasgo")

        record, applied = await act(bot.store, interaction, self.record_id, KIND, trait)
        await show_update(interaction, lang, record, applied, "rasgo")


class AssetModal(Modal):
    """ "Crear un recurso ... Un recurso creado tiene una Calidad de 0 ... son temporales y
    dejan de existir al final de la escena": its name; the spend and the asset are one
    operation, the asset the roller's until the scene ends."""

    def __init__(self, record_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "dune.asset.modal_title"), custom_id=f"dune:recurso-modal:{record_id}")
        self.record_id = record_id
        self.text: discord.ui.TextInput[AssetModal] = discord.ui.TextInput(
            label=t(lang, "dune.asset.modal_text"), custom_id="recurso", max_length=SCENE_TEXT_LIMIT
        )
        self.add_item(self.text)

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        name = typed_text(self.text.value, SCENE_TEXT_LIMIT)
        record = await load(interaction, self.record_id, KIND)
        await check_may_press(interaction, record, "recurso")

        async def asset(current: Record) -> Decision:
            pool = asset_pool(name)
            if await bot.store.pool(current.channel_id, pool, current.user_id):
                raise Refusal("dune.asset.exists", user=current.user_id, name=safe(name))
            roll, from_group = momentum.spend(skill_test.from_data(current.data), "recurso")
            created = Change(
                pool, owner_id=current.user_id, set_to=1, cap=1, reason="dune.spend.recurso.recurso"
            )
            return scene_decision(roll, from_group, (created,), "dune.spend.recurso")

        record, applied = await act(bot.store, interaction, self.record_id, KIND, asset)
        await show_update(interaction, lang, record, applied, "recurso")


def scene_decision(roll: DuneRoll, from_group: int, scene: tuple[Change, ...], reason: str) -> Decision:
    """A spend that changes the scene: the Impulso the group pays and each trait or asset
    set, which the card lists (from the very changes written) on every redraw."""
    changes = (momentum_change(-from_group),) if from_group else ()
    shown = [*roll.extra.get("scene", []), *([c.pool, c.owner_id, c.set_to] for c in scene)]
    roll = replace(roll, extra={**roll.extra, "scene": shown})
    return Decision(skill_test.to_data(roll), changes + scene, reason)


SCENE_FORMS: dict[str, type[TraitModal] | type[AssetModal]] = {"rasgo": TraitModal, "recurso": AssetModal}


class PriceModal(Modal):
    """ "El Director determina cuantas complicaciones extra se sufren": one unless told."""

    def __init__(self, record_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "dune.price.modal_title"), custom_id=f"dune:precio-modal:{record_id}")
        self.record_id = record_id
        counts = [(str(n), str(n)) for n in range(1, skill_test.MAX_PRICE_COMPLICATIONS + 1)]
        self.count = radio(counts, "1", "complicaciones")
        self.add_item(labelled(t(lang, "dune.price.modal_count"), self.count))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        count = number_chosen(self.count)
        record = await load(interaction, self.record_id, KIND)
        await check_may_press(interaction, record, "precio")

        def price(current: Record) -> Decision:
            roll = skill_test.success_at_price(skill_test.from_data(current.data), count)
            return Decision(skill_test.to_data(roll), (), "dune.price")

        record, applied = await act(bot.store, interaction, self.record_id, KIND, price)
        await show_update(interaction, lang, record, applied, "precio")
