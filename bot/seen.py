"""What one interaction has read of the store: each table, record and table's pools read
once, however many checks and renders ask for them.

An interaction passes through discord.py's dispatch, the component guard (``bot.ui``), the
checks, the rules' decision, the write and the render; each step asks for the table or the
record the button names. They all answer from here: the first ask reads the store, the
others get the same values. The values live on the interaction (``Interaction.extras``,
which discord.py leaves to the application), so two interactions never share them, and a
replayed one (a new interaction object) reads afresh.

A write makes what it touched unknown again: the store tells its listeners of every change
(:func:`forget` is one, registered by the client), on the task that wrote, so the
interaction that wrote forgets that table's values. What the writer itself knows it wrote
(a roll's new state, the pools' new values) it puts back with :func:`wrote`, so the card
drawn afterwards needs no second read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, cast

import discord

from bot.host import Host
from bot.models import Applied, Record, Table
from bot.store.touched import Touched

KEY = "tirada.seen"

# Pool values by (pool, owner): a table's pools as one read returns them.
PoolValues = Mapping[tuple[str, int], int]


@dataclass
class Seen:
    """The store's answers this interaction has had. ``None`` in ``tables``: no row."""

    tables: dict[int, Table | None] = field(default_factory=dict)
    served: dict[int, list[Table]] = field(default_factory=dict)
    records: dict[int, Record | None] = field(default_factory=dict)
    pools: dict[int, dict[tuple[str, int], int]] = field(default_factory=dict)

    def forget(self, channel_id: int) -> None:
        """A write changed this table: its row, its pools and its records are read again."""
        self.tables.pop(channel_id, None)
        self.pools.pop(channel_id, None)
        self.served.clear()
        stale = [i for i, r in self.records.items() if r is None or r.channel_id == channel_id]
        for record_id in stale:
            del self.records[record_id]


# The interaction running on this task: the store's listener has only a channel id.
_current: ContextVar[Seen | None] = ContextVar("tirada_seen", default=None)


def seen(interaction: discord.Interaction) -> Seen:
    """This interaction's reads (begun on its first ask), made the task's current ones
    unless they are already (every check and render asks: a context variable's ``set``
    builds the context a new mapping, its ``get`` only reads it)."""
    found: Seen | None = interaction.extras.get(KEY)
    if found is None:
        found = interaction.extras[KEY] = Seen()
    if _current.get() is not found:
        _current.set(found)
    return found


def forget(channel_id: int, _touched: Touched) -> None:
    """The store's listener: the interaction that just wrote at this table reads it again,
    whatever the write touched (what it read of the table is a few values, read again in
    the one statement of ``store.context``: telling them apart would save nothing)."""
    current = _current.get()
    if current is not None:
        current.forget(channel_id)


def _host(interaction: discord.Interaction) -> Host:
    return cast(Host, interaction.client)


async def table(interaction: discord.Interaction, channel_id: int, guild_id: int | None) -> Table:
    """The channel's table, or the empty one it would be (``store.table_or_default``).
    Read with the tables the interaction's own channel is or serves (the one query its own
    table lookup, ``checks.current_table``, needs too): a button pressed at its table's
    channel or at the linked GM channel finds its table there."""
    memo = seen(interaction)
    here = interaction.channel_id
    if channel_id not in memo.tables and here is not None:
        await tables_seen_from(interaction, here)
    if channel_id not in memo.tables:
        memo.tables[channel_id] = await _host(interaction).store.table(channel_id)
    return memo.tables[channel_id] or Table(channel_id, guild_id)


async def tables_seen_from(
    interaction: discord.Interaction, channel_id: int, record_id: int | None = None
) -> tuple[Table | None, list[Table]]:
    """The channel's own table and the tables it is the GM channel of, each remembered as
    read, with the channel's pools and the record ``record_id`` (``store.context``: one
    query for all four, so a card that shows the pools, and the operation that changes
    them, read nothing more)."""
    memo = seen(interaction)
    if channel_id not in memo.served or channel_id not in memo.tables:
        context = await _host(interaction).store.context(channel_id, interaction.guild_id, record_id)
        memo.tables[channel_id] = context.own
        memo.served[channel_id] = list(context.served)
        memo.tables.update({t.channel_id: t for t in context.served})
        memo.pools.setdefault(channel_id, {(p.pool, p.owner_id): p.value for p in context.pools})
        if record_id is not None:
            memo.records[record_id] = context.record
    return memo.tables[channel_id], memo.served[channel_id]


async def record(interaction: discord.Interaction, record_id: int) -> Record | None:
    """A live record (``store.record``), or None when it is gone. A button's record is
    asked for first, before its table: read with the tables and pools of the channel
    pressed at (where its table is, or the GM channel serving it), which the checks and
    the card ask for next, in the one statement."""
    memo = seen(interaction)
    if record_id not in memo.records:
        here = interaction.channel_id
        if here is not None and (here not in memo.served or here not in memo.tables):
            await tables_seen_from(interaction, here, record_id)
        else:
            memo.records[record_id] = await _host(interaction).store.record(record_id)
    return memo.records[record_id]


async def pools(interaction: discord.Interaction, channel_id: int) -> PoolValues:
    """Every pool of the table, in one read."""
    memo = seen(interaction)
    if channel_id not in memo.pools:
        read = await _host(interaction).store.pools(channel_id)
        memo.pools[channel_id] = {(p.pool, p.owner_id): p.value for p in read}
    return memo.pools[channel_id]


def stored(data: dict[str, Any]) -> dict[str, Any]:
    """Data as the store gives it back (JSON: tuples become lists, keys text), so a record
    built from what was written reads exactly like one read from the store. The rules'
    codec writes JSON's own shapes already, so they are copied as they are (under half the
    cost of the trip through JSON text); anything else (a key not text, an enum) makes
    that trip."""
    copied: dict[str, Any]
    try:
        copied = _as_read(data)
    except _NotAsRead:
        copied = json.loads(json.dumps(data))
    return copied


class _NotAsRead(Exception):
    """A part of the data JSON would read back as another type."""


# The types JSON reads back as themselves (a bool's type is bool, not int: exact types).
_AS_READ = frozenset({str, int, float, bool, type(None)})


def _as_read(value: Any) -> Any:
    """``value`` (a dict, list or tuple) copied, tuples as lists, when JSON would read it
    back so. Scalars are taken in place, so only the containers cost a call."""
    if type(value) is dict:
        copied = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotAsRead
            copied[key] = item if type(item) in _AS_READ else _as_read(item)
        return copied
    if type(value) is list or type(value) is tuple:
        return [item if type(item) in _AS_READ else _as_read(item) for item in value]
    raise _NotAsRead


def reread(interaction: discord.Interaction, record_id: int) -> None:
    """The record changed since it was read (``roll.stale``): the next ask reads it again."""
    seen(interaction).records.pop(record_id, None)


def remember(interaction: discord.Interaction, record: Record) -> None:
    """A record as this interaction just wrote it."""
    seen(interaction).records[record.id] = record


def before_write(interaction: discord.Interaction, channel_id: int) -> Before:
    """What this interaction knows of the table an operation is about to change."""
    memo = seen(interaction)
    return Before(channel_id, dict(memo.tables), dict(memo.served), memo.pools.get(channel_id))


@dataclass(frozen=True)
class Before:
    """The table's values as read before an operation (:func:`before_write`)."""

    channel_id: int
    tables: dict[int, Table | None]
    served: dict[int, list[Table]]
    pools: PoolValues | None


def wrote(
    interaction: discord.Interaction,
    before: Before,
    applied: Applied,
    *,
    pools_known: bool = True,
    record: Record | None = None,
) -> None:
    """What an operation left, known without reading it back. An operation never changes a
    table's row (it may create the default one, equal to the empty table), so the tables
    read before stand; the pools read before stand with the values it wrote, unless it
    changed pools it does not list (an undo, a reset: ``pools_known`` false); the record
    it wrote is as it wrote it. The other records of the table are read again."""
    memo = seen(interaction)
    memo.tables = {**before.tables, **memo.tables}
    memo.served = {**before.served, **memo.served}
    if pools_known and before.pools is not None:
        written = {(p.pool, p.owner_id): p.value for p in applied.pools}
        memo.pools[before.channel_id] = {**before.pools, **written}
    if record is not None:
        memo.records[record.id] = record
