"""Value types the store hands to cogs: a table, its settings, pool changes and outcomes.

They are plain data so that cogs and tests can build and compare them without SQL.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

from rules.errors import RuleError

# A system's own settings of a table (its model, declared by the system's cog).
Own = TypeVar("Own", bound=BaseModel)


class BoardHitPoints(StrEnum):
    """How much of each combatant's hit points the live board (bot.board) shows everyone:
    none, the players' numbers and a word for everyone else, or every number."""

    HIDDEN = "ocultos"
    STATE = "estado"
    EXACT = "exactos"


class TableSettings(BaseModel):
    """Per-table options, stored as validated JSON so new ones need no migration.

    A system's own settings (Donjon's die and level) are its cog's to declare and read
    (:meth:`of`): kept here as keys this model does not know, written back as they came."""

    model_config = ConfigDict(extra="allow", frozen=True)

    player_secret_rolls: bool = True
    # Whether players may read each other's character sheets (the GM reads them all).
    public_sheets: bool = False
    # The live board (bot.board) shows Dune's Amenaza to everyone unless the GM hides it.
    board_hides_threat: bool = False
    # Hit points on the board's initiative (D&D, Mediana): players' numbers, NPCs' in a word.
    board_hit_points: BoardHitPoints = BoardHitPoints.STATE
    # The chance line under each roll ("Superar con 0 · 1 · 2 · 3 dados comprados…").
    roll_odds: bool = True

    def of(self, model: type[Own]) -> Own:
        """A system's own settings of this table, validated by its model (its defaults for
        a key never written)."""
        return model.model_validate(self.model_extra or {})


@dataclass(frozen=True)
class Table:
    """One channel's table: who runs it, what it plays and how."""

    channel_id: int
    guild_id: int | None
    # The declared system it plays (bot/systems.py ``Declaration.name``), once chosen.
    system: str | None = None
    gm_id: int | None = None
    gm_channel_id: int | None = None
    settings: TableSettings = field(default_factory=TableSettings)


@dataclass(frozen=True)
class PoolValue:
    pool: str
    owner_id: int
    value: int


@dataclass(frozen=True)
class Change:
    """Add (``delta`` > 0) or spend (``delta`` < 0) on one pool.

    ``owner_id`` 0 is the table's own pool (Impulso, Amenaza); a user id is that
    player's (Determinación, banked dice). ``cap`` bounds the pool from above; with
    ``clamp`` the change keeps what fits between 0 and the cap instead of being refused
    (saving Impulso into a full pool, losing Impulso at the end of a scene).
    ``set_to`` puts the pool at a value instead (the start of an adventure). ``expect``:
    the pool must be at that value, in the same statement (a form's set, drawn at it).
    """

    pool: str
    delta: int = 0
    owner_id: int = 0
    cap: int | None = None
    clamp: bool = False
    set_to: int | None = None
    expect: int | None = None
    # The ledger row this change reverts (an undo), so each row is reverted at most once.
    undoes: int | None = None
    # What this change paid for, when an operation's changes pay for different things (a
    # roll's bought dice, its Determinación, the extra difficulty); else the operation's.
    reason: str = ""


@dataclass(frozen=True)
class NewRecord:
    """A record (a roll, a task, a sheet…) to save in the same transaction as the pool
    changes that paid for it."""

    user_id: int
    kind: str
    data: dict[str, Any]
    # For the dice statistics: the system that rolled, and every die's (size, face).
    system: str = ""
    dice: tuple[tuple[int, int], ...] = ()
    # A secret roll is stored so from the start: its dice count once it is revealed. A
    # private roll's dice count only in its roller's own statistics.
    secret: bool = False
    private: bool = False


@dataclass(frozen=True)
class RecordUpdate:
    """A record's new state, written only if nobody changed it since ``version`` was read."""

    record_id: int
    version: int
    data: dict[str, Any]
    # For the dice statistics: dice this change rolled (a Mediana contest resolved), counted
    # under the operation's actor, as a new roll's are (a secret roll's wait for its reveal).
    system: str = ""
    dice: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class SheetUpdate:
    """A character sheet's new file, written only if nobody changed it since ``version``
    was read, in the same transaction as the operation's pool changes (an asset made
    permanent joins the sheet's list as its Impulso is paid)."""

    sheet_id: int
    version: int
    data: dict[str, Any]


@dataclass(frozen=True)
class Undo:
    """Revert the table's last operation, or the last one that touched ``pool`` (of
    ``owner_id`` when given): every row it wrote, with compensating rows."""

    pool: str | None = None
    owner_id: int | None = None
    # Reasons of operations that also wrote outside the ledger (a sheet's file): reverting
    # only their rows would leave the books disagreeing, so such an undo is refused.
    final: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Reset:
    """Put every pool of the table at 0 and retire its rolls, except the kinds in ``keep``
    and the pools in ``keep_pools`` (character sheets are not table state)."""

    keep: tuple[str, ...] = ()
    keep_pools: tuple[str, ...] = ()


@dataclass(frozen=True)
class Operation:
    """Changes applied all or nothing, once per interaction."""

    channel_id: int
    interaction_id: int
    actor_id: int
    reason: str
    changes: tuple[Change, ...] = ()
    guild_id: int | None = None
    message_id: int | None = None
    new_record: NewRecord | None = None
    record_update: RecordUpdate | None = None
    # One interaction may make several operations (a roll, then the task it completes);
    # each has its own step, so each is applied once.
    step: int = 0
    undo: Undo | None = None
    reset: Reset | None = None
    sheet_update: SheetUpdate | None = None


@dataclass(frozen=True)
class PoolState:
    """A pool after an operation: its value and what actually changed."""

    pool: str
    owner_id: int
    value: int
    delta: int
    requested: int

    @property
    def lost_to_cap(self) -> int:
        return self.requested - self.delta


@dataclass(frozen=True)
class Applied:
    """What an operation did: each pool it touched, the record it made, how many open
    records a reset retired (so a reset that changed nothing can stay quiet)."""

    pools: tuple[PoolState, ...]
    replayed: bool = False
    record_id: int | None = None
    retired: int = 0

    @property
    def changed(self) -> bool:
        return any(p.delta for p in self.pools) or self.retired > 0 or self.record_id is not None

    def get(self, pool: str, owner_id: int = 0) -> PoolState:
        return next(p for p in self.pools if p.pool == pool and p.owner_id == owner_id)


@dataclass(frozen=True)
class Refused:
    """Why an operation changed nothing: a pool would go below 0 or over its cap, or the
    roll it acts on changed since it was read (``roll.stale``) or no longer exists."""

    key: str
    pool: str
    owner_id: int
    value: int
    delta: int
    cap: int | None = None
    replayed: bool = False

    def error(self) -> RuleError:
        if not self.pool:
            return RuleError(self.key)
        params: dict[str, Any] = {"pool": self.pool, "have": self.value, "need": -self.delta}
        if self.cap is not None:
            params.update(cap=self.cap, add=self.delta)
        return RuleError(self.key, **params)


Outcome = Applied | Refused


@dataclass(frozen=True)
class LedgerRow:
    id: int
    channel_id: int
    interaction_id: int
    actor_id: int
    pool: str
    owner_id: int
    delta: int
    value_after: int
    reason: str
    message_id: int | None
    created_at: str
    undoes: int | None = None
    # The row tells an NPC sheet's number, the GM's secret (bot/store/pools.py ``GM_ONLY``).
    gm_only: bool = False


@dataclass(frozen=True)
class Record:
    """What buttons act on later, enough to rebuild it after a restart: a posted roll, or a
    task, tracker, sheet or grant (``kind`` says which)."""

    id: int
    channel_id: int
    user_id: int
    kind: str
    data: dict[str, Any]
    version: int = 0
    message_id: int | None = None
    # Whether its embed shows the odds line: its table's setting, which ``rolls.load`` (every
    # roll is loaded before it is drawn) copies here so that renders receive it explicitly.
    shows_odds: bool = True
    # A secret roll not yet revealed (``records.secret``): nothing of it may reach the table.
    secret: bool = False


@dataclass(frozen=True)
class SheetRow:
    """A stored character sheet: whose, at which table, and its validated file as data."""

    id: int
    channel_id: int
    owner_id: int
    npc: bool
    name: str
    folded: str
    system: str
    data: dict[str, Any]
    active: bool = False
    version: int = 0


@dataclass(frozen=True)
class SavedRoll:
    """A named roll kept for a player (``scope`` 0, ``owner_id`` the player) or for a whole
    table (``scope`` its channel, ``owner_id`` 0), played again by its kind's repeater."""

    id: int
    scope: int
    owner_id: int
    creator_id: int
    name: str
    kind: str
    data: dict[str, Any]
