"""The ``/mediana`` slash commands: parse the options and hand them to the roll's flow
(``cogs.mediana.flow``), or change the table's health and combat."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds
from bot.checks import REASON_LIMIT, current_table, is_gm, reason, reason_option, secret_option, table_option
from bot.client import Tirada
from bot.delivery import send
from bot.errors import Refusal
from bot.forms import open_bare
from bot.i18n import T, lang_for, options, t
from bot.models import Table
from bot.options import Bounded
from bot.panel import typed_nothing
from bot.rolls import load
from bot.sheets import access
from cogs.mediana import forms, sheet
from cogs.mediana.combat import CombatButton, combat_embed, combat_view
from cogs.mediana.components import TestButton
from cogs.mediana.contest import ContestButton
from cogs.mediana.flow import open_contest, repeat_damage, repeat_roll, roll_damage, roll_opposed, roll_test
from cogs.mediana.health import change_health, set_sheet
from cogs.mediana.render import health_text
from cogs.mediana.sheet_model import MedianaSheet
from cogs.mediana.state import COMBAT_KIND, EFFECT_KIND, KIND, health, open_combat
from rules.errors import check_range
from rules.mediana import checks, combat, effects, ranks
from rules.mediana import health as mediana_health
from rules.mediana.health import Health

Score = app_commands.Transform[int, Bounded(-checks.MAX_SCORE, checks.MAX_SCORE)]
Skill = app_commands.Transform[int, Bounded(0, checks.MAX_SCORE)]
Difficulty = app_commands.Transform[int, Bounded(0, checks.MAX_DIFFICULTY)]
Degrees = app_commands.Transform[int, Bounded(0, effects.MAX_EFFECT_DICE)]
Physique = app_commands.Transform[int, Bounded(1, checks.MAX_SCORE)]
Amount = app_commands.Transform[int, Bounded(1, mediana_health.MAX_HEALTH)]
Current = app_commands.Transform[
    int, Bounded(-checks.MAX_SCORE * mediana_health.DEATH_FACTOR, mediana_health.MAX_HEALTH)
]

RANK_CHOICES = [Choice(name=T(f"mediana.rank.{r}"), value=r) for r in ranks.RANKS]


# -- the cog ----------------------------------------------------------------------------------------


class Mediana(commands.Cog):
    group = app_commands.Group(name=T("mediana.cmd"), description=T("mediana.cmd.desc"), guild_only=True)
    pv = app_commands.Group(name=T("mediana.pv"), description=T("mediana.pv.desc"), parent=group)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TestButton, CombatButton, ContestButton)
        self.bot.repeaters[KIND] = repeat_roll
        self.bot.repeaters[EFFECT_KIND] = repeat_damage

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TestButton, CombatButton, ContestButton)
        self.bot.repeaters.pop(KIND, None)
        self.bot.repeaters.pop(EFFECT_KIND, None)

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
    @options("fichas.opt", "como")
    @app_commands.choices(rango=RANK_CHOICES)
    @reason_option
    @secret_option
    async def tirada(
        self,
        interaction: discord.Interaction[Tirada],
        dificultad: Difficulty | None = None,
        atributo: Score | None = None,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        sin_habilidad: bool = False,
        malherido: bool = False,
        rango: Choice[str] | None = None,
        estorbo: Skill | None = None,
        ataque: bool = False,
        como: app_commands.Range[str, 1, 100] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Atributo + Habilidad + 1o3d10 against a difficulty. No points in the skill (0, or
        ``sin_habilidad``) lowers the rank; so does being malherido. A skill named from the
        roller's sheet brings its points and its attribute's. With no option at all, a form
        asks the roll from the sheet; typed without its difficulty, it is refused."""
        if typed_nothing(interaction):
            await open_bare(interaction, self.bot.store, forms.MedianaForm, MedianaSheet)
            return
        if dificultad is None:
            raise Refusal("mediana.tirada.missing")
        named = await sheet.actor(self.bot, interaction, atributo, habilidad, como)
        if estorbo is None:
            estorbo = await sheet.encumbrance(self.bot, interaction, named, como)
        options = {
            **named,
            # A skill test with no skill given is one without points in it.
            "habilidad": named["habilidad"] or 0,
            "dificultad": dificultad,
            "sin_habilidad": sin_habilidad,
            "malherido": malherido,
            "rango": rango.value if rango else "medio",
            "estorbo": estorbo,
            "ataque": ataque,
        }
        await roll_test(interaction, options, secreta, reason(motivo))

    @group.command(name=T("mediana.atributo"), description=T("mediana.atributo.desc"))
    @options("mediana.opt", "dificultad", "malherido", "rango", "estorbo")
    @options("mediana.atributo.opt", "atributo")
    @options("fichas.opt", "como")
    @app_commands.choices(rango=RANK_CHOICES)
    @reason_option
    @secret_option
    async def atributo_cmd(
        self,
        interaction: discord.Interaction[Tirada],
        atributo: app_commands.Range[str, 1, 60],
        dificultad: Difficulty,
        malherido: bool = False,
        rango: Choice[str] | None = None,
        estorbo: Skill | None = None,
        como: app_commands.Range[str, 1, 100] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Atributo + 1o3d10: no skill, no explosion, no natural-1 rule (the text explodes
        skill and opposed tests only). An attribute named reads the sheet as
        ``/mediana tirada`` does, armour's estorbo included."""
        named = await sheet.attribute(self.bot, interaction, atributo, como)
        if estorbo is None:
            estorbo = await sheet.encumbrance(self.bot, interaction, named, como)
        options = {
            **named,
            "dificultad": dificultad,
            "sin_habilidad": False,
            "malherido": malherido,
            "rango": rango.value if rango else "medio",
            "estorbo": estorbo,
        }
        await roll_test(interaction, options, secreta, reason(motivo))

    @group.command(name=T("mediana.enfrentada"), description=T("mediana.enfrentada.desc"))
    @options(
        "mediana.opt",
        "atributo",
        "habilidad",
        "rival_atributo",
        "rival_habilidad",
        "rival",
        "malherido",
        "rango",
        "estorbo",
        "rival_malherido",
        "rival_rango",
        "rival_estorbo",
    )
    @options("fichas.opt", "como", "rival_pnj")
    @app_commands.choices(rango=RANK_CHOICES, rival_rango=RANK_CHOICES)
    @reason_option
    @secret_option
    async def enfrentada(
        self,
        interaction: discord.Interaction[Tirada],
        atributo: Score | None = None,
        habilidad: app_commands.Range[str, 1, 60] | None = None,
        rival_atributo: Score | None = None,
        rival_habilidad: app_commands.Range[str, 1, 60] | None = None,
        rival: discord.Member | None = None,
        como: app_commands.Range[str, 1, 100] | None = None,
        rival_pnj: app_commands.Range[str, 1, 100] | None = None,
        malherido: bool = False,
        rango: Choice[str] | None = None,
        estorbo: Skill | None = None,
        rival_malherido: bool = False,
        rival_rango: Choice[str] | None = None,
        rival_estorbo: Skill | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """The higher total wins; a tie goes to the GM, who accepts it or has it rerolled.
        Each side's rank follows its own state (the rival's PV sheet too). A skill named
        brings its points and attribute from a sheet: the roller's (or the GM's NPC
        ``como``) and, for the rival, the GM's NPC ``rival_pnj``. With no option at all, a
        form asks a skill of the roller's sheet, the rival's numbers and both ranks."""
        if typed_nothing(interaction):
            await open_bare(interaction, self.bot.store, forms.MedianaOpposedForm, MedianaSheet)
            return
        if rival is not None and rival_pnj:
            raise Refusal("fichas.rival_or_npc")
        mine = await sheet.actor(self.bot, interaction, atributo, habilidad, como)
        theirs = await sheet.opponent(self.bot, interaction, rival_atributo, rival_habilidad, rival_pnj)
        if estorbo is None:
            estorbo = await sheet.encumbrance(self.bot, interaction, mine, como)
        if rival_estorbo is None:
            rival_estorbo = await sheet.encumbrance(self.bot, interaction, theirs, rival_pnj)
        options = {
            **mine,
            "malherido": malherido,
            "rango": rango.value if rango else "medio",
            "estorbo": estorbo,
            "rival": rival.id if rival else None,
            **{f"rival_{key}": value for key, value in theirs.items()},
            "rival_malherido": rival_malherido,
            "rival_rango": rival_rango.value if rival_rango else "medio",
            "rival_estorbo": rival_estorbo,
        }
        await roll_opposed(interaction, options, secreta, reason(motivo))

    @group.command(name=T("mediana.competicion"), description=T("mediana.competicion.desc"))
    @reason_option
    async def competicion(
        self,
        interaction: discord.Interaction[Tirada],
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """An opposed test of two or more characters: each enters, then one roll for all."""
        await open_contest(interaction, motivo)

    @group.command(name=T("mediana.dano"), description=T("mediana.dano.desc"))
    @options("mediana.opt", "dados", "absorcion", "objetivo", "grados", "critico")
    @reason_option
    @secret_option
    async def dano(
        self,
        interaction: discord.Interaction[Tirada],
        dados: app_commands.Range[str, 1, 20],
        absorcion: Skill | None = None,
        objetivo: app_commands.Range[str, 1, 100] | None = None,
        grados: Degrees = 0,
        critico: bool = False,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """An effect roll on its own. Recorded so a secret one can be revealed and repeated.
        The absorption typed wins; else the target's sheet's armour gives it."""
        armour, target = None, None
        struck = await sheet.target(self.bot, interaction, objetivo) if objetivo else None
        if struck is not None:
            target = str(struck[0].id)
            if absorcion is None:
                absorcion, armour = struck[1].armadura.absorcion, struck[1].nombre
        options = {
            "dados": dados,
            "absorcion": absorcion or 0,
            "armadura": armour,
            "objetivo": target,
            "grados": grados,
            "critico": critico,
        }
        await roll_damage(interaction, options, secreta, reason(motivo), struck)

    @group.command(name=T("mediana.iniciativa"), description=T("mediana.iniciativa.desc"))
    async def iniciativa(self, interaction: discord.Interaction) -> None:
        """The table's combat panel (initiative is rolled again every round)."""
        table = await current_table(interaction)
        store = self.bot.store
        record = await open_combat(self.bot, table.channel_id)
        if record is None:
            state = combat.combat_to_data(combat.Combat())
            record = await load(
                interaction,
                await store.save_record(
                    table.channel_id, interaction.id, interaction.user.id, COMBAT_KIND, state
                ),
                COMBAT_KIND,
            )
        lang = lang_for(interaction.locale)
        await send(interaction, embed=combat_embed(lang, record), view=combat_view(lang, record))

    # -- hit points -------------------------------------------------------------------------

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
        fisico: Physique,
        maximo: Amount,
        actual: Current | None = None,
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        """Record a character's Físico and PV (your own; the GM may set anyone's)."""
        table = await current_table(interaction, mesa)
        owner = await self.owner(interaction, table, jugador)
        await self.refuse_sheet_owner(table, owner.id)
        mediana_health.check_health(fisico, maximo)
        current = maximo if actual is None else actual
        check_range("actual", current, -fisico * mediana_health.DEATH_FACTOR, maximo)
        sheet = Health(fisico, maximo, current)
        await set_sheet(self.bot, interaction, table, owner.id, sheet)
        await self.answer_health(interaction, owner.id, sheet)

    async def refuse_sheet_owner(self, table: Table, user_id: int) -> None:
        """An active Mediana sheet holds the character's Físico and maximum: setting them
        here too would leave the sheet and the wounds pool disagreeing (a pool past the
        sheet's bounds), so the sheet is where they change."""
        active = await self.bot.store.active_sheet(table.channel_id, user_id)
        if active is not None and active.system == "mediana":
            raise Refusal(
                "mediana.pv.from_sheet", user=user_id, name=discord.utils.escape_markdown(active.name)
            )

    @pv.command(name=T("mediana.ver"), description=T("mediana.pv.ver.desc"))
    @options("mediana.opt", "jugador")
    async def pv_ver(self, interaction: discord.Interaction, jugador: discord.Member | None = None) -> None:
        table = await current_table(interaction)
        owner = jugador or interaction.user
        known = await health(self.bot, table.channel_id, owner.id)
        if known is None:
            raise Refusal("mediana.pv.no_sheet", user=owner.id)
        await self.answer_health(interaction, owner.id, known)

    @pv.command(name=T("mediana.pv.dano"), description=T("mediana.pv.dano.desc"))
    @options("mediana.opt", "cantidad", "jugador")
    @table_option
    async def pv_dano(
        self,
        interaction: discord.Interaction,
        cantidad: Amount,
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        await self.adjust(
            interaction,
            mesa,
            jugador,
            lambda h: mediana_health.hurt(h, cantidad),
            "mediana.pv.hurt",
            cantidad,
        )

    @pv.command(name=T("mediana.pv.curar"), description=T("mediana.pv.curar.desc"))
    @options("mediana.opt", "cantidad", "jugador")
    @table_option
    async def pv_curar(
        self,
        interaction: discord.Interaction,
        cantidad: Amount,
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        await self.adjust(
            interaction,
            mesa,
            jugador,
            lambda h: mediana_health.heal(h, cantidad),
            "mediana.pv.healed",
            cantidad,
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
        after = await change_health(self.bot, interaction, table, owner.id, change, key)
        text = t(lang_for(interaction.locale), key, user=owner.id, amount=amount)
        await self.answer_health(interaction, owner.id, after, text)

    @group.command(name=T("mediana.descanso"), description=T("mediana.descanso.desc"))
    @options("mediana.opt", "comodidad")
    async def descanso(self, interaction: discord.Interaction, comodidad: bool = False) -> None:
        """A night's rest: 1 PV, or 2 with every comfort."""
        table = await current_table(interaction)
        after = await change_health(
            self.bot,
            interaction,
            table,
            interaction.user.id,
            lambda h: mediana_health.rest(h, comodidad),
            "mediana.rest",
        )
        text = t(
            lang_for(interaction.locale),
            "mediana.pv.rested",
            user=interaction.user.id,
            amount=2 if comodidad else 1,
        )
        await self.answer_health(interaction, interaction.user.id, after, text)


Mediana.tirada.autocomplete("habilidad")(sheet.skill_choices)
Mediana.tirada.autocomplete("como")(access.npc_choices)
Mediana.atributo_cmd.autocomplete("atributo")(sheet.attribute_choices)
Mediana.atributo_cmd.autocomplete("como")(access.npc_choices)
Mediana.enfrentada.autocomplete("habilidad")(sheet.skill_choices)
Mediana.enfrentada.autocomplete("como")(access.npc_choices)
Mediana.enfrentada.autocomplete("rival_habilidad")(sheet.skills_of("rival_pnj"))
Mediana.enfrentada.autocomplete("rival_pnj")(access.npc_choices)
Mediana.dano.autocomplete("objetivo")(access.sheet_choices)
