"""Heroic inspiration: the reroll buttons and the menu that passes it on (DynamicItems whose
custom_id carries the record id, so they survive restarts)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import embeds, render
from bot.checks import roll_channel
from bot.client import Tirada
from bot.errors import Refusal, update
from bot.i18n import Lang, lang_for, t
from bot.models import Change, RollRecord
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Guarded
from cogs.dnd5e.render import roll_embed
from cogs.dnd5e.state import GRANT_KIND, INSPIRATION, KIND, test_data, test_from
from rules import dnd5e
from rules.dnd5e import D20Test


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

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
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

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
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
