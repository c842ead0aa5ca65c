"""A roll's buttons (*Repetir*, heroic inspiration's rerolls) and the menu that passes
inspiration on: DynamicItems whose custom_id carries the record id, so they survive restarts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import discord

from bot import embeds
from bot.checks import record_channel
from bot.client import Tirada
from bot.delivery import update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Change, Record
from bot.repeat import button as repeat_button
from bot.rolls import Decision, act, load
from bot.store import Store
from bot.ui import ActionButton, Guarded, selected
from cogs.dnd5e.build import damage_data, damage_for
from cogs.dnd5e.damage import damage_button
from cogs.dnd5e.render import roll_embed
from cogs.dnd5e.state import COMBAT_KIND, GRANT_KIND, INSPIRATION, KIND
from cogs.dnd5e.vitals import RECENT_TRACKERS
from rules.dnd5e import attacks, checks
from rules.errors import RuleError

# Discord's limit of options in a select: a damage roll's first 25 dice are offered.
MAX_OPTIONS = 25


def roll_card(lang: Lang, record: Record, holds: bool) -> tuple[discord.Embed, discord.ui.View]:
    """The roll's embed and buttons, from its test decoded once: pydantic's decoding was
    a card's largest cost when each drew its own (issue 29)."""
    test = checks.roll_from_data(record.data["test"])
    return roll_embed(lang, record, test), roll_view(lang, record, holds, test)


def roll_view(lang: Lang, record: Record, holds: bool, test: checks.D20Test) -> discord.ui.View:
    """*Repetir* on every roll and, on the holder's own roll, "Usar inspiración": one button
    per d20 it could reroll, and above them, on a hit, a menu of the damage dice; "Aplicar
    daño" on a hit that rolled damage."""
    view = discord.ui.View(timeout=None)
    damage = record.data.get("damage_roll")
    inspiring = holds and not test.inspired
    draws = (damage or {}).get("draws") or []
    if inspiring and draws:
        options = [
            discord.SelectOption(
                label=t(lang, "dnd.inspiration.damage_die", sides=sides, value=face), value=str(i)
            )
            for i, (sides, face) in enumerate(draws[:MAX_OPTIONS])
        ]
        view.add_item(DamageDieSelect(record.id, options, t(lang, "dnd.inspiration.damage_pick")))
    if inspiring:
        key = "dnd.button.inspiration_die" if len(test.faces) > 1 else "dnd.button.inspiration"
        for index, face in enumerate(test.faces):
            view.add_item(
                InspirationButton.draw(
                    record.id, f"insp{index}", t(lang, key, value=face), discord.ButtonStyle.primary
                )
            )
    if "options" in record.data:  # rolls made before *Repetir* did not keep their options
        view.add_item(repeat_button(lang, record.id))
    if damage:
        view.add_item(damage_button(lang, record.id))
    return view


# -- heroic inspiration ---------------------------------------------------------------------------


async def damage_applied(store: Store, roll: Record) -> bool:
    """Whether the roll's damage already reached a creature of the table's recent combats:
    Heroic Inspiration rerolls a die "immediately after rolling it", not once the hit has
    been acted upon (a reroll to a miss would leave the damage standing)."""
    if not roll.data.get("damage_roll"):
        return False
    mark = f"{roll.id}:"
    trackers = await store.records(roll.channel_id, COMBAT_KIND, RECENT_TRACKERS)
    return any(m.startswith(mark) for r in trackers for m in r.data.get("applied", ()))


def spend(current: Record) -> Change:
    return Change(INSPIRATION, -1, owner_id=current.user_id, cap=checks.INSPIRATION_CAP)


class InspirationButton(ActionButton, template=r"dnd:(?P<action>insp[01]):(?P<record>[0-9]{1,18})"):
    prefix = "dnd"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, KIND)
        if interaction.user.id != record.user_id:
            raise Refusal("dnd.not_your_roll")
        index = int(self.action[-1])
        applied = await damage_applied(bot.store, record)

        def inspire(current: Record) -> Decision:
            if applied:
                raise Refusal("dnd.inspiration.damage_applied")
            test = checks.use_inspiration(checks.roll_from_data(current.data["test"]), bot.rng, index)
            data = {**current.data, "test": checks.roll_to_data(test)}
            if test.attack:
                data["damage_roll"] = damage_for(bot.rng, current.data.get("damage"), test)
            return Decision(data, (spend(current),), "dnd.inspiration.use")

        record, _ = await act(bot.store, interaction, self.record_id, KIND, inspire)
        embed, view = roll_card(lang, record, False)
        await update(interaction, embed=embed, view=view)


class DamageDieSelect(
    Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"dnd:inspdano:(?P<record>[0-9]{1,18})"
):
    """Heroic Inspiration on one die of a hit's damage ("reroll any die immediately after
    rolling it"): the roll's one use of it, refused once the damage was applied."""

    def __init__(
        self, record_id: int, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"dnd:inspdano:{record_id}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder or None,
            )
        )
        self.record_id = record_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DamageDieSelect:
        return cls(int(match["record"]))

    async def record_table(self, interaction: discord.Interaction) -> int:
        return await record_channel(interaction, self.record_id)

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, KIND)
        if interaction.user.id != record.user_id:
            raise Refusal("dnd.not_your_roll")
        values = selected(interaction)
        if len(values) != 1 or not values[0].isdigit():
            raise Refusal("dnd.bad_die", die=(values or ["?"])[0][:10])
        index = int(values[0])
        applied = await damage_applied(bot.store, record)

        def inspire(current: Record) -> Decision:
            if applied:
                raise Refusal("dnd.inspiration.damage_applied")
            test = checks.roll_from_data(current.data["test"])
            damage = current.data.get("damage_roll")
            if test.inspired:
                raise RuleError("dnd.already_inspired")
            if not damage or not damage.get("draws"):
                raise Refusal("dnd.hp.no_damage")
            draws = [(int(sides), int(face)) for sides, face in damage["draws"]]
            rolled, redrawn = attacks.reroll_damage_die(
                current.data["damage"], bot.rng, test.critical, draws, index
            )
            data = {
                **current.data,
                "test": checks.roll_to_data(replace(test, inspired=True)),
                "damage_roll": {
                    **damage_data(rolled, redrawn),
                    "rerolled": [*draws[index], redrawn[index][1]],
                },
            }
            return Decision(data, (spend(current),), "dnd.inspiration.damage")

        record, _ = await act(bot.store, interaction, self.record_id, KIND, inspire)
        embed, view = roll_card(lang, record, False)
        await update(interaction, embed=embed, view=view)


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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PassSelect:
        return cls(int(match["grant"]))

    async def record_table(self, interaction: discord.Interaction) -> int:
        return await record_channel(interaction, self.grant_id)

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        grant = await load(interaction, self.grant_id, GRANT_KIND)
        if interaction.user.id != grant.data["holder"]:
            raise Refusal("dnd.inspiration.not_yours_to_pass")
        values = selected(interaction)
        if len(values) != 1 or not values[0].isdigit():
            raise Refusal("dnd.inspiration.pick_one")
        friend = int(values[0])
        data: Mapping[str, Any] = interaction.data or {}
        resolved = data.get("resolved", {}).get("users", {})
        if friend == interaction.user.id or resolved.get(str(friend), {}).get("bot"):
            raise Refusal("dnd.inspiration.bad_friend")

        def give(current: Record) -> Decision:
            if current.data.get("passed_to"):
                raise Refusal("dnd.inspiration.already_passed")
            change = Change(INSPIRATION, 1, owner_id=friend, cap=checks.INSPIRATION_CAP)
            return Decision({**current.data, "passed_to": friend}, (change,), "dnd.inspiration.pass")

        await act(bot.store, interaction, self.grant_id, GRANT_KIND, give)
        text = t(lang, "dnd.inspiration.passed", user=interaction.user.id, friend=friend)
        await update(interaction, embed=embeds.card(text, colour=embeds.SUCCESS), view=None)
