"""*Repetir* on every roll of every system: one persistent button, one registry.

A roll stores what it was asked with; the button names the roll, and the cog that made it
registers, per roll kind, how to roll it again for whoever presses (the same options, the
same ``motivo``, the same privacy). One ``DynamicItem`` serves every system, so a restart
rebuilds any of them from the ``custom_id`` alone.
"""

from __future__ import annotations

from typing import Any, cast

import discord

from bot import seen
from bot.errors import Refusal
from bot.host import Host
from bot.i18n import Lang, t
from bot.ui import ActionButton


class RepeatButton(ActionButton, template=r"rep:(?P<action>repetir):(?P<record>[0-9]{1,18})"):
    """``rep:repetir:{roll id}``."""

    prefix = "rep"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = cast(Host, interaction.client)
        record = await seen.record(interaction, self.record_id)
        if record is None or record.kind not in bot.repeaters:
            raise Refusal("error.roll_gone")
        await bot.repeaters[record.kind](interaction, record)


class TirarRepeatButton(RepeatButton, template=r"tirar:(?P<action>repetir):(?P<record>[0-9]{1,18})"):
    """The ``tirar:repetir:{roll id}`` buttons /tirar posted before every system had
    *Repetir*: old messages keep working."""

    prefix = "tirar"


def button(lang: Lang, record_id: int) -> RepeatButton:
    return RepeatButton(record_id, "repetir", t(lang, "comun.repeat"), emoji="🎲")
