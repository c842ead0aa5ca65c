"""Mediana (1o3d10): tests with the objective die, damage, opposed tests, initiative
and hit points that lower the rank by themselves when a character is malherido.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, render, rolls
from bot.checks import current_table, is_gm, roll_table, secret_option, table_option
from bot.client import Tirada
from bot.errors import Refusal, RefusedCheck, send, update
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import RollRecord, Table
from bot.reveal import is_secret
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Modal, StepButton, parse_int
from rules import mediana
from rules.mediana import Health, Test, Throw

KIND = "mediana"
SHEET_KIND = "mediana_ficha"
COMBAT_KIND = "mediana_combate"
EFFECT_KIND = "mediana_efecto"
RANK_CHOICES = [Choice(name=T(f"mediana.rank.{r}"), value=r) for r in mediana.RANKS]
MAX_COMBATANTS = 25


def check(name: str, value: int, low: int, high: int) -> None:
    mediana.check_number(name, value, low, high)


# -- storage of tests and sheets ---------------------------------------------------------------


def test_data(test: Test) -> dict[str, Any]:
    return {
        "throws": [[list(x.dice), x.rank] for x in test.throws],
        "score": test.score,
        "difficulty": test.difficulty,
        "skill_test": test.skill_test,
    }


def test_from(data: dict[str, Any]) -> Test:
    throws = tuple(Throw(tuple(d), rank) for d, rank in data["throws"])  # type: ignore[arg-type]
    return Test(throws, data["score"], data["difficulty"], data["skill_test"])


def health_from(record: RollRecord | None) -> Health | None:
    if record is None:
        return None
    return Health(record.data["physique"], record.data["maximum"], record.data["current"])


async def sheet(bot: Tirada, channel_id: int, user_id: int) -> RollRecord | None:
    """A character's PV sheet at this table: the newest one recorded for them."""
    return next((r for r in await bot.store.rolls(channel_id, SHEET_KIND, 200) if r.user_id == user_id), None)


# -- rendering ---------------------------------------------------------------------------------


def throws_text(test: Test) -> str:
    """Each 1o3d10 with its objective die bold and the other two struck; a chain of
    explosions reads left to right."""
    return " → ".join(render.dice(x.marked) for x in test.throws)


def verdict(lang: Lang, test: Test) -> str:
    if test.difficulty is None:
        return t(lang, "mediana.verdict.total", total=test.total)
    if test.fumble:
        return t(lang, "mediana.verdict.fumble", total=test.total, difficulty=test.difficulty)
    if test.success is False and test.skill_test and test.natural_one:
        return t(lang, "mediana.verdict.natural_one", total=test.total, difficulty=test.difficulty)
    if test.critical:
        return t(
            lang,
            "mediana.verdict.critical",
            total=test.total,
            difficulty=test.difficulty,
            degrees=test.degrees,
        )
    if test.success:
        return t(
            lang,
            "mediana.verdict.success",
            total=test.total,
            difficulty=test.difficulty,
            degrees=test.degrees,
        )
    return t(lang, "mediana.verdict.failure", total=test.total, difficulty=test.difficulty)


def test_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    data = record.data
    test = test_from(data["test"])
    colour = embeds.NEUTRAL if test.success is None else (embeds.SUCCESS if test.success else embeds.FAILURE)
    embed = embeds.card(
        t(lang, f"mediana.title.{data['kind']}"), t(lang, "mediana.roll.by", user=record.user_id), colour
    )
    rank_line = t(lang, "mediana.roll.rank", rank=t(lang, f"mediana.rank.{test.first.rank}"))
    reasons = [t(lang, f"mediana.reason.{r}") for r in data.get("reasons", [])]
    if reasons:
        rank_line += " · " + ", ".join(reasons)
    embeds.field(embed, t(lang, "mediana.roll.dice"), f"{throws_text(test)}\n{rank_line}", inline=False)
    embeds.field(
        embed,
        t(lang, "mediana.roll.sum"),
        t(lang, "mediana.roll.sum_value", score=test.score, rolled=test.rolled, total=test.total),
    )
    embeds.field(embed, t(lang, "mediana.roll.verdict"), verdict(lang, test), inline=False)
    damage = data.get("damage")
    if damage:
        embeds.field(embed, t(lang, "mediana.roll.damage"), damage, inline=False)
    return embed


def effect_text(lang: Lang, effect: mediana.Effect) -> str:
    chains = " ".join(render.dice(chain) for chain in effect.chains)
    parts = [t(lang, "mediana.effect.rolled", dice=chains, bonus=f"{effect.bonus:+d}", rolled=effect.rolled)]
    if effect.critical:
        parts.append(t(lang, "mediana.effect.doubled", value=effect.rolled * 2))
    if effect.absorption:
        parts.append(t(lang, "mediana.effect.absorbed", absorption=effect.absorption))
    parts.append(t(lang, "mediana.effect.total", total=effect.total))
    return " · ".join(parts)


def health_text(lang: Lang, user_id: int, health: Health) -> str:
    return t(
        lang,
        "mediana.pv.line",
        user=user_id,
        current=health.current,
        maximum=health.maximum,
        physique=health.physique,
        state=t(lang, f"mediana.pv.state.{health.state}"),
    )


# -- buttons -------------------------------------------------------------------------------------


class TestButton(ActionButton, template=r"mediana:(?P<action>dano|aceptar|repetir):(?P<roll>[0-9]{1,18})"):
    """ "Tirar daño" under a successful attack; "Aceptar empate" / "Repetir" under a tied
    opposed test, for the GM."""

    prefix = "mediana"

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.roll_id, KIND)
        if self.action == "dano":
            if interaction.user.id != record.user_id and not is_gm(
                await roll_table(interaction, record), interaction
            ):
                raise Refusal("error.not_yours")
            if record.data.get("damage"):
                raise Refusal("mediana.damage_done")
            await interaction.response.send_modal(DamageModal(self.roll_id, lang))
            return
        if not is_gm(await roll_table(interaction, record), interaction):
            raise Refusal("error.not_gm")
        if self.action == "aceptar":
            record, _ = await act(bot.store, interaction, self.roll_id, KIND, accept_tie)
            await update(interaction, embed=opposed_embed(lang, record), view=None)
            return

        def reroll(current: RollRecord) -> Decision:
            if current.data.get("settled"):
                raise Refusal("mediana.tie_settled")
            data = current.data
            a = mediana.roll_test(bot.rng, data["a"]["score"], None, data["a"]["throws"][0][1])
            b = mediana.roll_test(bot.rng, data["b"]["score"], None, data["b"]["throws"][0][1])
            return Decision(
                {**data, "a": test_data(a), "b": test_data(b), "rerolls": data.get("rerolls", 0) + 1},
                (),
                "mediana.tie_reroll",
            )

        record, _ = await act(bot.store, interaction, self.roll_id, KIND, reroll)
        await update(interaction, embed=opposed_embed(lang, record), view=opposed_view(lang, record))


def accept_tie(record: RollRecord) -> Decision:
    if record.data.get("settled"):
        raise Refusal("mediana.tie_settled")
    return Decision({**record.data, "settled": True}, (), "mediana.tie_accept")


class DamageModal(Modal):
    def __init__(self, roll_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "mediana.damage.title"), custom_id=f"mediana:dano-modal:{roll_id}")
        self.roll_id = roll_id
        self.weapon: discord.ui.TextInput[DamageModal] = discord.ui.TextInput(
            label=t(lang, "mediana.damage.weapon"), custom_id="arma", max_length=20
        )
        self.armour: discord.ui.TextInput[DamageModal] = discord.ui.TextInput(
            label=t(lang, "mediana.damage.armour"), custom_id="absorcion", max_length=3, required=False
        )
        self.add_item(self.weapon)
        self.add_item(self.armour)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        spec = mediana.parse_effect(self.weapon.value)
        absorption = parse_int(self.armour.value or "0", "absorcion", 0, mediana.MAX_SCORE)

        def damage(current: RollRecord) -> Decision:
            if current.data.get("damage"):
                raise Refusal("mediana.damage_done")
            test = test_from(current.data["test"])
            effect = mediana.roll_effect(
                bot.rng, spec, extra_dice=test.degrees, critical=test.critical, absorption=absorption
            )
            return Decision({**current.data, "damage": effect_text(lang, effect)}, (), "mediana.damage")

        record, _ = await act(bot.store, interaction, self.roll_id, KIND, damage)
        await update(interaction, embed=test_embed(lang, record), view=None)


# -- opposed tests -----------------------------------------------------------------------------------


def opposed_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    data = record.data
    a, b = test_from(data["a"]), test_from(data["b"])
    rival = f"<@{data['rival']}>" if data.get("rival") else t(lang, "mediana.opposed.rival")
    winner = mediana.opposed_winner(a, b)
    embed = embeds.card(t(lang, "mediana.title.enfrentada"), t(lang, "mediana.roll.by", user=record.user_id))
    embeds.field(
        embed, f"<@{record.user_id}>", f"{throws_text(a)}\n{t(lang, 'mediana.opposed.total', total=a.total)}"
    )
    embeds.field(embed, rival, f"{throws_text(b)}\n{t(lang, 'mediana.opposed.total', total=b.total)}")
    if winner is None:
        key = "mediana.opposed.tie_accepted" if data.get("settled") else "mediana.opposed.tie"
        text = t(lang, key)
    else:
        text = t(lang, "mediana.opposed.wins", winner=f"<@{record.user_id}>" if winner == "a" else rival)
    embeds.field(embed, t(lang, "mediana.roll.verdict"), text, inline=False)
    return embed


def opposed_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    data = record.data
    if data.get("settled") or mediana.opposed_winner(test_from(data["a"]), test_from(data["b"])) is not None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TestButton(record.id, "aceptar", t(lang, "mediana.button.aceptar")))
    view.add_item(
        TestButton(record.id, "repetir", t(lang, "mediana.button.repetir"), discord.ButtonStyle.primary)
    )
    return view


# -- initiative -----------------------------------------------------------------------------------


def combat_embed(lang: Lang, state: dict[str, Any]) -> discord.Embed:
    title = t(lang, "mediana.combat.title", round=state["round"])
    head = t(lang, "mediana.combat.ended") if state["ended"] else t(lang, "mediana.combat.help")
    embed = embeds.card(title, head)
    ordered = sorted(state["combatants"], key=lambda c: -c["total"])
    lines = [
        t(
            lang,
            "mediana.combat.line",
            name=discord.utils.escape_markdown(c["name"]),
            total=c["total"],
            actions=mediana.actions(c["total"]),
        )
        for c in ordered
    ]
    embeds.field(embed, t(lang, "mediana.combat.order"), "\n".join(lines) or "—", inline=False)
    return embed


def combat_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    if record.data["ended"]:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(CombatButton(record.id, "unirme", 0, t(lang, "mediana.button.unirme")))
    view.add_item(CombatButton(record.id, "pnj", 0, t(lang, "mediana.button.pnj")))
    view.add_item(
        CombatButton(
            record.id,
            "ronda",
            record.data["round"],
            t(lang, "mediana.button.ronda"),
            discord.ButtonStyle.primary,
        )
    )
    view.add_item(
        CombatButton(record.id, "terminar", 0, t(lang, "mediana.button.terminar"), discord.ButtonStyle.danger)
    )
    return view


def initiative_roll(bot: Tirada, bonus: int, encumbrance: int, rank: str) -> int:
    """Bonus + 1o3d10 (exploding, as a skill test) − armour's encumbrance."""
    return mediana.roll_test(bot.rng, bonus - encumbrance, None, rank).total


class CombatButton(
    StepButton,
    template=r"mediana:ini:(?P<action>unirme|pnj|ronda|terminar):(?P<record>[0-9]{1,18}):(?P<step>[0-9]{1,6})",
):
    prefix = "mediana:ini"

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.record_id, COMBAT_KIND)
        if record.data["ended"]:
            raise Refusal("mediana.combat.is_over")
        gm = is_gm(await roll_table(interaction, record), interaction)
        if self.action in ("pnj", "ronda", "terminar") and not gm:
            raise Refusal("error.not_gm")
        if self.action in ("unirme", "pnj"):
            await interaction.response.send_modal(JoinModal(self.record_id, lang, npc=self.action == "pnj"))
            return
        step = self.step

        def decide(current: RollRecord) -> Decision:
            if self.action == "terminar":
                return Decision({**current.data, "ended": True}, (), "mediana.combat.end")
            return new_round(bot, current, step)

        record, _ = await act(bot.store, interaction, self.record_id, COMBAT_KIND, decide)
        await update(interaction, embed=combat_embed(lang, record.data), view=combat_view(lang, record))


def new_round(bot: Tirada, record: RollRecord, round_: int) -> Decision:
    """ "Una vez actúe el último en la iniciativa, se vuelve a tirar esta": everyone rerolls."""
    state = record.data
    if state["round"] != round_:
        raise Refusal("mediana.combat.already_moved")
    rolled = [
        {**c, "total": initiative_roll(bot, c["bonus"], c["encumbrance"], c["rank"])}
        for c in state["combatants"]
    ]
    return Decision({**state, "combatants": rolled, "round": round_ + 1}, (), "mediana.combat.round")


class JoinModal(Modal):
    def __init__(self, combat_id: int, lang: Lang, *, npc: bool = False) -> None:
        custom_id = f"mediana:{'pnj' if npc else 'unirme'}-modal:{combat_id}"
        super().__init__(title=t(lang, "mediana.join.title"), custom_id=custom_id)
        self.combat_id = combat_id
        self.npc = npc
        self.name: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "mediana.join.name"), custom_id="nombre", max_length=40, required=npc
        )
        self.bonus: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "mediana.join.bonus"), custom_id="bono", max_length=3
        )
        self.encumbrance: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "mediana.join.encumbrance"), custom_id="estorbo", max_length=2, required=False
        )
        for item in (self.name, self.bonus, self.encumbrance):
            self.add_item(item)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        combat = await load(bot.store, self.combat_id, COMBAT_KIND)
        bonus = parse_int(self.bonus.value, "bono", -mediana.MAX_SCORE, mediana.MAX_SCORE)
        encumbrance = parse_int(self.encumbrance.value or "0", "estorbo", 0, mediana.MAX_SCORE)
        name = " ".join(self.name.value.split())[:40] or interaction.user.display_name[:40]
        rank = "medio"
        if not self.npc:
            health = health_from(await sheet(bot, combat.channel_id, interaction.user.id))
            rank = mediana.effective_rank(badly_hurt=bool(health and health.badly_hurt))
        key = f"n{interaction.id}" if self.npc else f"u{interaction.user.id}"
        entry = {"key": key, "name": name, "bonus": bonus, "encumbrance": encumbrance, "rank": rank}
        entry["total"] = initiative_roll(bot, bonus, encumbrance, rank)

        def join(current: RollRecord) -> Decision:
            others = [c for c in current.data["combatants"] if c["key"] != key]
            if len(others) >= MAX_COMBATANTS:
                raise Refusal("mediana.combat.full", max=MAX_COMBATANTS)
            return Decision({**current.data, "combatants": [*others, entry]}, (), "mediana.combat.join")

        record, _ = await act(bot.store, interaction, self.combat_id, COMBAT_KIND, join)
        await update(interaction, embed=combat_embed(lang, record.data), view=combat_view(lang, record))


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


def damage_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    """ "Tirar daño" only under a successful attack."""
    data = record.data
    if not data.get("attack") or not test_from(data["test"]).success:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TestButton(record.id, "dano", t(lang, "mediana.button.dano"), discord.ButtonStyle.danger))
    return view


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Mediana(bot))
