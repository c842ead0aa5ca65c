"""Base View, Modal and persistent-button pieces whose errors reach the one handler.

discord.py sends View and Modal errors to ``on_error`` (not the tree's), and only logs
errors raised by a ``DynamicItem`` callback: without these bases a failing button would
leave the player with "This interaction failed" and no answer.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import Refusal, answer_error


class View(discord.ui.View):
    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        await answer_error(interaction, error)


class Modal(discord.ui.Modal):
    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await answer_error(interaction, error)


class Guarded:
    """Mixin for ``DynamicItem`` components: implement ``run``; errors get answered."""

    async def run(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.run(interaction)
        except Exception as error:
            await answer_error(interaction, error)


class ActionButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"(?!)"):
    """A persistent button whose ``custom_id`` is ``{prefix}:{action}:{record id}``.

    Subclasses give ``prefix`` and a template with the groups ``action`` and ``roll``;
    after a restart discord.py rebuilds the button from its ``custom_id`` alone, and the
    record id is all it needs to find its state in the database. (The base's template
    matches nothing, and the base is never registered.)
    """

    prefix = ""

    def __init__(
        self,
        roll_id: int,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
    ) -> None:
        custom_id = f"{self.prefix}:{action}:{roll_id}"
        super().__init__(
            discord.ui.Button(label=label or action, style=style, custom_id=custom_id, emoji=emoji)
        )
        self.roll_id = roll_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ActionButton:
        return cls(int(match["roll"]), match["action"])


class StepButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"(?!)"):
    """A persistent button that also carries the step it was drawn for:
    ``{prefix}:{action}:{record id}:{step}``. A tracker's "next" button ends the turn it
    shows, so two presses of the same button advance one turn, not two."""

    prefix = ""

    def __init__(
        self,
        record_id: int,
        action: str,
        step: int = 0,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"{self.prefix}:{action}:{record_id}:{step}"
        super().__init__(discord.ui.Button(label=label or action, style=style, custom_id=custom_id))
        self.record_id = record_id
        self.action = action
        self.step = step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> StepButton:
        return cls(int(match["record"]), match["action"], int(match["step"]))


def _custom_ids(components: list[discord.Component]) -> set[str]:
    found: set[str] = set()
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        found |= _custom_ids(list(getattr(component, "children", [])))
    return found


async def answer_orphan_click(interaction: discord.Interaction) -> None:
    """Answer a click on a component the message no longer has.

    Discord sends the message as it is now; after an edit removed a button, a second
    click (a double click, a stale client) names a component discord.py cannot find, and
    it drops the interaction without a word. We answer it instead.
    """
    if interaction.type is not discord.InteractionType.component or interaction.message is None:
        return
    custom_id = (interaction.data or {}).get("custom_id", "")
    if custom_id and custom_id not in _custom_ids(interaction.message.components):
        await answer_error(interaction, Refusal("error.button_gone"))
