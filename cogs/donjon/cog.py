"""The ``/donjon`` slash commands: parse the options, ask the rules, write the store, answer."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, rolls
from bot.checks import answer_gm, current_table, gm_table, is_gm, secret_option, table_option
from bot.client import Tirada
from bot.errors import Refusal, RefusedCheck, send
from bot.i18n import T, lang_for, options, t
from bot.models import Change, Table
from bot.reveal import is_secret
from bot.rolls import load
from cogs.donjon.combat import CombatButton, RemoveSelect, combat_embed, combat_view, load_combat
from cogs.donjon.components import FriendSelect, LawButton, NarratedButton, law_view
from cogs.donjon.render import attributes_embed, roll_embed
from cogs.donjon.state import (
    ATTRIBUTES_KIND,
    BANK,
    COMBAT_KIND,
    GM,
    GM_BANK,
    KIND,
    MAX_BANK,
    bank_change,
    check,
    who,
)
from rules import donjon
from rules.donjon import Contest, DonjonRoll, Law

DIFFICULTY_CHOICES = [Choice(name=T(f"donjon.dificultad.{d}"), value=d) for d in donjon.DIFFICULTIES]


# -- the cog ------------------------------------------------------------------------------------


class Donjon(commands.Cog):
    group = app_commands.Group(name=T("donjon.cmd"), description=T("donjon.cmd.desc"), guild_only=True)
    gastos = app_commands.Group(name=T("donjon.gastos"), description=T("donjon.gastos.desc"), parent=group)
    banco = app_commands.Group(name=T("donjon.banco"), description=T("donjon.banco.desc"), parent=group)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LawButton, FriendSelect, NarratedButton, CombatButton, RemoveSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LawButton, FriendSelect, NarratedButton, CombatButton, RemoveSelect)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise RefusedCheck("error.guild_only")
        return True

    # -- tests with the Ley de los Éxitos ----------------------------------------------------

    @group.command(name=T("donjon.prueba"), description=T("donjon.prueba.desc"))
    @options("donjon.opt", "dados", "contra", "dificultad", "banco")
    @app_commands.choices(dificultad=DIFFICULTY_CHOICES)
    @secret_option
    async def prueba(
        self,
        interaction: discord.Interaction,
        dados: app_commands.Range[int, 0, 100],
        contra: app_commands.Range[int, 0, 100] | None = None,
        dificultad: Choice[str] | None = None,
        banco: app_commands.Range[int, 0, 100] = 0,
        secreta: bool = False,
    ) -> None:
        """A test against an opposing NPC (``contra`` dice) or an obstacle (the difficulty's
        dice plus the Donjon level; Media when neither is given)."""
        table = await current_table(interaction)
        if contra is not None and dificultad is not None:
            raise Refusal("donjon.contra_or_difficulty")
        check("dados", dados, 0, donjon.MAX_POOL)
        check("banco", banco, 0, MAX_BANK)
        if contra is not None:
            check("contra", contra, 0, donjon.MAX_POOL)
            gm_dice = contra
        else:
            gm_dice = donjon.difficulty_dice(dificultad.value if dificultad else "media", table.donjon_level)
        check("dados", dados + banco, 0, donjon.MAX_POOL)
        me = interaction.user.id
        await self.contest(
            interaction,
            table,
            "prueba",
            dados + banco,
            gm_dice,
            spend=((bank_change(me, -banco),) if banco else ()),
            law_for={"a": (me, GM), "b": (GM, me)},
            details={"bank_spent": banco},
            secret=secreta,
        )

    @group.command(name=T("donjon.enfrentada"), description=T("donjon.enfrentada.desc"))
    @options("donjon.opt", "rival", "dados", "rival_dados", "banco")
    @secret_option
    async def enfrentada(
        self,
        interaction: discord.Interaction,
        rival: discord.Member,
        dados: app_commands.Range[int, 0, 100],
        rival_dados: app_commands.Range[int, 0, 100],
        banco: app_commands.Range[int, 0, 100] = 0,
        secreta: bool = False,
    ) -> None:
        """Two characters against each other; the winner allocates, the loser narrates."""
        table = await current_table(interaction)
        if rival.bot or rival.id == interaction.user.id:
            raise Refusal("donjon.bad_rival")
        for name, value in (("dados", dados), ("rival_dados", rival_dados), ("banco", banco)):
            check(name, value, 0, donjon.MAX_POOL)
        check("dados", dados + banco, 0, donjon.MAX_POOL)
        me = interaction.user.id
        await self.contest(
            interaction,
            table,
            "enfrentada",
            dados + banco,
            rival_dados,
            spend=((bank_change(me, -banco),) if banco else ()),
            law_for={"a": (me, rival.id), "b": (rival.id, me)},
            details={"rival": rival.id, "bank_spent": banco},
            secret=secreta,
        )

    async def contest(
        self,
        interaction: discord.Interaction,
        table: Table,
        kind: str,
        a: int,
        b: int,
        *,
        spend: tuple[Change, ...] = (),
        law_for: dict[str, tuple[int, int]] | None = None,
        details: dict[str, Any] | None = None,
        gain: Any = None,
        secret: bool = False,
    ) -> None:
        """Roll a test, record it with whatever it spends or gains, and post it."""
        secret = is_secret(interaction, table, secret)
        test = donjon.roll_contest(self.bot.rng, a, b, table.settings.donjon_sides)
        law = None
        if law_for is not None and test.winner is not None:
            winner, narrator = law_for[test.winner]
            law = Law(winner, narrator, test.successes)
        roll = DonjonRoll(kind, test, law, dict(details or {}))
        changes = spend + (gain(test) if gain else ())
        record = await rolls.record(
            self.bot.store, interaction, table, KIND, donjon.to_data(roll), f"donjon.{kind}", changes
        )
        lang = lang_for(interaction.locale)
        embed, view = roll_embed(lang, record), law_view(lang, record)
        await rolls.post(self.bot.store, interaction, table, record, embed, view, secret=secret)

    # -- tests without the Law -------------------------------------------------------------------

    @group.command(name=T("donjon.dano"), description=T("donjon.dano.desc"))
    @options("donjon.opt", "aguante", "modificadores", "severidad", "bonificacion_dj")
    @app_commands.choices(severidad=DIFFICULTY_CHOICES)
    @secret_option
    async def dano(
        self,
        interaction: discord.Interaction,
        aguante: app_commands.Range[int, 0, 100],
        modificadores: app_commands.Range[int, -100, 100] = 0,
        severidad: Choice[str] | None = None,
        bonificacion_dj: app_commands.Range[int, 0, 100] = 0,
        secreta: bool = False,
    ) -> None:
        """Prueba de Daño: Aguante (+ modifiers) against level + severity + the GM's banked
        successes; "cada éxito del DJ en una Prueba de Daño resta una Herida"."""
        table = await current_table(interaction)
        check("aguante", aguante, 0, donjon.MAX_POOL)
        check("modificadores", modificadores, -donjon.MAX_POOL, donjon.MAX_POOL)
        check("bonificacion_dj", bonificacion_dj, 0, MAX_BANK)
        if bonificacion_dj and not is_gm(table, interaction):
            raise Refusal("donjon.gm_bank_gm_only")
        player = max(aguante + modificadores, 0)
        severity = severidad.value if severidad else donjon.DEFAULT_SEVERITY
        gm_dice = donjon.damage_dice(table.donjon_level, severity, bonificacion_dj)
        check("dados", gm_dice, 0, donjon.MAX_POOL)
        await self.contest(
            interaction,
            table,
            "dano",
            player,
            gm_dice,
            spend=((Change(GM_BANK, -bonificacion_dj),) if bonificacion_dj else ()),
            secret=secreta,
        )

    @gastos.command(name=T("donjon.gastos.comprar"), description=T("donjon.gastos.comprar.desc"))
    @options("donjon.opt", "riqueza", "sociabilidad", "valor", "sobreprecio", "habilidad", "intercambio")
    @secret_option
    async def gastos_comprar(
        self,
        interaction: discord.Interaction,
        riqueza: app_commands.Range[int, 0, 100],
        sociabilidad: app_commands.Range[int, 0, 100],
        valor: app_commands.Range[int, 0, 100],
        sobreprecio: app_commands.Range[int, 0, 100] = 0,
        habilidad: app_commands.Range[int, 0, 100] = 0,
        intercambio: app_commands.Range[int, 0, 100] = 0,
        secreta: bool = False,
    ) -> None:
        """Comprar cosas: Riqueza put in + Sociabilidad (+ a skill, + an item traded) against
        Valor + Sobreprecio. The Riqueza is spent only on a success."""
        await self.expense(
            interaction,
            "comprar",
            riqueza,
            (sociabilidad, habilidad, intercambio),
            valor + sobreprecio,
            {"spent": riqueza},
            secret=secreta,
        )

    @gastos.command(name=T("donjon.gastos.provisiones"), description=T("donjon.gastos.provisiones.desc"))
    @options("donjon.opt", "riqueza", "sociabilidad", "provisiones", "sobreprecio", "habilidad")
    @secret_option
    async def gastos_provisiones(
        self,
        interaction: discord.Interaction,
        riqueza: app_commands.Range[int, 0, 100],
        sociabilidad: app_commands.Range[int, 0, 100],
        provisiones: app_commands.Range[int, 0, 100],
        sobreprecio: app_commands.Range[int, 0, 100] = 0,
        habilidad: app_commands.Range[int, 0, 100] = 0,
        secreta: bool = False,
    ) -> None:
        """Comprar más Provisiones: against current Provisiones + Sobreprecio; every success
        adds one to Provisiones."""
        await self.expense(
            interaction,
            "provisiones",
            riqueza,
            (sociabilidad, habilidad),
            provisiones + sobreprecio,
            {"spent": riqueza},
            secret=secreta,
        )

    @gastos.command(name=T("donjon.gastos.influencia"), description=T("donjon.gastos.influencia.desc"))
    @options("donjon.opt", "riqueza", "sociabilidad", "riqueza_pnj", "discernimiento_pnj", "habilidad")
    @secret_option
    async def gastos_influencia(
        self,
        interaction: discord.Interaction,
        riqueza: app_commands.Range[int, 0, 100],
        sociabilidad: app_commands.Range[int, 0, 100],
        riqueza_pnj: app_commands.Range[int, 0, 100],
        discernimiento_pnj: app_commands.Range[int, 0, 100],
        habilidad: app_commands.Range[int, 0, 100] = 0,
        secreta: bool = False,
    ) -> None:
        """Usar Riqueza como influencia: the successes become bonus dice for the next social
        proposal to that NPC, banked for the one who paid."""
        me = interaction.user.id

        def gain(test: Contest) -> tuple[Change, ...]:
            return (bank_change(me, test.successes),) if test.winner == "a" else ()

        await self.expense(
            interaction,
            "influencia",
            riqueza,
            (sociabilidad, habilidad),
            riqueza_pnj + discernimiento_pnj,
            {"spent": riqueza},
            gain,
            secret=secreta,
        )

    @gastos.command(name=T("donjon.gastos.objeto"), description=T("donjon.gastos.objeto.desc"))
    @options("donjon.opt", "provisiones", "cerebralidad", "valor", "habilidad_objeto", "inusual", "habilidad")
    @secret_option
    async def gastos_objeto(
        self,
        interaction: discord.Interaction,
        provisiones: app_commands.Range[int, 0, 100],
        cerebralidad: app_commands.Range[int, 0, 100],
        valor: app_commands.Range[int, 0, 100] = 0,
        habilidad_objeto: app_commands.Range[int, 0, 4] = 0,
        inusual: bool = False,
        habilidad: app_commands.Range[int, 0, 100] = 0,
        secreta: bool = False,
    ) -> None:
        """Sacar un objeto de las Provisiones: Provisiones put in + Cerebralidad against the
        Tabla de Provisiones."""
        check("valor", valor, 0, donjon.MAX_POOL)
        gm_dice = donjon.provisions_dice(valor, habilidad_objeto, inusual)
        await self.expense(
            interaction,
            "objeto",
            provisiones,
            (cerebralidad, habilidad),
            gm_dice,
            {"spent": provisiones},
            secret=secreta,
        )

    @gastos.command(name=T("donjon.gastos.vender"), description=T("donjon.gastos.vender.desc"))
    @options("donjon.opt", "valor", "sociabilidad", "riqueza", "sobreprecio", "habilidad")
    @secret_option
    async def gastos_vender(
        self,
        interaction: discord.Interaction,
        valor: app_commands.Range[int, 0, 100],
        sociabilidad: app_commands.Range[int, 0, 100],
        riqueza: app_commands.Range[int, 0, 100],
        sobreprecio: app_commands.Range[int, 0, 100] = 0,
        habilidad: app_commands.Range[int, 0, 100] = 0,
        secreta: bool = False,
    ) -> None:
        """Vender por Riqueza: the item's Valor + Sociabilidad against current Riqueza +
        Sobreprecio; each success adds one Riqueza, and the item is sold either way."""
        await self.expense(
            interaction, "vender", valor, (sociabilidad, habilidad), riqueza + sobreprecio, {}, secret=secreta
        )

    async def expense(
        self,
        interaction: discord.Interaction,
        kind: str,
        put_in: int,
        added: tuple[int, ...],
        gm_dice: int,
        params: dict[str, int],
        gain: Any = None,
        *,
        secret: bool = False,
    ) -> None:
        """A Prueba de Gastos: "La Ley de los Éxitos no se aplica"; the dice put in are spent
        only if the test succeeds."""
        table = await current_table(interaction)
        for value in (put_in, *added, gm_dice):
            check("dados", value, 0, donjon.MAX_POOL)
        player = put_in + sum(added)
        check("dados", player, 0, donjon.MAX_POOL)
        await self.contest(
            interaction,
            table,
            f"gastos_{kind}",
            player,
            gm_dice,
            details={"params": params},
            gain=gain,
            secret=secret,
        )

    # -- banked dice, facts, settings -------------------------------------------------------------

    @banco.command(name=T("donjon.banco.ver"), description=T("donjon.banco.ver.desc"))
    @options("donjon.opt", "jugador")
    async def banco_ver(
        self, interaction: discord.Interaction, jugador: discord.Member | None = None
    ) -> None:
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        pools = await self.bot.store.pools(table.channel_id)
        shown = [
            p
            for p in pools
            if p.pool in (BANK, GM_BANK) and p.value and (jugador is None or p.owner_id == jugador.id)
        ]
        lines = [
            t(lang, "donjon.banco.line", owner=who(lang, p.owner_id if p.pool == BANK else GM), value=p.value)
            for p in shown
        ]
        embed = embeds.card(t(lang, "donjon.banco.title"), "\n".join(lines) or t(lang, "donjon.banco.empty"))
        await send(interaction, embed=embed, ephemeral=True)

    @banco.command(name=T("donjon.banco.ajustar"), description=T("donjon.banco.ajustar.desc"))
    @options("donjon.opt", "cantidad", "jugador")
    @table_option
    async def banco_ajustar(
        self,
        interaction: discord.Interaction,
        cantidad: app_commands.Range[int, -100, 100],
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        """The GM corrects a bank: a player's, or the GM's own when no player is named."""
        table = await gm_table(interaction, mesa)
        check("cantidad", cantidad, -MAX_BANK, MAX_BANK)
        if cantidad == 0:
            raise Refusal("donjon.zero")
        owner = jugador.id if jugador else GM
        outcome = await rolls.change(
            self.bot.store, interaction, table, "donjon.bank_adjust", bank_change(owner, cantidad)
        )
        lang = lang_for(interaction.locale)
        value = outcome.pools[0].value
        text = t(lang, "donjon.banco.adjusted", owner=who(lang, owner), delta=cantidad, value=value)
        await answer_gm(interaction, table, embed=embeds.card(t(lang, "donjon.banco.title"), text))

    @group.command(name=T("donjon.hechos"), description=T("donjon.hechos.desc"))
    async def hechos(self, interaction: discord.Interaction) -> None:
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        pending = []
        for record in await self.bot.store.rolls(table.channel_id, KIND, limit=200):
            law = donjon.from_data(record.data).law
            if law is not None and law.facts and not law.narrated:
                pending.append((record, law))
        embed = embeds.card(t(lang, "donjon.hechos.title"))
        if not pending:
            embed.description = t(lang, "donjon.hechos.none")
        for record, law in reversed(pending[:20]):
            facts = "\n".join(f"• {discord.utils.escape_markdown(f.text)}" for f in law.facts)
            name = t(lang, "donjon.hechos.entry", id=record.id, narrator=who(lang, law.narrator_id or GM))
            embeds.field(embed, name, facts, inline=False)
        await send(interaction, embed=embed)

    @group.command(name=T("donjon.ajustes"), description=T("donjon.ajustes.desc"))
    @options("donjon.opt", "nivel", "dado")
    @table_option
    async def ajustes(
        self,
        interaction: discord.Interaction,
        nivel: app_commands.Range[int, 0, 30] | None = None,
        dado: app_commands.Range[int, 2, 100] | None = None,
        mesa: str | None = None,
    ) -> None:
        """The Donjon level and the "Tipo de dado" dial (d20 unless the table says otherwise)."""
        table = await current_table(interaction, mesa)
        if (nivel is not None or dado is not None) and not is_gm(table, interaction):
            raise Refusal("error.not_gm")
        if nivel is not None:
            donjon.check_level(nivel)
            table = await self.bot.store.set_donjon_level(table.channel_id, interaction.guild_id, nivel)
        if dado is not None:
            check("dado", dado, 2, 100)
            settings = table.settings.model_copy(update={"donjon_sides": dado})
            table = await self.bot.store.set_settings(table.channel_id, interaction.guild_id, settings)
        lang = lang_for(interaction.locale)
        text = t(lang, "donjon.ajustes.state", level=table.donjon_level, sides=table.settings.donjon_sides)
        await send(
            interaction,
            embed=embeds.card(t(lang, "donjon.ajustes.title"), text),
            ephemeral=True,
        )

    # -- initiative and attributes -------------------------------------------------------------

    @group.command(name=T("donjon.iniciativa"), description=T("donjon.iniciativa.desc"))
    async def iniciativa(self, interaction: discord.Interaction) -> None:
        """The channel's combat panel: a new one, or the open one posted again."""
        table = await current_table(interaction)
        store = self.bot.store
        open_combat = next(
            (r for r in await store.rolls(table.channel_id, COMBAT_KIND, 5) if not load_combat(r).ended),
            None,
        )
        if open_combat is None:
            state = donjon.combat_to_data(donjon.Combat(sides=table.settings.donjon_sides))
            combat_id = await store.save_roll(
                table.channel_id, interaction.id, interaction.user.id, COMBAT_KIND, state
            )
            open_combat = await load(store, combat_id, COMBAT_KIND)
        lang = lang_for(interaction.locale)
        message_id = await send(
            interaction,
            embed=combat_embed(lang, load_combat(open_combat)),
            view=combat_view(lang, open_combat),
        )
        if message_id is not None:
            await store.set_roll_message(open_combat.id, message_id)

    @group.command(name=T("donjon.atributos"), description=T("donjon.atributos.desc"))
    @options("donjon.opt", "metodo")
    @app_commands.choices(
        metodo=[Choice(name=T(f"donjon.metodo.{m}"), value=m) for m in ("estandar", "mejorado", "eleccion")]
    )
    @secret_option
    async def atributos(
        self, interaction: discord.Interaction, metodo: Choice[str] | None = None, secreta: bool = False
    ) -> None:
        method = metodo.value if metodo else "estandar"
        table = await current_table(interaction)
        secret = is_secret(interaction, table, secreta)
        lang = lang_for(interaction.locale)
        embed = attributes_embed(lang, method, donjon.roll_attributes(self.bot.rng, method == "eleccion"))
        record = await rolls.record(
            self.bot.store, interaction, table, ATTRIBUTES_KIND, {}, "donjon.atributos"
        )
        await rolls.post(self.bot.store, interaction, table, record, embed, None, secret=secret)

    @group.command(name=T("donjon.puntos"), description=T("donjon.puntos.desc"))
    @options("donjon.opt", *donjon.ATTRIBUTES)
    async def puntos(
        self,
        interaction: discord.Interaction,
        virilidad: int,
        cerebralidad: int,
        discernimiento: int,
        celeridad: int,
        aguante: int,
        sociabilidad: int,
    ) -> None:
        """A Elección del Jugador: 21 points, each Atributo from 1 to 6."""
        scores = [virilidad, cerebralidad, discernimiento, celeridad, aguante, sociabilidad]
        donjon.check_point_buy(scores)
        lang = lang_for(interaction.locale)
        lines = [
            t(lang, f"donjon.attr.{name}", value=v) for name, v in zip(donjon.ATTRIBUTES, scores, strict=True)
        ]
        await send(
            interaction, embed=embeds.card(t(lang, "donjon.puntos.ok"), "\n".join(lines), embeds.SUCCESS)
        )
