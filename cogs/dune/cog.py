"""The ``/dune`` slash commands: parse the options, ask the rules, write the store, answer."""

from __future__ import annotations

from dataclasses import asdict, replace

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, rolls
from bot.checks import answer_gm, current_table, gm_table, is_gm, secret_option, table_option
from bot.client import Tirada
from bot.errors import Refusal, RefusedCheck, send
from bot.i18n import T, lang_for, options, t
from bot.models import Change, RollUpdate, Table
from bot.reveal import is_secret
from bot.rolls import load
from cogs.dune.components import AssistButton, DuneButton, RerollSelect, assist_view, render_roll
from cogs.dune.render import assist_embed, pools_text, progress_bar
from cogs.dune.state import (
    AMENAZA,
    ASSIST_KIND,
    DETERMINACION,
    DIFICULTAD_EXTRA,
    IMPULSO,
    KIND,
    MAX_POINTS,
    TASK_KIND,
    TASK_NAME_LIMIT,
    RollSpec,
    check_bound,
    determination_change,
    momentum_change,
    task_progress,
    threat_change,
)
from rules import dune

PAYMENTS = [Choice(name=T(f"dune.pago.{p}"), value=p) for p in ("impulso", "amenaza", "mixto")]
THREAT_SPENDS = [Choice(name=T(f"dune.gasto.{k}"), value=k) for k in dune.THREAT_SPENDS]


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
        await rolls.change(self.bot.store, interaction, table, "dune.impulso.add", momentum_change(cantidad))
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
    @options("dune.opt", "cantidad")
    async def amenaza_anadir(
        self, interaction: discord.Interaction, cantidad: app_commands.Range[int, 1, 20] = 1
    ) -> None:
        """Players add Amenaza for escalation; the GM for threatening circumstances."""
        check_bound("cantidad", cantidad, 1, MAX_POINTS)
        table = await current_table(interaction)
        await rolls.change(self.bot.store, interaction, table, "dune.amenaza.add", threat_change(cantidad))
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
            await rolls.change(self.bot.store, interaction, table, f"dune.amenaza.{gasto.value}", *changes)
            text = t(lang, "dune.amenaza.spent_on", use=t(lang, f"dune.gasto.{gasto.value}"), amount=cost)
        else:
            amount = cantidad or 1
            check_bound("cantidad", amount, 1, MAX_POINTS)
            await rolls.change(
                self.bot.store, interaction, table, "dune.amenaza.spend", Change(AMENAZA, -amount)
            )
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
        await rolls.change(self.bot.store, interaction, table, "dune.adventure", *changes)
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
