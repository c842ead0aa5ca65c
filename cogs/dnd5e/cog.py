"""The ``/dnd`` slash commands: parse the options, ask the rules, write the store, answer."""

from __future__ import annotations

from typing import Any

import d20
import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, render, rolls
from bot.checks import (
    current_table,
    gm_table,
    in_gm_channel,
    secret_option,
    table_option,
)
from bot.client import Tirada
from bot.context import table_context
from bot.errors import Refusal, RefusedCheck, send
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import Change, RollRecord, Table
from bot.names import ABILITIES, SKILLS, Names, fold
from bot.reveal import is_secret
from bot.rolls import Decision, act, load
from cogs.dnd5e.combat import (
    TrackerButton,
    add_fighter,
    fighters,
    initiative_entry,
    tracker_embed,
    tracker_view,
)
from cogs.dnd5e.components import InspirationButton, PassSelect, damage_for, inspiration_view
from cogs.dnd5e.render import roll_embed
from cogs.dnd5e.state import (
    COMBAT_KIND,
    EXPRESSION_KIND,
    GRANT_KIND,
    INSPIRATION,
    KIND,
    check,
    test_data,
)
from rules import dnd5e
from rules.dnd5e import Mode
from rules.errors import RuleError
from rules.expression import roll_expression

COVER_CHOICES = [Choice(name=T(f"dnd.cobertura.{c}"), value=c) for c in ("media", "tres_cuartos", "completa")]


def matches(lang: Lang, current: str, names: Names) -> list[Choice[str]]:
    return [Choice(name=label, value=key) for key, label in names.suggest(lang, current)]


# -- the cog ----------------------------------------------------------------------------------


class Dnd(commands.Cog):
    group = app_commands.Group(name=T("dnd.cmd"), description=T("dnd.cmd.desc"), guild_only=True)
    inspiracion = app_commands.Group(
        name=T("dnd.inspiracion"), description=T("dnd.inspiracion.desc"), parent=group
    )
    iniciativa = app_commands.Group(
        name=T("dnd.iniciativa"), description=T("dnd.iniciativa.desc"), parent=group
    )

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(InspirationButton, PassSelect, TrackerButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(InspirationButton, PassSelect, TrackerButton)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise RefusedCheck("error.guild_only")
        return True

    # -- rolls --------------------------------------------------------------------------

    async def post(self, interaction: discord.Interaction, data: dict[str, Any], secret: bool) -> None:
        """Record a roll and post it, with inspiration buttons if the roller holds it."""
        table = await current_table(interaction)
        secret = is_secret(interaction, table, secret)
        record = await rolls.record(self.bot.store, interaction, table, KIND, data, f"dnd.{data['kind']}")
        lang = lang_for(interaction.locale)
        holds = await self.bot.store.pool(table.channel_id, INSPIRATION, interaction.user.id) > 0
        embed, view = roll_embed(lang, record), inspiration_view(lang, record, holds)
        await rolls.post(self.bot.store, interaction, table, record, embed, view, secret=secret)

    @group.command(name=T("dnd.prueba"), description=T("dnd.prueba.desc"))
    @options(
        "dnd.opt",
        "modificador",
        "caracteristica",
        "habilidad",
        "competencia",
        "pericia",
        "nivel",
        "bonificacion",
        "ventaja",
        "desventaja",
        "cd",
    )
    @secret_option
    async def prueba(
        self,
        interaction: discord.Interaction,
        modificador: app_commands.Range[int, -30, 30],
        caracteristica: str | None = None,
        habilidad: str | None = None,
        competencia: bool = False,
        pericia: bool = False,
        nivel: app_commands.Range[int, 0, 30] = 1,
        bonificacion: app_commands.Range[int, -30, 30] = 0,
        ventaja: bool = False,
        desventaja: bool = False,
        cd: app_commands.Range[int, 1, 50] | None = None,
        secreta: bool = False,
    ) -> None:
        """An ability check, optionally with a skill (its ability follows from the table)."""
        skill = SKILLS.find(habilidad) if habilidad is not None else None
        ability = ABILITIES.find(caracteristica) if caracteristica is not None else None
        ability = ability or (dnd5e.SKILLS[skill] if skill else None)
        modifier = dnd5e.total_modifier(
            modificador, dnd5e.proficiency_bonus(nivel), competencia, pericia, bonificacion
        )
        test = dnd5e.roll_test(self.bot.rng, modifier, dnd5e.mode(ventaja, desventaja), cd)
        await self.post(
            interaction,
            {"kind": "prueba", "what": {"ability": ability, "skill": skill}, "test": test_data(test)},
            secreta,
        )

    @group.command(name=T("dnd.salvacion"), description=T("dnd.salvacion.desc"))
    @options(
        "dnd.opt",
        "caracteristica",
        "modificador",
        "competencia",
        "nivel",
        "bonificacion",
        "ventaja",
        "desventaja",
        "cd",
    )
    @secret_option
    async def salvacion(
        self,
        interaction: discord.Interaction,
        caracteristica: str,
        modificador: app_commands.Range[int, -30, 30],
        competencia: bool = False,
        nivel: app_commands.Range[int, 0, 30] = 1,
        bonificacion: app_commands.Range[int, -30, 30] = 0,
        ventaja: bool = False,
        desventaja: bool = False,
        cd: app_commands.Range[int, 1, 50] | None = None,
        secreta: bool = False,
    ) -> None:
        ability = ABILITIES.find(caracteristica)
        modifier = dnd5e.total_modifier(
            modificador, dnd5e.proficiency_bonus(nivel), competencia, False, bonificacion
        )
        test = dnd5e.roll_test(self.bot.rng, modifier, dnd5e.mode(ventaja, desventaja), cd)
        await self.post(
            interaction,
            {"kind": "salvacion", "what": {"ability": ability}, "test": test_data(test)},
            secreta,
        )

    @group.command(name=T("dnd.ataque"), description=T("dnd.ataque.desc"))
    @options("dnd.opt", "bonificador", "ca", "dano", "ventaja", "desventaja", "cobertura")
    @app_commands.choices(cobertura=COVER_CHOICES)
    @secret_option
    async def ataque(
        self,
        interaction: discord.Interaction,
        bonificador: app_commands.Range[int, -30, 30],
        ca: app_commands.Range[int, 1, 50],
        dano: app_commands.Range[str, 1, 200] | None = None,
        ventaja: bool = False,
        desventaja: bool = False,
        cobertura: Choice[str] | None = None,
        secreta: bool = False,
    ) -> None:
        """To hit against AC (+ cover) and, on a hit, the damage (doubled dice on a 20)."""
        if dano is not None:
            dnd5e.critical_tree(dano)  # refuse a bad damage expression before rolling anything
        test = dnd5e.roll_attack(
            self.bot.rng,
            bonificador,
            ca,
            dnd5e.mode(ventaja, desventaja),
            cobertura.value if cobertura else "ninguna",
        )
        data = {
            "kind": "ataque",
            "what": {},
            "test": test_data(test),
            "damage": dano,
            "damage_roll": damage_for(self.bot, dano, test),
        }
        await self.post(interaction, data, secreta)

    @prueba.autocomplete("caracteristica")
    @salvacion.autocomplete("caracteristica")
    async def ability_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = lang_for(interaction.locale)
        return matches(lang, current, ABILITIES)

    @prueba.autocomplete("habilidad")
    async def skill_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = lang_for(interaction.locale)
        return matches(lang, current, SKILLS)

    @prueba.autocomplete("cd")
    @salvacion.autocomplete("cd")
    async def dc_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        lang = lang_for(interaction.locale)
        named = [Choice(name=t(lang, f"dnd.dc.{k}", dc=v), value=v) for k, v in dnd5e.DCS.items()]
        return [c for c in named if fold(current) in fold(c.name)][:25]

    @group.command(name=T("dnd.tirar"), description=T("dnd.tirar.desc"))
    @options("dnd.opt", "expresion", "ventaja", "desventaja")
    @secret_option
    async def tirar(
        self,
        interaction: discord.Interaction,
        expresion: app_commands.Range[str, 1, 200],
        ventaja: bool = False,
        desventaja: bool = False,
        secreta: bool = False,
    ) -> None:
        """Any expression; advantage turns its first d20 into 2d20kh1 (disadvantage, kl1).
        Recorded (without state) only so a secret one has an id to be revealed by."""
        table = await current_table(interaction)
        secret = is_secret(interaction, table, secreta)
        the_mode = dnd5e.mode(ventaja, desventaja)
        advantage = {
            Mode.NORMAL: d20.AdvType.NONE,
            Mode.ADVANTAGE: d20.AdvType.ADV,
            Mode.DISADVANTAGE: d20.AdvType.DIS,
        }[the_mode]
        roll = roll_expression(expresion, self.bot.rng, advantage)
        lang = lang_for(interaction.locale)
        embed = embeds.card(t(lang, "dnd.title.tirar"), t(lang, "dnd.roll.by", user=interaction.user.id))
        embeds.field(
            embed,
            t(lang, "dnd.roll.dice", mode=t(lang, f"dnd.mode.{the_mode.value}")),
            f"{render.expression(roll.tree)} = **{roll.total}**",
            inline=False,
        )
        record = await rolls.record(self.bot.store, interaction, table, EXPRESSION_KIND, {}, "dnd.tirar")
        await rolls.post(self.bot.store, interaction, table, record, embed, None, secret=secret)

    # -- heroic inspiration ---------------------------------------------------------------

    @inspiracion.command(name=T("dnd.ver"), description=T("dnd.inspiracion.ver.desc"))
    async def inspiracion_ver(self, interaction: discord.Interaction) -> None:
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        holders = [
            p.owner_id
            for p in await self.bot.store.pools(table.channel_id)
            if p.pool == INSPIRATION and p.value
        ]
        text = "\n".join(f"✨ <@{u}>" for u in holders) or t(lang, "dnd.inspiration.nobody")
        await send(interaction, embed=embeds.card(t(lang, "dnd.inspiration.title"), text), ephemeral=True)

    @inspiracion.command(name=T("dnd.dar"), description=T("dnd.inspiracion.dar.desc"))
    @options("dnd.opt", "jugador")
    @table_option
    async def inspiracion_dar(
        self, interaction: discord.Interaction, jugador: discord.Member, mesa: str | None = None
    ) -> None:
        """The GM grants heroic inspiration. "Nunca puedes tener más de una": a holder is
        offered to pass the new one to a player character without it."""
        table = await gm_table(interaction, mesa)
        if jugador.bot:
            raise Refusal("dnd.inspiration.bad_friend")
        lang = lang_for(interaction.locale)
        grant = Change(INSPIRATION, 1, owner_id=jugador.id, cap=dnd5e.INSPIRATION_CAP)
        try:
            await rolls.change(self.bot.store, interaction, table, "dnd.inspiration.grant", grant)
        except RuleError:
            await self.offer_pass(interaction, table, jugador, lang)
            return
        text = t(lang, "dnd.inspiration.granted", user=jugador.id)
        await send(interaction, embed=embeds.card(text, colour=embeds.SUCCESS))

    async def offer_pass(
        self, interaction: discord.Interaction, table: Table, jugador: discord.Member, lang: Lang
    ) -> None:
        """The player already holds inspiration: ask them whom to pass the new one to."""
        grant_id = await self.bot.store.save_roll(
            table.channel_id, interaction.id, interaction.user.id, GRANT_KIND, {"holder": jugador.id}
        )
        view = discord.ui.View(timeout=None)
        view.add_item(PassSelect(grant_id, t(lang, "dnd.inspiration.pass_placeholder")))
        mentions = discord.AllowedMentions(users=[discord.Object(jugador.id)])
        text = t(lang, "dnd.inspiration.already_holds", user=jugador.id)
        await send(
            interaction,
            content=f"<@{jugador.id}>",
            embed=embeds.card(text),
            view=view,
            allowed_mentions=mentions,
        )

    # -- initiative ----------------------------------------------------------------------

    async def open_tracker(self, channel_id: int) -> RollRecord | None:
        return next(
            (r for r in await self.bot.store.rolls(channel_id, COMBAT_KIND, 5) if not r.data["ended"]), None
        )

    async def tracker_or_refuse(self, table: Table) -> RollRecord:
        record = await self.open_tracker(table.channel_id)
        if record is None:
            raise Refusal("dnd.tracker.none")
        return record

    async def show_tracker(self, interaction: discord.Interaction, record: RollRecord) -> None:
        """Answer privately and bring the channel's one posted panel up to date."""
        lang = lang_for(interaction.locale)
        await send(interaction, embed=tracker_embed(lang, record.data), ephemeral=True)
        if record.message_id is not None:
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=interaction.guild_id)
            await channel.get_partial_message(record.message_id).edit(
                embed=tracker_embed(lang, record.data), view=tracker_view(lang, record)
            )

    @iniciativa.command(name=T("dnd.iniciativa.panel"), description=T("dnd.iniciativa.panel.desc"))
    async def iniciativa_panel(self, interaction: discord.Interaction) -> None:
        """The table's tracker: the open one, or a new one. Its message is remembered only
        when posted in the table's channel, where later changes edit it."""
        table = await current_table(interaction)
        record = await self.open_tracker(table.channel_id)
        if record is None:
            state = {"combatants": [], "started": False, "round": 1, "turn": 0, "step": 0, "ended": False}
            tracker_id = await self.bot.store.save_roll(
                table.channel_id, interaction.id, interaction.user.id, COMBAT_KIND, state
            )
            record = await load(self.bot.store, tracker_id, COMBAT_KIND)
        lang = lang_for(interaction.locale)
        view = tracker_view(lang, record)
        kwargs: dict[str, Any] = {"embed": tracker_embed(lang, record.data)}
        if view is not None:
            kwargs["view"] = view
        message_id = await send(interaction, **kwargs)
        if message_id is not None and not in_gm_channel(table, interaction):
            await self.bot.store.set_roll_message(record.id, message_id)

    @iniciativa.command(name=T("dnd.iniciativa.unirme"), description=T("dnd.iniciativa.unirme.desc"))
    @options("dnd.opt", "modificador", "nombre", "ventaja", "sorprendido")
    async def iniciativa_unirme(
        self,
        interaction: discord.Interaction,
        modificador: app_commands.Range[int, -30, 30],
        nombre: app_commands.Range[str, 1, 40] | None = None,
        ventaja: bool = False,
        sorprendido: bool = False,
    ) -> None:
        """Surprise gives disadvantage on initiative; it cancels with advantage."""
        record = await self.tracker_or_refuse(await current_table(interaction))
        name = " ".join((nombre or interaction.user.display_name).split())[:40]
        entry = initiative_entry(
            self.bot,
            f"u{interaction.user.id}",
            name,
            modificador,
            dnd5e.mode(ventaja, sorprendido),
            False,
            1,
            interaction.user.id,
        )
        record, _ = await act(
            self.bot.store, interaction, record.id, COMBAT_KIND, lambda r: add_fighter(r, entry)
        )
        await self.show_tracker(interaction, record)

    @iniciativa.command(name=T("dnd.iniciativa.monstruos"), description=T("dnd.iniciativa.monstruos.desc"))
    @options("dnd.opt", "nombre", "modificador", "cantidad", "sorprendidos")
    @table_option
    async def iniciativa_monstruos(
        self,
        interaction: discord.Interaction,
        nombre: app_commands.Range[str, 1, 40],
        modificador: app_commands.Range[int, -30, 30],
        cantidad: app_commands.Range[int, 1, 20] = 1,
        sorprendidos: bool = False,
        mesa: str | None = None,
    ) -> None:
        record = await self.tracker_or_refuse(await gm_table(interaction, mesa))
        check("cantidad", cantidad, 1, 20)
        name = " ".join(nombre.split())[:40]
        if not name:
            raise Refusal("dnd.tracker.no_name")
        entry = initiative_entry(
            self.bot,
            f"m{interaction.id}",
            name,
            modificador,
            dnd5e.mode(False, sorprendidos),
            True,
            cantidad,
            None,
        )
        record, _ = await act(
            self.bot.store, interaction, record.id, COMBAT_KIND, lambda r: add_fighter(r, entry)
        )
        await self.show_tracker(interaction, record)

    @iniciativa.command(name=T("dnd.iniciativa.subir"), description=T("dnd.iniciativa.subir.desc"))
    @options("dnd.opt", "combatiente")
    async def iniciativa_subir(self, interaction: discord.Interaction, combatiente: str) -> None:
        """Settle a tie: the GM for monsters and mixed ties, players between their characters."""
        here = await table_context(interaction)
        record = await self.tracker_or_refuse(here.table)
        gm = here.gm

        def reorder(current: RollRecord) -> Decision:
            state = current.data
            ordered = dnd5e.order(fighters(state))
            index = next((i for i, c in enumerate(ordered) if c.key == combatiente), None)
            if index is None:
                raise Refusal("dnd.unknown_combatant")
            pair = ordered[max(index - 1, 0) : index + 1]
            if not gm and (
                any(c.monster for c in pair) or interaction.user.id not in {c.user_id for c in pair}
            ):
                raise Refusal("error.not_gm")
            acting = ordered[state["turn"]].key
            moved = dnd5e.move_up(fighters(state), combatiente)
            by_key = {c["key"]: c for c in state["combatants"]}
            turn = next(i for i, c in enumerate(moved) if c.key == acting) if state["started"] else 0
            return Decision(
                {**state, "combatants": [by_key[c.key] for c in moved], "turn": turn},
                (),
                "dnd.tracker.reorder",
            )

        record, _ = await act(self.bot.store, interaction, record.id, COMBAT_KIND, reorder)
        await self.show_tracker(interaction, record)

    @iniciativa.command(name=T("dnd.iniciativa.quitar"), description=T("dnd.iniciativa.quitar.desc"))
    @options("dnd.opt", "combatiente")
    @table_option
    async def iniciativa_quitar(
        self, interaction: discord.Interaction, combatiente: str, mesa: str | None = None
    ) -> None:
        record = await self.tracker_or_refuse(await gm_table(interaction, mesa))

        def remove(current: RollRecord) -> Decision:
            state = current.data
            ordered = dnd5e.order(fighters(state))
            index = next((i for i, c in enumerate(ordered) if c.key == combatiente), None)
            if index is None:
                raise Refusal("dnd.unknown_combatant")
            remaining = [c for c in state["combatants"] if c["key"] != combatiente]
            turn = state["turn"] - (1 if index < state["turn"] else 0)
            turn = turn % len(remaining) if remaining else 0
            return Decision({**state, "combatants": remaining, "turn": turn}, (), "dnd.tracker.remove")

        record, _ = await act(self.bot.store, interaction, record.id, COMBAT_KIND, remove)
        await self.show_tracker(interaction, record)

    @iniciativa_subir.autocomplete("combatiente")
    @iniciativa_quitar.autocomplete("combatiente")
    async def combatant_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        try:
            table = await current_table(interaction, getattr(interaction.namespace, "mesa", None))
        except Refusal:
            return []
        record = await self.open_tracker(table.channel_id)
        if record is None:
            return []
        return [
            Choice(name=f"{c.name} ({c.initiative})"[:100], value=c.key)
            for c in dnd5e.order(fighters(record.data))
            if fold(current) in fold(c.name)
        ][:25]
