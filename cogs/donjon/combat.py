"""Donjon initiative: the combat tracker's embed, buttons and forms, and its turn decisions."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from bot import embeds
from bot.checks import current_table, is_gm, table_of
from bot.client import Tirada
from bot.delivery import send, update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, number, t
from bot.models import Record
from bot.panel import labelled, number_or_none, number_picked, number_select
from bot.rolls import Decision, act, load
from bot.ui import Guarded, Modal, StepButton, selected
from cogs.donjon import sheet
from cogs.donjon.forms import dice_select
from cogs.donjon.state import COMBAT_KIND
from rules.donjon import combat as donjon_combat
from rules.donjon import initiative as donjon_initiative

# -- initiative ----------------------------------------------------------------------------------


def turn_name(combat: donjon_combat.Combat, turn: donjon_initiative.Turn) -> str:
    group = next(s.combatant for s in combat.seats if s.combatant.key == turn.key)
    name = discord.utils.escape_markdown(turn.name)
    return f"{name} {turn.member + 1}" if group.count > 1 else name


def acting_user(combat: donjon_combat.Combat) -> int | None:
    """Whose group acts now in this ráfaga (None for an NPC, or once all have acted)."""
    turn = combat.acting
    if turn is None:
        return None
    return next(s.combatant.user_id for s in combat.seats if s.combatant.key == turn.key)


def combat_embed(lang: Lang, combat: donjon_combat.Combat) -> discord.Embed:
    schedule = combat.turns
    title = t(lang, "donjon.combat.title", rafaga=combat.rafaga)
    if combat.ended:
        description = t(lang, "donjon.combat.ended")
    elif not schedule:
        description = t(lang, "donjon.combat.empty")
    elif combat.over:
        description = t(lang, "donjon.combat.rafaga_over")
    else:
        turn = schedule[combat.step]
        upcoming = ", ".join(
            f"{turn_name(combat, x)} ({x.number})" for x in schedule[combat.step + 1 : combat.step + 6]
        )
        description = t(lang, "donjon.combat.acts", name=turn_name(combat, turn), number=turn.number)
        if upcoming:
            description += "\n" + t(lang, "donjon.combat.next", names=upcoming)
    embed = embeds.card(title, description)
    lines = []
    for seat in combat.seats:
        c = seat.combatant
        count = f" ×{c.count}" if c.count > 1 else ""
        dice = " ".join(str(v) for v in c.dice) or t(lang, "donjon.combat.waiting")
        tag = " " + t(lang, "donjon.combat.npc") if c.npc else ""
        lines.append(f"**{discord.utils.escape_markdown(c.name)}**{count}{tag}: {dice}")
    embeds.field(embed, t(lang, "donjon.combat.who"), "\n".join(lines) or "—", inline=False)
    return embed


def load_combat(record: Record) -> donjon_combat.Combat:
    return donjon_combat.combat_from_data(record.data)


def combat_view(lang: Lang, record_id: int, combat: donjon_combat.Combat) -> discord.ui.View | None:
    """The tracker's buttons for the combat stored in record ``record_id``, as decoded."""
    if combat.ended:
        return None
    view = discord.ui.View(timeout=None)
    for action in ("unirme", "pnj"):
        view.add_item(CombatButton.draw(record_id, action, 0, t(lang, f"donjon.button.{action}")))
    if not combat.over:
        view.add_item(
            CombatButton.draw(
                record_id,
                "siguiente",
                combat.step,
                t(lang, "donjon.button.siguiente"),
                discord.ButtonStyle.primary,
            )
        )
    view.add_item(CombatButton.draw(record_id, "rafaga", 0, t(lang, "donjon.button.rafaga")))
    if combat.seats:
        view.add_item(CombatButton.draw(record_id, "quitar", 0, t(lang, "donjon.button.quitar")))
    view.add_item(
        CombatButton.draw(
            record_id, "terminar", 0, t(lang, "donjon.button.terminar"), discord.ButtonStyle.danger
        )
    )
    return view


GM_COMBAT = frozenset({"pnj", "rafaga", "terminar", "quitar"})


def decide(
    reason: str,
    step: Callable[[donjon_combat.Combat], donjon_combat.Combat],
    known: tuple[Record, donjon_combat.Combat] | None = None,
) -> Callable[[Record], Decision]:
    """A rule step on the stored combat as a Decision (the rules refuse what cannot be).
    ``known``: a record the caller has decoded already; the decision's record, at the same
    version, holds the same combat (a record's data changes only with its version)."""

    def decision(record: Record) -> Decision:
        if known is not None and (known[0].id, known[0].version) == (record.id, record.version):
            stored = known[1]
        else:
            stored = load_combat(record)
        return Decision(donjon_combat.combat_to_data(step(stored)), (), f"donjon.initiative.{reason}")

    return decision


def tracker(lang: Lang, record: Record) -> dict[str, Any]:
    """The tracker's message (embed and buttons) for the combat stored in ``record``."""
    combat = load_combat(record)
    return {"embed": combat_embed(lang, combat), "view": combat_view(lang, record.id, combat)}


async def redraw(interaction: discord.Interaction[Tirada], record: Record) -> None:
    await update(interaction, **tracker(lang_for(interaction.locale), record))


class CombatButton(
    StepButton,
    template=r"donjon:ini:(?P<action>unirme|pnj|siguiente|rafaga|terminar|quitar):(?P<record>[0-9]{1,18}):(?P<step>[0-9]{1,6})",
):
    prefix = "donjon:ini"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, COMBAT_KIND)
        table = await table_of(interaction, record)
        combat = load_combat(record)
        gm = is_gm(table, interaction)
        if self.action in GM_COMBAT and not gm:
            raise Refusal("error.not_gm")
        if combat.ended:
            raise Refusal("donjon.combat.is_over")
        if self.action == "siguiente" and not (gm or acting_user(combat) == interaction.user.id):
            raise Refusal("donjon.combat.not_your_turn")
        if self.action == "unirme":
            await interaction.response.send_modal(JoinModal(self.record_id, lang))
            return
        if self.action == "pnj":
            await interaction.response.send_modal(NpcModal(self.record_id, lang))
            return
        if self.action == "quitar":
            await send(interaction, view=remove_view(lang, record.id, combat), ephemeral=True)
            return
        steps = {
            "siguiente": lambda c: c.next(self.step),
            "rafaga": lambda c: c.new_rafaga(bot.rng),
            "terminar": lambda c: c.finish(),
        }
        decision = decide(self.action, steps[self.action], (record, combat))
        record, _ = await act(bot.store, interaction, self.record_id, COMBAT_KIND, decision)
        await redraw(interaction, record)


def remove_view(lang: Lang, record_id: int, combat: donjon_combat.Combat) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(label=s.combatant.name[:100], value=s.combatant.key)
        for s in combat.seats[: donjon_combat.MAX_COMBATANTS]
    ]
    view.add_item(RemoveSelect(record_id, options, t(lang, "donjon.combat.remove_placeholder")))
    return view


class RemoveSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"donjon:quitar:(?P<record>[0-9]{1,18})",
):
    """The GM takes a combatant out of the fight; the countdown keeps the turns played."""

    def __init__(
        self, record_id: int, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"donjon:quitar:{record_id}",
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=placeholder or None,
            )
        )
        self.record_id = record_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RemoveSelect:
        return cls(int(match["record"]))

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        values = selected(interaction)
        if len(values) != 1:
            raise Refusal("donjon.unknown_combatant")
        key = values[0][:40]
        record = await load(interaction, self.record_id, COMBAT_KIND)
        if not is_gm(await table_of(interaction, record), interaction):
            raise Refusal("error.not_gm")
        record, _ = await act(
            bot.store, interaction, self.record_id, COMBAT_KIND, decide("quitar", lambda c: c.remove(key))
        )
        await update(
            interaction, embed=embeds.card(t(lang, "donjon.combat.removed"), colour=embeds.SUCCESS), view=None
        )
        if record.message_id is not None:
            channel = bot.get_partial_messageable(record.channel_id, guild_id=interaction.guild_id)
            await channel.get_partial_message(record.message_id).edit(**tracker(lang, record))


async def initiative(interaction: discord.Interaction[Tirada], npc: str | None) -> tuple[int, str]:
    """ "Cada jugador tira una cantidad de dados igual a su Nivel más su Discernimiento ... El
    DJ tira por cada PNJ en combate, sumando el Nivel de los PNJ más su Discernimiento": from
    the player's active sheet, or the GM's NPC sheet ``npc``; and whose sheet it is."""
    table = await current_table(interaction)
    found = await sheet.read(interaction.client, interaction, table, npc)
    return found.nivel + found.atributos.discernimiento, found.nombre[:40]


async def join(
    interaction: discord.Interaction[Tirada],
    record_id: int,
    combatant: donjon_initiative.Combatant,
    pool: int,
) -> None:
    bot = interaction.client
    record, _ = await act(
        bot.store,
        interaction,
        record_id,
        COMBAT_KIND,
        decide("join", lambda c: c.join(bot.rng, combatant, pool)),
    )
    await redraw(interaction, record)


# "haz solo una tirada para todos": the NPCs alike that share one initiative roll, 1 to 20.
MOST_ALIKE = 20


def initiative_dice(lang: Lang, sheet_choice: str) -> discord.ui.Select[Any]:
    """The initiative pool picked, not typed: the sheet's Nivel + Discernimiento first
    (chosen), then 1 to 24 dice (a larger pool comes from the sheet)."""
    return dice_select(lang, "dados", none=t(lang, sheet_choice))


class JoinModal(Modal):
    def __init__(self, combat_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "donjon.join.title"), custom_id=f"donjon:unirme-modal:{combat_id}")
        self.record_id = combat_id
        self.dice = initiative_dice(lang, "donjon.join.from_sheet")
        self.add_item(labelled(t(lang, "donjon.join.pool"), self.dice))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        """The dice picked, or (the first choice) the active sheet's Nivel + Discernimiento,
        under the character's name."""
        user = interaction.user
        name = user.display_name[:40]
        pool = number_or_none(self.dice)
        if pool is None:
            pool, name = await initiative(interaction, None)
        combatant = donjon_initiative.Combatant(f"u{user.id}", name, False, (), 1, user.id)
        await join(interaction, self.record_id, combatant, pool)


class NpcModal(Modal):
    def __init__(self, combat_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "donjon.npc.title"), custom_id=f"donjon:pnj-modal:{combat_id}")
        self.record_id = combat_id
        self.name: discord.ui.TextInput[NpcModal] = discord.ui.TextInput(custom_id="nombre", max_length=40)
        self.add_item(labelled(t(lang, "donjon.npc.name"), self.name))
        self.dice = initiative_dice(lang, "donjon.npc.from_sheet")
        self.add_item(labelled(t(lang, "donjon.join.pool"), self.dice))
        alike = range(1, MOST_ALIKE + 1)
        self.count = number_select("cantidad", alike, label=lambda n: number(lang, n), default=1)
        self.add_item(labelled(t(lang, "donjon.npc.count"), self.count))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        table = await table_of(interaction, await load(interaction, self.record_id, COMBAT_KIND))
        if not is_gm(table, interaction):
            raise Refusal("error.not_gm")
        name = " ".join(self.name.value.split())[:40]
        if not name:
            raise Refusal("donjon.npc.no_name")
        count = number_picked(self.count)
        pool = number_or_none(self.dice)
        if pool is None:
            pool, name = await initiative(interaction, name)
        combatant = donjon_initiative.Combatant(f"n{interaction.id}", name, True, (), count)
        await join(interaction, self.record_id, combatant, pool)
