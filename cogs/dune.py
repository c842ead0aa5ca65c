"""Dune: Aventuras en el Imperio — skill tests with a panel of buttons, and the pools.

The cog reads the interaction, asks ``rules.dune`` what happens and writes the roll and
the pools in one store operation. Every button carries the roll's id, so panels keep
working after a restart until the roll is settled.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, render, rolls
from bot.chances import dune_bought_line
from bot.checks import answer_gm, current_table, gm_table, is_gm, roll_table, secret_option, table_option
from bot.client import Tirada
from bot.errors import Refusal, RefusedCheck, send, update
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import Applied, Change, Operation, Refused, RollRecord, RollUpdate, Table
from bot.reveal import is_secret
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Guarded, Modal, parse_int
from rules import dune
from rules.dune import DuneRoll

KIND = "dune"
ASSIST_KIND = "dune_ayuda"
TASK_KIND = "dune_tarea"
IMPULSO = "impulso"
AMENAZA = "amenaza"
DETERMINACION = "determinacion"
DIFICULTAD_EXTRA = "dificultad_extra"
MAX_POINTS = 100
TASK_NAME_LIMIT = 80

PAYMENTS = [Choice(name=T(f"dune.pago.{p}"), value=p) for p in ("impulso", "amenaza", "mixto")]
THREAT_SPENDS = [Choice(name=T(f"dune.gasto.{k}"), value=k) for k in dune.THREAT_SPENDS]


def threat_change(amount: int) -> Change:
    """Amenaza added, kept within the bot's cap (the rules give none)."""
    return Change(AMENAZA, amount, cap=dune.THREAT_CAP)


def momentum_change(delta: int, *, clamp: bool = False) -> Change:
    return Change(IMPULSO, delta, cap=dune.MOMENTUM_CAP, clamp=clamp)


def determination_change(user_id: int, delta: int = 0, *, set_to: int | None = None) -> Change:
    return Change(DETERMINACION, delta, owner_id=user_id, cap=dune.DETERMINATION_CAP, set_to=set_to)


def check_bound(name: str, value: int, low: int, high: int) -> None:
    """discord.py does not enforce option ranges, so every command checks its own."""
    dune.check_range(name, value, low, high)


# -- rendering ----------------------------------------------------------------------------


async def pools_text(bot: Tirada, lang: Lang, channel_id: int, user_id: int | None) -> str:
    """The table's pools in one read (the panel is redrawn on every press)."""
    values = {(p.pool, p.owner_id): p.value for p in await bot.store.pools(channel_id)}
    parts = [
        t(lang, "dune.pools.impulso", value=values.get((IMPULSO, 0), 0), cap=dune.MOMENTUM_CAP),
        t(lang, "dune.pools.amenaza", value=values.get((AMENAZA, 0), 0)),
    ]
    if user_id is not None:
        value = values.get((DETERMINACION, user_id), 0)
        parts.append(
            t(lang, "dune.pools.determinacion", user=user_id, value=value, cap=dune.DETERMINATION_CAP)
        )
    extra = values.get((DIFICULTAD_EXTRA, 0), 0)
    if extra:
        parts.append(t(lang, "dune.pools.dificultad_extra", value=extra))
    return "\n".join(parts)


def verdict(lang: Lang, roll: DuneRoll) -> str:
    test = roll.test
    if roll.price:
        return t(lang, "dune.verdict.price")
    if not test.passed:
        return t(lang, "dune.verdict.failed", successes=test.successes, difficulty=test.difficulty)
    return t(
        lang,
        "dune.verdict.passed",
        successes=test.successes,
        difficulty=test.difficulty,
        momentum=test.momentum,
    )


def dice_text(lang: Lang, roll: DuneRoll) -> str:
    """The leader's dice, then one line per helper (a helper's one die is never rerolled)."""
    test = roll.test
    lines = [render.dice(test.dice)]
    for helper, die in zip(roll.helpers, test.helper_dice, strict=True):
        lines.append(t(lang, "dune.roll.helper", user=helper.user_id, die=render.die(die)))
    return "\n".join(lines)


def roll_embed(lang: Lang, record: RollRecord, roll: DuneRoll, pools: str) -> discord.Embed:
    test = roll.test
    title_key = "dune.roll.title_npc" if roll.npc else "dune.roll.title"
    colour = embeds.SUCCESS if roll.passed else embeds.FAILURE
    embed = embeds.card(
        t(lang, title_key, target=roll.target, difficulty=roll.difficulty),
        t(lang, "dune.roll.by", user=record.user_id),
        colour,
    )
    if roll.focus_skill is not None:
        embed.description = f"{embed.description}\n{t(lang, 'dune.roll.focus', skill=roll.focus_skill)}"
    opponent = roll.extra.get("rival")
    if opponent:
        embeds.field(embed, t(lang, "dune.roll.opponent"), opponent_text(lang, opponent, roll), inline=False)
    embeds.field(embed, t(lang, "dune.roll.dice"), dice_text(lang, roll), inline=False)
    embeds.field(embed, t(lang, "dune.roll.verdict"), verdict(lang, roll), inline=False)
    if test.complications or roll.price:
        embeds.field(
            embed,
            t(lang, "dune.roll.complications"),
            t(lang, "dune.roll.complications_left", left=roll.complications, ignored=roll.ignored),
        )
    if roll.passed and not roll.price:
        embeds.field(embed, t(lang, "dune.roll.momentum"), momentum_text(lang, roll))
    if roll.spends:
        spent = ", ".join(t(lang, f"dune.spend.{use}") for use in roll.spends)
        embeds.field(embed, t(lang, "dune.roll.spent"), spent, inline=False)
    ones = sum(slot.fixed for slot in roll.slots)
    bought = dune_bought_line(
        lang, roll.target, len(roll.slots), roll.focus_skill, roll.complication_range, roll.difficulty, ones
    )
    embeds.field(embed, t(lang, "dune.roll.odds"), bought, inline=False)
    embeds.field(embed, t(lang, "dune.roll.pools"), pools, inline=False)
    return embed


def momentum_text(lang: Lang, roll: DuneRoll) -> str:
    if roll.closed:
        return t(lang, "dune.roll.momentum_closed")
    return t(lang, "dune.roll.momentum_left", left=roll.momentum_left, bonus=roll.bonus_left)


def saved_text(lang: Lang, applied: Applied) -> str:
    """What "Guardar Impulso" put in the group pool and what the cap of 6 took."""
    state = next((p for p in applied.pools if p.pool == IMPULSO), None)
    if state is None:
        return t(lang, "dune.roll.saved_none")
    if state.lost_to_cap:
        return t(
            lang, "dune.roll.saved_lost", saved=state.delta, lost=state.lost_to_cap, cap=dune.MOMENTUM_CAP
        )
    return t(lang, "dune.roll.saved_all", saved=state.delta)


def opponent_text(lang: Lang, opponent: dict[str, Any], roll: DuneRoll) -> str:
    rival = dune.evaluate(opponent["dice"], opponent["target"], opponent["focus"], roll.complication_range, 0)
    text = t(
        lang,
        "dune.opposed.rival",
        dice=render.dice(rival.dice),
        successes=rival.successes,
        hindrances=opponent["hindrances"],
        difficulty=roll.difficulty,
    )
    gained = dune.opponent_momentum(roll.difficulty, roll.test.successes)
    if not roll.test.passed and gained:
        text += "\n" + t(lang, "dune.opposed.gains", momentum=gained)
    return text


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

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
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

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
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
        dice = ", ".join(str(i + 1) for i in sorted(set(indexes)))
        await update(
            interaction,
            embed=embeds.card(t(lang, "dune.reroll.done", dice=dice), colour=embeds.SUCCESS),
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


# -- extended tasks -------------------------------------------------------------------------


async def task_progress(bot: Tirada, channel_id: int, task_ids: list[int]) -> dict[int, int]:
    """Each task's points, from every roll linked to it, read in one query."""
    points = dict.fromkeys(task_ids, 0)
    for record in await bot.store.linked_rolls(channel_id, KIND, "task_id", task_ids):
        roll = dune.from_data(record.data)
        if roll.task_id in points:
            points[roll.task_id] += dune.task_points(roll)
    return points


def progress_bar(points: int, requirement: int, width: int = 10) -> str:
    filled = min(width, points * width // max(requirement, 1))
    return "▰" * filled + "▱" * (width - filled)


async def announce_task(
    bot: Tirada, interaction: discord.Interaction, lang: Lang, task_id: int | None
) -> None:
    """Mark a task done the first time its points reach the requirement, and say so once."""
    if task_id is None:
        return
    task = await bot.store.roll(task_id)
    if task is None or task.kind != TASK_KIND or task.data.get("done"):
        return
    points = (await task_progress(bot, task.channel_id, [task_id]))[task_id]
    if points < task.data["requirement"]:
        return
    outcome = await bot.store.apply(
        Operation(
            task.channel_id,
            interaction.id,
            interaction.user.id,
            "dune.task_done",
            roll_update=RollUpdate(task.id, task.version, {**task.data, "done": True}),
            step=1,
        )
    )
    if isinstance(outcome, Applied) and not outcome.replayed:
        text = t(
            lang,
            "dune.task.done",
            name=task.data["name"],
            points=points,
            requirement=task.data["requirement"],
        )
        await interaction.followup.send(embed=embeds.card(text, colour=embeds.SUCCESS))


# -- the cog --------------------------------------------------------------------------------


class Dune(commands.Cog):
    dune_group = app_commands.Group(name=T("dune.cmd"), description=T("dune.cmd.desc"), guild_only=True)
    impulso = app_commands.Group(
        name=T("dune.impulso"), description=T("dune.impulso.desc"), parent=dune_group
    )
    amenaza = app_commands.Group(
        name=T("dune.amenaza"), description=T("dune.amenaza.desc"), parent=dune_group
    )
    determinacion = app_commands.Group(
        name=T("dune.determinacion"), description=T("dune.determinacion.desc"), parent=dune_group
    )
    tarea = app_commands.Group(name=T("dune.tarea"), description=T("dune.tarea.desc"), parent=dune_group)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DuneButton, RerollSelect, AssistButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DuneButton, RerollSelect, AssistButton)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise RefusedCheck("error.guild_only")
        return True

    # -- /dune tirada ----------------------------------------------------------------------

    @dune_group.command(name=T("dune.tirada"), description=T("dune.tirada.desc"))
    @options(
        "dune.opt",
        "habilidad",
        "motivacion",
        "enfoque",
        "dificultad",
        "dados_extra",
        "pago",
        "rango_complicacion",
        "determinacion",
        "bonificacion_impulso",
        "pnj",
        "tarea",
        "calidad_recurso",
    )
    @app_commands.choices(pago=PAYMENTS)
    @secret_option
    async def tirada(
        self,
        interaction: discord.Interaction,
        habilidad: app_commands.Range[int, 1, 20],
        motivacion: app_commands.Range[int, 0, 20],
        enfoque: bool = False,
        dificultad: app_commands.Range[int, 0, 5] = 1,
        dados_extra: app_commands.Range[int, 0, 3] = 0,
        pago: Choice[str] | None = None,
        rango_complicacion: app_commands.Range[int, 1, 5] = 1,
        determinacion: bool = False,
        bonificacion_impulso: app_commands.Range[int, 0, 10] = 0,
        pnj: bool = False,
        tarea: int | None = None,
        calidad_recurso: app_commands.Range[int, 0, 5] = 0,
        secreta: bool = False,
    ) -> None:
        check_bound("habilidad", habilidad, 1, dune.MAX_SCORE)
        check_bound("motivacion", motivacion, 0, dune.MAX_SCORE)
        check_bound("dificultad", dificultad, 0, dune.MAX_DIFFICULTY)
        spec = RollSpec(
            target=habilidad + motivacion,
            focus_skill=habilidad if enfoque else None,
            difficulty=dificultad,
            bought=dados_extra,
            payment=pago.value if pago else "impulso",
            complication_range=rango_complicacion,
            determination=determinacion,
            bonus=bonificacion_impulso,
            npc=pnj,
            task_id=tarea,
            asset_quality=calidad_recurso,
            secret=secreta,
        )
        await self.roll_and_post(interaction, spec)

    @tirada.autocomplete("tarea")
    async def tarea_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        try:
            table = await current_table(interaction)
        except Refusal:
            return []
        tasks = await self.bot.store.rolls(table.channel_id, TASK_KIND, limit=100)
        return [
            Choice(name=str(r.data["name"])[:100], value=r.id)
            for r in tasks
            if not r.data.get("done") and current.lower() in str(r.data["name"]).lower()
        ][:25]

    async def roll_and_post(
        self,
        interaction: discord.Interaction,
        spec: RollSpec,
        helpers: tuple[dune.HelperSpec, ...] = (),
        closes: RollUpdate | None = None,
    ) -> None:
        """Pay, roll and post a test: nothing is rolled if the payment is refused.
        ``closes`` settles a preparation (an assisted test) in the same operation."""
        store = self.bot.store
        table = await current_table(interaction)
        secret = is_secret(interaction, table, spec.secret)
        if spec.npc and not is_gm(table, interaction):
            raise Refusal("dune.npc_gm_only")
        if spec.npc and spec.determination:
            raise Refusal("dune.npc_determination")
        if spec.task_id is not None:
            task = await store.roll(spec.task_id)
            if task is None or task.kind != TASK_KIND or task.channel_id != table.channel_id:
                raise Refusal("dune.task_unknown")
        raise_by = await store.pool(table.channel_id, DIFICULTAD_EXTRA)
        changes = list(await self.payment(interaction, spec, table))
        if raise_by:
            changes.append(Change(DIFICULTAD_EXTRA, -raise_by))
        if spec.determination:
            changes.append(determination_change(interaction.user.id, -1))
        roll = dune.roll_test(
            self.bot.rng,
            spec.target,
            dice=dune.BASE_DICE + spec.bought,
            focus_skill=spec.focus_skill,
            complication_range=spec.complication_range,
            difficulty=min(spec.difficulty + raise_by, dune.MAX_RAISED_DIFFICULTY),
            automatic_ones=int(spec.determination),
            bonus=spec.bonus,
            npc=spec.npc,
            helpers=helpers,
            task_id=spec.task_id,
            asset_quality=spec.asset_quality,
        )
        if spec.opponent is not None:
            roll = replace(roll, extra={"rival": spec.opponent})
        record = await rolls.record(
            store, interaction, table, KIND, dune.to_data(roll), "dune.roll", tuple(changes), closes
        )
        lang = lang_for(interaction.locale)
        embed, view = await render_roll(self.bot, lang, record)
        await rolls.post(store, interaction, table, record, embed, view, secret=secret)

    async def payment(
        self, interaction: discord.Interaction, spec: RollSpec, table: Table
    ) -> tuple[Change, ...]:
        """What bought dice cost: a player pays Impulso and/or generates Amenaza; the GM
        buys an NPC's dice with Amenaza ("misma dinámica que con el Impulso")."""
        cost = dune.buy_cost(spec.bought)
        if not cost:
            return ()
        if spec.npc:
            return (Change(AMENAZA, -cost),)
        available = await self.bot.store.pool(table.channel_id, IMPULSO)
        from_pool, as_threat = dune.split_payment(cost, spec.payment, available)
        return tuple(
            change
            for amount, change in (
                (from_pool, momentum_change(-from_pool)),
                (as_threat, threat_change(as_threat)),
            )
            if amount
        )

    # -- /dune enfrentada ---------------------------------------------------------------------

    @dune_group.command(name=T("dune.enfrentada"), description=T("dune.enfrentada.desc"))
    @options(
        "dune.opt",
        "habilidad",
        "motivacion",
        "rival_objetivo",
        "enfoque",
        "rival_enfoque",
        "rival_dados",
        "obstaculos",
        "dados_extra",
        "pago",
        "determinacion",
    )
    @app_commands.choices(pago=PAYMENTS)
    @secret_option
    async def enfrentada(
        self,
        interaction: discord.Interaction,
        habilidad: app_commands.Range[int, 1, 20],
        motivacion: app_commands.Range[int, 0, 20],
        rival_objetivo: app_commands.Range[int, 1, 40],
        enfoque: bool = False,
        rival_enfoque: app_commands.Range[int, 1, 20] | None = None,
        rival_dados: app_commands.Range[int, 1, 5] = 2,
        obstaculos: app_commands.Range[int, 0, 5] = 0,
        dados_extra: app_commands.Range[int, 0, 3] = 0,
        pago: Choice[str] | None = None,
        determinacion: bool = False,
        secreta: bool = False,
    ) -> None:
        """ "El personaje que se opone al tuyo lanza los dados primero, y el número de éxitos
        que obtiene se convierte en la Dificultad contra la que tienes que lanzar"."""
        check_bound("habilidad", habilidad, 1, dune.MAX_SCORE)
        check_bound("motivacion", motivacion, 0, dune.MAX_SCORE)
        check_bound("objetivo", rival_objetivo, 1, 2 * dune.MAX_SCORE)
        check_bound("dados", rival_dados, 1, dune.MAX_DICE)
        if rival_enfoque is not None:
            check_bound("enfoque", rival_enfoque, 1, dune.MAX_SCORE)
        opponent = dune.roll_test(
            self.bot.rng, rival_objetivo, dice=rival_dados, focus_skill=rival_enfoque, difficulty=0
        )
        difficulty = dune.opposed_difficulty(opponent.test.successes, obstaculos)
        spec = RollSpec(
            target=habilidad + motivacion,
            focus_skill=habilidad if enfoque else None,
            difficulty=difficulty,
            bought=dados_extra,
            payment=pago.value if pago else "impulso",
            determination=determinacion,
            opponent={
                "target": rival_objetivo,
                "focus": rival_enfoque,
                "dice": [s.value for s in opponent.slots],
                "hindrances": obstaculos,
            },
            secret=secreta,
        )
        await self.roll_and_post(interaction, spec)

    # -- /dune ayuda ----------------------------------------------------------------------------

    @dune_group.command(name=T("dune.ayuda"), description=T("dune.ayuda.desc"))
    @options(
        "dune.opt",
        "habilidad",
        "motivacion",
        "enfoque",
        "dificultad",
        "dados_extra",
        "pago",
        "rango_complicacion",
    )
    @app_commands.choices(pago=PAYMENTS)
    async def ayuda(
        self,
        interaction: discord.Interaction,
        habilidad: app_commands.Range[int, 1, 20],
        motivacion: app_commands.Range[int, 0, 20],
        enfoque: bool = False,
        dificultad: app_commands.Range[int, 0, 5] = 1,
        dados_extra: app_commands.Range[int, 0, 3] = 0,
        pago: Choice[str] | None = None,
        rango_complicacion: app_commands.Range[int, 1, 5] = 1,
    ) -> None:
        """A test others help with: "Ayudar" for each helper, then "Tirar" for the leader."""
        table = await current_table(interaction)
        check_bound("habilidad", habilidad, 1, dune.MAX_SCORE)
        check_bound("motivacion", motivacion, 0, dune.MAX_SCORE)
        check_bound("dificultad", dificultad, 0, dune.MAX_DIFFICULTY)
        check_bound("dados_extra", dados_extra, 0, dune.MAX_BOUGHT)
        check_bound("rango_complicacion", rango_complicacion, 1, dune.MAX_COMPLICATION_RANGE)
        spec = RollSpec(
            target=habilidad + motivacion,
            focus_skill=habilidad if enfoque else None,
            difficulty=dificultad,
            bought=dados_extra,
            payment=pago.value if pago else "impulso",
            complication_range=rango_complicacion,
        )
        prep_id = await self.bot.store.save_roll(
            table.channel_id,
            interaction.id,
            interaction.user.id,
            ASSIST_KIND,
            {"spec": asdict(spec), "helpers": []},
        )
        record = await load(self.bot.store, prep_id, ASSIST_KIND)
        lang = lang_for(interaction.locale)
        await send(interaction, embed=assist_embed(lang, record), view=assist_view(lang, prep_id))

    # -- pools ------------------------------------------------------------------------------------

    async def pools_answer(
        self,
        interaction: discord.Interaction,
        table: Table,
        text: str,
        *,
        ephemeral: bool = False,
        gm: bool = False,
    ) -> None:
        """The pools after a change: in public, or privately (``ephemeral``), or as a GM
        command's answer (``gm``)."""
        lang = lang_for(interaction.locale)
        pools = await pools_text(self.bot, lang, table.channel_id, interaction.user.id)
        embed = embeds.card(t(lang, "dune.pools.title"), text)
        embeds.field(embed, t(lang, "dune.roll.pools"), pools, inline=False)
        if gm:
            await answer_gm(interaction, table, embed=embed)
        else:
            await send(interaction, embed=embed, ephemeral=ephemeral)

    async def change_pools(
        self, interaction: discord.Interaction, table: Table, reason: str, *changes: Change
    ) -> Applied:
        outcome = await self.bot.store.apply(
            Operation(
                table.channel_id,
                interaction.id,
                interaction.user.id,
                reason,
                changes,
                guild_id=interaction.guild_id,
            )
        )
        if isinstance(outcome, Refused):
            raise outcome.error()
        return outcome

    @impulso.command(name=T("dune.ver"), description=T("dune.impulso.ver.desc"))
    async def impulso_ver(self, interaction: discord.Interaction) -> None:
        await self.pools_answer(interaction, await current_table(interaction), "", ephemeral=True)

    @impulso.command(name=T("dune.anadir"), description=T("dune.impulso.anadir.desc"))
    @options("dune.opt", "cantidad")
    @table_option
    async def impulso_anadir(
        self,
        interaction: discord.Interaction,
        cantidad: app_commands.Range[int, 1, 6],
        mesa: str | None = None,
    ) -> None:
        table = await gm_table(interaction, mesa)
        check_bound("cantidad", cantidad, 1, dune.MOMENTUM_CAP)
        await self.change_pools(interaction, table, "dune.impulso.add", momentum_change(cantidad))
        await self.pools_answer(
            interaction,
            table,
            t(lang_for(interaction.locale), "dune.impulso.added", amount=cantidad),
            gm=True,
        )

    @impulso.command(name=T("dune.gastar"), description=T("dune.impulso.gastar.desc"))
    @options("dune.opt", "cantidad")
    async def impulso_gastar(
        self, interaction: discord.Interaction, cantidad: app_commands.Range[int, 1, 6] = 1
    ) -> None:
        check_bound("cantidad", cantidad, 1, dune.MOMENTUM_CAP)
        table = await current_table(interaction)
        await self.change_pools(interaction, table, "dune.impulso.spend", momentum_change(-cantidad))
        text = t(
            lang_for(interaction.locale), "dune.impulso.spent", user=interaction.user.id, amount=cantidad
        )
        await self.pools_answer(interaction, table, text)

    @amenaza.command(name=T("dune.ver"), description=T("dune.amenaza.ver.desc"))
    async def amenaza_ver(self, interaction: discord.Interaction) -> None:
        await self.pools_answer(interaction, await current_table(interaction), "", ephemeral=True)

    @amenaza.command(name=T("dune.anadir"), description=T("dune.amenaza.anadir.desc"))
    @options("dune.opt", "cantidad")
    async def amenaza_anadir(
        self, interaction: discord.Interaction, cantidad: app_commands.Range[int, 1, 20] = 1
    ) -> None:
        """Players add Amenaza for escalation; the GM for threatening circumstances."""
        check_bound("cantidad", cantidad, 1, MAX_POINTS)
        table = await current_table(interaction)
        await self.change_pools(interaction, table, "dune.amenaza.add", threat_change(cantidad))
        text = t(
            lang_for(interaction.locale), "dune.amenaza.added", user=interaction.user.id, amount=cantidad
        )
        await self.pools_answer(interaction, table, text)

    @amenaza.command(name=T("dune.gastar"), description=T("dune.amenaza.gastar.desc"))
    @options("dune.opt", "gasto", "cantidad")
    @app_commands.choices(gasto=THREAT_SPENDS)
    @table_option
    async def amenaza_gastar(
        self,
        interaction: discord.Interaction,
        gasto: Choice[str] | None = None,
        cantidad: app_commands.Range[int, 1, 20] | None = None,
        mesa: str | None = None,
    ) -> None:
        """Only the GM spends Amenaza. "+1 dificultad" raises the next test's difficulty."""
        table = await gm_table(interaction, mesa)
        lang = lang_for(interaction.locale)
        if gasto is not None:
            cost = dune.THREAT_SPENDS[gasto.value]
            changes = [Change(AMENAZA, -cost)]
            if gasto.value == "dificultad":
                changes.append(Change(DIFICULTAD_EXTRA, 1, cap=dune.MAX_RAISED_DIFFICULTY))
            await self.change_pools(interaction, table, f"dune.amenaza.{gasto.value}", *changes)
            text = t(lang, "dune.amenaza.spent_on", use=t(lang, f"dune.gasto.{gasto.value}"), amount=cost)
        else:
            amount = cantidad or 1
            check_bound("cantidad", amount, 1, MAX_POINTS)
            await self.change_pools(interaction, table, "dune.amenaza.spend", Change(AMENAZA, -amount))
            text = t(lang, "dune.amenaza.spent", amount=amount)
        await self.pools_answer(interaction, table, text, gm=True)

    @determinacion.command(name=T("dune.ver"), description=T("dune.determinacion.ver.desc"))
    @options("dune.opt", "jugador")
    async def determinacion_ver(
        self, interaction: discord.Interaction, jugador: discord.Member | None = None
    ) -> None:
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        who = jugador or interaction.user
        value = await self.bot.store.pool(table.channel_id, DETERMINACION, who.id)
        text = t(lang, "dune.pools.determinacion", user=who.id, value=value, cap=dune.DETERMINATION_CAP)
        await send(interaction, embed=embeds.card(t(lang, "dune.pools.title"), text), ephemeral=True)

    @determinacion.command(name=T("dune.dar"), description=T("dune.determinacion.dar.desc"))
    @options("dune.opt", "jugador", "cantidad")
    @table_option
    async def determinacion_dar(
        self,
        interaction: discord.Interaction,
        jugador: discord.Member,
        cantidad: app_commands.Range[int, 1, 3] = 1,
        mesa: str | None = None,
    ) -> None:
        table = await gm_table(interaction, mesa)
        check_bound("cantidad", cantidad, 1, dune.DETERMINATION_CAP)
        await self.change_pools(
            interaction, table, "dune.determinacion.give", determination_change(jugador.id, cantidad)
        )
        text = t(lang_for(interaction.locale), "dune.determinacion.given", user=jugador.id, amount=cantidad)
        await self.determination_answer(interaction, table, jugador.id, text, gm=True)

    @determinacion.command(name=T("dune.quitar"), description=T("dune.determinacion.quitar.desc"))
    @options("dune.opt", "jugador", "cantidad")
    @table_option
    async def determinacion_quitar(
        self,
        interaction: discord.Interaction,
        jugador: discord.Member,
        cantidad: app_commands.Range[int, 1, 3] = 1,
        mesa: str | None = None,
    ) -> None:
        table = await gm_table(interaction, mesa)
        check_bound("cantidad", cantidad, 1, dune.DETERMINATION_CAP)
        await self.change_pools(
            interaction, table, "dune.determinacion.take", determination_change(jugador.id, -cantidad)
        )
        text = t(lang_for(interaction.locale), "dune.determinacion.taken", user=jugador.id, amount=cantidad)
        await self.determination_answer(interaction, table, jugador.id, text, gm=True)

    @determinacion.command(name=T("dune.gastar"), description=T("dune.determinacion.gastar.desc"))
    async def determinacion_gastar(self, interaction: discord.Interaction) -> None:
        """A point spent outside a roll: a declaration or an extra action in a conflict."""
        table = await current_table(interaction)
        await self.change_pools(
            interaction, table, "dune.determinacion.spend", determination_change(interaction.user.id, -1)
        )
        text = t(lang_for(interaction.locale), "dune.determinacion.spent", user=interaction.user.id)
        await self.determination_answer(interaction, table, interaction.user.id, text)

    async def determination_answer(
        self, interaction: discord.Interaction, table: Table, user_id: int, text: str, *, gm: bool = False
    ) -> None:
        lang = lang_for(interaction.locale)
        value = await self.bot.store.pool(table.channel_id, DETERMINACION, user_id)
        pools = t(lang, "dune.pools.determinacion", user=user_id, value=value, cap=dune.DETERMINATION_CAP)
        embed = embeds.card(t(lang, "dune.pools.title"), f"{text}\n{pools}")
        if gm:
            await answer_gm(interaction, table, embed=embed)
        else:
            await send(interaction, embed=embed)

    # -- /dune aventura ------------------------------------------------------------------------

    @dune_group.command(name=T("dune.aventura"), description=T("dune.aventura.desc"))
    @options("dune.opt", "jugadores")
    @table_option
    async def aventura(
        self,
        interaction: discord.Interaction,
        jugadores: app_commands.Range[int, 1, 12] | None = None,
        mesa: str | None = None,
    ) -> None:
        """ "Al comienzo de cada aventura, tienes un único punto de Determinación" and "el
        Director comienza con 2 puntos por jugador"."""
        table = await gm_table(interaction, mesa)
        known = await self.known_players(table.channel_id, table)
        count = jugadores if jugadores is not None else len(known)
        check_bound("jugadores", count, 1, 12)
        changes = [Change(AMENAZA, set_to=2 * count, cap=dune.THREAT_CAP)] + [
            determination_change(u, set_to=1) for u in sorted(known)
        ]
        await self.change_pools(interaction, table, "dune.adventure", *changes)
        text = t(lang_for(interaction.locale), "dune.aventura.done", threat=2 * count, players=len(known))
        await self.pools_answer(interaction, table, text)

    async def known_players(self, channel_id: int, table: Table) -> set[int]:
        """Everyone who has rolled or holds Determinación at this table, but the GM."""
        players = {p.owner_id for p in await self.bot.store.pools(channel_id) if p.pool == DETERMINACION}
        players |= {r.user_id for r in await self.bot.store.rolls(channel_id, KIND)}
        players.discard(0)
        if table.gm_id is not None:
            players.discard(table.gm_id)
        return players

    # -- /dune tarea -------------------------------------------------------------------------------

    @tarea.command(name=T("dune.tarea.crear"), description=T("dune.tarea.crear.desc"))
    @options("dune.opt", "nombre", "requisito")
    @table_option
    async def tarea_crear(
        self,
        interaction: discord.Interaction,
        nombre: app_commands.Range[str, 1, 80],
        requisito: app_commands.Range[int, 1, 50],
        mesa: str | None = None,
    ) -> None:
        table = await gm_table(interaction, mesa)
        name = " ".join(nombre.split())
        if not name or len(name) > TASK_NAME_LIMIT:
            raise Refusal("dune.task_name", max=TASK_NAME_LIMIT)
        check_bound("requisito", requisito, 1, 50)
        task_id = await self.bot.store.save_roll(
            table.channel_id,
            interaction.id,
            interaction.user.id,
            TASK_KIND,
            {"name": name, "requirement": requisito, "done": False},
        )
        lang = lang_for(interaction.locale)
        text = t(lang, "dune.task.created", name=name, requirement=requisito, id=task_id)
        await answer_gm(interaction, table, embed=embeds.card(text, colour=embeds.SUCCESS))

    @tarea.command(name=T("dune.ver"), description=T("dune.tarea.ver.desc"))
    async def tarea_ver(self, interaction: discord.Interaction) -> None:
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        tasks = await self.bot.store.rolls(table.channel_id, TASK_KIND, limit=25)
        embed = embeds.card(t(lang, "dune.task.title"))
        if not tasks:
            embed.description = t(lang, "dune.task.none")
        progress = await task_progress(self.bot, table.channel_id, [task.id for task in tasks])
        for task in reversed(tasks):
            points = progress[task.id]
            requirement = task.data["requirement"]
            state = t(lang, "dune.task.state_done") if task.data.get("done") else ""
            value = f"{progress_bar(points, requirement)} {points}/{requirement} {state}".strip()
            embeds.field(embed, f"#{task.id} · {task.data['name']}", value, inline=False)
        await send(interaction, embed=embed)


@dataclass(frozen=True)
class RollSpec:
    """What a test asks for, before it is paid and rolled."""

    target: int
    focus_skill: int | None = None
    difficulty: int = 1
    bought: int = 0
    payment: str = "impulso"
    complication_range: int = 1
    determination: bool = False
    bonus: int = 0
    npc: bool = False
    task_id: int | None = None
    asset_quality: int = 0
    opponent: dict[str, Any] | None = None
    secret: bool = False


# -- assistance -----------------------------------------------------------------------------------


def assist_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    spec = RollSpec(**record.data["spec"])
    embed = embeds.card(
        t(lang, "dune.ayuda.title", target=spec.target, difficulty=spec.difficulty),
        t(lang, "dune.ayuda.help", user=record.user_id),
    )
    helpers = record.data["helpers"]
    lines = [t(lang, "dune.ayuda.helper", user=h["user"], target=h["target"]) for h in helpers]
    embeds.field(
        embed, t(lang, "dune.ayuda.helpers"), "\n".join(lines) or t(lang, "dune.ayuda.nobody"), inline=False
    )
    if record.data.get("rolled"):
        embed.set_footer(text=t(lang, "dune.ayuda.rolled"))
    return embed


def assist_view(lang: Lang, prep_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        AssistButton(prep_id, "unirme", t(lang, "dune.button.ayudar"), discord.ButtonStyle.secondary)
    )
    view.add_item(AssistButton(prep_id, "tirar", t(lang, "dune.button.tirar"), discord.ButtonStyle.primary))
    return view


class AssistButton(ActionButton, template=r"dune:ayuda:(?P<action>unirme|tirar):(?P<roll>[0-9]{1,18})"):
    prefix = "dune:ayuda"

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
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
    cog = bot.get_cog("Dune")
    assert isinstance(cog, Dune)
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

    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
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


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Dune(bot))
