"""What the bot's pieces need of the client, as a Protocol: the store and the repeaters.

``bot.client`` builds the client from every piece (checks, *Repetir*, the boards), so a
piece that named the client's class back would close a cycle of files. They name this
instead; the client satisfies it by having the attributes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.models import Record
from bot.store import Store

# How a roll kind is rolled again for whoever presses *Repetir* (bot/repeat.py).
Repeater = Callable[["discord.Interaction[Any]", Record], Awaitable[None]]


class Host(Protocol):
    """The client as the checks and *Repetir* see it."""

    @property
    def store(self) -> Store: ...

    @property
    def repeaters(self) -> dict[str, Repeater]: ...
