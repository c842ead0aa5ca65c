"""Contests of two or more characters ("Las tiradas enfrentadas se usan cuando dos o más
personajes compiten"): a message with *Participar*, where each player enters their own
character (the GM enters NPCs), and *Resolver*, which rolls every side at once."""

from __future__ import annotations

from typing import Any

import discord

from bot.checks import is_gm, table_of
from bot.client import Tirada
from bot.delivery import update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Record, Table
from bot.panel import chosen, labelled, number_or_none, number_select, worded
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Modal
from cogs.mediana import sheet
from cogs.mediana.combat import ENCUMBRANCES
from cogs.mediana.components import contest_card
from cogs.mediana.forms import RIVAL_ATTRIBUTES, rank_radio
from cogs.mediana.render import contest_embed, tests_of
from cogs.mediana.state import KIND, badly_hurt
from rules.mediana import checks, contests
from rules.mediana import ranks as mediana_ranks

# The entry's attribute picked after "the skill's, from the sheet": -4 to 19, the opposed
# form's rival scale but its top one, so the question keeps to 25 options.
ATTRIBUTES = range(RIVAL_ATTRIBUTES[0], RIVAL_ATTRIBUTES[-1])


def open_view(lang: Lang, record: Record) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ContestButton.draw(record.id, "participar", t(lang, "mediana.contest.join")))
    view.add_item(ContestButton.draw(record.id, "pnj", t(lang, "mediana.button.pnj")))
    view.add_item(
        ContestButton.draw(
            record.id, "resolver", t(lang, "mediana.contest.resolve"), discord.ButtonStyle.primary
        )
    )
    return view


async def roll_entries(bot: Tirada, table: Table, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every side rolls at once, each at the rank its own state gives now (a player's PV
    sheet may have made them malherido since they entered)."""
    sides = []
    for entry in entries:
        hurt = entry.get("user") is not None and await badly_hurt(bot, table.channel_id, entry["user"])
        side = entry["side"]
        sides.append(contests.Side(side["atributo"], side["habilidad"], side["rango"], hurt, side["estorbo"]))
    tests = contests.roll_opposed(bot.rng, sides)
    return [{**entry, "test": checks.roll_to_data(test)} for entry, test in zip(entries, tests, strict=True)]


class ContestButton(
    ActionButton, template=r"mediana:concurso:(?P<action>participar|pnj|resolver):(?P<record>[0-9]{1,18})"
):
    prefix = "mediana:concurso"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, KIND)
        if not record.data.get("open"):
            raise Refusal("mediana.contest.closed")
        table = await table_of(interaction, record)
        gm = is_gm(table, interaction)
        if self.action == "pnj" and not gm:
            raise Refusal("error.not_gm")
        if self.action != "resolver":
            await interaction.response.send_modal(EntryModal(self.record_id, lang, npc=self.action == "pnj"))
            return
        if interaction.user.id != record.user_id and not gm:
            raise Refusal("mediana.contest.not_yours")
        if len(record.data["entries"]) < 2:
            raise Refusal("mediana.contest_too_small")
        entries = await roll_entries(bot, table, record.data["entries"])

        def resolve(current: Record) -> Decision:
            if not current.data.get("open"):
                raise Refusal("mediana.contest.closed")
            if [e["side"] for e in current.data["entries"]] != [e["side"] for e in entries]:
                raise Refusal("mediana.contest.changed")
            return Decision(
                {**current.data, "entries": entries, "open": False},
                (),
                "mediana.contest.resolve",
                rolled=True,
            )

        record, _ = await act(bot.store, interaction, self.record_id, KIND, resolve)
        embed, view = contest_card(lang, record)
        await update(interaction, embed=embed, view=view)


class EntryModal(Modal):
    """An entrant's numbers: the attribute (the sheet skill's, or picked), the skill (a
    sheet's by name, or points: typed), the estorbo (the sheet's, or picked) and the rank."""

    def __init__(self, record_id: int, lang: Lang, *, npc: bool = False) -> None:
        super().__init__(
            title=t(lang, "mediana.contest.form"), custom_id=f"mediana:concurso-modal:{record_id}"
        )
        self.record_id = record_id
        self.npc = npc
        self.name: discord.ui.TextInput[EntryModal] | None = None
        if npc:
            self.name = discord.ui.TextInput(
                label=t(lang, "mediana.join.name"), custom_id="nombre", max_length=40
            )
            self.add_item(self.name)
        self.attribute = number_select("atributo", ATTRIBUTES, worded(t(lang, "mediana.contest.skills")))
        self.add_item(labelled(t(lang, "mediana.contest.attribute"), self.attribute))
        self.skill: discord.ui.TextInput[EntryModal] = discord.ui.TextInput(
            label=t(lang, "mediana.contest.skill"), custom_id="habilidad", max_length=60, required=False
        )
        self.add_item(self.skill)
        sheet_armour = worded(t(lang, "mediana.contest.from_sheet"))
        self.encumbrance = number_select("estorbo", ENCUMBRANCES, sheet_armour)
        self.add_item(labelled(t(lang, "mediana.join.encumbrance"), self.encumbrance))
        self.rank = rank_radio(lang, "rango")
        self.add_item(labelled(t(lang, "mediana.contest.rank"), self.rank))

    async def side(self, interaction: discord.Interaction[Tirada]) -> dict[str, Any]:
        """The entrant's numbers: as picked, or a skill by name from the player's active
        sheet (the GM's NPC sheet of the name given, for an NPC), which brings its attribute."""
        rank = chosen(self.rank.value, mediana_ranks.RANKS)
        attribute = number_or_none(self.attribute)
        npc = self.name.value if self.name is not None else None
        skill = self.skill.value.strip() or None
        found = await sheet.scores(interaction.client, interaction, attribute, skill, npc)
        encumbrance = number_or_none(self.encumbrance)
        if encumbrance is None:
            encumbrance = await sheet.encumbrance(interaction.client, interaction, found, npc)
        return {**found, "estorbo": encumbrance, "rango": rank}

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        """A player enters once (entering again replaces their numbers: nothing is rolled
        before *Resolver*); the GM adds NPCs by name."""
        bot = interaction.client
        lang = lang_for(interaction.locale)
        side = await self.side(interaction)
        character = side.pop("ficha", None)
        if self.name is not None:
            entry: dict[str, Any] = {
                "user": None,
                "name": character or " ".join(self.name.value.split())[:40],
                "side": side,
            }
        else:
            entry = {"user": interaction.user.id, "side": side}
            if character:
                entry["name"] = character

        def enter(current: Record) -> Decision:
            if not current.data.get("open"):
                raise Refusal("mediana.contest.closed")
            entries = [
                e for e in current.data["entries"] if entry["user"] is None or e.get("user") != entry["user"]
            ]
            if len(entries) >= contests.MAX_CONTESTANTS:
                raise Refusal("mediana.contest.full", max=contests.MAX_CONTESTANTS)
            return Decision({**current.data, "entries": [*entries, entry]}, (), "mediana.contest.enter")

        record, _ = await act(bot.store, interaction, self.record_id, KIND, enter)
        await update(
            interaction, embed=contest_embed(lang, record, tests_of(record)), view=open_view(lang, record)
        )
