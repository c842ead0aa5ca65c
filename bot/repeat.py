"""*Repetir* on every roll of every system: one persistent button, one registry, one
stored shape.

A roll stores what it was asked with, the same way in every system (:class:`Asked`): the
command's options under ``options``, and how it was made beside them under fixed keys
(``secreta``, ``privada``, ``motivo``), which the chronicle reads of any roll. The button
names the roll, and the cog that made it registers, per roll kind, how to roll it again
for whoever presses: its repeater reads the roll's :class:`Asked` (a roll stored in its
system's older shape is upgraded on read, by the system's own hook) and calls its flow
with it. One ``DynamicItem`` serves every system, so a restart rebuilds any of them from
the ``custom_id`` alone. Why upgrade on read rather than migrate: docs/decisiones.md
("Una forma guardada para *Repetir*").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, cast

import discord

from bot import seen
from bot.delivery import Drawn
from bot.errors import Refusal
from bot.host import Host
from bot.i18n import Lang, t
from bot.ui import ActionButton
from rules.codec import Codec


@dataclass(frozen=True)
class Asked:
    """How a roll was asked, what *Repetir* asks again. ``options``: the command's own
    options by name (what its flow takes); ``secreta``: whether it was secret as rolled
    (a roll made secret by the GM channel repeats secret anywhere); ``privada``: only its
    roller saw it; ``motivo``: what it was for, already made safe (never cleaned twice)."""

    options: dict[str, Any] = field(default_factory=dict)
    secreta: bool = False
    privada: bool = False
    motivo: str | None = None


# A system's reading of its rolls stored before this shape, or None for today's shape.
Upgrade = Callable[[dict[str, Any]], Asked | None]


def codec(upgrade: Upgrade | None = None) -> Codec[Asked]:
    """How a system's rolls keep their :class:`Asked`, with its hook for older shapes."""
    return Codec(Asked, upgrade)


# The keys of a roll's data that say how it was asked.
FIELDS = tuple(f.name for f in fields(Asked))
# How rolls that never had another shape keep it (D&D's tests kept ``options`` beside
# ``motivo`` and ``secreta`` from the start); every system's codec writes this same shape.
ASKED = codec()


def asked(
    options: dict[str, Any], *, secreta: bool, motivo: str | None, privada: bool = False
) -> dict[str, Any]:
    """The data every repeatable roll keeps of how it was asked (merged into its data)."""
    return ASKED.to_data(Asked(options, secreta, privada, motivo))


def kept(data: dict[str, Any]) -> dict[str, Any]:
    """What a roll keeps of how it was asked, which no button's decision changes (a decision
    writes the roll's rules value anew, which knows nothing of its asking)."""
    return {key: data[key] for key in FIELDS if key in data}


def asked_of(data: dict[str, Any], stored: Codec[Asked] = ASKED, gone: str = "error.roll_gone") -> Asked:
    """How a stored roll was asked, in whichever shape it was stored (``stored``: its
    system's codec, with the hook for its older shapes); refused with ``gone`` for a roll
    that kept no options (made before *Repetir* kept them)."""
    found = stored.from_data(data)
    if not found.options:
        raise Refusal(gone)
    return found


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


# The die on every *Repetir*, read once: discord.py parses an emoji given as text with a
# regular expression for every button (a tenth of a button's cost), and reads a given
# ``PartialEmoji`` as it is.
DIE_EMOJI = discord.PartialEmoji(name="🎲")


def button(lang: Lang, record_id: int) -> Drawn:
    return RepeatButton.draw(record_id, "repetir", t(lang, "comun.repeat"), emoji=DIE_EMOJI)
