"""Dune's buttons, menus and forms (each a DynamicItem whose custom_id carries the roll id, so
panels survive restarts) and ``decide``, which maps a button to the rules and the pool changes."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import discord

from bot import embeds, seen
from bot.checks import is_gm, table_of
from bot.client import Tirada
from bot.delivery import send, update
from bot.errors import Refusal
from bot.hidden import threat_hidden
from bot.i18n import LANGS, Lang, lang_for, t
from bot.models import Applied, Change, Record, RecordUpdate
from bot.names import fold
from bot.repeat import button as repeat_button
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Guarded, Modal, parse_int, selected
from cogs.dune import sheet
from cogs.dune.render import assist_embed, opposed_embed, pools_text, roll_embed, safe, saved_text, task_line
from cogs.dune.state import (
    AMENAZA,
    ASSIST_KIND,
    DETERMINACION,
    KIND,
    OPPOSED_KIND,
    SCENE_TEXT_LIMIT,
    Funds,
    RollSpec,
    announce_task,
    asset_pool,
    determination_change,
    funds_of,
    momentum_change,
    threat_change,
    trait_edit,
    typed_text,
)
from rules import dune
from rules.dune import DuneRoll
from rules.errors import RuleError

if TYPE_CHECKING:
    from cogs.dune.cog import Dune


def button(
    lang: Lang, action: str, record_id: int, style: discord.ButtonStyle, *, disabled: bool = False
) -> DuneButton:
    item = DuneButton(record_id, action, t(lang, f"dune.button.{action}"), style)
    item.item.disabled = disabled
    return item


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
        for use, cost in dune.MOMENTUM_SPENDS.items():
            if use == "tarea" and (roll.task_id is None or roll.extra.get("task", {}).get("opposing")):
                continue
            used = use not in dune.REPEATABLE_SPENDS and use in roll.spends
            view.add_item(button(lang, use, record_id, primary, disabled=used or cost > available))
        view.add_item(button(lang, "pnj" if roll.npc else "guardar", record_id, discord.ButtonStyle.success))
    if roll.complications > 0:
        broke = roll.npc and funds.threat < dune.IGNORE_COMPLICATION_THREAT
        action = "descartar" if roll.npc else "ignorar"
        view.add_item(button(lang, action, record_id, secondary, disabled=broke))
    if roll.rerollable and roll.extra.get("spec", {}).get("drive_statement") is not False:
        view.add_item(button(lang, "repetir", record_id, secondary, disabled=funds.determination < 1))
    if not roll.test.passed and not roll.price and not roll.closed:
        view.add_item(button(lang, "precio", record_id, danger))
    view.add_item(repeat_button(lang, record_id))
    return view


async def render_roll(
    interaction: discord.Interaction[Tirada], lang: Lang, record: Record
) -> tuple[discord.Embed, discord.ui.View]:
    """A roll's card and panel, drawn from the table and pools this interaction read (or
    wrote: ``bot.seen``), not read again."""
    roll = dune.from_data(record.data)
    owner = None if roll.npc else record.user_id
    values = await seen.pools(interaction, record.channel_id)
    table = await seen.table(interaction, record.channel_id, None)
    pools = pools_text(lang, values, owner, table.gm_id, hide_threat=threat_hidden(table))
    progress = await task_line(interaction.client, lang, roll)
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
            dune.spend(dune.from_data(record.data), self.action)  # refused now, not after the form
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
    embed, view = await render_roll(interaction, lang, record)
    if action == "guardar":
        embeds.field(embed, t(lang, "dune.roll.saved"), saved_text(lang, applied), inline=False)
    await update(interaction, embed=embed, view=view)
    await announce_task(bot, interaction, lang, dune.from_data(record.data).task_id)


async def check_may_press(interaction: discord.Interaction, record: Record, action: str) -> None:
    table = await table_of(interaction, record)
    gm = is_gm(table, interaction)
    if action in GM_ACTIONS and not gm:
        raise Refusal("error.not_gm")
    if interaction.user.id != record.user_id and not gm:
        raise Refusal("error.not_yours")


def decide(action: str, record: Record) -> Decision:
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
    raise Refusal("error.roll_gone")


async def offer_reroll(interaction: discord.Interaction[Tirada], lang: Lang, record: Record) -> None:
    """ "Repetir con Determinación": a private menu of the roller's dice, to choose which
    to roll again ("siempre puedes decidir NO repetir un dado"). Nothing is paid until a
    choice is made; what the test may not take is refused here already."""
    roll = dune.from_data(record.data)
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
    dune.check_statement(roll.extra.get("spec", {}).get("drive_statement"))
    if not roll.rerollable:
        dune.check_determination(roll)
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
            roll = dune.from_data(current.data)
            check_reroll(roll)
            roll = dune.reroll(roll, bot.rng, dice)
            return Decision(dune.to_data(roll), (determination_change(current.user_id, -1),), "dune.reroll")

        record, _ = await act(bot.store, interaction, self.record_id, KIND, reroll)
        embed, view = await render_roll(interaction, lang, record)
        if self.panel_id:
            channel = bot.get_partial_messageable(interaction.channel_id or record.channel_id)
            await channel.get_partial_message(self.panel_id).edit(embed=embed, view=view)
            await update(interaction, embed=embed, view=None)
        else:
            await update(interaction, embed=embed, view=view)
        await announce_task(bot, interaction, lang, dune.from_data(record.data).task_id)


class TraitModal(Modal):
    """ "Crear un rasgo ... Gastando 2 puntos puedes crear un rasgo completamente nuevo,
    cambiar uno que exista o eliminarlo": the trait's text, its count, and the trait it
    replaces, if any. The spend and the trait are one operation."""

    def __init__(self, record_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "dune.trait.modal_title"), custom_id=f"dune:rasgo-modal:{record_id}")
        self.record_id = record_id
        self.text: discord.ui.TextInput[TraitModal] = discord.ui.TextInput(
            label=t(lang, "dune.trait.modal_text"),
            custom_id="rasgo",
            max_length=SCENE_TEXT_LIMIT,
            required=False,
        )
        self.count: discord.ui.TextInput[TraitModal] = discord.ui.TextInput(
            label=t(lang, "dune.trait.modal_count"), custom_id="cuenta", max_length=1, default="1"
        )
        self.before: discord.ui.TextInput[TraitModal] = discord.ui.TextInput(
            label=t(lang, "dune.trait.modal_before"),
            custom_id="sustituye",
            max_length=SCENE_TEXT_LIMIT,
            required=False,
        )
        for item in (self.text, self.count, self.before):
            self.add_item(item)

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        count = parse_int(self.count.value, "cuenta", 0, dune.MAX_TRAIT_COUNT)
        text, before = self.text.value, self.before.value.strip() or None
        record = await load(interaction, self.record_id, KIND)
        await check_may_press(interaction, record, "rasgo")

        async def trait(current: Record) -> Decision:
            roll, from_group = dune.spend(dune.from_data(current.data), "rasgo")
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
            roll, from_group = dune.spend(dune.from_data(current.data), "recurso")
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
    return Decision(dune.to_data(roll), changes + scene, reason)


SCENE_FORMS: dict[str, type[TraitModal] | type[AssetModal]] = {"rasgo": TraitModal, "recurso": AssetModal}


class PriceModal(Modal):
    """ "El Director determina cuantas complicaciones extra se sufren": one unless told."""

    def __init__(self, record_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "dune.price.modal_title"), custom_id=f"dune:precio-modal:{record_id}")
        self.record_id = record_id
        self.count: discord.ui.TextInput[PriceModal] = discord.ui.TextInput(
            label=t(lang, "dune.price.modal_count"), custom_id="complicaciones", max_length=1, default="1"
        )
        self.add_item(self.count)

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        count = parse_int(self.count.value, "complicaciones", 1, dune.MAX_PRICE_COMPLICATIONS)
        record = await load(interaction, self.record_id, KIND)
        await check_may_press(interaction, record, "precio")

        def price(current: Record) -> Decision:
            roll = dune.success_at_price(dune.from_data(current.data), count)
            return Decision(dune.to_data(roll), (), "dune.price")

        record, applied = await act(bot.store, interaction, self.record_id, KIND, price)
        await show_update(interaction, lang, record, applied, "precio")


def assist_view(lang: Lang, prep_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        AssistButton(prep_id, "unirme", t(lang, "dune.button.ayudar"), discord.ButtonStyle.secondary)
    )
    view.add_item(AssistButton(prep_id, "tirar", t(lang, "dune.button.tirar"), discord.ButtonStyle.primary))
    return view


class AssistButton(ActionButton, template=r"dune:ayuda:(?P<action>unirme|tirar):(?P<record>[0-9]{1,18})"):
    prefix = "dune:ayuda"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, ASSIST_KIND)
        if record.data.get("rolled"):
            raise Refusal("dune.ayuda.already_rolled")
        if self.action == "unirme":
            if interaction.user.id == record.user_id:
                raise Refusal("dune.ayuda.leader_cannot_help")
            scores = await sheet.listed(bot, interaction, await table_of(interaction, record), lang)
            await interaction.response.send_modal(AssistModal(self.record_id, lang, scores))
            return
        if interaction.user.id != record.user_id:
            raise Refusal("dune.ayuda.leader_only")
        await roll_assisted(bot, interaction, self.record_id)


async def roll_assisted(bot: Tirada, interaction: discord.Interaction, prep_id: int) -> None:
    """The leader rolls with every helper who joined; the preparation closes in the same
    operation, so a second "Tirar" finds it closed (or stale) and rolls nothing."""
    record = await load(interaction, prep_id, ASSIST_KIND)
    helpers = tuple(record.data["helpers"])
    closes = RecordUpdate(prep_id, record.version, {**record.data, "rolled": True})
    cog = cast("Dune", bot.get_cog("Dune"))
    table = await table_of(interaction, record)
    spec = RollSpec(**record.data["spec"])
    await cog.roll_and_post(interaction, spec, helpers, closes, mode="ayuda", table=table)


class AssistModal(Modal):
    """A helper joins: their target number, or their skill and drive (names from their own
    active sheet, or numbers), and their focus. ``kind``: the preparation joined, an
    assisted test's or an opposed test's ("pueden aceptar la ayuda de otros personajes
    próximos")."""

    def __init__(
        self, prep_id: int, lang: Lang, scores: tuple[str, str] | None = None, kind: str = ASSIST_KIND
    ) -> None:
        """``scores``: the helper's skills and drives with their values, from their sheet."""
        super().__init__(title=t(lang, "dune.ayuda.modal_title"), custom_id=f"dune:ayuda-modal:{prep_id}")
        skills, drives = scores or (None, None)
        self.prep_id = prep_id
        self.kind = kind
        self.objetivo: discord.ui.TextInput[AssistModal] = discord.ui.TextInput(
            label=t(lang, "dune.ayuda.modal_target"),
            custom_id="objetivo",
            max_length=2,
            required=False,
            placeholder=t(lang, "dune.ayuda.modal_target_hint"),
        )
        self.habilidad: discord.ui.TextInput[AssistModal] = discord.ui.TextInput(
            label=t(lang, "dune.ayuda.modal_skill"),
            custom_id="habilidad",
            max_length=40,
            required=False,
            placeholder=skills,
        )
        self.motivacion: discord.ui.TextInput[AssistModal] = discord.ui.TextInput(
            label=t(lang, "dune.ayuda.modal_drive"),
            custom_id="motivacion",
            max_length=40,
            required=False,
            placeholder=drives,
        )
        self.enfoque: discord.ui.TextInput[AssistModal] = discord.ui.TextInput(
            label=t(lang, "dune.ayuda.modal_focus"),
            custom_id="enfoque",
            max_length=3,
            required=False,
            placeholder=t(lang, "dune.ayuda.modal_focus_hint"),
        )
        for item in (self.objetivo, self.habilidad, self.motivacion, self.enfoque):
            self.add_item(item)

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        prep = await load(interaction, self.prep_id, self.kind)
        helper = await self.helper(bot, interaction, prep)
        user_id = interaction.user.id

        def join(current: Record) -> Decision:
            if current.data.get("rolled"):
                raise Refusal("dune.ayuda.already_rolled")
            helpers = [h for h in current.data.get("helpers", []) if h["user"] != user_id]
            if len(helpers) >= dune.MAX_HELPERS:
                raise Refusal("dune.ayuda.full", max=dune.MAX_HELPERS)
            helpers.append(helper)
            return Decision({**current.data, "helpers": helpers}, (), "dune.assist.join")

        record, _ = await act(bot.store, interaction, self.prep_id, self.kind, join)
        if self.kind == OPPOSED_KIND:
            spec = RollSpec(**record.data["spec"])
            await update(
                interaction, embed=opposed_embed(lang, record), view=opposed_view(lang, record.id, spec)
            )
        else:
            await update(interaction, embed=assist_embed(lang, record), view=assist_view(lang, record.id))

    async def helper(self, bot: Tirada, interaction: discord.Interaction, prep: Record) -> dict[str, Any]:
        """ "Cada ayudante elije una motivación y habilidad para crear un número objetivo":
        the target typed (numbers win), else skill plus drive, read from the helper's own
        sheet when named, kept with where they came from. A skill named from the sheet takes
        a focus named from it; otherwise the focus is the skill as a number, or "sí"."""
        entry: dict[str, Any] = {"user": interaction.user.id}
        skill, drive = self.habilidad.value.strip(), self.motivacion.value.strip()
        if self.objetivo.value.strip():
            entry["target"] = parse_int(self.objetivo.value, "objetivo", 1, 2 * dune.MAX_SCORE)
            skill_value = None
        elif skill and drive:
            table = await table_of(interaction, prep)
            typed = self.enfoque.value.strip()
            if sheet.number(skill) is None:
                # A skill from the sheet takes one of that skill's focuses on it, by name.
                scores = await sheet.scores(bot, interaction, skill, drive, None, table, focus=typed or None)
                entry |= {"target": scores.skill + scores.drive, **sheet.source(scores)}
                return entry | {"focus": scores.skill if scores.focus else None}
            scores = await sheet.scores(bot, interaction, skill, drive, None, table)
            entry |= {"target": scores.skill + scores.drive, **sheet.source(scores)}
            skill_value = scores.skill
        else:
            raise Refusal("dune.ayuda.target_missing")
        entry["focus"] = focus(self.enfoque.value, skill_value)
        return entry


YES = frozenset(fold(word) for lang in LANGS for word in t(lang, "dune.ayuda.yes").split())


def focus(typed: str, skill: int | None) -> int | None:
    """A helper's focus: their skill as a number, or "sí"/"yes" for the skill they gave."""
    text = typed.strip()
    if not text:
        return None
    if sheet.number(text) is not None:
        return parse_int(text, "enfoque", 1, dune.MAX_SCORE)
    if skill is not None and fold(text) in YES:
        return skill
    raise Refusal("dune.ayuda.focus_value", max=dune.MAX_SCORE)


# -- opposed tests ----------------------------------------------------------------------------

PAYMENT_WAYS = ("impulso", "amenaza", "mixto")


def opposed_choices(lang: Lang, npc: bool, determination: bool = True) -> list[discord.SelectOption]:
    """Every way to face the opposition: 0 to 3 bought dice and how they are paid (an NPC
    pays with Amenaza), with or without Determinación (not for an NPC, nor on a drive
    without a statement: ``determination``)."""
    ways = [(0, "impulso")] + [
        (bought, way)
        for bought in range(1, dune.MAX_BOUGHT + 1)
        for way in (("amenaza",) if npc else PAYMENT_WAYS)
    ]
    options = []
    for with_point in (False, True) if determination and not npc else (False,):
        for bought, way in ways:
            label = bought_text(lang, bought, way, dune.buy_cost(bought), npc)
            if with_point:
                label = t(lang, "dune.contra.with_determination", choice=label)
            options.append(discord.SelectOption(label=label, value=f"{bought}:{way}:{int(with_point)}"))
    return options


def bought_text(lang: Lang, bought: int, way: str, cost: int, npc: bool) -> str:
    """ "2 dados: +3 Amenaza": what bought dice cost and from which pool."""
    if not bought:
        return t(lang, "dune.bought.none")
    key = "dune.bought.npc" if npc else f"dune.bought.{way}"
    return t(lang, key, count=bought, cost=cost)


def opposed_view(lang: Lang, prep_id: int, spec: RollSpec) -> discord.ui.View:
    """The actor's menu, and "Ayudar" for whoever helps them before they choose."""
    view = discord.ui.View(timeout=None)
    choices = opposed_choices(lang, spec.npc, spec.drive_statement is not False)
    view.add_item(OpposedSelect(prep_id, choices, t(lang, "dune.contra.placeholder")))
    view.add_item(
        OpposedHelpButton(prep_id, "unirme", t(lang, "dune.button.ayudar"), discord.ButtonStyle.secondary)
    )
    return view


class OpposedHelpButton(
    ActionButton, template=r"dune:contra-ayuda:(?P<action>unirme):(?P<record>[0-9]{1,18})"
):
    """ "los personajes en tiradas enfrentadas pueden aceptar la ayuda de otros personajes
    próximos": a helper joins the actor's side before the actor chooses and rolls."""

    prefix = "dune:contra-ayuda"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, OPPOSED_KIND)
        if record.data.get("rolled"):
            raise Refusal("dune.ayuda.already_rolled")
        if interaction.user.id == record.user_id:
            raise Refusal("dune.ayuda.leader_cannot_help")
        scores = await sheet.listed(bot, interaction, await table_of(interaction, record), lang)
        await interaction.response.send_modal(AssistModal(self.record_id, lang, scores, OPPOSED_KIND))


class OpposedSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dune:contra:(?P<record>[0-9]{1,18})",
):
    """The actor's answer to the opposition's roll: bought dice, payment, Determinación."""

    def __init__(
        self, prep_id: int, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="0:impulso:0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dune:contra:{prep_id}", options=options, placeholder=placeholder or None
            )
        )
        self.record_id = prep_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OpposedSelect:
        return cls(int(match["record"]), item.options if isinstance(item, discord.ui.Select) else [])

    @staticmethod
    def parse(value: str) -> tuple[int, str, bool]:
        """``bought:payment:determination`` as sent back by Discord, checked again (a
        client can send anything)."""
        match = re.fullmatch(r"([0-3]):(impulso|amenaza|mixto):([01])", value)
        if match is None:
            raise Refusal("error.roll_gone")
        return int(match[1]), match[2], match[3] == "1"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        values = selected(interaction)
        choice = values[0] if values else ""
        cog = cast("Dune", interaction.client.get_cog("Dune"))
        await cog.roll_opposed(interaction, self.record_id, choice)
