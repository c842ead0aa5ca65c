"""The ``/donjon`` slash commands: parse the options, ask the rules, write the store, answer."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, rolls
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
from bot.i18n import Lang, T, lang_for, options, t
from bot.options import Bounded
from bot.panel import typed_nothing
from bot.rolls import load
from bot.sheets import access
from cogs.donjon import attributes, flow, forms, sheet
from cogs.donjon.combat import CombatButton, RemoveSelect, load_combat, tracker
from cogs.donjon.components import FactNarratedButton, FriendSelect, LawButton, NarratedButton
from cogs.donjon.render import pending_embed
from cogs.donjon.settings import donjon_settings
from cogs.donjon.sheet_model import DonjonSheet
from cogs.donjon.state import (
    ATTRIBUTES_KIND,
    BANK,
    COMBAT_KIND,
    GM,
    GM_BANK,
    KIND,
    bank_change,
    pending_laws,
    who,
)
from rules.donjon import attributes as donjon_attributes
from rules.donjon import combat, contest, difficulty

DIFFICULTY_CHOICES = [Choice(name=T(f"donjon.dificultad.{d}"), value=d) for d in difficulty.DIFFICULTIES]
Pool = app_commands.Transform[int, Bounded(0, contest.MAX_POOL)]
PoolShift = app_commands.Transform[int, Bounded(-contest.MAX_POOL, contest.MAX_POOL)]
Bank = app_commands.Transform[int, Bounded(0, difficulty.MAX_BANK)]
BankShift = app_commands.Transform[int, Bounded(-difficulty.MAX_BANK, difficulty.MAX_BANK)]
ItemSkill = app_commands.Transform[int, Bounded(0, difficulty.MAX_ITEM_SKILL)]
Level = app_commands.Transform[int, Bounded(0, difficulty.MAX_LEVEL)]
Sides = app_commands.Transform[int, Bounded(contest.MIN_SIDES, contest.MAX_SIDES)]
ATTRIBUTE_CHOICES = [Choice(name=T(f"donjon.attr.name.{a}"), value=a) for a in donjon_attributes.ATTRIBUTES]


def adjust_text(lang: Lang, owner: int, delta: int, value: int) -> str:
    """What the GM gave or took, and from whose pool, for the whole table to read."""
    side = "gm" if owner == GM else "player"
    way = "give" if delta > 0 else "take"
    return t(lang, f"donjon.banco.{way}.{side}", player=owner, n=abs(delta), value=value)


# -- the cog ------------------------------------------------------------------------------------


class Donjon(commands.Cog):
    group = app_commands.Group(name=T("donjon.cmd"), description=T("donjon.cmd.desc"), guild_only=True)
    gastos = app_commands.Group(name=T("donjon.gastos"), description=T("donjon.gastos.desc"), parent=group)
    banco = app_commands.Group(name=T("donjon.banco"), description=T("donjon.banco.desc"), parent=group)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.repeaters[KIND] = flow.repeat
        self.bot.repeaters[ATTRIBUTES_KIND] = attributes.reroll
        self.bot.add_dynamic_items(
            LawButton, FriendSelect, NarratedButton, FactNarratedButton, CombatButton, RemoveSelect
        )

    async def cog_unload(self) -> None:
        self.bot.repeaters.pop(KIND, None)
        self.bot.repeaters.pop(ATTRIBUTES_KIND, None)
        self.bot.remove_dynamic_items(
            LawButton, FriendSelect, NarratedButton, FactNarratedButton, CombatButton, RemoveSelect
        )

    # -- tests with the Ley de los Éxitos ----------------------------------------------------

    @group.command(name=T("donjon.prueba"), description=T("donjon.prueba.desc"))
    @options("donjon.opt")
    @options("fichas.opt", "atributo", "habilidad", "como")
    @app_commands.choices(dificultad=DIFFICULTY_CHOICES)
    @reason_option
    @secret_option
    async def prueba(
        self,
        interaction: discord.Interaction[Tirada],
        dados: Pool | None = None,
        atributo: app_commands.Range[str, 1, 60] | None = None,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        objeto: app_commands.Range[str, 1, 60] | None = None,
        como: app_commands.Range[str, 1, 100] | None = None,
        contra: Pool | None = None,
        dificultad: Choice[str] | None = None,
        banco: Pool = 0,
        banco_dj: Pool = 0,
        jugador: discord.Member | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Dice as a number, or an Atributo, a Habilidad and an item of the roller's sheet
        (the GM's NPC with ``como``); with no option at all, a form asks them."""
        if typed_nothing(interaction):
            await open_bare(interaction, self.bot.store, forms.DonjonForm, DonjonSheet)
            return
        parts, character = None, None
        if dados is None or como:
            table = await current_table(interaction)
            player = flow.roller(interaction, table, jugador.id if jugador else None)
            found = await sheet.dice(
                self.bot, interaction, table, atributo, habilidad, como, player, dados, objeto
            )
            dados, parts, character = found
        await flow.prueba(
            interaction,
            dados=dados,
            mine_parts=parts,
            character=character,
            contra=contra,
            dificultad=dificultad.value if dificultad else None,
            banco=banco,
            banco_dj=banco_dj,
            jugador=jugador.id if jugador else None,
            secreta=secreta,
            motivo=reason(motivo),
        )

    @group.command(name=T("donjon.enfrentada"), description=T("donjon.enfrentada.desc"))
    @options("donjon.opt")
    @options("donjon.opt")
    @options("fichas.opt", "atributo", "habilidad", "como", "rival_pnj")
    @reason_option
    @secret_option
    async def enfrentada(
        self,
        interaction: discord.Interaction[Tirada],
        dados: Pool | None = None,
        atributo: app_commands.Range[str, 1, 60] | None = None,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        objeto: app_commands.Range[str, 1, 60] | None = None,
        como: app_commands.Range[str, 1, 100] | None = None,
        rival: discord.Member | None = None,
        rival_dados: Pool | None = None,
        rival_pnj: app_commands.Range[str, 1, 100] | None = None,
        rival_atributo: app_commands.Range[str, 1, 60] | None = None,
        rival_habilidad: app_commands.Range[str, 1, 60] | None = None,
        banco: Pool = 0,
        rival_banco: Pool = 0,
        jugador: discord.Member | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Each side's dice as a number or from a sheet: the roller's Atributo and Habilidad
        (or the GM's NPC ``como``), and the rival's from the GM's NPC ``rival_pnj``; with no
        option at all, a form asks the roller's pool, the other player and their dice."""
        if typed_nothing(interaction):
            await open_bare(interaction, self.bot.store, forms.DonjonOpposedForm, DonjonSheet)
            return
        table = await current_table(interaction)
        if (rival is None) == (rival_pnj is None):
            raise Refusal("fichas.rival_or_npc")
        if rival is not None and rival.bot:
            raise Refusal("donjon.bad_rival")
        player = flow.roller(interaction, table, jugador.id if jugador else None)
        parts, character = None, None
        if dados is None or como:
            found = await sheet.dice(
                self.bot, interaction, table, atributo, habilidad, como, player, dados, objeto
            )
            dados, parts, character = found
        rival_parts, rival_character = None, None
        if rival_pnj:
            found = await sheet.dice(
                self.bot, interaction, table, rival_atributo, rival_habilidad, rival_pnj, typed=rival_dados
            )
            rival_dados, rival_parts, rival_character = found
        elif rival_atributo or rival_habilidad:
            raise Refusal("fichas.npc_names")
        elif rival_dados is None:
            raise Refusal("donjon.need_rival_dice")
        await flow.enfrentada(
            interaction,
            rival=rival.id if rival else GM,
            dados=dados,
            rival_dados=rival_dados,
            banco=banco,
            rival_banco=rival_banco,
            jugador=jugador.id if jugador else None,
            secreta=secreta,
            motivo=reason(motivo),
            mine_parts=parts,
            character=character,
            rival_parts=rival_parts,
            rival_character=rival_character,
        )

    # -- tests without the Law -------------------------------------------------------------------

    @group.command(name=T("donjon.dano"), description=T("donjon.dano.desc"))
    @options("donjon.opt")
    @app_commands.choices(severidad=DIFFICULTY_CHOICES)
    @reason_option
    @secret_option
    async def dano(
        self,
        interaction: discord.Interaction[Tirada],
        aguante: Pool | None = None,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        modificadores: PoolShift = 0,
        severidad: Choice[str] | None = None,
        pnj: app_commands.Range[str, 1, 100] | None = None,
        atributo_pnj: app_commands.Range[str, 1, 60] | None = None,
        habilidad_pnj: app_commands.Range[str, 1, 60] | None = None,
        bonificacion_dj: Bank = 0,
        jugador: discord.Member | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Aguante as a number or from the active sheet of whoever takes the damage, with an
        absorbing Habilidad of that sheet; the NPC's Atributo and Habilidad as numbers or by
        name from the GM's NPC ``pnj``. The damage comes off that sheet's Heridas."""
        table = await current_table(interaction)
        player = flow.roller(interaction, table, jugador.id if jugador else None)
        if aguante is None:
            aguante, _ = await sheet.endurance(self.bot, interaction, table, player)
        found = await sheet.taker(self.bot, table, player)
        absorbs = sheet.absorbing(found, habilidad)
        npc = await sheet.npc_terms(self.bot, interaction, table, atributo_pnj, habilidad_pnj, pnj)
        await flow.dano(
            interaction,
            aguante=aguante,
            habilidad=absorbs,
            ficha=found[0].id if found else None,
            modificadores=modificadores,
            severidad=severidad.value if severidad else None,
            npc_parts=npc[0] if npc else None,
            npc=npc[1] if npc else None,
            character=found[1].nombre if found else None,
            bonificacion_dj=bonificacion_dj,
            jugador=jugador.id if jugador else None,
            secreta=secreta,
            motivo=reason(motivo),
        )

    @gastos.command(name=T("donjon.gastos.comprar"), description=T("donjon.gastos.comprar.desc"))
    @options("donjon.opt")
    @reason_option
    @secret_option
    async def gastos_comprar(
        self,
        interaction: discord.Interaction[Tirada],
        riqueza: Pool,
        valor: Pool,
        sociabilidad: Pool | None = None,
        sobreprecio: Pool = 0,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        intercambio: Pool = 0,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Comprar cosas: Riqueza put in + Sociabilidad (+ a skill, + an item traded) against
        Valor + Sobreprecio. The Riqueza is spent only on a success."""
        ask = {
            "tipo": "comprar",
            "riqueza": riqueza,
            "sociabilidad": sociabilidad,
            "valor": valor,
            "sobreprecio": sobreprecio,
            "habilidad": habilidad,
            "intercambio": intercambio,
        }
        await self.expense(interaction, ask, ("sociabilidad",), secreta, motivo)

    @gastos.command(name=T("donjon.gastos.provisiones"), description=T("donjon.gastos.provisiones.desc"))
    @options("donjon.opt")
    @reason_option
    @secret_option
    async def gastos_provisiones(
        self,
        interaction: discord.Interaction[Tirada],
        riqueza: Pool,
        sociabilidad: Pool | None = None,
        provisiones: Pool | None = None,
        sobreprecio: Pool = 0,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Comprar más Provisiones: against current Provisiones + Sobreprecio; every success
        adds one to Provisiones."""
        ask = {
            "tipo": "provisiones",
            "riqueza": riqueza,
            "sociabilidad": sociabilidad,
            "provisiones": provisiones,
            "sobreprecio": sobreprecio,
            "habilidad": habilidad,
        }
        await self.expense(interaction, ask, ("sociabilidad", "provisiones"), secreta, motivo)

    @gastos.command(name=T("donjon.gastos.influencia"), description=T("donjon.gastos.influencia.desc"))
    @options("donjon.opt")
    @reason_option
    @secret_option
    async def gastos_influencia(
        self,
        interaction: discord.Interaction[Tirada],
        riqueza: Pool,
        riqueza_pnj: Pool,
        discernimiento_pnj: Pool,
        sociabilidad: Pool | None = None,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Usar Riqueza como influencia: the successes become bonus dice for the next social
        proposal to that NPC, banked for the one who paid."""
        ask = {
            "tipo": "influencia",
            "riqueza": riqueza,
            "sociabilidad": sociabilidad,
            "riqueza_pnj": riqueza_pnj,
            "discernimiento_pnj": discernimiento_pnj,
            "habilidad": habilidad,
        }
        await self.expense(interaction, ask, ("sociabilidad",), secreta, motivo)

    @gastos.command(name=T("donjon.gastos.objeto"), description=T("donjon.gastos.objeto.desc"))
    @options("donjon.opt")
    @reason_option
    @secret_option
    async def gastos_objeto(
        self,
        interaction: discord.Interaction[Tirada],
        provisiones: Pool,
        cerebralidad: Pool | None = None,
        valor: Pool = 0,
        habilidad_objeto: ItemSkill = 0,
        inusual: bool = False,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Sacar un objeto de las Provisiones: Provisiones put in + Cerebralidad against the
        Tabla de Provisiones."""
        ask = {
            "tipo": "objeto",
            "provisiones": provisiones,
            "cerebralidad": cerebralidad,
            "valor": valor,
            "habilidad_objeto": habilidad_objeto,
            "inusual": inusual,
            "habilidad": habilidad,
        }
        await self.expense(interaction, ask, ("cerebralidad",), secreta, motivo)

    @gastos.command(name=T("donjon.gastos.vender"), description=T("donjon.gastos.vender.desc"))
    @options("donjon.opt")
    @reason_option
    @secret_option
    async def gastos_vender(
        self,
        interaction: discord.Interaction[Tirada],
        valor: Pool,
        sociabilidad: Pool | None = None,
        riqueza: Pool | None = None,
        sobreprecio: Pool = 0,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Vender por Riqueza: the item's Valor + Sociabilidad against current Riqueza +
        Sobreprecio; each success adds one Riqueza, and the item is sold either way."""
        ask = {
            "tipo": "vender",
            "valor": valor,
            "sociabilidad": sociabilidad,
            "riqueza": riqueza,
            "sobreprecio": sobreprecio,
            "habilidad": habilidad,
        }
        await self.expense(interaction, ask, ("sociabilidad", "riqueza"), secreta, motivo)

    async def expense(
        self,
        interaction: discord.Interaction[Tirada],
        ask: dict[str, Any],
        from_sheet: tuple[str, ...],
        secreta: bool,
        motivo: str | None,
    ) -> None:
        """A Prueba de Gastos, with what was left out read from the roller's sheet."""
        table = await current_table(interaction)
        filled = await sheet.expense(self.bot, interaction, table, ask, from_sheet)
        await flow.gastos(interaction, filled, secreta=secreta, motivo=reason(motivo))

    # -- banked dice, facts, settings -------------------------------------------------------------

    @banco.command(name=T("donjon.banco.ver"), description=T("donjon.banco.ver.desc"))
    @options("donjon.opt")
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
    @options("donjon.opt")
    @table_option
    async def banco_ajustar(
        self,
        interaction: discord.Interaction,
        cantidad: BankShift,
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        """The GM corrects a bank: a player's, or the GM's own when no player is named."""
        table = await gm_table(interaction, mesa)
        if cantidad == 0:
            raise Refusal("donjon.zero")
        owner = jugador.id if jugador else GM
        outcome = await rolls.change(
            self.bot.store, interaction, table, "donjon.bank_adjust", bank_change(owner, cantidad)
        )
        lang = lang_for(interaction.locale)
        notice = embeds.card(
            t(lang, "donjon.banco.title"), adjust_text(lang, owner, cantidad, outcome.pools[0].value)
        )
        await send(interaction, embed=notice)
        if in_gm_channel(table, interaction) and not outcome.replayed:
            await self.bot.get_partial_messageable(table.channel_id, guild_id=interaction.guild_id).send(
                embed=notice
            )

    @group.command(name=T("donjon.hechos"), description=T("donjon.hechos.desc"))
    async def hechos(self, interaction: discord.Interaction) -> None:
        """The facts the table awaits; the GM also gets a secret test's, where only the GM
        reads them (privately, or in the GM channel), marked secret."""
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        pending = await pending_laws(self.bot.store, table.channel_id, secret=is_gm(table, interaction))
        shown = [(record, law) for record, law in pending if not record.secret]
        embed = pending_embed(lang, shown)
        if not shown:
            embed.description = t(lang, "donjon.hechos.none")
        await send(interaction, embed=embed)
        secret = [(record, law) for record, law in pending if record.secret]
        if secret:
            await answer_gm(interaction, table, embed=pending_embed(lang, secret, secret=True))

    @group.command(name=T("donjon.ajustes"), description=T("donjon.ajustes.desc"))
    @options("donjon.opt")
    @table_option
    async def ajustes(
        self,
        interaction: discord.Interaction,
        nivel: Level | None = None,
        dado: Sides | None = None,
        mesa: str | None = None,
    ) -> None:
        """The Donjon level and the "Tipo de dado" dial (d20 unless the table says otherwise)."""
        table = await current_table(interaction, mesa)
        if (nivel is not None or dado is not None) and not is_gm(table, interaction):
            raise Refusal("error.not_gm")
        update = {
            name: value
            for name, value in (("donjon_level", nivel), ("donjon_sides", dado))
            if value is not None
        }
        if update:
            settings = table.settings.model_copy(update=update)
            table = await self.bot.store.set_settings(table.channel_id, interaction.guild_id, settings)
        lang = lang_for(interaction.locale)
        own = donjon_settings(table)
        text = t(lang, "donjon.ajustes.state", level=own.donjon_level, sides=own.donjon_sides)
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
            (r for r in await store.records(table.channel_id, COMBAT_KIND, 5) if not load_combat(r).ended),
            None,
        )
        if open_combat is None:
            state = combat.combat_to_data(combat.Combat(sides=donjon_settings(table).donjon_sides))
            combat_id = await store.save_record(
                table.channel_id, interaction.id, interaction.user.id, COMBAT_KIND, state
            )
            open_combat = await load(interaction, combat_id, COMBAT_KIND)
        lang = lang_for(interaction.locale)
        message_id = await send(interaction, **tracker(lang, open_combat))
        if message_id is not None:
            await store.set_record_message(open_combat.id, message_id)

    @group.command(name=T("donjon.atributos"), description=T("donjon.atributos.desc"))
    @options("donjon.opt")
    @app_commands.choices(
        metodo=[Choice(name=T(f"donjon.metodo.{m}"), value=m) for m in donjon_attributes.ROLLED_METHODS]
    )
    @reason_option
    @secret_option
    async def atributos(
        self,
        interaction: discord.Interaction[Tirada],
        metodo: Choice[str] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        await attributes.roll_attributes(
            interaction, metodo.value if metodo else "estandar", secreta=secreta, motivo=reason(motivo)
        )

    @group.command(name=T("donjon.cambiar"), description=T("donjon.cambiar.desc"))
    @options("donjon.opt")
    @app_commands.choices(sube=ATTRIBUTE_CHOICES, baja=ATTRIBUTE_CHOICES)
    async def cambiar(
        self, interaction: discord.Interaction[Tirada], sube: Choice[str], baja: Choice[str]
    ) -> None:
        """A Elección del Jugador Mejorado: one point from one Atributo to another."""
        await attributes.swap(interaction, sube.value, baja.value)

    @group.command(name=T("donjon.puntos"), description=T("donjon.puntos.desc"))
    @options("donjon.opt")
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
        donjon_attributes.check_point_buy(scores)
        lang = lang_for(interaction.locale)
        lines = [
            t(lang, f"donjon.attr.{name}", value=v)
            for name, v in zip(donjon_attributes.ATTRIBUTES, scores, strict=True)
        ]
        await send(
            interaction, embed=embeds.card(t(lang, "donjon.puntos.ok"), "\n".join(lines), embeds.SUCCESS)
        )


Donjon.prueba.autocomplete("atributo")(sheet.attribute_choices)
Donjon.prueba.autocomplete("habilidad")(sheet.skill_choices)
Donjon.prueba.autocomplete("como")(access.npc_choices)
Donjon.prueba.autocomplete("objeto")(sheet.item_choices)
Donjon.enfrentada.autocomplete("atributo")(sheet.attribute_choices)
Donjon.enfrentada.autocomplete("habilidad")(sheet.skill_choices)
Donjon.enfrentada.autocomplete("como")(access.npc_choices)
Donjon.enfrentada.autocomplete("objeto")(sheet.item_choices)
Donjon.enfrentada.autocomplete("rival_pnj")(access.npc_choices)
Donjon.enfrentada.autocomplete("rival_atributo")(sheet.attributes_of("rival_pnj"))
Donjon.enfrentada.autocomplete("rival_habilidad")(sheet.skills_of("rival_pnj"))
Donjon.dano.autocomplete("pnj")(access.npc_choices)
Donjon.dano.autocomplete("habilidad")(sheet.taker_skill_choices)
Donjon.dano.autocomplete("atributo_pnj")(sheet.attributes_of("pnj"))
Donjon.dano.autocomplete("habilidad_pnj")(sheet.skills_of("pnj"))
Donjon.gastos_comprar.autocomplete("habilidad")(sheet.skill_choices)
Donjon.gastos_provisiones.autocomplete("habilidad")(sheet.skill_choices)
Donjon.gastos_influencia.autocomplete("habilidad")(sheet.skill_choices)
Donjon.gastos_objeto.autocomplete("habilidad")(sheet.skill_choices)
Donjon.gastos_vender.autocomplete("habilidad")(sheet.skill_choices)
