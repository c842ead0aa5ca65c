"""Donjon initiative: the combat tracker's embed, buttons and forms, and its turn decisions."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds
from bot.checks import is_gm, roll_table
from bot.client import Tirada
from bot.errors import Refusal, update
from bot.i18n import Lang, lang_for, t
from bot.models import RollRecord
from bot.rolls import Decision, act, load
from bot.ui import Modal, StepButton, parse_int
from cogs.donjon.state import COMBAT_KIND, MAX_COMBATANTS
from rules import donjon

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

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
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

    async def on_submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
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

    async def on_submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
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
