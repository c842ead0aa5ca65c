"""Donjon: tests of opposed pools and the Ley de los Éxitos panel that follows them.

The winner of a test spends each success as a fact ("Narrar hecho") or a banked bonus
die ("Guardar dado", for themselves or a friend); once all are spent, the facts go to
whoever must narrate, with a "Narrado" button. Banked dice are per-player pools, spent
with ``banco`` on a later test. Every panel survives a restart.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, render, rolls
from bot.chances import donjon_line
from bot.checks import answer_gm, current_table, gm_table, is_gm, roll_table, secret_option, table_option
from bot.client import Tirada
from bot.errors import Refusal, RefusedCheck, send, update
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import Change, Operation, Refused, RollRecord, Table
from bot.reveal import is_secret
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Guarded, Modal, StepButton, parse_int
from rules import donjon
from rules.dice import Die, Mark
from rules.donjon import Contest, DonjonRoll, Law

KIND = "donjon"
COMBAT_KIND = "donjon_combate"
ATTRIBUTES_KIND = "donjon_atributos"
BANK = "dados"
GM_BANK = "dados_dj"
GM = 0  # the owner id that stands for "the GM" in a Law (and the GM's bank)
MAX_BANK = 100
MAX_COMBATANTS = 25

DIFFICULTY_CHOICES = [Choice(name=T(f"donjon.dificultad.{d}"), value=d) for d in donjon.DIFFICULTIES]


def check(name: str, value: int, low: int, high: int) -> None:
    """discord.py does not enforce option ranges; every command checks its own."""
    if not low <= value <= high:
        raise Refusal("donjon.out_of_range", name=name, value=value, min=low, max=high)


def bank_change(owner: int, delta: int) -> Change:
    return Change(GM_BANK, delta) if owner == GM else Change(BANK, delta, owner_id=owner)


def who(lang: Lang, user_id: int) -> str:
    return t(lang, "donjon.the_gm") if user_id == GM else f"<@{user_id}>"


# -- rendering ----------------------------------------------------------------------------


def side_text(lang: Lang, dice: tuple[Die, ...], label: str) -> str:
    return t(lang, "donjon.pool_line", label=label, count=len(dice), dice=render.dice(dice))


def contest_lines(lang: Lang, test: Contest, label_a: str, label_b: str) -> list[str]:
    first = test.first
    lines = [side_text(lang, first.a, label_a), side_text(lang, first.b, label_b)]
    for x, y in test.extra:
        lines.append(t(lang, "donjon.tie_round", a=x, b=y))
    return lines


def labels(lang: Lang, roll: DonjonRoll, roller: int) -> tuple[str, str]:
    rival = roll.details.get("rival")
    return f"<@{roller}>", (f"<@{rival}>" if rival else t(lang, "donjon.the_gm"))


def roll_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    roll = donjon.from_data(record.data)
    test = roll.test
    label_a, label_b = labels(lang, roll, record.user_id)
    won = test.winner == "a"
    embed = embeds.card(
        t(lang, f"donjon.title.{roll.kind}"), "\n".join(contest_lines(lang, test, label_a, label_b))
    )
    embed.colour = embeds.SUCCESS if won else embeds.FAILURE
    winner = label_a if won else label_b
    embeds.field(embed, t(lang, "donjon.result"), outcome_text(lang, roll, winner), inline=False)
    law = roll.law
    if law is not None:
        embeds.field(embed, t(lang, "donjon.law"), law_text(lang, law), inline=False)
    if roll.kind in ("prueba", "enfrentada"):
        line = donjon_line(lang, len(test.a), roll.details.get("bank_spent", 0), len(test.b), test.sides)
        if line:
            embeds.field(embed, t(lang, "donjon.roll.odds"), line, inline=False)
    if roll.details.get("bank_spent"):
        embeds.field(
            embed, t(lang, "donjon.bank_used"), t(lang, "donjon.bank_used_n", n=roll.details["bank_spent"])
        )
    return embed


def outcome_text(lang: Lang, roll: DonjonRoll, winner: str) -> str:
    test, details = roll.test, roll.details
    key = f"donjon.outcome.{roll.kind}.{'won' if test.winner == 'a' else 'lost'}"
    return t(lang, key, winner=winner, successes=test.successes, **details.get("params", {}))


def law_text(lang: Lang, law: Law) -> str:
    lines = [
        t(lang, "donjon.law.left", left=law.left, successes=law.successes, winner=who(lang, law.winner_id))
    ]
    for number, fact in enumerate(law.facts, start=1):
        lines.append(t(lang, "donjon.law.fact", n=number, text=discord.utils.escape_markdown(fact.text)))
    for owner in law.banked:
        lines.append(t(lang, "donjon.law.banked", owner=who(lang, owner)))
    if law.allocated:
        key = "donjon.law.narrated" if law.narrated else "donjon.law.to_narrate"
        lines.append(t(lang, key, narrator=who(lang, law.narrator_id or GM)))
    return "\n".join(lines)


def law_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    roll = donjon.from_data(record.data)
    if roll.law is None or roll.law.allocated:
        return None
    view = discord.ui.View(timeout=None)
    for action, style in (("hecho", discord.ButtonStyle.primary), ("dado", discord.ButtonStyle.success)):
        view.add_item(LawButton(record.id, action, t(lang, f"donjon.button.{action}"), style))
    view.add_item(
        LawButton(record.id, "amigo", t(lang, "donjon.button.amigo"), discord.ButtonStyle.secondary)
    )
    return view


def narration_embed(lang: Lang, record: RollRecord) -> discord.Embed:
    law = donjon.from_data(record.data).law
    assert law is not None
    facts = "\n".join(
        t(lang, "donjon.law.fact", n=n, text=discord.utils.escape_markdown(f.text))
        for n, f in enumerate(law.facts, 1)
    )
    narrator = who(lang, law.narrator_id or GM)
    body = facts or t(lang, "donjon.narrate.no_facts")
    embed = embeds.card(
        t(lang, "donjon.narrate.title"), f"{t(lang, 'donjon.narrate.who', narrator=narrator)}\n{body}"
    )
    if law.narrated:
        embed.set_footer(text=t(lang, "donjon.narrate.done"))
    return embed


# -- the Ley de los Éxitos panel ----------------------------------------------------------------


async def check_winner(interaction: discord.Interaction, record: RollRecord, law: Law) -> None:
    """Only the winner allocates; when the GM won, whoever runs the table."""
    table = await roll_table(interaction, record)
    if law.winner_id == GM:
        if not is_gm(table, interaction):
            raise Refusal("donjon.not_winner")
    elif interaction.user.id != law.winner_id:
        raise Refusal("donjon.not_winner")


async def allocate(interaction: discord.Interaction, roll_id: int, change: Any) -> None:
    """Apply one allocation (a fact or a banked die) and update the panel; post the facts
    to the narrator once the last success is spent."""
    bot: Tirada = interaction.client  # type: ignore[assignment]
    lang = lang_for(interaction.locale)
    record = await load(bot.store, roll_id, KIND)
    law = donjon.from_data(record.data).law
    if law is None:
        raise Refusal("error.roll_gone")
    await check_winner(interaction, record, law)
    record, _ = await act(bot.store, interaction, roll_id, KIND, change)
    await update(interaction, embed=roll_embed(lang, record), view=law_view(lang, record))
    law = donjon.from_data(record.data).law
    if law is not None and law.allocated and law.facts:
        await post_narration(interaction, lang, record, law)


async def post_narration(interaction: discord.Interaction, lang: Lang, record: RollRecord, law: Law) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(
        NarratedButton(record.id, "narrado", t(lang, "donjon.button.narrado"), discord.ButtonStyle.success)
    )
    narrator = law.narrator_id
    mentions = discord.AllowedMentions(
        users=[discord.Object(narrator)] if narrator else False, roles=False, everyone=False
    )
    await interaction.followup.send(embed=narration_embed(lang, record), view=view, allowed_mentions=mentions)


def law_decision(record: RollRecord, step: Any, reason: str, changes: tuple[Change, ...] = ()) -> Decision:
    roll = donjon.from_data(record.data)
    if roll.law is None:
        raise Refusal("error.roll_gone")
    return Decision(donjon.to_data(replace(roll, law=step(roll.law))), changes, reason)


class LawButton(ActionButton, template=r"donjon:ley:(?P<action>hecho|dado|amigo):(?P<roll>[0-9]{1,18})"):
    prefix = "donjon:ley"

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.roll_id, KIND)
        law = donjon.from_data(record.data).law
        if law is None:
            raise Refusal("error.roll_gone")
        await check_winner(interaction, record, law)
        if law.left <= 0:
            raise Refusal("donjon.no_success_left")
        if self.action == "hecho":
            await interaction.response.send_modal(FactModal(self.roll_id, lang))
        elif self.action == "amigo":
            view = discord.ui.View(timeout=None)
            view.add_item(FriendSelect(self.roll_id, t(lang, "donjon.friend.placeholder")))
            await send(
                interaction, embed=embeds.card(t(lang, "donjon.friend.title")), view=view, ephemeral=True
            )
        else:
            owner = law.winner_id

            def keep(current: RollRecord) -> Decision:
                return law_decision(
                    current, lambda law_: donjon.bank(law_, owner), "donjon.bank", (bank_change(owner, 1),)
                )

            await allocate(interaction, self.roll_id, keep)


class FactModal(Modal):
    def __init__(self, roll_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "donjon.fact.title"), custom_id=f"donjon:hecho-modal:{roll_id}")
        self.roll_id = roll_id
        self.fact: discord.ui.TextInput[FactModal] = discord.ui.TextInput(
            label=t(lang, "donjon.fact.label"),
            custom_id="hecho",
            style=discord.TextStyle.paragraph,
            max_length=donjon.FACT_LIMIT,
        )
        self.add_item(self.fact)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        text = self.fact.value
        author = interaction.user.id

        def add(current: RollRecord) -> Decision:
            return law_decision(current, lambda law_: donjon.narrate(law_, author, text), "donjon.fact")

        await allocate(interaction, self.roll_id, add)


class FriendSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.UserSelect],
    template=r"donjon:amigo:(?P<roll>[0-9]{1,18})",
):
    """A bonus die for a friend at the table, chosen from the server's members."""

    def __init__(self, roll_id: int, placeholder: str = "") -> None:
        super().__init__(
            discord.ui.UserSelect(custom_id=f"donjon:amigo:{roll_id}", placeholder=placeholder or None)
        )
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.UserSelect, match: re.Match[str]
    ) -> FriendSelect:
        return cls(int(match["roll"]))

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        values = (interaction.data or {}).get("values", [])
        if len(values) != 1 or not str(values[0]).isdigit():
            raise Refusal("donjon.friend.pick_one")
        friend = int(values[0])
        resolved = (interaction.data or {}).get("resolved", {}).get("users", {})
        if resolved.get(str(friend), {}).get("bot"):
            raise Refusal("donjon.friend.bot")
        record = await load(bot.store, self.roll_id, KIND)
        law = donjon.from_data(record.data).law
        if law is None:
            raise Refusal("error.roll_gone")
        await check_winner(interaction, record, law)

        def give(current: RollRecord) -> Decision:
            return law_decision(
                current,
                lambda law_: donjon.bank(law_, friend),
                "donjon.bank_friend",
                (bank_change(friend, 1),),
            )

        record, _ = await act(bot.store, interaction, self.roll_id, KIND, give)
        await update(
            interaction,
            embed=embeds.card(t(lang, "donjon.friend.done", friend=friend), colour=embeds.SUCCESS),
            view=None,
        )
        message_id = record.message_id
        if message_id is not None and isinstance(interaction.channel, discord.abc.Messageable):
            await interaction.channel.get_partial_message(message_id).edit(
                embed=roll_embed(lang, record), view=law_view(lang, record)
            )
        law = donjon.from_data(record.data).law
        if law is not None and law.allocated and law.facts:
            await post_narration(interaction, lang, record, law)


class NarratedButton(ActionButton, template=r"donjon:(?P<action>narrado):(?P<roll>[0-9]{1,18})"):
    prefix = "donjon"

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.roll_id, KIND)
        law = donjon.from_data(record.data).law
        if law is None:
            raise Refusal("error.roll_gone")
        table = await roll_table(interaction, record)
        narrator_ok = interaction.user.id == law.narrator_id or (
            law.narrator_id in (None, GM) and is_gm(table, interaction)
        )
        if not (narrator_ok or is_gm(table, interaction)):
            raise Refusal("donjon.not_narrator")
        record, _ = await act(
            bot.store,
            interaction,
            self.roll_id,
            KIND,
            lambda r: law_decision(r, donjon.mark_narrated, "donjon.narrated"),
        )
        await update(interaction, embed=narration_embed(lang, record), view=None)


# -- initiative ----------------------------------------------------------------------------------


def combatants(state: dict[str, Any]) -> list[donjon.Combatant]:
    return [
        donjon.Combatant(c["key"], c["name"], c["npc"], tuple(c["dice"]), c["count"], c.get("user"))
        for c in state["combatants"]
    ]


def turns(state: dict[str, Any]) -> tuple[donjon.Turn, ...]:
    return donjon.schedule([c for c in combatants(state) if c.dice], state["sides"])


def acting_user(state: dict[str, Any]) -> int | None:
    """Whose group acts now in this Ráfaga (None for an NPC, or once all have acted)."""
    schedule = turns(state)
    if state["step"] >= len(schedule):
        return None
    key = schedule[state["step"]].key
    return next(c.get("user") for c in state["combatants"] if c["key"] == key)


def turn_name(turn: donjon.Turn, state: dict[str, Any]) -> str:
    group = next(c for c in state["combatants"] if c["key"] == turn.key)
    name = discord.utils.escape_markdown(turn.name)
    return f"{name} {turn.member + 1}" if group["count"] > 1 else name


def combat_embed(lang: Lang, state: dict[str, Any]) -> discord.Embed:
    schedule = turns(state)
    step = state["step"]
    title = t(lang, "donjon.combat.title", rafaga=state["rafaga"])
    if state["ended"]:
        description = t(lang, "donjon.combat.ended")
    elif not schedule:
        description = t(lang, "donjon.combat.empty")
    elif step >= len(schedule):
        description = t(lang, "donjon.combat.rafaga_over")
    else:
        turn = schedule[step]
        upcoming = ", ".join(f"{turn_name(x, state)} ({x.number})" for x in schedule[step + 1 : step + 6])
        description = t(lang, "donjon.combat.acts", name=turn_name(turn, state), number=turn.number)
        if upcoming:
            description += "\n" + t(lang, "donjon.combat.next", names=upcoming)
    embed = embeds.card(title, description)
    lines = []
    for c in state["combatants"]:
        count = f" ×{c['count']}" if c["count"] > 1 else ""
        dice = " ".join(str(v) for v in c["dice"]) or t(lang, "donjon.combat.waiting")
        tag = " " + t(lang, "donjon.combat.npc") if c["npc"] else ""
        lines.append(f"**{discord.utils.escape_markdown(c['name'])}**{count}{tag}: {dice}")
    embeds.field(embed, t(lang, "donjon.combat.who"), "\n".join(lines) or "—", inline=False)
    return embed


def combat_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    state = record.data
    if state["ended"]:
        return None
    view = discord.ui.View(timeout=None)
    for action in ("unirme", "pnj"):
        view.add_item(CombatButton(record.id, action, 0, t(lang, f"donjon.button.{action}")))
    if state["step"] < len(turns(state)):
        view.add_item(
            CombatButton(
                record.id,
                "siguiente",
                state["step"],
                t(lang, "donjon.button.siguiente"),
                discord.ButtonStyle.primary,
            )
        )
    view.add_item(CombatButton(record.id, "rafaga", 0, t(lang, "donjon.button.rafaga")))
    view.add_item(
        CombatButton(record.id, "terminar", 0, t(lang, "donjon.button.terminar"), discord.ButtonStyle.danger)
    )
    return view


GM_COMBAT = frozenset({"pnj", "rafaga", "terminar"})


class CombatButton(
    StepButton,
    template=r"donjon:ini:(?P<action>unirme|pnj|siguiente|rafaga|terminar):(?P<record>[0-9]{1,18}):(?P<step>[0-9]{1,6})",
):
    prefix = "donjon:ini"

    async def run(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.record_id, COMBAT_KIND)
        table = await roll_table(interaction, record)
        gm = is_gm(table, interaction)
        if self.action in GM_COMBAT and not gm:
            raise Refusal("error.not_gm")
        if record.data["ended"]:
            raise Refusal("donjon.combat.is_over")
        if self.action == "siguiente" and not (gm or acting_user(record.data) == interaction.user.id):
            raise Refusal("donjon.combat.not_your_turn")
        if self.action == "unirme":
            await interaction.response.send_modal(JoinModal(self.record_id, lang))
            return
        if self.action == "pnj":
            await interaction.response.send_modal(NpcModal(self.record_id, lang))
            return
        decide = {
            "siguiente": lambda r: advance(r, self.step),
            "rafaga": lambda r: new_rafaga(r, bot),
            "terminar": end_combat,
        }[self.action]
        record, _ = await act(bot.store, interaction, self.record_id, COMBAT_KIND, decide)
        await update(interaction, embed=combat_embed(lang, record.data), view=combat_view(lang, record))


def advance(record: RollRecord, step: int) -> Decision:
    """ "Siguiente" ends the turn its button was drawn for, so two presses of one button
    advance once."""
    state = record.data
    if state["step"] != step:
        raise Refusal("donjon.combat.already_moved")
    if step >= len(turns(state)):
        raise Refusal("donjon.combat.rafaga_over_refusal")
    return Decision({**state, "step": step + 1}, (), "donjon.initiative.next")


def new_rafaga(record: RollRecord, bot: Tirada) -> Decision:
    state = record.data
    rolled = [
        {**c, "dice": list(donjon.roll_initiative(bot.rng, c["pool"], state["sides"]))}
        for c in state["combatants"]
    ]
    return Decision(
        {**state, "combatants": rolled, "rafaga": state["rafaga"] + 1, "step": 0},
        (),
        "donjon.initiative.rafaga",
    )


def end_combat(record: RollRecord) -> Decision:
    return Decision({**record.data, "ended": True}, (), "donjon.initiative.end")


def join_decision(record: RollRecord, entry: dict[str, Any], bot: Tirada) -> Decision:
    """A newcomer rolls at once before the ráfaga starts; after, waits for the next one."""
    state = record.data
    dice = list(donjon.roll_initiative(bot.rng, entry["pool"], state["sides"])) if state["step"] == 0 else []
    joined = {**entry, "dice": dice}
    seats = [joined if c["key"] == entry["key"] else c for c in state["combatants"]]
    if joined not in seats:
        if len(seats) >= MAX_COMBATANTS:
            raise Refusal("donjon.combat.full", max=MAX_COMBATANTS)
        seats.append(joined)
    return Decision({**state, "combatants": seats}, (), "donjon.initiative.join")


class JoinModal(Modal):
    def __init__(self, combat_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "donjon.join.title"), custom_id=f"donjon:unirme-modal:{combat_id}")
        self.record_id = combat_id
        self.dice: discord.ui.TextInput[JoinModal] = discord.ui.TextInput(
            label=t(lang, "donjon.join.dice"), custom_id="dados", max_length=3
        )
        self.add_item(self.dice)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        pool = parse_int(self.dice.value, "dados", 0, donjon.MAX_POOL)
        user = interaction.user
        entry = {
            "key": f"u{user.id}",
            "name": user.display_name[:40],
            "npc": False,
            "pool": pool,
            "count": 1,
            "user": user.id,
        }
        record, _ = await act(
            bot.store, interaction, self.record_id, COMBAT_KIND, lambda r: join_decision(r, entry, bot)
        )
        await update(interaction, embed=combat_embed(lang, record.data), view=combat_view(lang, record))


class NpcModal(Modal):
    def __init__(self, combat_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "donjon.npc.title"), custom_id=f"donjon:pnj-modal:{combat_id}")
        self.record_id = combat_id
        self.name: discord.ui.TextInput[NpcModal] = discord.ui.TextInput(
            label=t(lang, "donjon.npc.name"), custom_id="nombre", max_length=40
        )
        self.dice: discord.ui.TextInput[NpcModal] = discord.ui.TextInput(
            label=t(lang, "donjon.npc.dice"), custom_id="dados", max_length=3
        )
        self.count: discord.ui.TextInput[NpcModal] = discord.ui.TextInput(
            label=t(lang, "donjon.npc.count"), custom_id="cantidad", max_length=2, required=False
        )
        for item in (self.name, self.dice, self.count):
            self.add_item(item)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Tirada = interaction.client  # type: ignore[assignment]
        lang = lang_for(interaction.locale)
        table = await roll_table(interaction, await load(bot.store, self.record_id, COMBAT_KIND))
        if not is_gm(table, interaction):
            raise Refusal("error.not_gm")
        name = " ".join(self.name.value.split())[:40]
        if not name:
            raise Refusal("donjon.npc.no_name")
        pool = parse_int(self.dice.value, "dados", 0, donjon.MAX_POOL)
        count = parse_int(self.count.value or "1", "cantidad", 1, 20)
        entry = {
            "key": f"n{interaction.id}",
            "name": name,
            "npc": True,
            "pool": pool,
            "count": count,
            "user": None,
        }
        record, _ = await act(
            bot.store, interaction, self.record_id, COMBAT_KIND, lambda r: join_decision(r, entry, bot)
        )
        await update(interaction, embed=combat_embed(lang, record.data), view=combat_view(lang, record))


# -- the cog ------------------------------------------------------------------------------------


class Donjon(commands.Cog):
    group = app_commands.Group(name=T("donjon.cmd"), description=T("donjon.cmd.desc"), guild_only=True)
    gastos = app_commands.Group(name=T("donjon.gastos"), description=T("donjon.gastos.desc"), parent=group)
    banco = app_commands.Group(name=T("donjon.banco"), description=T("donjon.banco.desc"), parent=group)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LawButton, FriendSelect, NarratedButton, CombatButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LawButton, FriendSelect, NarratedButton, CombatButton)

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
        outcome = await self.bot.store.apply(
            Operation(
                table.channel_id,
                interaction.id,
                interaction.user.id,
                "donjon.bank_adjust",
                (bank_change(owner, cantidad),),
                guild_id=interaction.guild_id,
            )
        )
        if isinstance(outcome, Refused):
            raise outcome.error()
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
            (r for r in await store.rolls(table.channel_id, COMBAT_KIND, 5) if not r.data["ended"]),
            None,
        )
        if open_combat is None:
            state = {
                "combatants": [],
                "rafaga": 1,
                "step": 0,
                "ended": False,
                "sides": table.settings.donjon_sides,
            }
            combat_id = await store.save_roll(
                table.channel_id, interaction.id, interaction.user.id, COMBAT_KIND, state
            )
            open_combat = await load(store, combat_id, COMBAT_KIND)
        lang = lang_for(interaction.locale)
        message_id = await send(
            interaction, embed=combat_embed(lang, open_combat.data), view=combat_view(lang, open_combat)
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


def median_dice(rolled: tuple[int, int, int]) -> str:
    """The three d6 with the median kept and the other two struck through."""
    middle = sorted(range(3), key=lambda i: rolled[i])[1]
    return render.dice(
        Die(6, v, frozenset() if i == middle else frozenset({Mark.DROPPED})) for i, v in enumerate(rolled)
    )


def attributes_embed(lang: Lang, method: str, roll: donjon.AttributeRoll) -> discord.Embed:
    lines = []
    for index, (rolled, median) in enumerate(zip(roll.rolls, roll.medians, strict=True)):
        dice = median_dice(rolled)
        if method == "eleccion":
            lines.append(t(lang, "donjon.attr.free", n=index + 1, dice=dice, value=median))
        else:
            lines.append(t(lang, f"donjon.attr.{donjon.ATTRIBUTES[index]}", value=median) + f" · {dice}")
    footer = t(lang, "donjon.attr.total", total=roll.total)
    if method == "mejorado" and roll.may_reroll:
        footer = t(lang, "donjon.attr.may_reroll", total=roll.total)
    embed = embeds.card(t(lang, f"donjon.metodo.{method}"), "\n".join(lines))
    embed.set_footer(text=footer)
    return embed


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Donjon(bot))
