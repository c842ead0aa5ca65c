"""The ``/dune`` slash commands: parse the options, ask the rules, write the store, answer."""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, rolls, seen
from bot.checks import (
    REASON_LIMIT,
    answer_gm,
    current_table,
    gm_table,
    in_gm_channel,
    is_gm,
    reason,
    reason_option,
    secret_option,
    table_option,
)
from bot.client import Tirada
from bot.delivery import send
from bot.errors import Refusal
from bot.forms import open_bare
from bot.hidden import threat_hidden
from bot.i18n import T, lang_for, options, t
from bot.models import Change, Operation, Refused, SheetUpdate, Table
from bot.options import Bounded
from bot.panel import typed_nothing
from bot.sheets import access, io
from bot.sheets.models import LIST_LIMIT
from cogs.dune import flow, forms, sheet
from cogs.dune.components import DiceSelect, DuneButton
from cogs.dune.flow import AssistButton, OpposedAnswerButton, OpposedHelpButton, OpposedSelect
from cogs.dune.render import pools_text, progress_bar, safe
from cogs.dune.sheet import FOCUS_LIMIT
from cogs.dune.sheet_model import DuneSheet
from cogs.dune.state import (
    AMENAZA,
    ASSET,
    DETERMINACION,
    KIND,
    MAX_TASK_REQUIREMENT,
    MAX_THREAT_STEP,
    SCENE_TEXT_LIMIT,
    TASK_KIND,
    TASK_NAME_LIMIT,
    asset_pool,
    challenged,
    challenged_pool,
    crossed_pool,
    determination_change,
    momentum_change,
    named_players,
    pool_changes,
    scene_lines,
    scene_traits,
    task_progress,
    test_spec,
    threat_change,
    trait_edit,
    typed_text,
)
from rules.dune import momentum, skill_test, successes
from rules.dune import pools as dune_pools
from rules.dune import traits as dune_traits
from rules.errors import check_range

MAX_PLAYERS = 12
# Each number option's bounds, declared once: published to Discord and checked (bot.options).
Score = app_commands.Transform[int, Bounded(1, skill_test.MAX_SCORE)]
Difficulty = app_commands.Transform[int, Bounded(0, skill_test.MAX_DIFFICULTY)]
DifficultyShift = app_commands.Transform[int, Bounded(-skill_test.MAX_DIFFICULTY, skill_test.MAX_DIFFICULTY)]
Bought = app_commands.Transform[int, Bounded(0, dune_pools.MAX_BOUGHT)]
ComplicationRange = app_commands.Transform[int, Bounded(1, successes.MAX_COMPLICATION_RANGE)]
MomentumBonus = app_commands.Transform[int, Bounded(0, skill_test.MAX_BONUS)]
AssetQuality = app_commands.Transform[int, Bounded(0, skill_test.MAX_ASSET_QUALITY)]
Target = app_commands.Transform[int, Bounded(1, 2 * skill_test.MAX_SCORE)]
Dice = app_commands.Transform[int, Bounded(1, skill_test.MAX_DICE)]
Momentum = app_commands.Transform[int, Bounded(1, dune_pools.MOMENTUM_CAP)]
Threat = app_commands.Transform[int, Bounded(1, MAX_THREAT_STEP)]
Determination = app_commands.Transform[int, Bounded(1, dune_pools.DETERMINATION_CAP)]
Requirement = app_commands.Transform[int, Bounded(1, MAX_TASK_REQUIREMENT)]
PAYMENTS = [Choice(name=T(f"dune.pago.{p}"), value=p) for p in ("impulso", "amenaza", "mixto")]
# A trait's Amenaza is spent with its text, through /dune rasgo.
THREAT_SPENDS = [Choice(name=T(f"dune.gasto.{k}"), value=k) for k in dune_pools.THREAT_SPENDS if k != "rasgo"]
TRAIT_PAYMENTS = [
    Choice(name=T(f"dune.pago_rasgo.{p}"), value=p) for p in (*dune_traits.TRAIT_COSTS, "libre")
]
TraitCount = app_commands.Transform[int, Bounded(0, dune_traits.MAX_TRAIT_COUNT)]


def missing_key(skill: str | None, drive: str | None, command: str = "tirada") -> str:
    """The sentence that names what a typed ``/dune tirada`` (or ``command``) lacks."""
    if skill is None and drive is None:
        return f"dune.{command}.missing.ambas"
    return f"dune.{command}.missing.habilidad" if skill is None else f"dune.{command}.missing.motivacion"


def rival_helpers(typed: str | None) -> list[int]:
    """The opponent's helpers as their target numbers ("11 9"): each rolls one d20 with
    the opposition ("pueden aceptar la ayuda de otros personajes próximos")."""
    words = (typed or "").replace(",", " ").split()
    if not all(word.isdigit() and len(word) <= 2 for word in words):
        raise Refusal("dune.contra.rival_helpers", max=skill_test.MAX_HELPERS)
    if len(words) > skill_test.MAX_HELPERS:
        raise Refusal("dune.contra.rival_helpers", max=skill_test.MAX_HELPERS)
    targets = [int(word) for word in words]
    for target in targets:
        check_range("rival_ayuda", target, 1, 2 * skill_test.MAX_SCORE)
    return targets


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
        self.bot.add_dynamic_items(
            DuneButton, OpposedSelect, OpposedAnswerButton, AssistButton, DiceSelect, OpposedHelpButton
        )
        self.bot.repeaters[KIND] = flow.repeat

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(
            DuneButton, OpposedSelect, OpposedAnswerButton, AssistButton, DiceSelect, OpposedHelpButton
        )
        self.bot.repeaters.pop(KIND, None)

    # -- /dune tirada, enfrentada, ayuda ------------------------------------------------------

    @dune_group.command(name=T("dune.tirada"), description=T("dune.tirada.desc"))
    @options("dune.opt")
    @options("fichas.opt", "como")
    @app_commands.choices(pago=PAYMENTS)
    @reason_option
    @secret_option
    async def tirada(
        self,
        interaction: discord.Interaction,
        habilidad: app_commands.Range[str, 1, 40] | None = None,
        motivacion: app_commands.Range[str, 1, 40] | None = None,
        enfoque: app_commands.Range[str, 1, FOCUS_LIMIT] | None = None,
        dificultad: Difficulty = 1,
        dados_extra: Bought = 0,
        pago: Choice[str] | None = None,
        rango_complicacion: ComplicationRange = 1,
        determinacion: bool = False,
        bonificacion_impulso: MomentumBonus = 0,
        pnj: bool = False,
        tarea: int | None = None,
        calidad_recurso: AssetQuality = 0,
        desafiar: bool = False,
        como: app_commands.Range[str, 1, 100] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """A skill test; with no option at all, a form asks the skill, the drive and the
        rest from the roller's sheet (with none, the scores 4 to 8), and a command typed
        without its skill or drive is refused naming what it lacks."""
        if typed_nothing(interaction):
            await open_bare(interaction, self.bot.store, forms.DuneForm, DuneSheet, sheetless=True)
            return
        if habilidad is None or motivacion is None:
            raise Refusal(missing_key(habilidad, motivacion))
        scores = await sheet.scores(self.bot, interaction, habilidad, motivacion, como, focus=enfoque)
        spec = replace(
            test_spec(scores, rango_complicacion, bonificacion_impulso, calidad_recurso),
            difficulty=dificultad,
            bought=dados_extra,
            payment=pago.value if pago else "impulso",
            determination=determinacion,
            npc=pnj,
            task_id=tarea,
            secret=secreta,
            motivo=reason(motivo),
        )
        spec = challenged(spec, scores) if desafiar else spec
        await flow.roll_and_post(self.bot, interaction, spec)

    @dune_group.command(name=T("dune.enfrentada"), description=T("dune.enfrentada.desc"))
    @options("dune.opt")
    @options("fichas.opt", "como", "rival_pnj")
    @reason_option
    @secret_option
    async def enfrentada(
        self,
        interaction: discord.Interaction,
        habilidad: app_commands.Range[str, 1, 40] | None = None,
        motivacion: app_commands.Range[str, 1, 40] | None = None,
        rival_objetivo: Target | None = None,
        enfoque: app_commands.Range[str, 1, FOCUS_LIMIT] | None = None,
        rival_habilidad: app_commands.Range[str, 1, 40] | None = None,
        rival_motivacion: app_commands.Range[str, 1, 40] | None = None,
        rival_enfoque: Score | None = None,
        rival_dados: Dice = 2,
        obstaculos: Difficulty = 0,
        rival_ayuda: app_commands.Range[str, 1, 60] | None = None,
        ajuste_dificultad: DifficultyShift = 0,
        rango_complicacion: ComplicationRange = 1,
        bonificacion_impulso: MomentumBonus = 0,
        pnj: bool = False,
        tarea: int | None = None,
        calidad_recurso: AssetQuality = 0,
        desafiar: bool = False,
        como: app_commands.Range[str, 1, 100] | None = None,
        rival_pnj: app_commands.Range[str, 1, 100] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """ "El personaje que se opone al tuyo lanza los dados primero": the opposition is
        rolled and posted; the actor then chooses bought dice, payment and Determinación
        ("después de que la dificultad se haya declarado") from its menu. Either side's
        skill and drive may be names: the actor's from their sheet (or the GM's NPC
        ``como``), the opponent's from the GM's NPC ``rival_pnj``; the opponent's target
        number, when given, wins over them. With no option at all, a form asks both skills
        and drives and the opponent's hindrances (:class:`forms.DuneOpposedForm`); without
        the actor's skill or drive, a refusal names what is missing."""
        if typed_nothing(interaction):
            await open_bare(interaction, self.bot.store, forms.DuneOpposedForm, DuneSheet, sheetless=True)
            return
        if habilidad is None or motivacion is None:
            raise Refusal(missing_key(habilidad, motivacion, "enfrentada"))
        scores = await sheet.scores(self.bot, interaction, habilidad, motivacion, como, focus=enfoque)
        spec = replace(
            test_spec(scores, rango_complicacion, bonificacion_impulso, calidad_recurso),
            npc=pnj,
            task_id=tarea,
            secret=secreta,
            motivo=reason(motivo),
        )
        spec = challenged(spec, scores) if desafiar else spec
        target = await sheet.opponent(
            self.bot, interaction, rival_objetivo, rival_pnj, rival_habilidad, rival_motivacion
        )
        opponent = {
            **target,
            "focus": rival_enfoque,
            "count": rival_dados,
            "hindrances": obstaculos,
            "adjust": ajuste_dificultad,
            "helpers": rival_helpers(rival_ayuda),
        }
        await flow.oppose(self.bot, interaction, spec, opponent)

    @dune_group.command(name=T("dune.ayuda"), description=T("dune.ayuda.desc"))
    @options("dune.opt")
    @options("fichas.opt", "como")
    @app_commands.choices(pago=PAYMENTS)
    @reason_option
    async def ayuda(
        self,
        interaction: discord.Interaction,
        habilidad: app_commands.Range[str, 1, 40],
        motivacion: app_commands.Range[str, 1, 40],
        enfoque: app_commands.Range[str, 1, FOCUS_LIMIT] | None = None,
        dificultad: Difficulty = 1,
        dados_extra: Bought = 0,
        pago: Choice[str] | None = None,
        rango_complicacion: ComplicationRange = 1,
        determinacion: bool = False,
        bonificacion_impulso: MomentumBonus = 0,
        pnj: bool = False,
        tarea: int | None = None,
        calidad_recurso: AssetQuality = 0,
        desafiar: bool = False,
        como: app_commands.Range[str, 1, 100] | None = None,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """A test others help with, with every option a plain test has."""
        scores = await sheet.scores(self.bot, interaction, habilidad, motivacion, como, focus=enfoque)
        spec = replace(
            test_spec(scores, rango_complicacion, bonificacion_impulso, calidad_recurso),
            difficulty=dificultad,
            bought=dados_extra,
            payment=pago.value if pago else "impulso",
            determination=determinacion,
            npc=pnj,
            task_id=tarea,
            motivo=reason(motivo),
        )
        spec = challenged(spec, scores) if desafiar else spec
        await flow.prepare_assist(self.bot, interaction, spec)

    @tirada.autocomplete("tarea")
    @enfrentada.autocomplete("tarea")
    @ayuda.autocomplete("tarea")
    async def tarea_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        try:
            table = await current_table(interaction)
        except Refusal:
            return []
        tasks = await self.bot.store.records(table.channel_id, TASK_KIND, limit=100)
        return [
            Choice(name=str(r.data["name"])[:100], value=r.id)
            for r in tasks
            if not r.data.get("done") and current.lower() in str(r.data["name"]).lower()
        ][:25]

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
        command's answer (``gm``). A hidden Amenaza shows only in an answer the GM alone sees."""
        lang = lang_for(interaction.locale)
        gm_alone = gm or (ephemeral and is_gm(table, interaction))
        hide = threat_hidden(table) and not gm_alone
        values = await seen.pools(interaction, table.channel_id)
        pools = pools_text(lang, values, interaction.user.id, table.gm_id, hide_threat=hide)
        embed = embeds.card(t(lang, "dune.pools.title"), text)
        embeds.field(embed, t(lang, "dune.roll.pools"), pools, inline=False)
        if gm:
            await answer_gm(interaction, table, embed=embed)
        else:
            await send(interaction, embed=embed, ephemeral=ephemeral)

    @impulso.command(name=T("dune.ver"), description=T("dune.impulso.ver.desc"))
    async def impulso_ver(self, interaction: discord.Interaction) -> None:
        await self.pools_answer(interaction, await current_table(interaction), "", ephemeral=True)

    @impulso.command(name=T("dune.anadir"), description=T("dune.impulso.anadir.desc"))
    @options("dune.opt")
    @table_option
    async def impulso_anadir(
        self,
        interaction: discord.Interaction,
        cantidad: Momentum,
        mesa: str | None = None,
    ) -> None:
        table = await gm_table(interaction, mesa)
        await rolls.change(self.bot.store, interaction, table, "dune.impulso.add", momentum_change(cantidad))
        await self.pools_answer(
            interaction,
            table,
            t(lang_for(interaction.locale), "dune.impulso.added", amount=cantidad),
            gm=True,
        )

    @impulso.command(name=T("dune.gastar"), description=T("dune.impulso.gastar.desc"))
    @options("dune.opt")
    async def impulso_gastar(self, interaction: discord.Interaction, cantidad: Momentum = 1) -> None:
        table = await current_table(interaction)
        await rolls.change(
            self.bot.store, interaction, table, "dune.impulso.spend", momentum_change(-cantidad)
        )
        text = t(
            lang_for(interaction.locale), "dune.impulso.spent", user=interaction.user.id, amount=cantidad
        )
        await self.pools_answer(interaction, table, text)

    @amenaza.command(name=T("dune.ver"), description=T("dune.amenaza.ver.desc"))
    async def amenaza_ver(self, interaction: discord.Interaction) -> None:
        await self.pools_answer(interaction, await current_table(interaction), "", ephemeral=True)

    @amenaza.command(name=T("dune.anadir"), description=T("dune.amenaza.anadir.desc"))
    @options("dune.opt")
    async def amenaza_anadir(self, interaction: discord.Interaction, cantidad: Threat = 1) -> None:
        """Players add Amenaza for escalation; the GM for threatening circumstances."""
        table = await current_table(interaction)
        await rolls.change(self.bot.store, interaction, table, "dune.amenaza.add", threat_change(cantidad))
        text = t(
            lang_for(interaction.locale), "dune.amenaza.added", user=interaction.user.id, amount=cantidad
        )
        await self.pools_answer(interaction, table, text)

    @amenaza.command(name=T("dune.gastar"), description=T("dune.amenaza.gastar.desc"))
    @options("dune.opt")
    @app_commands.choices(gasto=THREAT_SPENDS)
    @table_option
    async def amenaza_gastar(
        self,
        interaction: discord.Interaction,
        gasto: Choice[str] | None = None,
        cantidad: Threat | None = None,
        mesa: str | None = None,
    ) -> None:
        """Only the GM spends Amenaza. "+1 dificultad" raises the next test's difficulty."""
        table = await gm_table(interaction, mesa)
        lang = lang_for(interaction.locale)
        if gasto is not None:
            spend = dune_pools.threat_spend(gasto.value)
            changes = pool_changes(spend, 0, f"dune.amenaza.{gasto.value}")
            await rolls.change(self.bot.store, interaction, table, f"dune.amenaza.{gasto.value}", *changes)
            use = t(lang, f"dune.gasto.{gasto.value}")
            text = t(lang, "dune.amenaza.spent_on", use=use, amount=-spend.threat)
        else:
            amount = cantidad or 1
            await rolls.change(
                self.bot.store, interaction, table, "dune.amenaza.spend", Change(AMENAZA, -amount)
            )
            text = t(lang, "dune.amenaza.spent", amount=amount)
        await self.pools_answer(interaction, table, text, gm=True)

    @determinacion.command(name=T("dune.ver"), description=T("dune.determinacion.ver.desc"))
    @options("dune.opt")
    async def determinacion_ver(
        self, interaction: discord.Interaction, jugador: discord.Member | None = None
    ) -> None:
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        who = jugador or interaction.user
        value = await self.bot.store.pool(table.channel_id, DETERMINACION, who.id)
        text = t(lang, "dune.pools.determinacion", user=who.id, value=value, cap=dune_pools.DETERMINATION_CAP)
        await send(interaction, embed=embeds.card(t(lang, "dune.pools.title"), text), ephemeral=True)

    @determinacion.command(name=T("dune.dar"), description=T("dune.determinacion.dar.desc"))
    @options("dune.opt")
    @table_option
    async def determinacion_dar(
        self,
        interaction: discord.Interaction,
        jugador: discord.Member,
        cantidad: Determination = 1,
        mesa: str | None = None,
    ) -> None:
        table = await gm_table(interaction, mesa)
        await rolls.change(
            self.bot.store,
            interaction,
            table,
            "dune.determinacion.give",
            determination_change(jugador.id, cantidad),
        )
        text = t(lang_for(interaction.locale), "dune.determinacion.given", user=jugador.id, amount=cantidad)
        await self.determination_answer(interaction, table, jugador.id, text, gm=True)

    @determinacion.command(name=T("dune.quitar"), description=T("dune.determinacion.quitar.desc"))
    @options("dune.opt")
    @table_option
    async def determinacion_quitar(
        self,
        interaction: discord.Interaction,
        jugador: discord.Member,
        cantidad: Determination = 1,
        mesa: str | None = None,
    ) -> None:
        table = await gm_table(interaction, mesa)
        await rolls.change(
            self.bot.store,
            interaction,
            table,
            "dune.determinacion.take",
            determination_change(jugador.id, -cantidad),
        )
        text = t(lang_for(interaction.locale), "dune.determinacion.taken", user=jugador.id, amount=cantidad)
        await self.determination_answer(interaction, table, jugador.id, text, gm=True)

    @determinacion.command(name=T("dune.gastar"), description=T("dune.determinacion.gastar.desc"))
    async def determinacion_gastar(self, interaction: discord.Interaction) -> None:
        """A point spent outside a roll: a declaration or an extra action in a conflict."""
        table = await current_table(interaction)
        await rolls.change(
            self.bot.store,
            interaction,
            table,
            "dune.determinacion.spend",
            determination_change(interaction.user.id, -1),
        )
        text = t(lang_for(interaction.locale), "dune.determinacion.spent", user=interaction.user.id)
        await self.determination_answer(interaction, table, interaction.user.id, text)

    async def determination_answer(
        self, interaction: discord.Interaction, table: Table, user_id: int, text: str, *, gm: bool = False
    ) -> None:
        """The player's Determinación after a change. What the GM gives or takes is told at
        the table too, naming whose pool, even when done from the GM channel."""
        lang = lang_for(interaction.locale)
        value = await self.bot.store.pool(table.channel_id, DETERMINACION, user_id)
        pools = t(
            lang, "dune.pools.determinacion", user=user_id, value=value, cap=dune_pools.DETERMINATION_CAP
        )
        embed = embeds.card(t(lang, "dune.pools.title"), f"{text}\n{pools}")
        if gm and in_gm_channel(table, interaction):
            await answer_gm(interaction, table, embed=embed)
            await self.bot.get_partial_messageable(table.channel_id).send(embed=embed)
        else:
            await send(interaction, embed=embed)

    # -- /dune aventura ------------------------------------------------------------------------

    @dune_group.command(name=T("dune.aventura"), description=T("dune.aventura.desc"))
    @options("dune.opt")
    @table_option
    async def aventura(
        self,
        interaction: discord.Interaction,
        jugadores: app_commands.Range[str, 1, 400] | None = None,
        mesa: str | None = None,
    ) -> None:
        """ "Al comienzo de cada aventura, tienes un único punto de Determinación" and "el
        Director comienza con 2 puntos por jugador": every player named (or, unnamed, every
        player the table knows) gets their point, and the Amenaza counts the same players.
        The drives defied in the last adventure may be defied again: their marks are cleared."""
        table = await gm_table(interaction, mesa)
        players = named_players(jugadores or "", table.gm_id) or await self.known_players(table)
        if not players:
            raise Refusal("dune.aventura.nobody")
        if len(players) > MAX_PLAYERS:
            raise Refusal("dune.aventura.too_many", max=MAX_PLAYERS, count=len(players))
        threat, determination = dune_pools.adventure_start(len(players))
        changes = [Change(AMENAZA, set_to=threat, cap=dune_pools.THREAT_CAP)] + [
            determination_change(u, set_to=determination) for u in players
        ]
        cleared = await self.challenges_cleared(table)
        await rolls.change(self.bot.store, interaction, table, "dune.adventure", *changes, *cleared)
        lang = lang_for(interaction.locale)
        who = ", ".join(f"<@{u}>" for u in players)
        text = t(lang, "dune.aventura.done", threat=threat, players=len(players), who=who)
        if cleared:
            text += "\n" + t(lang, "dune.aventura.challenges_cleared")
        await self.pools_answer(interaction, table, text)

    async def challenges_cleared(self, table: Table) -> tuple[Change, ...]:
        """Every sheet's drive defied this adventure, set back to not defied (a set, so a
        replay or a racing defiance cannot count twice)."""
        marks = tuple(challenged_pool(drive) for drive in sheet.DRIVES.keys)
        return tuple(
            Change(p.pool, owner_id=p.owner_id, set_to=0)
            for p in await self.bot.store.pools(table.channel_id)
            if p.pool in marks and p.value
        )

    async def known_players(self, table: Table) -> list[int]:
        """The players this table knows, but the GM: who rolled or holds Determinación here.
        (The bot has no member intent, so Discord's member cache of a channel is not a
        reliable list of its players; naming them is.)"""
        pools = await self.bot.store.pools(table.channel_id)
        players = {p.owner_id for p in pools if p.pool == DETERMINACION}
        players |= {r.user_id for r in await self.bot.store.records(table.channel_id, KIND)}
        players -= {0, table.gm_id or 0}
        return sorted(players)

    # -- /dune rasgo ------------------------------------------------------------------------------

    @dune_group.command(name=T("dune.rasgo"), description=T("dune.rasgo.desc"))
    @options("dune.opt")
    @app_commands.rename(pago=T("dune.opt.pago_rasgo"))
    @app_commands.describe(pago=T("dune.opt.pago_rasgo.desc"))
    @app_commands.choices(pago=TRAIT_PAYMENTS)
    async def rasgo(
        self,
        interaction: discord.Interaction,
        texto: app_commands.Range[str, 1, SCENE_TEXT_LIMIT],
        cuenta: TraitCount = 1,
        antes: app_commands.Range[str, 1, SCENE_TEXT_LIMIT] | None = None,
        pago: Choice[str] | None = None,
    ) -> None:
        """ "Se puede añadir, quitar o alterar los rasgos de una escena": with 2 Impulso ("Crear
        un rasgo"), 2 Amenaza (the GM's "Rasgos"), 1 Determinación (a *Declaración*), or, for
        the GM who sets the scene ("describir los rasgos que se aplican"), without paying. The
        payment and the trait are one operation."""
        table = await current_table(interaction)
        gm = is_gm(table, interaction)
        way = pago.value if pago is not None else ("libre" if gm else "impulso")
        if way in ("amenaza", "libre") and not gm:
            raise Refusal("dune.trait.gm_only")
        if way == "determinacion" and gm:
            raise Refusal("dune.trait.gm_no_determination")
        reason = f"dune.trait.{way}"
        cost = (
            pool_changes(dune_traits.TRAIT_COSTS[way], interaction.user.id, reason) if way != "libre" else ()
        )
        traits = await trait_edit(self.bot, table.channel_id, texto, cuenta, antes, reason)
        applied = await rolls.change(self.bot.store, interaction, table, reason, *cost, *traits)
        lang = lang_for(interaction.locale)
        lines = [t(lang, f"dune.trait.paid.{way}", user=interaction.user.id), *scene_lines(lang, applied)]
        await self.pools_answer(interaction, table, "\n".join(lines))

    @rasgo.autocomplete("antes")
    async def trait_choices(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        """The scene's traits, to change or remove one."""
        table = await current_table(interaction)
        folded = current.casefold()
        traits = await scene_traits(self.bot, table.channel_id)
        return [
            Choice(name=f"{name} {value}"[:100], value=name)
            for name, value in traits.items()
            if folded in name.casefold()
        ][:25]

    @dune_group.command(name=T("dune.recurso"), description=T("dune.recurso.desc"))
    @options("dune.opt")
    async def recurso(
        self, interaction: discord.Interaction, recurso: app_commands.Range[str, 1, SCENE_TEXT_LIMIT]
    ) -> None:
        """ "Debes gastar 2 puntos de Impulso para hacer permanente un recurso creado durante
        una escena (en Calidad 0) en cuyo caso se añade a la lista de recursos de tu ficha":
        the group's 2 Impulso, the asset no longer the scene's, and the asset on the roller's
        active sheet, written together (the sheet only if nobody changed it meanwhile)."""
        table = await current_table(interaction)
        user = interaction.user.id
        name = typed_text(recurso, SCENE_TEXT_LIMIT)
        pool = asset_pool(name)
        if not await self.bot.store.pool(table.channel_id, pool, user):
            raise Refusal("dune.asset.unknown", name=safe(name))
        row = await access.find(self.bot.store, table, is_gm(table, interaction), user, None, write=True)
        _, found = await access.of_system(self.bot.store, table, row)
        character = access.of_kind(found, DuneSheet)
        data = {**row.data, "recursos": [*row.data.get("recursos", []), {"nombre": name, "texto": ""}]}
        try:
            io.validate(data, stored=True)
        except io.Rejected:
            raise Refusal("dune.asset.sheet_full", max=LIST_LIMIT) from None
        reason = "dune.asset.permanent"
        outcome = await self.bot.store.apply(
            Operation(
                table.channel_id,
                interaction.id,
                user,
                reason,
                (
                    momentum_change(-momentum.MOMENTUM_SPENDS["recurso"]),
                    Change(pool, owner_id=user, set_to=0),
                ),
                guild_id=interaction.guild_id,
                sheet_update=SheetUpdate(row.id, row.version, data),
            )
        )
        if isinstance(outcome, Refused):
            raise outcome.error()
        text = t(
            lang_for(interaction.locale),
            "dune.asset.permanent",
            name=safe(name),
            sheet=safe(character.nombre),
        )
        await self.pools_answer(interaction, table, text)

    @recurso.autocomplete("recurso")
    async def asset_choices(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        """The roller's assets created in this scene."""
        table = await current_table(interaction)
        folded = current.casefold()
        mine = [
            p.pool.removeprefix(ASSET)
            for p in await self.bot.store.pools(table.channel_id)
            if p.owner_id == interaction.user.id and p.pool.startswith(ASSET) and p.value
        ]
        return [Choice(name=n, value=n) for n in mine if folded in n.casefold()][:25]

    # -- /dune recuperar -------------------------------------------------------------------------

    @dune_group.command(name=T("dune.recuperar"), description=T("dune.recuperar.desc"))
    @options("dune.recuperar.opt")
    @table_option
    async def recuperar(
        self,
        interaction: discord.Interaction,
        ficha: app_commands.Range[str, 1, 100],
        motivacion: app_commands.Range[str, 1, 40],
        mesa: str | None = None,
    ) -> None:
        """ "Al final de cualquier escena ... puedes solicitar al Director que permita a tu
        personaje recuperar una motivación": the GM uncrosses one drive of a sheet, through
        the ledger. The new statement or the shift of priorities is an edit of the sheet."""
        table = await gm_table(interaction, mesa)
        row = await access.find(self.bot.store, table, True, interaction.user.id, ficha, write=True)
        _, found = await access.of_system(self.bot.store, table, row)
        character = access.of_kind(found, DuneSheet)
        key = sheet.DRIVES.find(motivacion)
        if not getattr(character.motivaciones, key).tachada:
            raise Refusal("dune.recover.not_crossed")
        change = Change(crossed_pool(key), -1, row.id, cap=1)
        await rolls.change(self.bot.store, interaction, table, "dune.recover", change)
        lang = lang_for(interaction.locale)
        drive = sheet.DRIVES.name(lang, key)
        text = t(lang, "dune.recover.done", name=safe(character.nombre), drive=drive)
        await answer_gm(interaction, table, embed=embeds.card(text, colour=embeds.SUCCESS))

    @recuperar.autocomplete("motivacion")
    async def recuperar_drives(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = lang_for(interaction.locale)
        return [Choice(name=label, value=key) for key, label in sheet.DRIVES.suggest(lang, current)]

    # -- /dune tarea -------------------------------------------------------------------------------

    @tarea.command(name=T("dune.tarea.crear"), description=T("dune.tarea.crear.desc"))
    @options("dune.opt")
    @table_option
    async def tarea_crear(
        self,
        interaction: discord.Interaction,
        nombre: app_commands.Range[str, 1, TASK_NAME_LIMIT],
        requisito: Requirement,
        opuesta: bool = False,
        mesa: str | None = None,
    ) -> None:
        """A goal that passed tests fill, or a looming problem ("desde la dirección
        opuesta") that failed tests and complications fill."""
        table = await gm_table(interaction, mesa)
        name = " ".join(nombre.split())
        if not name or len(name) > TASK_NAME_LIMIT:
            raise Refusal("dune.task_name", max=TASK_NAME_LIMIT)
        task_id = await self.bot.store.save_record(
            table.channel_id,
            interaction.id,
            interaction.user.id,
            TASK_KIND,
            {"name": name, "requirement": requisito, "done": False, "opposing": opuesta},
        )
        lang = lang_for(interaction.locale)
        key = "dune.task.created_looming" if opuesta else "dune.task.created"
        text = t(lang, key, name=name, requirement=requisito, id=task_id)
        await answer_gm(interaction, table, embed=embeds.card(text, colour=embeds.SUCCESS))

    @tarea.command(name=T("dune.ver"), description=T("dune.tarea.ver.desc"))
    async def tarea_ver(self, interaction: discord.Interaction) -> None:
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        tasks = await self.bot.store.records(table.channel_id, TASK_KIND, limit=25)
        embed = embeds.card(t(lang, "dune.task.title"))
        if not tasks:
            embed.description = t(lang, "dune.task.none")
        progress = await task_progress(self.bot, table.channel_id, [task.id for task in tasks])
        for task in reversed(tasks):
            points = progress[task.id]
            requirement = task.data["requirement"]
            state = t(lang, "dune.task.state_done") if task.data.get("done") else ""
            if task.data.get("opposing"):
                state = f"{t(lang, 'dune.task.state_looming')} {state}".strip()
            value = f"{progress_bar(points, requirement)} {points}/{requirement} {state}".strip()
            embeds.field(embed, str(task.data["name"]), value, inline=False)
        await send(interaction, embed=embed)


for _command in (Dune.tirada, Dune.enfrentada, Dune.ayuda):
    _command.autocomplete("habilidad")(sheet.skill_choices)
    _command.autocomplete("motivacion")(sheet.drive_choices)
    _command.autocomplete("enfoque")(sheet.focus_choices)
    _command.autocomplete("como")(access.npc_choices)
Dune.enfrentada.autocomplete("rival_pnj")(access.npc_choices)
Dune.recuperar.autocomplete("ficha")(access.sheet_choices)
Dune.enfrentada.autocomplete("rival_habilidad")(sheet.rival_skill_choices)
Dune.enfrentada.autocomplete("rival_motivacion")(sheet.rival_drive_choices)
