"""``bot.delivery.Drawn``: a card's persistent buttons drawn as plain buttons. discord.py
routes their clicks by ``custom_id`` to the registered ``DynamicItem``, so what is drawn
must carry a ``custom_id`` that class reads back, and must never make discord.py keep a
view (those tables' cards are sent and edited through several paths, not all of them
through ``bot.delivery.plain_components``)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.delivery import Drawn, plain_components
from bot.repeat import RepeatButton
from bot.repeat import button as repeat_button
from bot.reveal import EYE_EMOJI, RevealButton
from bot.ui import ActionButton, StepButton
from cogs.dnd5e.combat import TrackerButton
from cogs.dnd5e.components import InspirationButton
from cogs.donjon.combat import CombatButton as DonjonCombatButton
from cogs.donjon.components import LawButton, NarratedButton
from cogs.dune.components import DuneButton
from cogs.mediana.combat import CombatButton as MedianaCombatButton
from cogs.mediana.components import TestButton as MedianaTestButton

ACTIONS: list[tuple[type[ActionButton], str]] = [
    (RepeatButton, "repetir"),
    (RevealButton, "revelar"),
    (DuneButton, "guardar"),
    (LawButton, "hecho"),
    (NarratedButton, "narrado"),
    (InspirationButton, "insp0"),
    (MedianaTestButton, "dano"),
]
STEPS: list[tuple[type[StepButton], str]] = [
    (DonjonCombatButton, "siguiente"),
    (TrackerButton, "muerte"),
    (MedianaCombatButton, "ronda"),
]


async def pressed_as_discord_routes_it(cls: type[ActionButton | StepButton], drawn: Drawn) -> Any:
    """What a press of ``drawn`` reaches: discord.py rebuilds the button from the message,
    matches its ``custom_id`` whole against the registered class's template, and asks the
    class for the item (``from_custom_id``), which reads the record, action and step from
    the match alone."""
    match = cls.__discord_ui_compiled_template__.fullmatch(drawn.custom_id or "")
    assert match is not None, drawn.custom_id
    pressed: discord.ui.Button[Any] = discord.ui.Button(
        label=drawn.label, style=drawn.style, custom_id=drawn.custom_id
    )
    return await cls.from_custom_id(None, pressed, match)  # type: ignore[arg-type]


@pytest.mark.parametrize(("cls", "action"), ACTIONS)
async def test_a_drawn_action_button_is_read_back_by_its_class(cls: type[ActionButton], action: str) -> None:
    drawn = cls.draw(42, action, "Etiqueta", discord.ButtonStyle.primary)
    assert type(drawn) is Drawn and not drawn.is_dispatchable()
    item = await pressed_as_discord_routes_it(cls, drawn)
    assert isinstance(item, ActionButton)
    assert (item.record_id, item.action) == (42, action)
    assert item.to_component_dict() == drawn.to_component_dict()


@pytest.mark.parametrize(("cls", "action"), STEPS)
async def test_a_drawn_step_button_is_read_back_by_its_class(cls: type[StepButton], action: str) -> None:
    drawn = cls.draw(42, action, 7, "Etiqueta", discord.ButtonStyle.danger)
    assert type(drawn) is Drawn and not drawn.is_dispatchable()
    item = await pressed_as_discord_routes_it(cls, drawn)
    assert isinstance(item, StepButton)
    assert (item.record_id, item.action, item.step) == (42, action, 7)
    assert item.to_component_dict() == drawn.to_component_dict()


async def test_a_view_of_drawn_buttons_is_never_kept() -> None:
    """Not dispatchable, so discord.py's store keeps no view for it even when it is sent
    live (an edit through the REST API does not go through ``plain_components``); and
    ``plain_components`` stops it as it stops a view of ``DynamicItem``s."""
    view = discord.ui.View(timeout=None)
    view.add_item(repeat_button("es", 5))
    view.add_item(DonjonCombatButton.draw(5, "siguiente", 1))
    assert not view.is_dispatchable()
    kwargs: dict[str, Any] = {"view": view}
    plain_components(kwargs)
    assert view.is_finished()


@pytest.mark.parametrize(
    "drawn",
    [
        repeat_button("es", 5),
        RevealButton.draw(5, "revelar", "Revelar", discord.ButtonStyle.primary, EYE_EMOJI),
        DuneButton.draw(5, "guardar", "Guardar", discord.ButtonStyle.success, disabled=True),
        DonjonCombatButton.draw(5, "siguiente", 3),
    ],
)
def test_a_drawn_button_renders_as_discord_s_own_button(drawn: Drawn) -> None:
    """A card's button is a bare ``Item`` holding what it shows: its payload must be key for
    key (and in order) what ``discord.ui.Button`` writes for the same button, so a
    discord.py upgrade that changes how a button is written fails here."""
    theirs = discord.ui.Button(
        label=drawn.label,
        style=drawn.style,
        custom_id=drawn.custom_id,
        emoji=drawn.emoji,
        disabled=drawn.disabled,
    )
    assert list(drawn.to_component_dict().items()) == list(theirs.to_component_dict().items())
    assert drawn.type is theirs.type and drawn.width == theirs.width
