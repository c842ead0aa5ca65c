"""The ``/mediana`` slash commands: parse the options, ask the rules, write the store, answer."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, rolls
from bot.checks import current_table, is_gm, secret_option, table_option
from bot.client import Tirada
from bot.errors import Refusal, RefusedCheck, send
from bot.i18n import T, lang_for, options, t
from bot.models import RollRecord, Table
from bot.reveal import is_secret
from bot.rolls import Decision, act, load
from cogs.mediana.combat import CombatButton, combat_embed, combat_view
from cogs.mediana.components import TestButton, damage_view, opposed_view
from cogs.mediana.render import effect_text, health_text, opposed_embed, test_embed
from cogs.mediana.state import (
    COMBAT_KIND,
    EFFECT_KIND,
    KIND,
    SHEET_KIND,
    check,
    health_from,
    sheet,
    test_data,
)
from rules import mediana
from rules.mediana import Health

RANK_CHOICES = [Choice(name=T(f"mediana.rank.{r}"), value=r) for r in mediana.RANKS]


# -- the cog ----------------------------------------------------------------------------------------


class Mediana(commands.Cog):
    group = app_commands.Group(name=T("mediana.cmd"), description=T("mediana.cmd.desc"), guild_only=True)
    pv = app_commands.Group(name=T("mediana.pv"), description=T("mediana.pv.desc"), parent=group)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TestButton, CombatButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TestButton, CombatButton)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise RefusedCheck("error.guild_only")
        return True

    async def rank_for(
        self, table: Table, user_id: int, base: str, no_skill: bool, malherido: bool
    ) -> tuple[str, list[str]]:
        """The rank after every drop, and why: no skill points, and malherido — said by the
        player or known from their PV sheet without being told."""
        health = health_from(await sheet(self.bot, table.channel_id, user_id))
        hurt = malherido or bool(health and health.badly_hurt)
        reasons = [r for r, on in (("sin_habilidad", no_skill), ("malherido", hurt)) if on]
        if base != "medio":
            reasons.insert(0, f"dj_{base}")
        return mediana.effective_rank(base, no_skill, hurt), reasons

    async def post(
        self,
        interaction: discord.Interaction,
        table: Table,
        data: dict[str, Any],
        secret: bool,
        view_for: Any = None,
    ) -> None:
        secret = is_secret(interaction, table, secret)
        record = await rolls.record(self.bot.store, interaction, table, KIND, data, f"mediana.{data['kind']}")
        lang = lang_for(interaction.locale)
        embed = opposed_embed(lang, record) if data["kind"] == "enfrentada" else test_embed(lang, record)
        view = view_for(lang, record) if view_for else None
        await rolls.post(self.bot.store, interaction, table, record, embed, view, secret=secret)

    @group.command(name=T("mediana.tirada"), description=T("mediana.tirada.desc"))
    @options(
        "mediana.opt",
        "atributo",
        "dificultad",
        "habilidad",
        "sin_habilidad",
        "malherido",
        "rango",
        "estorbo",
        "ataque",
    )
    @app_commands.choices(rango=RANK_CHOICES)
    @secret_option
    async def tirada(
        self,
        interaction: discord.Interaction,
        atributo: app_commands.Range[int, -50, 50],
        dificultad: app_commands.Range[int, 0, 100],
        habilidad: app_commands.Range[int, 0, 50] = 0,
        sin_habilidad: bool = False,
        malherido: bool = False,
        rango: Choice[str] | None = None,
        estorbo: app_commands.Range[int, 0, 50] = 0,
        ataque: bool = False,
        secreta: bool = False,
    ) -> None:
        """Atributo + Habilidad + 1o3d10 against a difficulty. No points in the skill (0, or
        ``sin_habilidad``) lowers the rank; so does being malherido."""
        check("atributo", atributo, -mediana.MAX_SCORE, mediana.MAX_SCORE)
        check("habilidad", habilidad, 0, mediana.MAX_SCORE)
        check("estorbo", estorbo, 0, mediana.MAX_SCORE)
        table = await current_table(interaction)
        rank, reasons = await self.rank_for(
            table,
            interaction.user.id,
            rango.value if rango else "medio",
            sin_habilidad or habilidad == 0,
            malherido,
        )
        test = mediana.roll_test(self.bot.rng, atributo + habilidad - estorbo, dificultad, rank)
        data = {"kind": "tirada", "test": test_data(test), "reasons": reasons, "attack": ataque}
        await self.post(interaction, table, data, secreta, damage_view)

    @group.command(name=T("mediana.atributo"), description=T("mediana.atributo.desc"))
    @options("mediana.opt", "atributo", "dificultad", "malherido", "rango", "estorbo")
    @app_commands.choices(rango=RANK_CHOICES)
    @secret_option
    async def atributo_cmd(
        self,
        interaction: discord.Interaction,
        atributo: app_commands.Range[int, -50, 50],
        dificultad: app_commands.Range[int, 0, 100],
        malherido: bool = False,
        rango: Choice[str] | None = None,
        estorbo: app_commands.Range[int, 0, 50] = 0,
        secreta: bool = False,
    ) -> None:
        """Atributo + 1o3d10: no skill, no explosion (the text explodes skill and opposed tests)."""
        check("atributo", atributo, -mediana.MAX_SCORE, mediana.MAX_SCORE)
        check("estorbo", estorbo, 0, mediana.MAX_SCORE)
        table = await current_table(interaction)
        rank, reasons = await self.rank_for(
            table, interaction.user.id, rango.value if rango else "medio", False, malherido
        )
        test = mediana.roll_test(
            self.bot.rng, atributo - estorbo, dificultad, rank, explode=False, skill_test=False
        )
        data = {"kind": "atributo", "test": test_data(test), "reasons": reasons}
        await self.post(interaction, table, data, secreta)

    @group.command(name=T("mediana.enfrentada"), description=T("mediana.enfrentada.desc"))
    @options(
        "mediana.opt", "atributo", "habilidad", "rival_atributo", "rival_habilidad", "rival", "malherido"
    )
    @secret_option
    async def enfrentada(
        self,
        interaction: discord.Interaction,
        atributo: app_commands.Range[int, -50, 50],
        habilidad: app_commands.Range[int, 0, 50],
        rival_atributo: app_commands.Range[int, -50, 50],
        rival_habilidad: app_commands.Range[int, 0, 50],
        rival: discord.Member | None = None,
        malherido: bool = False,
        secreta: bool = False,
    ) -> None:
        """The higher total wins; a tie goes to the GM, who accepts it or has it rerolled."""
        for name, value in (("atributo", atributo), ("rival_atributo", rival_atributo)):
            check(name, value, -mediana.MAX_SCORE, mediana.MAX_SCORE)
        for name, value in (("habilidad", habilidad), ("rival_habilidad", rival_habilidad)):
            check(name, value, 0, mediana.MAX_SCORE)
        table = await current_table(interaction)
        rank, _ = await self.rank_for(table, interaction.user.id, "medio", habilidad == 0, malherido)
        a = mediana.roll_test(self.bot.rng, atributo + habilidad, None, rank)
        b = mediana.roll_test(
            self.bot.rng,
            rival_atributo + rival_habilidad,
            None,
            mediana.effective_rank(no_skill=rival_habilidad == 0),
        )
        data = {
            "kind": "enfrentada",
            "a": test_data(a),
            "b": test_data(b),
            "rival": rival.id if rival else None,
        }
        await self.post(interaction, table, data, secreta, opposed_view)

    @group.command(name=T("mediana.dano"), description=T("mediana.dano.desc"))
    @options("mediana.opt", "dados", "absorcion", "grados", "critico")
    @secret_option
    async def dano(
        self,
        interaction: discord.Interaction,
        dados: app_commands.Range[str, 1, 20],
        absorcion: app_commands.Range[int, 0, 50] = 0,
        grados: app_commands.Range[int, 0, 50] = 0,
        critico: bool = False,
        secreta: bool = False,
    ) -> None:
        """An effect roll on its own: d6s exploding on 6, + a d6 per degree, ×2 on a combat
        critical, − armour. Recorded (without state) so a secret one can be revealed."""
        table = await current_table(interaction)
        secret = is_secret(interaction, table, secreta)
        effect = mediana.roll_effect(
            self.bot.rng,
            mediana.parse_effect(dados),
            extra_dice=grados,
            critical=critico,
            absorption=absorcion,
        )
        lang = lang_for(interaction.locale)
        embed = embeds.card(
            t(lang, "mediana.title.dano"), t(lang, "mediana.roll.by", user=interaction.user.id)
        )
        embeds.field(embed, t(lang, "mediana.roll.damage"), effect_text(lang, effect), inline=False)
        record = await rolls.record(self.bot.store, interaction, table, EFFECT_KIND, {}, "mediana.dano")
        await rolls.post(self.bot.store, interaction, table, record, embed, None, secret=secret)

    @group.command(name=T("mediana.iniciativa"), description=T("mediana.iniciativa.desc"))
    async def iniciativa(self, interaction: discord.Interaction) -> None:
        """The table's combat panel (initiative is rolled again every round)."""
        table = await current_table(interaction)
        store = self.bot.store
        record = next(
            (r for r in await store.rolls(table.channel_id, COMBAT_KIND, 5) if not r.data["ended"]),
            None,
        )
        if record is None:
            state = {"combatants": [], "round": 1, "ended": False}
            record = await load(
                store,
                await store.save_roll(
                    table.channel_id, interaction.id, interaction.user.id, COMBAT_KIND, state
                ),
                COMBAT_KIND,
            )
        lang = lang_for(interaction.locale)
        await send(interaction, embed=combat_embed(lang, record.data), view=combat_view(lang, record))

    # -- hit points -------------------------------------------------------------------------

    async def change_sheet(
        self, interaction: discord.Interaction, table: Table, user_id: int, change: Any, reason: str
    ) -> Health:
        record = await sheet(self.bot, table.channel_id, user_id)
        if record is None:
            raise Refusal("mediana.pv.no_sheet", user=user_id)

        def decide(current: RollRecord) -> Decision:
            health = change(health_from(current))
            return Decision({**current.data, "current": health.current}, (), reason)

        record, _ = await act(self.bot.store, interaction, record.id, SHEET_KIND, decide)
        health = health_from(record)
        assert health is not None
        return health

    async def answer_health(
        self, interaction: discord.Interaction, user_id: int, health: Health, text: str = ""
    ) -> None:
        lang = lang_for(interaction.locale)
        body = "\n".join(x for x in (text, health_text(lang, user_id, health)) if x)
        await send(interaction, embed=embeds.card(t(lang, "mediana.pv.title"), body))

    @pv.command(name=T("mediana.pv.fijar"), description=T("mediana.pv.fijar.desc"))
    @options("mediana.opt", "fisico", "maximo", "actual", "jugador")
    @table_option
    async def pv_fijar(
        self,
        interaction: discord.Interaction,
        fisico: app_commands.Range[int, 1, 50],
        maximo: app_commands.Range[int, 1, 1000],
        actual: app_commands.Range[int, -300, 1000] | None = None,
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        """Record a character's Físico and PV (your own; the GM may set anyone's)."""
        table = await current_table(interaction, mesa)
        owner = await self.owner(interaction, table, jugador)
        mediana.check_health(fisico, maximo)
        current = maximo if actual is None else actual
        check("actual", current, -fisico * mediana.DEATH_FACTOR, maximo)
        data = {"physique": fisico, "maximum": maximo, "current": current}
        await self.bot.store.save_roll(table.channel_id, interaction.id, owner.id, SHEET_KIND, data)
        await self.answer_health(interaction, owner.id, Health(fisico, maximo, current))

    @pv.command(name=T("mediana.ver"), description=T("mediana.pv.ver.desc"))
    @options("mediana.opt", "jugador")
    async def pv_ver(self, interaction: discord.Interaction, jugador: discord.Member | None = None) -> None:
        table = await current_table(interaction)
        owner = jugador or interaction.user
        health = health_from(await sheet(self.bot, table.channel_id, owner.id))
        if health is None:
            raise Refusal("mediana.pv.no_sheet", user=owner.id)
        await self.answer_health(interaction, owner.id, health)

    @pv.command(name=T("mediana.pv.dano"), description=T("mediana.pv.dano.desc"))
    @options("mediana.opt", "cantidad", "jugador")
    @table_option
    async def pv_dano(
        self,
        interaction: discord.Interaction,
        cantidad: app_commands.Range[int, 1, 1000],
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        await self.adjust(
            interaction, mesa, jugador, lambda h: mediana.hurt(h, cantidad), "mediana.pv.hurt", cantidad
        )

    @pv.command(name=T("mediana.pv.curar"), description=T("mediana.pv.curar.desc"))
    @options("mediana.opt", "cantidad", "jugador")
    @table_option
    async def pv_curar(
        self,
        interaction: discord.Interaction,
        cantidad: app_commands.Range[int, 1, 1000],
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        await self.adjust(
            interaction, mesa, jugador, lambda h: mediana.heal(h, cantidad), "mediana.pv.healed", cantidad
        )

    async def owner(
        self, interaction: discord.Interaction, table: Table, jugador: discord.Member | None
    ) -> discord.abc.User:
        """Whose sheet: your own, or anyone's for the GM."""
        owner = jugador or interaction.user
        if owner.id != interaction.user.id and not is_gm(table, interaction):
            raise Refusal("error.not_gm")
        return owner

    async def adjust(
        self,
        interaction: discord.Interaction,
        mesa: str | None,
        jugador: discord.Member | None,
        change: Any,
        key: str,
        amount: int,
    ) -> None:
        table = await current_table(interaction, mesa)
        owner = await self.owner(interaction, table, jugador)
        health = await self.change_sheet(interaction, table, owner.id, change, key)
        text = t(lang_for(interaction.locale), key, user=owner.id, amount=amount)
        await self.answer_health(interaction, owner.id, health, text)

    @group.command(name=T("mediana.descanso"), description=T("mediana.descanso.desc"))
    @options("mediana.opt", "comodidad")
    async def descanso(self, interaction: discord.Interaction, comodidad: bool = False) -> None:
        """A night's rest: 1 PV, or 2 with every comfort."""
        table = await current_table(interaction)
        health = await self.change_sheet(
            interaction, table, interaction.user.id, lambda h: mediana.rest(h, comodidad), "mediana.rest"
        )
        text = t(
            lang_for(interaction.locale),
            "mediana.pv.rested",
            user=interaction.user.id,
            amount=2 if comodidad else 1,
        )
        await self.answer_health(interaction, interaction.user.id, health, text)
