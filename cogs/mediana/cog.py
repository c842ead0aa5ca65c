"""The ``/mediana`` slash commands: parse the options, ask the rules, write the store, answer."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, rolls
from bot.checks import REASON_LIMIT, current_table, is_gm, reason, reason_option, secret_option, table_option
from bot.client import Tirada
from bot.delivery import send
from bot.errors import Refusal
from bot.i18n import T, lang_for, options, t
from bot.models import Record, SheetRow, Table
from bot.options import Bounded
from bot.repeat import button as repeat_button
from bot.reveal import is_secret
from bot.rolls import load
from bot.sheets import access
from bot.sheets.live import live_field
from bot.sheets.models import MedianaSheet
from cogs.mediana import sheet
from cogs.mediana.combat import CombatButton, combat_embed, combat_view
from cogs.mediana.components import TestButton, contest_view, test_view
from cogs.mediana.contest import ContestButton, open_view, roll_entries
from cogs.mediana.health import change_health, set_sheet, wound
from cogs.mediana.render import contest_embed, effect_text, health_text, target_text, test_embed
from cogs.mediana.state import COMBAT_KIND, EFFECT_KIND, KIND, badly_hurt, health, open_combat, options_of
from rules import mediana
from rules.errors import check_range
from rules.mediana import Health

Score = app_commands.Transform[int, Bounded(-mediana.MAX_SCORE, mediana.MAX_SCORE)]
Skill = app_commands.Transform[int, Bounded(0, mediana.MAX_SCORE)]
Difficulty = app_commands.Transform[int, Bounded(0, mediana.MAX_DIFFICULTY)]
Degrees = app_commands.Transform[int, Bounded(0, mediana.MAX_EFFECT_DICE)]
Physique = app_commands.Transform[int, Bounded(1, mediana.MAX_SCORE)]
Amount = app_commands.Transform[int, Bounded(1, mediana.MAX_HEALTH)]
Current = app_commands.Transform[int, Bounded(-mediana.MAX_SCORE * mediana.DEATH_FACTOR, mediana.MAX_HEALTH)]

RANK_CHOICES = [Choice(name=T(f"mediana.rank.{r}"), value=r) for r in mediana.RANKS]


def rank_reasons(base: str, no_skill: bool, hurt: bool) -> list[str]:
    """Why the rank is what it is: the rank chosen for the roll, no skill points, malherido."""
    reasons = [r for r, on in (("sin_habilidad", no_skill), ("malherido", hurt)) if on]
    if base != "medio":
        reasons.insert(0, f"elegido_{base}")
    return reasons


async def roll_test(interaction: discord.Interaction[Tirada], options: dict[str, Any]) -> None:
    """A skill or attribute test from its options (a command's, or a roll's for *Repetir*):
    the rank follows the roller's own state, read now."""
    bot = interaction.client
    motivo = reason(options.get("motivo"))
    table = await current_table(interaction)
    attribute_test = options["habilidad"] is None
    no_skill = not attribute_test and (options["sin_habilidad"] or options["habilidad"] == 0)
    hurt = options["malherido"] or await badly_hurt(bot, table.channel_id, interaction.user.id)
    rank = mediana.effective_rank(options["rango"], no_skill, hurt)
    score = options["atributo"] + (options["habilidad"] or 0) - options["estorbo"]
    test = mediana.roll_test(bot.rng, score, options["dificultad"], rank, **mediana.roll_kind(attribute_test))
    data = {
        "kind": "atributo" if attribute_test else "tirada",
        "test": mediana.roll_to_data(test),
        "reasons": rank_reasons(options["rango"], no_skill, hurt),
        "attack": options.get("ataque", False),
        "options": options,
        "motivo": motivo,
    }
    secret = is_secret(interaction, table, options["secreta"])
    record = await rolls.record(
        bot.store, interaction, table, KIND, data, f"mediana.{data['kind']}", secret=secret
    )
    lang = lang_for(interaction.locale)
    await rolls.post(
        bot.store,
        interaction,
        table,
        record,
        test_embed(lang, record),
        test_view(lang, record),
        secret=secret,
    )


async def side(
    bot: Tirada, table: Table, user_id: int | None, prefix: str, options: dict[str, Any]
) -> mediana.Side:
    """One side of an opposed test, its rank from its own state: skill points, the rank
    chosen, malherido as told or from the player's PV sheet."""
    hurt = options[f"{prefix}malherido"] or (
        user_id is not None and await badly_hurt(bot, table.channel_id, user_id)
    )
    return mediana.Side(
        options[f"{prefix}atributo"],
        options[f"{prefix}habilidad"],
        options[f"{prefix}rango"],
        hurt,
        options[f"{prefix}estorbo"],
    )


async def roll_opposed(interaction: discord.Interaction[Tirada], options: dict[str, Any]) -> None:
    """Two characters compete: both roll as skill tests, each at the rank its own state
    gives; a natural 1 or a fumble loses."""
    bot = interaction.client
    motivo = reason(options.get("motivo"))
    table = await current_table(interaction)
    rival = options.get("rival")
    sides = [
        await side(bot, table, interaction.user.id, "", options),
        await side(bot, table, rival, "rival_", options),
    ]
    tests = mediana.roll_opposed(bot.rng, sides)
    entries = [
        {"user": interaction.user.id, "test": mediana.roll_to_data(tests[0])},
        {"user": rival, "test": mediana.roll_to_data(tests[1])},
    ]
    for entry, prefix in zip(entries, ("", "rival_"), strict=True):
        if options.get(f"{prefix}ficha"):
            entry["name"] = options[f"{prefix}ficha"]
    data = {"kind": "enfrentada", "entries": entries, "options": options, "motivo": motivo}
    secret = is_secret(interaction, table, options["secreta"])
    record = await rolls.record(
        bot.store, interaction, table, KIND, data, "mediana.enfrentada", secret=secret
    )
    lang = lang_for(interaction.locale)
    await rolls.post(
        bot.store,
        interaction,
        table,
        record,
        contest_embed(lang, record),
        contest_view(lang, record),
        secret=secret,
    )


async def roll_damage(
    interaction: discord.Interaction[Tirada],
    options: dict[str, Any],
    struck: tuple[SheetRow, MedianaSheet] | None = None,
) -> None:
    """An effect roll on its own: d6s exploding on 6, + a d6 per degree, ×2 for a combat
    critical, − armour. Against a target whose PV are in play, the damage comes off them
    in the same operation as the roll's record, so the card tells what the books hold.
    ``struck``: the target as the command already found it (*Repetir* finds it by id)."""
    bot = interaction.client
    motivo = reason(options.get("motivo"))
    table = await current_table(interaction)
    secret = is_secret(interaction, table, options["secreta"])
    spec = mediana.parse_effect(options["dados"])
    dice, doubled = mediana.effect_dice(spec.dice, options["grados"], options["critico"], in_combat=True)
    if struck is None and options.get("objetivo"):
        struck = await sheet.target(bot, interaction, options["objetivo"])
    effect = mediana.roll_effect(
        bot.rng, mediana.EffectSpec(dice, spec.bonus), critical=doubled, absorption=options["absorcion"]
    )
    data = {"options": options, "motivo": motivo, "effect": mediana.effect_to_data(effect)}
    untouched = why_untouched(interaction, table, struck[0], secret) if struck else None
    change = wound(struck[0], effect.total) if struck and not untouched and effect.total else None
    record, outcome = await rolls.record_applied(
        bot.store,
        interaction,
        table,
        EFFECT_KIND,
        data,
        "mediana.dano",
        (change,) if change else (),
        secret=secret,
    )
    # The record's effect, not the one just thrown: a replay's record is the first delivery's.
    recorded = mediana.effect_from_data(record.data["effect"])
    lang = lang_for(interaction.locale)
    embed = embeds.card(t(lang, "mediana.title.dano"), t(lang, "mediana.roll.by", user=interaction.user.id))
    text = effect_text(lang, recorded, options.get("armadura"))
    embeds.field(embed, t(lang, "mediana.roll.damage"), text, inline=False)
    if struck:
        said = target_text(lang, *struck, outcome, untouched)
        embeds.field(embed, t(lang, "mediana.roll.target"), said, inline=False)
    view = discord.ui.View(timeout=None)
    view.add_item(repeat_button(lang, record.id))
    await rolls.post(bot.store, interaction, table, record, embeds.titled(embed, motivo), view, secret=secret)


def why_untouched(interaction: discord.Interaction, table: Table, row: SheetRow, secret: bool) -> str | None:
    """Why a damage roll leaves its target's PV as they are: they are not in play (an NPC's
    or an inactive sheet's stay in its file), the roll is secret (the PV would show its
    hidden result), or the roller may not change them (another player's sheet). None: taken."""
    if live_field(row, "pv.actuales") is None:
        return "untracked"
    if secret:
        return "secret"
    if not access.writable(is_gm(table, interaction), interaction.user.id, row):
        return "not_theirs"
    return None


async def open_contest(interaction: discord.Interaction[Tirada], motivo: str | None) -> None:
    """Post a contest that players enter with *Participar* and the GM fills with NPCs. One
    opened in the GM channel is secret, as everything rolled there (:func:`is_secret`)."""
    bot = interaction.client
    table = await current_table(interaction)
    secret = is_secret(interaction, table, False)
    data = {"kind": "competicion", "entries": [], "open": True, "motivo": reason(motivo)}
    record = await rolls.record(
        bot.store, interaction, table, KIND, data, "mediana.competicion", secret=secret
    )
    lang = lang_for(interaction.locale)
    await rolls.post(
        bot.store,
        interaction,
        table,
        record,
        contest_embed(lang, record),
        open_view(lang, record),
        secret=secret,
    )


async def repeat_contest(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir* a resolved contest: the same sides roll again at once."""
    bot = interaction.client
    table = await current_table(interaction)
    entries = [{k: v for k, v in e.items() if k != "test"} for e in record.data["entries"]]
    data = {**record.data, "entries": await roll_entries(bot, table, entries), "settled": False}
    data.pop("rerolls", None)
    secret = is_secret(interaction, table, False)
    new = await rolls.record(bot.store, interaction, table, KIND, data, "mediana.competicion", secret=secret)
    lang = lang_for(interaction.locale)
    await rolls.post(
        bot.store, interaction, table, new, contest_embed(lang, new), contest_view(lang, new), secret=secret
    )


async def repeat_roll(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir* for a test, an opposed test or a contest: the same options, for whoever
    presses."""
    if record.data["kind"] == "competicion":
        if record.data.get("open"):
            raise Refusal("mediana.contest.not_resolved")
        await repeat_contest(interaction, record)
        return
    options = options_of(record.data)
    if not options:
        raise Refusal("mediana.no_repeat")
    if options.get("ficha"):
        await access.check_repeat(interaction, record, character=options["ficha"])
    if record.data["kind"] == "enfrentada":
        await roll_opposed(interaction, options)
    else:
        await roll_test(interaction, options)


async def repeat_damage(interaction: discord.Interaction[Tirada], record: Record) -> None:
    options = options_of(record.data)
    if not options:
        raise Refusal("mediana.no_repeat")
    await roll_damage(interaction, options)


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
        dificultad: Difficulty,
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
        roller's sheet brings its points and its attribute's."""
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
            "secreta": secreta,
            "motivo": motivo,
        }
        await roll_test(interaction, options)

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
            "secreta": secreta,
            "motivo": motivo,
        }
        await roll_test(interaction, options)

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
        ``como``) and, for the rival, the GM's NPC ``rival_pnj``."""
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
            "secreta": secreta,
            "motivo": motivo,
        }
        await roll_opposed(interaction, options)

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
            "secreta": secreta,
            "motivo": motivo,
        }
        await roll_damage(interaction, options, struck)

    @group.command(name=T("mediana.iniciativa"), description=T("mediana.iniciativa.desc"))
    async def iniciativa(self, interaction: discord.Interaction) -> None:
        """The table's combat panel (initiative is rolled again every round)."""
        table = await current_table(interaction)
        store = self.bot.store
        record = await open_combat(self.bot, table.channel_id)
        if record is None:
            state = mediana.combat_to_data(mediana.Combat())
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
        mediana.check_health(fisico, maximo)
        current = maximo if actual is None else actual
        check_range("actual", current, -fisico * mediana.DEATH_FACTOR, maximo)
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
            interaction, mesa, jugador, lambda h: mediana.hurt(h, cantidad), "mediana.pv.hurt", cantidad
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
            lambda h: mediana.rest(h, comodidad),
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
