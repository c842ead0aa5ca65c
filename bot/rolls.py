"""Acting on a posted roll from a button: read it, decide with the rules, write it back.

The roll's new state and the pool changes it causes are one operation, written only if
the roll is still at the version that was read. A double click therefore decides twice
but writes once: the loser re-reads the roll and decides again on what is there now
(usually "nothing left to do", a clear refusal). A replayed interaction gets its first
answer from the store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot import repeat, seen
from bot.errors import Refusal
from bot.i18n import Lang, lang_for
from bot.models import (
    Applied,
    Change,
    NewRecord,
    Operation,
    Record,
    RecordUpdate,
    Refused,
    Reset,
    Table,
    Undo,
)
from bot.readers import new_faces
from bot.reveal import deliver
from bot.store import Store
from bot.store.pools import STALE

ATTEMPTS = 3


@dataclass(frozen=True)
class Decision:
    """What a button does to a roll: its new data, the pool changes, the ledger reason."""

    data: dict[str, Any]
    changes: tuple[Change, ...] = ()
    reason: str = ""
    # Every die in ``data`` was thrown by this decision (a contest resolved, which opened
    # with none): counted for the statistics like a new roll's (``bot.readers.new_faces``).
    rolled: bool = False


Decide = Callable[[Record], Decision | Awaitable[Decision]]


async def change(
    store: Store,
    interaction: discord.Interaction,
    table: Table,
    reason: str,
    *changes: Change,
    new_record: NewRecord | None = None,
    closes: RecordUpdate | None = None,
    undo: Undo | None = None,
    reset: Reset | None = None,
    refuse: Callable[[Refused], Exception] = Refused.error,
) -> Applied:
    """Apply one operation at ``table`` for this interaction, all or nothing and once (a
    replay gets the first answer), or raise ``refuse(outcome)``: why nothing changed.

    Every pool change a command makes goes through here, so each is written the same way:
    keyed by the interaction, at the table (not the channel), with the guild for a new table.
    What it wrote is what this interaction knows of the table afterwards (``bot.seen``).
    """
    before = seen.before_write(interaction, table.channel_id)
    outcome = await store.apply(
        Operation(
            table.channel_id,
            interaction.id,
            interaction.user.id,
            reason,
            changes,
            guild_id=interaction.guild_id,
            new_record=new_record,
            record_update=closes,
            undo=undo,
            reset=reset,
        )
    )
    if isinstance(outcome, Refused):
        raise refuse(outcome)
    if not outcome.replayed:
        seen.wrote(interaction, before, outcome, pools_known=undo is None and reset is None)
    return outcome


async def record(
    store: Store,
    interaction: discord.Interaction,
    table: Table,
    kind: str,
    data: dict[str, Any],
    reason: str,
    changes: tuple[Change, ...] = (),
    closes: RecordUpdate | None = None,
    *,
    secret: bool = False,
    private: bool = False,
) -> Record:
    """Record a new roll at ``table`` together with what it costs or gains, once per
    interaction (the table, not the channel: a GM may roll from the GM channel).

    This is where every roll's dice reach the statistics: read from the roll's data as
    its kind's reader reads them (``bot.readers.new_faces``), counted in the same
    transaction; a ``secret`` roll's only once revealed, a ``private`` one's only in its
    roller's own statistics. Whether a roll is secret is known before it is written, so
    no reader ever sees it as public."""
    stored, _ = await record_applied(
        store, interaction, table, kind, data, reason, changes, closes, secret=secret, private=private
    )
    return stored


async def record_applied(
    store: Store,
    interaction: discord.Interaction,
    table: Table,
    kind: str,
    data: dict[str, Any],
    reason: str,
    changes: tuple[Change, ...] = (),
    closes: RecordUpdate | None = None,
    *,
    secret: bool = False,
    private: bool = False,
) -> tuple[Record, Applied]:
    """:func:`record`, with what the operation applied: for a card that tells the numbers
    the books now hold (a replay gets the first answer's, not the ones just thrown, read
    back from the store; a first answer's record is the one just written)."""
    system, dice = new_faces(kind, data)
    outcome = await change(
        store,
        interaction,
        table,
        reason,
        *changes,
        new_record=NewRecord(interaction.user.id, kind, data, system, dice, secret, private),
        closes=closes,
    )
    assert outcome.record_id is not None
    if outcome.replayed:
        return await load(interaction, outcome.record_id, kind), outcome
    written = Record(
        outcome.record_id, table.channel_id, interaction.user.id, kind, seen.stored(data), secret=secret
    )
    seen.remember(interaction, written)
    return with_odds(written, table), outcome


async def post(
    store: Store,
    interaction: discord.Interaction,
    table: Table,
    record: Record,
    embed: discord.Embed,
    view: discord.ui.View | None,
    *,
    secret: bool = False,
) -> None:
    """Answer with a roll's message (privately when secret: recorded so by :func:`record`)
    and remember where it is, so buttons pressed elsewhere (a select menu, a command) can
    update it later."""
    message_id = await deliver(interaction, table, record.id, embed, view, secret)
    if message_id is not None:
        await store.set_record_message(record.id, message_id, secret=secret)
        seen.remember(interaction, posted_at(record, message_id))


def posted_at(record: Record, message_id: int) -> Record:
    """``replace(record, message_id=message_id)``, built field by field: ``replace`` looks the
    class's fields up and passes them by name, five times the cost, on every roll posted
    (``tests/bot/test_rolls.py`` holds it to ``replace`` for every field ``Record`` has)."""
    return Record(
        record.id,
        record.channel_id,
        record.user_id,
        record.kind,
        record.data,
        record.version,
        message_id,
        record.shows_odds,
        record.secret,
    )


# A roll's card and its buttons, drawn from the roll as written, in the reader's language.
Card = Callable[[Lang, Record], tuple[discord.Embed, discord.ui.View | None]]


async def publish(
    store: Store,
    interaction: discord.Interaction,
    table: Table,
    kind: str,
    data: dict[str, Any],
    reason: str,
    card: Card,
    changes: tuple[Change, ...] = (),
    *,
    secret: bool = False,
    fresh: Card | None = None,
) -> Record:
    """A new roll recorded (:func:`record`) and posted (:func:`post`) with the card drawn
    from it: what most roll commands do, once. ``fresh``: the card drawn from the value the
    command just threw, which ``data`` encodes (the codec's round trip is exact), for the
    record just written: not decoded again, and what the rules worked out on it (a
    comparison, a verdict) not worked out again; a replay's card is ``card``'s, drawn from
    the record the first delivery wrote."""
    written, applied = await record_applied(
        store, interaction, table, kind, data, reason, changes, secret=secret
    )
    draw = card if fresh is None or applied.replayed else fresh
    embed, view = draw(lang_for(interaction.locale), written)
    await post(store, interaction, table, written, embed, view, secret=secret)
    return written


async def load(interaction: discord.Interaction, record_id: int, kind: str) -> Record:
    """A live roll of this kind, or a refusal; it carries whether its embed shows the odds
    line (its table's setting), for the render to pass on. Read once per interaction
    (``bot.seen``): the guard, the checks and the decision all ask for it."""
    record = await seen.record(interaction, record_id)
    if record is None or record.kind != kind:
        raise Refusal("error.roll_gone")
    return with_odds(record, await seen.table(interaction, record.channel_id, None))


def with_odds(record: Record, table: Table) -> Record:
    """The record carrying its table's odds setting; copied only when it differs (a record
    as read shows them, as a table does by default)."""
    odds = table.settings.roll_odds
    return record if record.shows_odds == odds else replace(record, shows_odds=odds)


def rolled(kind: str, decision: Decision) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The system and dice a decision threw, for the statistics (none unless it says so)."""
    return new_faces(kind, decision.data) if decision.rolled else ("", ())


async def act(
    store: Store,
    interaction: discord.Interaction,
    record_id: int,
    kind: str,
    decide: Decide,
    *,
    step: int = 0,
) -> tuple[Record, Applied]:
    """Apply ``decide`` to the roll once; returns the roll as stored afterwards (as written,
    not read back; a replay's as the store holds it)."""
    for _ in range(ATTEMPTS):
        record = await load(interaction, record_id, kind)
        decision = decide(record)
        if not isinstance(decision, Decision):
            decision = await decision
        # How the roll was asked stays as written: a decision writing the roll's rules value
        # anew knows nothing of it (bot.repeat).
        decision = replace(decision, data=decision.data | repeat.kept(record.data))
        system, dice = rolled(kind, decision)
        before = seen.before_write(interaction, record.channel_id)
        outcome = await store.apply(
            Operation(
                channel_id=record.channel_id,
                interaction_id=interaction.id,
                actor_id=interaction.user.id,
                reason=decision.reason,
                changes=decision.changes,
                guild_id=interaction.guild_id,
                message_id=record.message_id,
                record_update=RecordUpdate(record_id, record.version, decision.data, system, dice),
                step=step,
            )
        )
        if isinstance(outcome, Refused):
            if outcome.key == STALE:
                seen.reread(interaction, record_id)
                continue
            raise outcome.error()
        if outcome.replayed:
            return await load(interaction, record_id, kind), outcome
        written = replace(record, data=seen.stored(decision.data), version=record.version + 1)
        seen.wrote(interaction, before, outcome, record=written)
        return written, outcome
    raise Refusal("error.busy")
