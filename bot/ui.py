"""Base Modal and persistent-button pieces whose errors reach the one handler.

discord.py sends Modal errors to ``on_error`` (not the tree's), and only logs errors
raised by a ``DynamicItem`` callback: without these bases a failing button would leave
the player with "This interaction failed" and no answer. (Every persistent button is
answered by a ``DynamicItem``, whether it was drawn as one or as a plain
``bot.delivery.Drawn`` carrying its ``custom_id``, so no view needs an error handler of its
own.)
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Container, Mapping
from typing import Any

import discord

from bot.checks import check_origin, record_channel
from bot.delivery import Drawn, custom_ids
from bot.errors import Refusal, answer_error
from bot.options import typable, untypable

# An abandoned form is forgotten after this long (interaction tokens last 15 minutes).
FORM_SECONDS = 15 * 60


class Modal(discord.ui.Modal):
    """A form whose ``custom_id`` is unique to each opening.

    discord.py keeps open modals by ``custom_id`` alone: two players opening the same form
    (two helpers pressing "Ayudar") would share one registration, and the first submit
    would silently discard the other's. A random suffix gives each opening its own.
    """

    def __init__(self, *, title: str, custom_id: str) -> None:
        super().__init__(title=title, custom_id=f"{custom_id}:{secrets.token_hex(4)}", timeout=FORM_SECONDS)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        """discord.py types this for any client; ``submit`` receives ours (subclasses type it
        ``[Tirada]``: naming the client here would tie this base to it), once every
        field is free of control characters (``bot.options``; a paragraph keeps its lines)."""
        fields = (item for item in self.walk_children() if isinstance(item, discord.ui.TextInput))
        for field in fields:
            if untypable(field.value, lines=field.style is discord.TextStyle.paragraph):
                label = field.to_component_dict().get("label") or ""
                raise Refusal("error.control_text", option=typable(str(label)))
        await self.submit(interaction)
        interaction.client.dispatch("interaction_outcome", interaction, "answered")

    async def submit(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: object = None, /
    ) -> None:
        """discord.py calls a form's handler with two arguments, though the base view's it
        overrides takes three (the item): accepting both keeps the override sound."""
        await answer_error(interaction, error)


class Guarded:
    """Mixin for ``DynamicItem`` components: implement ``run``; errors get answered.

    Before ``run``, the record the ``custom_id`` names must belong to the table the click
    comes from (:func:`bot.checks.check_origin`): this is the one place every component
    is checked. By default the record is the one ``record_id`` names (a roll, a tracker, a
    task…); a component whose table is found some other way overrides ``record_table``.
    """

    record_id: int

    async def record_table(self, interaction: discord.Interaction) -> int:
        """The channel id of the table this component's record belongs to."""
        return await record_channel(interaction, self.record_id)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """discord.py types this for any client; ``run`` receives ours."""
        try:
            await check_origin(interaction, await self.record_table(interaction))
            await self.run(interaction)
        except Exception as error:
            await answer_error(interaction, error)
        else:
            interaction.client.dispatch("interaction_outcome", interaction, "answered")


class ActionButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"(?!)"):
    """A persistent button whose ``custom_id`` is ``{prefix}:{action}:{record id}``.

    Subclasses give ``prefix`` and a template with the groups ``action`` and ``roll``;
    after a restart discord.py rebuilds the button from its ``custom_id`` alone, and the
    record id is all it needs to find its state in the database. (The base's template
    matches nothing, and the base is never registered.)
    """

    prefix = ""

    def __init__(self, record_id: int, action: str, *, pressed: discord.ui.Button[Any]) -> None:
        """``pressed``: the button as discord.py read it from the pressed message, wrapped as
        it is (its custom_id is this one's); a card draws its buttons with :meth:`draw`."""
        super().__init__(pressed)
        self.record_id = record_id
        self.action = action

    @classmethod
    def draw(
        cls,
        record_id: int,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: discord.PartialEmoji | None = None,
        *,
        disabled: bool = False,
    ) -> Drawn:
        """The button as a card shows it (:class:`Drawn`); a click reaches this class."""
        custom_id = f"{cls.prefix}:{action}:{record_id}"
        return Drawn(label=label or action, style=style, custom_id=custom_id, emoji=emoji, disabled=disabled)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        return cls(int(match["record"]), match["action"], pressed=_button(item, match.string))


class StepButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"(?!)"):
    """A persistent button that also carries the step it was drawn for:
    ``{prefix}:{action}:{record id}:{step}``. A tracker's "next" button ends the turn it
    shows, so two presses of the same button advance one turn, not two."""

    prefix = ""

    def __init__(self, record_id: int, action: str, step: int, *, pressed: discord.ui.Button[Any]) -> None:
        """``pressed``: as :class:`ActionButton`'s; a card draws its buttons with :meth:`draw`."""
        super().__init__(pressed)
        self.record_id = record_id
        self.action = action
        self.step = step

    @classmethod
    def draw(
        cls,
        record_id: int,
        action: str,
        step: int = 0,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> Drawn:
        """The button as a card shows it (:class:`Drawn`); a click reaches this class."""
        custom_id = f"{cls.prefix}:{action}:{record_id}:{step}"
        return Drawn(label=label or action, style=style, custom_id=custom_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StepButton:
        return cls(
            int(match["record"]), match["action"], int(match["step"]), pressed=_button(item, match.string)
        )


def _button(item: discord.ui.Item[Any], custom_id: str) -> discord.ui.Button[Any]:
    """The pressed component discord.py rebuilt from the message: a press wraps it instead
    of building a second one (~10 µs each, on every press), which discord.py would swap into a
    view only it sees (``ViewStore.schedule_dynamic_item_call``). A component that is not a
    button (never a button's press) gives a plain button of the same ``custom_id``."""
    return item if isinstance(item, discord.ui.Button) else discord.ui.Button(custom_id=custom_id)


_INTEGER = re.compile(r"[+-]?[0-9]{1,6}")


def parse_int(text: str, name: str, low: int, high: int) -> int:
    """A whole number typed in a form field, within bounds, or a refusal saying which."""
    value = text.strip()
    if not _INTEGER.fullmatch(value):
        raise Refusal("error.not_a_number", name=name, value=value[:20])
    number = int(value)
    if not low <= number <= high:
        raise Refusal("error.out_of_range", name=name, value=number, min=low, max=high)
    return number


def selected(interaction: discord.Interaction) -> list[str]:
    """The values a select menu sent, as text: whatever a client sends, never a crash."""
    data: Mapping[str, object] = interaction.data or {}
    values = data.get("values")
    return [str(value) for value in values] if isinstance(values, list) else []


async def answer_orphans(interaction: discord.Interaction, open_modals: Container[str]) -> None:
    """Answer what discord.py drops without a word.

    - A click on a component the message no longer has: Discord sends the message as it is
      now, so after an edit removed a button a second click (a double click, a stale
      client) names a component discord.py cannot find.
    - A submitted form discord.py does not know: opened before a restart, or submitted
      again after it was handled.

    This runs after discord.py's own dispatch, on the same interaction object: a handled
    one is already answered, or (still running) still registered.
    """
    data: Mapping[str, object] = interaction.data or {}
    custom_id = data.get("custom_id", "")
    if not custom_id or interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component and interaction.message is not None:
        if custom_id not in custom_ids(interaction.message.components):
            await answer_error(interaction, Refusal("error.button_gone"))
    elif interaction.type is discord.InteractionType.modal_submit and custom_id not in open_modals:
        await answer_error(interaction, Refusal("error.form_gone"))
