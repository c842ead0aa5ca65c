"""D&D 5e (SRD 5.2): d20 tests, saves and attacks with heroic inspiration, an initiative
tracker, and a plain roller with advantage.

Every roll shows both d20s when there is advantage or disadvantage, which one counted,
and the verdict against the DC or AC. A holder of heroic inspiration gets buttons on
their own rolls to reroll one d20.
"""

from __future__ import annotations

import re
from typing import Any

import d20
import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, render, rolls
from bot.chances import dnd_modes_line
from bot.checks import (
    current_table,
    gm_table,
    in_gm_channel,
    is_gm,
    roll_channel,
    roll_table,
    secret_option,
    table_option,
)
from bot.client import Tirada
from bot.errors import Refusal, RefusedCheck, send, update
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import Change, Operation, Refused, RollRecord
from bot.reveal import is_secret
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Guarded, Modal, StepButton, parse_int
from rules import dnd5e
from rules.dnd5e import D20Test, Mode
from rules.expression import roll_expression

KIND = "dnd"
COMBAT_KIND = "dnd_combate"
GRANT_KIND = "dnd_inspiracion"
EXPRESSION_KIND = "dnd_tirar"
INSPIRATION = "inspiracion"
COVER_CHOICES = [Choice(name=T(f"dnd.cobertura.{c}"), value=c) for c in ("media", "tres_cuartos", "completa")]
MAX_COMBATANTS = 25


def check(name: str, value: int, low: int, high: int) -> None:
    dnd5e.check_number(name, value, low, high)


def ability_name(lang: Lang, key: str) -> str:
    return t(lang, f"dnd.ability.{key}")


def skill_name(lang: Lang, key: str) -> str:
    return t(lang, f"dnd.skill.{key}")


def matches(lang: Lang, current: str, names: dict[str, str]) -> list[Choice[str]]:
    """Autocomplete over Spanish (or English) names, accent- and case-insensitive."""
    wanted = fold(current)
    return [Choice(name=name, value=key) for key, name in names.items() if wanted in fold(name)][:25]


def fold(text: str) -> str:
    return text.lower().translate(str.maketrans("áéíóúü", "aeiouu"))


# -- rendering -------------------------------------------------------------------------------


def test_from(data: dict[str, Any]) -> D20Test:
    return D20Test(
        tuple(tuple(r) for r in data["rolls"]),
        Mode(data["mode"]),
        data["modifier"],
        data["target"],
        data["attack"],
        data["inspired"],
    )


def test_data(test: D20Test) -> dict[str, Any]:
    return {
        "rolls": [list(r) for r in test.rolls],
        "mode": test.mode.value,
        "modifier": test.modifier,
        "target": test.target,
        "attack": test.attack,
        "inspired": test.inspired,
    }


def verdict(lang: Lang, test: D20Test) -> str:
    if test.critical:
        return t(lang, "dnd.verdict.critical")
    if test.fumble:
        return t(lang, "dnd.verdict.fumble")
    if test.success is None:
        return t(lang, "dnd.verdict.total", total=test.total)
    key = (
        ("dnd.verdict.hit" if test.success else "dnd.verdict.miss")
        if test.attack
        else ("dnd.verdict.success" if test.success else "dnd.verdict.failure")
    )
    return t(lang, key, total=test.total, target=test.target)


def title(lang: Lang, data: dict[str, Any]) -> str:
    what = data["what"]
    if data["kind"] == "ataque":
        return t(lang, "dnd.title.attack")
    if what.get("skill"):
        return t(
            lang,
            f"dnd.title.{data['kind']}_skill",
            skill=skill_name(lang, what["skill"]),
            ability=ability_name(lang, what["ability"]),
        )
    if what.get("ability"):
        return t(lang, f"dnd.title.{data['kind']}_ability", ability=ability_name(lang, what["ability"]))
    return t(lang, f"dnd.title.{data['kind']}")


def roll_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    data = record.data
    test = test_from(data["test"])
    colour = embeds.NEUTRAL if test.success is None else (embeds.SUCCESS if test.success else embeds.FAILURE)
    embed = embeds.card(title(lang, data), t(lang, "dnd.roll.by", user=record.user_id), colour)
    mode_text = t(lang, f"dnd.mode.{test.mode.value}")
    modifier = f"{test.modifier:+d}"
    embeds.field(
        embed,
        t(lang, "dnd.roll.dice", mode=mode_text),
        f"{render.dice(test.dice)} {modifier} = **{test.total}**",
        inline=False,
    )
    embeds.field(embed, t(lang, "dnd.roll.verdict"), verdict(lang, test), inline=False)
    if test.target is not None and test.target <= dnd5e.MAX_TARGET:
        line = dnd_modes_line(lang, test.modifier, test.target, test.attack)
        embeds.field(embed, t(lang, "dnd.roll.odds"), line, inline=False)
    damage = data.get("damage_roll")
    if damage:
        key = "dnd.roll.damage_critical" if test.critical else "dnd.roll.damage"
        embeds.field(embed, t(lang, key), f"{damage['text']} = **{damage['total']}**", inline=False)
    if test.inspired:
        embed.set_footer(text=t(lang, "dnd.roll.inspired"))
    return embed


def inspiration_view(lang: Lang, record: RollRecord, holds: bool) -> discord.ui.View | None:
    """ "Usar inspiración" on the holder's own roll: one button per d20 it could reroll."""
    test = test_from(record.data["test"])
    if not holds or test.inspired:
        return None
    view = discord.ui.View(timeout=None)
    for index, face in enumerate(test.faces):
        key = "dnd.button.inspiration_die" if len(test.faces) > 1 else "dnd.button.inspiration"
        view.add_item(
            InspirationButton(
                record.id, f"insp{index}", t(lang, key, value=face), discord.ButtonStyle.primary
            )
        )
    return view


# -- heroic inspiration ---------------------------------------------------------------------------


class InspirationButton(ActionButton, template=r"dnd:(?P<action>insp[01]):(?P<roll>[0-9]{1,18})"):
    prefix = "dnd"

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.roll_id, KIND)
        if interaction.user.id != record.user_id:
            raise Refusal("dnd.not_your_roll")
        index = int(self.action[-1])

        def inspire(current: RollRecord) -> Decision:
            test = dnd5e.use_inspiration(test_from(current.data["test"]), bot.rng, index)
            data = {**current.data, "test": test_data(test)}
            if test.attack:
                data["damage_roll"] = damage_for(bot, current.data.get("damage"), test)
            return Decision(
                data,
                (Change(INSPIRATION, -1, owner_id=current.user_id, cap=dnd5e.INSPIRATION_CAP),),
                "dnd.inspiration.use",
            )

        record, _ = await act(bot.store, interaction, self.roll_id, KIND, inspire)
        await update(interaction, embed=roll_embed(lang, record), view=None)


def damage_for(bot: Tirada, expression: str | None, test: D20Test) -> dict[str, Any] | None:
    """Damage is rolled only on a hit, with doubled dice on a critical."""
    if not expression or not test.success:
        return None
    damage = dnd5e.roll_damage(expression, bot.rng, critical=test.critical)
    return {"text": render.expression(damage.tree), "total": damage.total}


class PassSelect(
    Guarded, discord.ui.DynamicItem[discord.ui.UserSelect], template=r"dnd:pasar:(?P<grant>[0-9]{1,18})"
):
    """Whoever already held inspiration when granted another passes it to a player character
    without one ("puedes dársela a un personaje jugador en tu grupo que no la tenga")."""

    def __init__(self, grant_id: int, placeholder: str = "") -> None:
        super().__init__(
            discord.ui.UserSelect(custom_id=f"dnd:pasar:{grant_id}", placeholder=placeholder or None)
        )
        self.grant_id = grant_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.UserSelect, match: re.Match[str]
    ) -> PassSelect:
        return cls(int(match["grant"]))

    async def record_table(self, interaction: discord.Interaction) -> int:
        return await roll_channel(interaction, self.grant_id)

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        grant = await load(bot.store, self.grant_id, GRANT_KIND)
        if interaction.user.id != grant.data["holder"]:
            raise Refusal("dnd.inspiration.not_yours_to_pass")
        values = (interaction.data or {}).get("values", [])
        if len(values) != 1 or not str(values[0]).isdigit():
            raise Refusal("dnd.inspiration.pick_one")
        friend = int(values[0])
        resolved = (interaction.data or {}).get("resolved", {}).get("users", {})
        if friend == interaction.user.id or resolved.get(str(friend), {}).get("bot"):
            raise Refusal("dnd.inspiration.bad_friend")

        def give(current: RollRecord) -> Decision:
            if current.data.get("passed_to"):
                raise Refusal("dnd.inspiration.already_passed")
            change = Change(INSPIRATION, 1, owner_id=friend, cap=dnd5e.INSPIRATION_CAP)
            return Decision({**current.data, "passed_to": friend}, (change,), "dnd.inspiration.pass")

        await act(bot.store, interaction, self.grant_id, GRANT_KIND, give)
        text = t(lang, "dnd.inspiration.passed", user=interaction.user.id, friend=friend)
        await update(interaction, embed=embeds.card(text, colour=embeds.SUCCESS), view=None)


# -- initiative tracker ---------------------------------------------------------------------------


def fighters(state: dict[str, Any]) -> list[dnd5e.Combatant]:
    return [
        dnd5e.Combatant(c["key"], c["name"], c["monster"], c["initiative"], c["count"], c.get("user"))
        for c in state["combatants"]
    ]


def tracker_embed(lang: Lang, state: dict[str, Any]) -> discord.Embed:
    ordered = dnd5e.order(fighters(state))
    if state["ended"]:
        head = t(lang, "dnd.tracker.ended")
    elif not state["started"]:
        head = t(lang, "dnd.tracker.waiting")
    else:
        current = ordered[state["turn"]]
        head = t(
            lang, "dnd.tracker.acts", name=discord.utils.escape_markdown(current.name), round=state["round"]
        )
    embed = embeds.card(t(lang, "dnd.tracker.title", round=state["round"]), head)
    lines = []
    for index, c in enumerate(ordered):
        marker = "▶️ " if state["started"] and not state["ended"] and index == state["turn"] else ""
        count = f" ×{c.count}" if c.count > 1 else ""
        tag = " " + t(lang, "dnd.tracker.monster") if c.monster else ""
        lines.append(f"{marker}**{c.initiative}** · {discord.utils.escape_markdown(c.name)}{count}{tag}")
    embeds.field(embed, t(lang, "dnd.tracker.order"), "\n".join(lines) or "—", inline=False)
    return embed


def tracker_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    state = record.data
    if state["ended"]:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TrackerButton(record.id, "unirme", 0, t(lang, "dnd.button.unirme")))
    if not state["started"]:
        view.add_item(
            TrackerButton(record.id, "empezar", 0, t(lang, "dnd.button.empezar"), discord.ButtonStyle.primary)
        )
    elif state["combatants"]:
        view.add_item(
            TrackerButton(
                record.id,
                "siguiente",
                state["step"],
                t(lang, "dnd.button.siguiente"),
                discord.ButtonStyle.primary,
            )
        )
    view.add_item(
        TrackerButton(record.id, "terminar", 0, t(lang, "dnd.button.terminar"), discord.ButtonStyle.danger)
    )
    return view


class TrackerButton(
    StepButton,
    template=r"dnd:ini:(?P<action>unirme|empezar|siguiente|terminar):(?P<record>[0-9]{1,18}):(?P<step>[0-9]{1,6})",
):
    prefix = "dnd:ini"

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.record_id, COMBAT_KIND)
        if record.data["ended"]:
            raise Refusal("dnd.tracker.is_over")
        if self.action == "unirme":
            await interaction.response.send_modal(JoinModal(self.record_id, lang))
            return
        gm = is_gm(await roll_table(interaction, record), interaction)
        if self.action in ("empezar", "terminar") and not gm:
            raise Refusal("error.not_gm")
        if self.action == "siguiente" and not (gm or acting_user(record.data) == interaction.user.id):
            raise Refusal("dnd.tracker.not_your_turn")
        decide = {"empezar": start, "terminar": finish, "siguiente": lambda r: next_turn(r, self.step)}[
            self.action
        ]
        record, _ = await act(bot.store, interaction, self.record_id, COMBAT_KIND, decide)
        await update(interaction, embed=tracker_embed(lang, record.data), view=tracker_view(lang, record))
        if self.action == "siguiente":
            state = record.data
            current = dnd5e.order(fighters(state))[state["turn"]]
            text = t(
                lang,
                "dnd.tracker.your_turn",
                name=discord.utils.escape_markdown(current.name),
                round=state["round"],
            )
            mentions = discord.AllowedMentions(
                users=[discord.Object(current.user_id)] if current.user_id else False
            )
            content = f"<@{current.user_id}>" if current.user_id else None
            await interaction.followup.send(
                content=content, embed=embeds.card(text), allowed_mentions=mentions
            )


def start(record: RollRecord) -> Decision:
    state = record.data
    if not state["combatants"]:
        raise Refusal("dnd.tracker.empty")
    ordered = dnd5e.order(fighters(state))
    by_key = {c["key"]: c for c in state["combatants"]}
    return Decision(
        {**state, "combatants": [by_key[c.key] for c in ordered], "started": True}, (), "dnd.tracker.start"
    )


def finish(record: RollRecord) -> Decision:
    return Decision({**record.data, "ended": True}, (), "dnd.tracker.end")


def acting_user(state: dict[str, Any]) -> int | None:
    """Whose character acts now (None for a monster, or before the combat starts)."""
    ordered = dnd5e.order(fighters(state))
    if not state["started"] or not ordered:
        return None
    return ordered[state["turn"] % len(ordered)].user_id


def next_turn(record: RollRecord, step: int) -> Decision:
    """The marker moves one place; after the last, a new round starts at the top. The
    order stays fixed from round to round ("permanece invariable")."""
    state = record.data
    if state["step"] != step:
        raise Refusal("dnd.tracker.already_moved")
    turn, round_ = state["turn"] + 1, state["round"]
    if turn >= len(state["combatants"]):
        turn, round_ = 0, round_ + 1
    return Decision({**state, "turn": turn, "round": round_, "step": step + 1}, (), "dnd.tracker.next")


def add_fighter(record: RollRecord, entry: dict[str, Any]) -> Decision:
    """Join (or re-roll one's place); a newcomer to a started combat goes in by initiative
    without moving the marker off whoever is acting."""
    state = record.data
    others = [c for c in state["combatants"] if c["key"] != entry["key"]]
    if len(others) >= MAX_COMBATANTS:
        raise Refusal("dnd.tracker.full", max=MAX_COMBATANTS)
    combatants = [*others, entry]
    turn = state["turn"]
    if state["started"]:
        acting = dnd5e.order(fighters(state))[state["turn"]].key
        ordered = dnd5e.order(fighters({**state, "combatants": combatants}))
        by_key = {c["key"]: c for c in combatants}
        combatants = [by_key[c.key] for c in ordered]
        turn = next(i for i, c in enumerate(combatants) if c["key"] == acting) if acting in by_key else 0
    return Decision({**state, "combatants": combatants, "turn": turn}, (), "dnd.tracker.join")


def initiative_entry(
    bot: Tirada,
    key: str,
    name: str,
    modifier: int,
    the_mode: Mode,
    monster: bool,
    count: int,
    user: int | None,
) -> dict[str, Any]:
    """A Dexterity check; a group of identical monsters rolls once ("una única tirada")."""
    check("modificador", modifier, -dnd5e.MAX_MODIFIER, dnd5e.MAX_MODIFIER)
    test = dnd5e.roll_test(bot.rng, modifier, the_mode)
    return {
        "key": key,
        "name": name,
        "monster": monster,
        "initiative": test.total,
        "count": count,
        "user": user,
        "rolls": [r[-1] for r in test.rolls],
        "mode": the_mode.value,
    }


class JoinModal(Modal):
    def __init__(self, combat_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "dnd.join.title"), custom_id=f"dnd:unirme-modal:{combat_id}")
        self.combat_id = combat_id
        self.name: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "dnd.join.name"), custom_id="nombre", max_length=40
        )
        self.modifier: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "dnd.join.modifier"), custom_id="modificador", max_length=3
        )
        self.condition: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "dnd.join.condition"), custom_id="condicion", max_length=2, required=False
        )
        for item in (self.name, self.modifier, self.condition):
            self.add_item(item)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        the_mode = join_mode(self.condition.value)
        modifier = parse_int(self.modifier.value, "modificador", -dnd5e.MAX_MODIFIER, dnd5e.MAX_MODIFIER)
        name = " ".join(self.name.value.split())[:40] or interaction.user.display_name[:40]
        entry = initiative_entry(
            bot, f"u{interaction.user.id}", name, modifier, the_mode, False, 1, interaction.user.id
        )
        record, _ = await act(
            bot.store, interaction, self.combat_id, COMBAT_KIND, lambda r: add_fighter(r, entry)
        )
        await update(interaction, embed=tracker_embed(lang, record.data), view=tracker_view(lang, record))


def join_mode(text: str) -> Mode:
    """The form's condition field: V for advantage, S for surprised (disadvantage), both
    cancel, empty for neither. Spanish and English letters are both understood."""
    letters = set(text.strip().lower())
    if not letters <= set("vsad"):
        raise Refusal("dnd.join.bad_condition", value=text.strip()[:10])
    return dnd5e.mode(bool(letters & {"v", "a"}), bool(letters & {"s", "d"}))


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
        if habilidad is not None and habilidad not in dnd5e.SKILLS:
            raise Refusal("dnd.unknown_skill", name=habilidad[:40])
        ability = caracteristica or (dnd5e.SKILLS[habilidad] if habilidad else None)
        if ability is not None and ability not in dnd5e.ABILITIES:
            raise Refusal("dnd.unknown_ability", name=ability[:40])
        modifier = dnd5e.total_modifier(
            modificador, dnd5e.proficiency_bonus(nivel), competencia, pericia, bonificacion
        )
        test = dnd5e.roll_test(self.bot.rng, modifier, dnd5e.mode(ventaja, desventaja), cd)
        await self.post(
            interaction,
            {"kind": "prueba", "what": {"ability": ability, "skill": habilidad}, "test": test_data(test)},
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
        if caracteristica not in dnd5e.ABILITIES:
            raise Refusal("dnd.unknown_ability", name=caracteristica[:40])
        modifier = dnd5e.total_modifier(
            modificador, dnd5e.proficiency_bonus(nivel), competencia, False, bonificacion
        )
        test = dnd5e.roll_test(self.bot.rng, modifier, dnd5e.mode(ventaja, desventaja), cd)
        await self.post(
            interaction,
            {"kind": "salvacion", "what": {"ability": caracteristica}, "test": test_data(test)},
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
        return matches(lang, current, {a: ability_name(lang, a) for a in dnd5e.ABILITIES})

    @prueba.autocomplete("habilidad")
    async def skill_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = lang_for(interaction.locale)
        return matches(lang, current, {s: skill_name(lang, s) for s in dnd5e.SKILLS})

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
        outcome = await self.bot.store.apply(
            Operation(
                table.channel_id,
                interaction.id,
                interaction.user.id,
                "dnd.inspiration.grant",
                (Change(INSPIRATION, 1, owner_id=jugador.id, cap=dnd5e.INSPIRATION_CAP),),
                guild_id=interaction.guild_id,
            )
        )
        if not isinstance(outcome, Refused):
            text = t(lang, "dnd.inspiration.granted", user=jugador.id)
            await send(interaction, embed=embeds.card(text, colour=embeds.SUCCESS))
            return
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

    async def tracker_or_refuse(
        self, interaction: discord.Interaction, mesa: str | None = None
    ) -> RollRecord:
        record = await self.open_tracker((await current_table(interaction, mesa)).channel_id)
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
        record = await self.tracker_or_refuse(interaction)
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
        await gm_table(interaction, mesa)
        record = await self.tracker_or_refuse(interaction, mesa)
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
        record = await self.tracker_or_refuse(interaction)
        gm = is_gm(await current_table(interaction), interaction)

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
        await gm_table(interaction, mesa)
        record = await self.tracker_or_refuse(interaction, mesa)

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


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Dnd(bot))
