"""The D&D initiative tracker: its embed, buttons and form, and its turn decisions."""

from __future__ import annotations

from typing import Any

import discord

from bot import embeds
from bot.checks import (
    is_gm,
    roll_table,
)
from bot.client import Tirada
from bot.errors import Refusal, update
from bot.i18n import Lang, lang_for, t
from bot.models import RollRecord
from bot.rolls import Decision, act, load
from bot.ui import Modal, StepButton, parse_int
from cogs.dnd5e.state import COMBAT_KIND, MAX_COMBATANTS, check
from rules import dnd5e
from rules.dnd5e import Mode

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

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
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

    async def on_submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
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
