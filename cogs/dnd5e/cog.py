"""The ``/dnd`` slash commands: parse the options, ask the rules, write the store, answer."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, rolls
from bot.checks import (
    REASON_LIMIT,
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
from bot.context import table_context
from bot.delivery import send
from bot.errors import Refusal
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import Change, Table
from bot.names import Names, fold
from bot.options import Bounded
from bot.panel import typed_nothing
from bot.rolls import act, load
from bot.sheets import access
from cogs.dnd5e import flow, forms, sheet
from cogs.dnd5e.combat import (
    TrackerButton,
    changed,
    holds_inspiration,
    inspiration_view,
    joined,
    panel,
    show_tracker,
    tracker_or_refuse,
)
from cogs.dnd5e.components import DamageDieSelect, InspirationButton, PassSelect
from cogs.dnd5e.damage import AdjustSelect, HitPointsButton, TargetSelect
from cogs.dnd5e.death import roll_death_save
from cogs.dnd5e.joining import (
    aimed,
    combatant_choices,
    monster_entry,
    player_entry,
    player_key,
    target_choices,
)
from cogs.dnd5e.state import (
    ABILITIES,
    COMBAT_KIND,
    EXPRESSION_KIND,
    GRANT_KIND,
    INSPIRATION,
    KIND,
    NAME_LIMIT,
    SKILLS,
)
from cogs.dnd5e.vitals import open_tracker, pick, targets, tracker_of
from rules.dice import MAX_EXPRESSION_LENGTH
from rules.dnd5e import checks, conditions, damage_types, hit_points, initiative
from rules.dnd5e import tracker as dnd5e_tracker
from rules.dnd5e.tracker import Tracker
from rules.errors import RuleError

# Each number option's bounds, declared once: published to Discord and checked (bot.options).
Modifier = app_commands.Transform[int, Bounded(-checks.MAX_MODIFIER, checks.MAX_MODIFIER)]
# The level's range is the proficiency table's, checked by the rule with its own sentence.
Level = app_commands.Range[int, 0, checks.MAX_LEVEL]
Target = app_commands.Transform[int, Bounded(1, checks.MAX_TARGET)]
GroupSize = app_commands.Transform[int, Bounded(1, initiative.MAX_GROUP)]
COVER_CHOICES = [Choice(name=T(f"dnd.cobertura.{c}"), value=c) for c in ("media", "tres_cuartos", "completa")]
# Cover on a save: "+2 a la CA y a las tiradas de salvación de Destreza" (+5 for three quarters).
SAVE_COVER_CHOICES = [
    Choice(name=T(f"dnd.cobertura_salvacion.{c}"), value=c) for c in ("media", "tres_cuartos")
]


# The persistent buttons and menus /dnd posts (DynamicItems, rebuilt from their custom_id).
COMPONENTS = (
    InspirationButton,
    DamageDieSelect,
    PassSelect,
    TrackerButton,
    HitPointsButton,
    TargetSelect,
    AdjustSelect,
)
HitPoints = app_commands.Transform[int, Bounded(1, hit_points.MAX_HP)]
Rounds = app_commands.Transform[int, Bounded(1, conditions.MAX_ROUNDS)]
DAMAGE_TYPE_CHOICES = [Choice(name=T(f"dnd.damage_type.{k}"), value=k) for k in damage_types.DAMAGE_TYPES]
CONDITION_CHOICES = [Choice(name=T(f"dnd.condition.{c}"), value=c) for c in conditions.CONDITIONS]


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

    condicion = app_commands.Group(name=T("dnd.condicion"), description=T("dnd.condicion.desc"), parent=group)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*COMPONENTS)
        self.bot.repeaters[KIND] = flow.repeat_test
        self.bot.repeaters[EXPRESSION_KIND] = flow.repeat_dice

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*COMPONENTS)
        self.bot.repeaters.pop(KIND, None)
        self.bot.repeaters.pop(EXPRESSION_KIND, None)

    # -- rolls --------------------------------------------------------------------------

    @group.command(name=T("dnd.prueba"), description=T("dnd.prueba.desc"))
    @options("dnd.opt")
    @options("fichas.opt", "como")
    @reason_option
    @secret_option
    async def prueba(
        self,
        interaction: discord.Interaction,
        modificador: Modifier | None = None,
        caracteristica: str | None = None,
        habilidad: str | None = None,
        competencia: bool = False,
        pericia: bool = False,
        herramienta: bool = False,
        nivel: Level | None = None,
        bonificacion: Modifier = 0,
        ventaja: bool = False,
        desventaja: bool = False,
        cd: Target | None = None,
        como: app_commands.Range[str, 1, 100] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """An ability check, optionally with a skill (its ability follows from the table)
        and a tool the character is proficient with. Without a modifier, the numbers come
        from the roller's sheet (or the GM's NPC ``como``); with no option at all, a form
        asks the skill, advantage and the DC."""
        if typed_nothing(interaction):
            await forms.open_check(self.bot, interaction)
            return
        options = {
            "modificador": modificador,
            "caracteristica": ABILITIES.find(caracteristica) if caracteristica is not None else None,
            "habilidad": SKILLS.find(habilidad) if habilidad is not None else None,
            "competencia": competencia,
            "pericia": pericia,
            "herramienta": herramienta,
            "nivel": nivel,
            "bonificacion": bonificacion,
            "ventaja": ventaja,
            "desventaja": desventaja,
            "cd": cd,
        }
        if modificador is None or como:
            table = await current_table(interaction)
            sheet_id, found = await sheet.read_row(self.bot, interaction, table, como)
            options = sheet.check(found, options) | {"ficha_id": sheet_id}
        await flow.roll_test(self.bot, interaction, "prueba", options, reason(motivo), secreta)

    @group.command(name=T("dnd.salvacion"), description=T("dnd.salvacion.desc"))
    @options("dnd.opt")
    @options("fichas.opt", "como")
    @app_commands.choices(cobertura=SAVE_COVER_CHOICES)
    @reason_option
    @secret_option
    async def salvacion(
        self,
        interaction: discord.Interaction,
        caracteristica: str,
        modificador: Modifier | None = None,
        competencia: bool = False,
        nivel: Level | None = None,
        bonificacion: Modifier = 0,
        ventaja: bool = False,
        desventaja: bool = False,
        cd: Target | None = None,
        cobertura: Choice[str] | None = None,
        como: app_commands.Range[str, 1, 100] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """A saving throw; cover adds to Dexterity saves. Without a modifier, from the sheet."""
        options = {
            "caracteristica": ABILITIES.find(caracteristica),
            "modificador": modificador,
            "competencia": competencia,
            "nivel": nivel,
            "bonificacion": bonificacion,
            "ventaja": ventaja,
            "desventaja": desventaja,
            "cd": cd,
            "cobertura": cobertura.value if cobertura else None,
        }
        if modificador is None or como:
            table = await current_table(interaction)
            sheet_id, found = await sheet.read_row(self.bot, interaction, table, como)
            options = sheet.save(found, options) | {"ficha_id": sheet_id}
        await flow.roll_test(self.bot, interaction, "salvacion", options, reason(motivo), secreta)

    @group.command(name=T("dnd.ataque"), description=T("dnd.ataque.desc"))
    @options("dnd.opt")
    @options("fichas.opt", "como", "arma")
    @app_commands.choices(cobertura=COVER_CHOICES, tipo=DAMAGE_TYPE_CHOICES)
    @reason_option
    @secret_option
    async def ataque(
        self,
        interaction: discord.Interaction[Tirada],
        ca: Target | None = None,
        objetivo: app_commands.Range[str, 1, 100] | None = None,
        bonificador: Modifier | None = None,
        arma: app_commands.Range[str, 1, 100] | None = None,
        dano: app_commands.Range[str, 1, MAX_EXPRESSION_LENGTH] | None = None,
        tipo: Choice[str] | None = None,
        ventaja: bool = False,
        desventaja: bool = False,
        cobertura: Choice[str] | None = None,
        a_distancia: bool = False,
        como: app_commands.Range[str, 1, 100] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """To hit against AC (+ cover) and, on a hit, the damage (doubled dice on a 20);
        with ``arma``, the bonus and damage of that attack on the sheet; with ``objetivo``,
        a creature of the open tracker (its AC, its conditions, and the damage offered to
        it); ``a_distancia``: the attacker is farther than 5 feet (Prone, Paralyzed)."""
        target = None
        if objetivo:
            target = await aimed(interaction, await current_table(interaction), objetivo, ca)
            ca = target["ca"]
        elif ca is None:
            raise Refusal("dnd.hp.need_ac")
        options = {
            "bonificador": bonificador,
            "ca": ca,
            "dano": dano,
            "tipo": tipo.value if tipo else None,
            "ventaja": ventaja,
            "desventaja": desventaja,
            "cobertura": cobertura.value if cobertura else None,
            "objetivo": target,
            "a_distancia": a_distancia,
        }
        if arma:
            table = await current_table(interaction)
            sheet_id, found = await sheet.read_row(self.bot, interaction, table, como)
            options = sheet.attack(found, arma, options) | {"ficha_id": sheet_id}
        elif bonificador is None:
            raise Refusal("fichas.dnd.need_bonus")
        await flow.roll_test(self.bot, interaction, "ataque", options, reason(motivo), secreta)

    @prueba.autocomplete("caracteristica")
    @salvacion.autocomplete("caracteristica")
    async def ability_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = lang_for(interaction.locale)
        return matches(lang, current, ABILITIES)

    @ataque.autocomplete("objetivo")
    async def target_autocomplete(
        self, interaction: discord.Interaction[Tirada], current: str
    ) -> list[Choice[str]]:
        return await target_choices(interaction, current)

    @ataque.autocomplete("arma")
    async def weapon_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await sheet.weapons(self.bot, interaction, await current_table(interaction), current)

    @prueba.autocomplete("habilidad")
    async def skill_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = lang_for(interaction.locale)
        return matches(lang, current, SKILLS)

    @prueba.autocomplete("cd")
    @salvacion.autocomplete("cd")
    async def dc_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        lang = lang_for(interaction.locale)
        named = [Choice(name=t(lang, f"dnd.dc.{k}", dc=v), value=v) for k, v in checks.DCS.items()]
        return [c for c in named if fold(current) in fold(c.name)][:25]

    @group.command(name=T("dnd.tirar"), description=T("dnd.tirar.desc"))
    @options("dnd.opt")
    @app_commands.choices(tipo=DAMAGE_TYPE_CHOICES)
    @reason_option
    @secret_option
    async def tirar(
        self,
        interaction: discord.Interaction,
        expresion: app_commands.Range[str, 1, MAX_EXPRESSION_LENGTH],
        ventaja: bool = False,
        desventaja: bool = False,
        tipo: Choice[str] | None = None,
        secreta: bool = False,
        motivo: app_commands.Range[str, 1, REASON_LIMIT] | None = None,
    ) -> None:
        """Any expression; ``tipo``: its damage type, when it is damage."""
        kind = tipo.value if tipo else None
        await flow.roll_dice(
            self.bot, interaction, expresion, ventaja, desventaja, reason(motivo), secreta, kind
        )

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
    @options("dnd.opt")
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
        grant = Change(INSPIRATION, 1, owner_id=jugador.id, cap=checks.INSPIRATION_CAP)
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
        grant_id = await self.bot.store.save_record(
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

    @iniciativa.command(name=T("dnd.iniciativa.panel"), description=T("dnd.iniciativa.panel.desc"))
    async def iniciativa_panel(self, interaction: discord.Interaction) -> None:
        """The table's tracker: the open one, or a new one. Its message is remembered only
        when posted in the table's channel, where later changes edit it."""
        table = await current_table(interaction)
        record = await open_tracker(self.bot.store, table.channel_id)
        if record is None:
            state = dnd5e_tracker.tracker_to_data(Tracker())
            tracker_id = await self.bot.store.save_record(
                table.channel_id, interaction.id, interaction.user.id, COMBAT_KIND, state
            )
            record = await load(interaction, tracker_id, COMBAT_KIND)
        lang = lang_for(interaction.locale)
        kwargs = {k: v for k, v in panel(lang, record).items() if v is not None}
        message_id = await send(interaction, **kwargs)
        if message_id is not None and not in_gm_channel(table, interaction):
            await self.bot.store.set_record_message(record.id, message_id)

    @iniciativa.command(name=T("dnd.iniciativa.unirme"), description=T("dnd.iniciativa.unirme.desc"))
    @options("dnd.opt")
    async def iniciativa_unirme(
        self,
        interaction: discord.Interaction[Tirada],
        modificador: Modifier | None = None,
        nombre: app_commands.Range[str, 1, NAME_LIMIT] | None = None,
        ventaja: bool = False,
        sorprendido: bool = False,
    ) -> None:
        """Surprise gives disadvantage on initiative; it cancels with advantage. A player
        joins once (the order "permanece invariable"); one holding Heroic Inspiration is
        offered to reroll, like on any d20 test. Without a modifier, the sheet's Dexterity."""
        table = await current_table(interaction)
        record = await tracker_or_refuse(self.bot, table)
        the_mode = checks.mode(ventaja, sorprendido)
        entry = await player_entry(interaction, table, modificador, nombre, the_mode)
        record, _ = await act(self.bot.store, interaction, record.id, COMBAT_KIND, joined(entry))
        holds = await holds_inspiration(self.bot, record, interaction.user.id)
        lang = lang_for(interaction.locale)
        await show_tracker(interaction, record, inspiration_view(lang, record, entry.combatant.key, holds))

    @iniciativa.command(name=T("dnd.iniciativa.monstruos"), description=T("dnd.iniciativa.monstruos.desc"))
    @options("dnd.opt")
    @options("dnd.monstruos.opt", "pg", "ca", "como")
    @table_option
    async def iniciativa_monstruos(
        self,
        interaction: discord.Interaction[Tirada],
        nombre: app_commands.Range[str, 1, NAME_LIMIT] | None = None,
        modificador: Modifier | None = None,
        cantidad: GroupSize = 1,
        sorprendidos: bool = False,
        pg: HitPoints | None = None,
        ca: Target | None = None,
        como: app_commands.Range[str, 1, 100] | None = None,
        mesa: str | None = None,
    ) -> None:
        """The GM's monsters: a group of identical ones (each with ``pg`` hit points and
        ``ca``, when given), or one NPC with its sheet (``como``)."""
        table = await gm_table(interaction, mesa)
        record = await tracker_or_refuse(self.bot, table)
        options = {
            "nombre": nombre,
            "modificador": modificador,
            "cantidad": cantidad,
            "sorprendidos": sorprendidos,
            "pg": pg,
            "ca": ca,
            "como": como,
        }
        entry = await monster_entry(interaction, table, options)
        record, _ = await act(self.bot.store, interaction, record.id, COMBAT_KIND, joined(entry))
        await show_tracker(interaction, record)

    @iniciativa.command(name=T("dnd.iniciativa.subir"), description=T("dnd.iniciativa.subir.desc"))
    @options("dnd.opt")
    async def iniciativa_subir(self, interaction: discord.Interaction[Tirada], combatiente: str) -> None:
        """Settle a tie: the GM for monsters and mixed ties, players between their characters."""
        here = await table_context(interaction)
        record = await tracker_or_refuse(self.bot, here.table)

        def allowed(tracker: Tracker) -> Tracker:
            ordered = tracker.order
            index = next((i for i, c in enumerate(ordered) if c.key == combatiente), None)
            if index is None:
                raise Refusal("dnd.unknown_combatant")
            pair = ordered[max(index - 1, 0) : index + 1]
            mine = interaction.user.id in {c.user_id for c in pair}
            if not here.gm and (any(c.monster for c in pair) or not mine):
                raise Refusal("error.not_gm")
            return tracker.move_up(combatiente)

        decide = changed("dnd.tracker.reorder", allowed)
        record, _ = await act(self.bot.store, interaction, record.id, COMBAT_KIND, decide)
        await show_tracker(interaction, record)

    @iniciativa.command(name=T("dnd.iniciativa.quitar"), description=T("dnd.iniciativa.quitar.desc"))
    @options("dnd.opt")
    @table_option
    async def iniciativa_quitar(
        self, interaction: discord.Interaction[Tirada], combatiente: str, mesa: str | None = None
    ) -> None:
        record = await tracker_or_refuse(self.bot, await gm_table(interaction, mesa))
        decide = changed("dnd.tracker.remove", lambda tracker: tracker.remove(combatiente))
        record, _ = await act(self.bot.store, interaction, record.id, COMBAT_KIND, decide)
        await show_tracker(interaction, record)

    @group.command(name=T("dnd.muerte"), description=T("dnd.muerte.desc"))
    @options("dnd.opt")
    async def muerte(self, interaction: discord.Interaction[Tirada], combatiente: str | None = None) -> None:
        """A death saving throw for one's own dying character (the GM names the creature),
        once a turn, counted on the tracker."""
        table = await current_table(interaction)
        record = await tracker_or_refuse(self.bot, table)
        if combatiente is None and is_gm(table, interaction):
            raise Refusal("dnd.death.whom")
        await roll_death_save(interaction, record.id, combatiente or player_key(interaction.user.id))

    # -- conditions ----------------------------------------------------------------------

    @condicion.command(name=T("dnd.condicion.poner"), description=T("dnd.condicion.poner.desc"))
    @options("dnd.opt")
    @app_commands.choices(condicion=CONDITION_CHOICES)
    @table_option
    async def condicion_poner(
        self,
        interaction: discord.Interaction[Tirada],
        objetivo: app_commands.Range[str, 1, 100],
        condicion: Choice[str],
        rondas: Rounds | None = None,
        mesa: str | None = None,
    ) -> None:
        """The GM sets a condition on a creature, for ``rondas`` rounds or until cleared."""
        await self.afflict(interaction, mesa, objetivo, condicion.value, rondas, set_it=True)

    @condicion.command(name=T("dnd.condicion.quitar"), description=T("dnd.condicion.quitar.desc"))
    @options("dnd.opt")
    @app_commands.choices(condicion=CONDITION_CHOICES)
    @table_option
    async def condicion_quitar(
        self,
        interaction: discord.Interaction[Tirada],
        objetivo: app_commands.Range[str, 1, 100],
        condicion: Choice[str],
        mesa: str | None = None,
    ) -> None:
        await self.afflict(interaction, mesa, objetivo, condicion.value, None, set_it=False)

    async def afflict(
        self,
        interaction: discord.Interaction[Tirada],
        mesa: str | None,
        typed: str,
        condition: str,
        rounds: int | None,
        *,
        set_it: bool,
    ) -> None:
        """Set or clear one condition on the tracker, keyed by this interaction, and show it."""
        table = await gm_table(interaction, mesa)
        record = await tracker_or_refuse(self.bot, table)
        found = await targets(self.bot.store, table.channel_id, tracker_of(record))
        target = pick(found, typed).member.target

        def change(tracker: Tracker) -> Tracker:
            if set_it:
                return tracker.afflict(target, condition, rounds)
            return tracker.relieve(target, condition)

        reason = "dnd.condition.set" if set_it else "dnd.condition.cleared"
        record, _ = await act(self.bot.store, interaction, record.id, COMBAT_KIND, changed(reason, change))
        await show_tracker(interaction, record)

    @condicion_poner.autocomplete("objetivo")
    @condicion_quitar.autocomplete("objetivo")
    async def condition_target_autocomplete(
        self, interaction: discord.Interaction[Tirada], current: str
    ) -> list[Choice[str]]:
        return await target_choices(interaction, current)

    @prueba.autocomplete("como")
    @salvacion.autocomplete("como")
    @ataque.autocomplete("como")
    @iniciativa_monstruos.autocomplete("como")
    async def npc_autocomplete(
        self, interaction: discord.Interaction[Tirada], current: str
    ) -> list[Choice[str]]:
        return await access.npc_choices(interaction, current)

    @iniciativa_subir.autocomplete("combatiente")
    @iniciativa_quitar.autocomplete("combatiente")
    @muerte.autocomplete("combatiente")
    async def combatant_autocomplete(
        self, interaction: discord.Interaction[Tirada], current: str
    ) -> list[Choice[str]]:
        return await combatant_choices(interaction, current)
