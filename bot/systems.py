"""What ``bot/`` needs from a game system, declared by the system itself (issue 30).

``bot/`` names no system: the board, ``/mesa estado``, retention, the chronicle, the dice
statistics and the live fields of a character sheet iterate this registry. Each system's
cog package declares one :class:`Declaration` in ``cogs/<system>/system.py`` and registers it
when the extension loads, as each cog registers its *Repetir* (``bot.repeaters``). Adding a
system, a record kind or a pool is then an edit of that one declaration.

A leaf module: it imports only value types, so that every part of ``bot/`` may read it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang
from bot.models import Change, NewRecord, Record, SheetRow, Table
from bot.sheets.models import Importer, SheetBase

if TYPE_CHECKING:
    from bot.panel import Game
    from bot.store import Store

Data = dict[str, Any]
# A die as statistics count it: its size and the face it showed.
Face = tuple[int, int]


@dataclass(frozen=True)
class Reading:
    """A roll as the chronicle tells it: its system, its result, its verdict key (or none),
    every die it showed, and the facts narrated from it (author, text), if any."""

    system: str
    result: str
    verdict: str | None
    dice: tuple[Face, ...]
    facts: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class Live:
    """A sheet's field whose value is pool ``pool``, at most ``cap(sheet)`` (bot/sheets/live.py).
    ``full`` marks a pool of what was lost: the field is ``full(sheet)`` less the pool.
    ``by_player``: the pool is the player's (the active sheet's), not the sheet's own.
    ``gm_edits``: only the GM edits the field by hand (a rule gives the change to the GM)."""

    path: str
    pool: str
    cap: Callable[[Data], int]
    full: Callable[[Data], int] | None = None
    by_player: bool = False
    gm_edits: bool = False

    def owner(self, row: SheetRow) -> int:
        return row.owner_id if self.by_player else row.id

    def field(self, data: Data, pool_value: int) -> int:
        return pool_value if self.full is None else self.full(data) - pool_value

    def pool_value(self, data: Data, value: int) -> int:
        return value if self.full is None else self.full(data) - value


@dataclass(frozen=True)
class SheetField:
    """One part of a character sheet at a glance: a field of ``/ficha ver``'s embed, a
    paragraph of the panel's header (cogs/ficha/render.py). ``value`` is already safe."""

    name: str
    value: str
    inline: bool = True


# A roll's stored data read back for the chronicle and the statistics (bot/readers.py).
Reader = Callable[[Lang, Data], Reading]
# A new roll's dice alone, for the statistics, from its data as just written (today's
# shape): what its reader gives as ``Reading.dice``, without decoding and telling the whole
# roll (its rules value, its chronicle line), which cost a roll ~57 µs (issue 29).
Dice = Callable[[Data], tuple[Face, ...]]
# The system's own section of the table's board, added to ``embed`` (bot/board/render.py).
BoardPart = Callable[["Store", Lang, Table, discord.Embed], Awaitable[None]]
# A character sheet of the system at a glance, part by part.
SheetFields = Callable[[Lang, SheetBase], list[SheetField]]
# What a secret roll's reveal brings to the table besides its card (bot/reveal.py): called
# once per reveal, with the roll as revealed (no longer secret, on the table's message).
Revealer = Callable[[discord.Interaction, Record], Awaitable[None]]
# Fields of ``/mesa estado`` only this system has (name, value), after the GM's channel.
StatusFields = Callable[[Lang, Table], list[tuple[str, str]]]
# The record a sheet's active row keeps beside it for the system's own commands.
Companion = Callable[[SheetRow, Data], NewRecord | None]


@dataclass(frozen=True)
class Declaration:
    """One game system as ``bot/`` sees it. ``name`` is its stored id (``tables.system``,
    ``sheets.system``, the ``system.*`` catalog keys)."""

    name: str
    # Record kinds read by nothing but their own buttons: forgotten after
    # ``Retention.records`` (docs/decisiones.md). Every other kind is table state.
    forgotten: tuple[str, ...] = ()
    # Record kinds that are table state and stay (sheets, tasks, combats, tests whose facts
    # wait to be narrated); with ``forgotten``, every kind the system writes.
    kept: tuple[str, ...] = ()
    # Record kinds a table reset keeps (``/mesa reiniciar``).
    kept_on_reset: tuple[str, ...] = ()
    # The pools ``/mesa estado`` shows at zero too: the table's own (owner 0), each player's.
    table_pools: tuple[str, ...] = ()
    player_pools: tuple[str, ...] = ()
    # Table pools the GM may keep from the players (``/mesa tablero ocultar_amenaza``):
    # their value and the ledger rows that tell it (bot/hidden.py).
    hideable: tuple[str, ...] = ()
    status: StatusFields | None = None
    board: BoardPart | None = None
    # What its board part reads besides the table and its pools: the record kinds, and
    # whether sheets. A write that touches none of it leaves the board as it was, so the
    # board is not drawn again for it (bot/board/render.py ``shows``); a kind read and not
    # named here is a board left stale. tests/bot/board/test_render.py plays every system
    # against a fresh drawing; it fails without D&D's combat kind, Mediana's, or D&D's sheets,
    # while Donjon's kind and Mediana's sheet kind and sheets are kept though every write of
    # them today also writes ledger rows (which redraw every board).
    board_kinds: frozenset[str] = frozenset()
    board_sheets: bool = False
    # Whether the live fields of its sheets are hit points (the board's setting hides them).
    hit_points: bool = False
    readers: Mapping[str, Reader] = field(default_factory=dict)
    # By record kind, its dice alone; a kind without falls back on its reader.
    dice: Mapping[str, Dice] = field(default_factory=dict)
    # By record kind, what the reveal of a secret roll of that kind also posts at the table.
    revealers: Mapping[str, Revealer] = field(default_factory=dict)
    # Its character sheet's model (its ``sistema`` is ``name``) and the files other programs
    # write that are read as one (bot/sheets/io.py).
    sheet: type[SheetBase] | None = None
    sheet_fields: SheetFields | None = None
    importers: tuple[Importer, ...] = ()
    # The fields of its character sheet that live in ledger pools.
    live: tuple[Live, ...] = ()
    companion: Companion | None = None
    # Reasons of operations that also write a sheet's file: ``/mesa deshacer`` refuses them,
    # as compensating ledger rows cannot take the file back.
    file_reasons: frozenset[str] = frozenset()
    # What its character panel offers: each thing a sheet rolls, and how (bot/panel.py).
    panel: Game | None = None
    # What the end of a scene (``/mesa escena_fin``) does to its table's pools, and the
    # prefixes of the pools that last one scene (set to 0 with its end).
    scene_end: tuple[Change, ...] = ()
    scene_pools: tuple[str, ...] = ()


SYSTEMS: dict[str, Declaration] = {}
# By record kind, the system that declares its dice alone and them: looked up at every new
# roll, so kept by kind as each system registers rather than searched for.
_DICE: dict[str, tuple[str, Dice]] = {}
# The package that declared each system: the same package imported again (an extension
# loaded after discord.py dropped its modules) declares it anew; another one is a mistake.
_DECLARED_BY: dict[str, str] = {}


def register(system: Declaration, by: str) -> None:
    """Declare ``system`` from package ``by`` (each bot of a process loads the same cogs:
    the same package registering again replaces its declaration; another package under
    the same name is a mistake, and so is a record kind another system reads: its reader and
    its dice would come from two declarations)."""
    others = {kind for s in SYSTEMS.values() if s.name != system.name for kind in (*s.readers, *s.dice)}
    shared = others & {*system.readers, *system.dice}
    if shared:
        raise ValueError(f"record kinds {sorted(shared)} declared by two systems")
    if _DECLARED_BY.setdefault(system.name, by) != by:
        raise ValueError(f"two systems named {system.name!r}")
    SYSTEMS[system.name] = system
    _DICE.clear()
    _DICE.update((kind, (s.name, d)) for s in SYSTEMS.values() for kind, d in s.dice.items())


def declared(name: str | None) -> Declaration | None:
    """The system a table or a sheet plays, if one is declared under that name."""
    return SYSTEMS.get(name) if name else None


def every() -> tuple[Declaration, ...]:
    return tuple(SYSTEMS.values())


def reader(kind: str) -> Reader | None:
    """The reader of record kind ``kind``, whichever system declared it."""
    return next((s.readers[kind] for s in SYSTEMS.values() if kind in s.readers), None)


def dice(kind: str) -> tuple[str, Dice] | None:
    """The system that declared record kind ``kind``'s dice alone, and them."""
    return _DICE.get(kind)


def revealer(kind: str) -> Revealer | None:
    """What the reveal of a secret roll of kind ``kind`` also posts, if its system says."""
    return next((s.revealers[kind] for s in SYSTEMS.values() if kind in s.revealers), None)


def kept_on_reset() -> tuple[str, ...]:
    """The record kinds a table reset keeps, of every system."""
    return tuple(kind for s in SYSTEMS.values() for kind in s.kept_on_reset)


def file_reasons() -> frozenset[str]:
    """The reasons ``/mesa deshacer`` refuses, of every system (they wrote a sheet's file)."""
    return frozenset().union(*(s.file_reasons for s in SYSTEMS.values()))


def shows_hit_points(name: str | None) -> bool:
    """Whether the board of a table playing ``name`` shows hit points (a table yet to
    choose its system may choose one that does)."""
    system = declared(name)
    return system.hit_points if system is not None else not name
