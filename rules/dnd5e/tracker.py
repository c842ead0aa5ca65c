"""The D&D 5e initiative tracker: a combat's order, turns and rounds, and what happens to
each creature in it (hit points, death saving throws, conditions), as one stored value.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.codec import Codec
from rules.dnd5e.checks import MAX_MODIFIER, MAX_TARGET, D20Test, Mode, roll_test, use_inspiration
from rules.dnd5e.conditions import EXHAUSTION, MAX_EXHAUSTION, Affliction, affliction
from rules.dnd5e.death import DeathSave, Fate, check_dying, roll_death_save
from rules.dnd5e.hit_points import HitPoints, hit_points
from rules.dnd5e.initiative import MAX_GROUP, Combatant, Member, move_up, order
from rules.errors import RuleError, check_range

MAX_COMBATANTS = 25
# Damage applications a tracker remembers (to refuse a second press of the same one).
MAX_APPLIED = 500


@dataclass(frozen=True)
class Entry:
    """A combatant on the tracker with the d20 test that placed it. ``settled`` is False
    only just after the roll, while Heroic Inspiration may still reroll it."""

    combatant: Combatant
    roll: D20Test
    settled: bool = False


def initiative_entry(
    rng: random.Random,
    key: str,
    name: str,
    modifier: int,
    the_mode: Mode = Mode.NORMAL,
    *,
    monster: bool = False,
    count: int = 1,
    user_id: int | None = None,
    sheet_id: int | None = None,
    ac: int | None = None,
    hp: int | None = None,
) -> Entry:
    """A Dexterity check; a group of identical monsters rolls once ("una única tirada"),
    and each member has its own hit points (``hp`` each, when given)."""
    check_range("modificador", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    check_range("cantidad", count, 1, MAX_GROUP)
    if ac is not None:
        check_range("ca", ac, 1, MAX_TARGET)
    hps = (hit_points(hp, hp),) * count if hp is not None else ()
    test = roll_test(rng, modifier, the_mode)
    combatant = Combatant(key, name, monster, test.total, count, user_id, sheet_id, ac, hps)
    return Entry(combatant, test)


@dataclass(frozen=True)
class Tracker:
    """A combat's initiative: who is in, in which order, whose turn, which round.

    ``entries`` keep the table's order for ties; ``turn`` indexes :attr:`order`. Every
    change returns a new tracker; ``step`` counts turn changes so a stale button is refused;
    ``applied`` notes each damage roll and creature it reached, so it reaches it once;
    ``fates`` each creature's death saving throws, stability or death, and ``afflictions``
    the conditions the GM set on it (both by its target id)."""

    entries: tuple[Entry, ...] = ()
    started: bool = False
    round: int = 1
    turn: int = 0
    step: int = 0
    ended: bool = False
    applied: tuple[str, ...] = ()
    fates: tuple[tuple[str, Fate], ...] = ()
    afflictions: tuple[tuple[str, tuple[Affliction, ...]], ...] = ()

    @property
    def order(self) -> tuple[Combatant, ...]:
        return order([e.combatant for e in self.entries])

    @property
    def acting(self) -> Combatant | None:
        """Who acts now (None before the start, after the end, or with nobody in)."""
        ordered = self.order
        if not self.started or self.ended or not ordered:
            return None
        return ordered[self.turn % len(ordered)]

    def entry(self, key: str) -> Entry:
        found = next((e for e in self.entries if e.combatant.key == key), None)
        if found is None:
            raise RuleError("dnd.unknown_combatant")
        return found

    def _open(self) -> None:
        if self.ended:
            raise RuleError("dnd.tracker.is_over")

    def _placed(self, entries: Sequence[Entry], acting: str | None) -> Tracker:
        """Sort ``entries`` by initiative and keep the marker on ``acting``."""
        by_key = {e.combatant.key: e for e in entries}
        ordered = tuple(by_key[c.key] for c in order([e.combatant for e in entries]))
        turn = next((i for i, e in enumerate(ordered) if e.combatant.key == acting), 0)
        return replace(self, entries=ordered, turn=turn if self.started else 0)

    def join(self, entry: Entry) -> Tracker:
        """Join once: "El orden de Iniciativa permanece invariable de una ronda a otra", so a
        second roll is refused (the GM removes a wrong entry and it joins again). A newcomer
        to a started combat goes in by initiative without moving the marker."""
        self._open()
        if any(e.combatant.key == entry.combatant.key for e in self.entries):
            raise RuleError("dnd.tracker.already_joined")
        if len(self.entries) >= MAX_COMBATANTS:
            raise RuleError("dnd.tracker.full", max=MAX_COMBATANTS)
        acting = self.acting
        return self._placed((*self.entries, replace(entry, settled=False)), acting.key if acting else None)

    def inspire(self, key: str, rng: random.Random, index: int = 0) -> Tracker:
        """Heroic Inspiration on the initiative roll, like on any d20 test: once, right after
        rolling (before the combat starts, or before the next turn for a newcomer)."""
        self._open()
        entry = self.entry(key)
        if entry.settled:
            raise RuleError("dnd.tracker.inspiration_too_late")
        test = use_inspiration(entry.roll, rng, index)
        updated = replace(entry, roll=test, combatant=replace(entry.combatant, initiative=test.total))
        acting = self.acting
        entries = tuple(updated if e.combatant.key == key else e for e in self.entries)
        return self._placed(entries, acting.key if acting else None)

    def start(self) -> Tracker:
        self._open()
        if self.started:
            raise RuleError("dnd.tracker.already_started")
        if not self.entries:
            raise RuleError("dnd.tracker.empty")
        settled = tuple(replace(e, settled=True) for e in self.entries)
        return replace(self, started=True)._placed(settled, None)

    def next(self, step: int) -> Tracker:
        """The marker moves one place; after the last, a new round starts at the top.
        ``step`` is the one the pressed button was drawn for: two presses move once."""
        self._open()
        if step != self.step:
            raise RuleError("dnd.tracker.already_moved")
        if not self.started or not self.entries:
            raise RuleError("dnd.tracker.not_started")
        turn, round_ = self.turn + 1, self.round
        if turn >= len(self.entries):
            turn, round_ = 0, round_ + 1
        settled = tuple(replace(e, settled=True) for e in self.entries)
        return replace(self, entries=settled, turn=turn, round=round_, step=step + 1)

    def remove(self, key: str) -> Tracker:
        """Take a combatant out. Removing the one acting passes the turn to the next; if it
        was the last of the order, round 2 (or the next) starts at the top."""
        self._open()
        ordered = [e.combatant.key for e in self.entries]
        if key not in ordered:
            raise RuleError("dnd.unknown_combatant")
        index = ordered.index(key)
        remaining = tuple(e for e in self.entries if e.combatant.key != key)
        fates = tuple((t, f) for t, f in self.fates if t.split(".")[0] != key)
        afflictions = tuple((t, a) for t, a in self.afflictions if t.split(".")[0] != key)
        if not self.started:
            return replace(self, entries=remaining, fates=fates, afflictions=afflictions)
        turn, round_ = self.turn - (1 if index < self.turn else 0), self.round
        if remaining and turn >= len(remaining):
            turn, round_ = 0, round_ + 1
        return replace(
            self,
            entries=remaining,
            turn=turn if remaining else 0,
            round=round_,
            step=self.step + 1,
            fates=fates,
            afflictions=afflictions,
        )

    def move_up(self, key: str) -> Tracker:
        """Settle a tie: swap with the one just ahead, which must share the initiative."""
        self._open()
        moved = move_up([e.combatant for e in self.entries], key)
        by_key = {e.combatant.key: e for e in self.entries}
        acting = self.acting
        entries = tuple(by_key[c.key] for c in moved)
        turn = next((i for i, c in enumerate(moved) if acting and c.key == acting.key), 0)
        return replace(self, entries=entries, turn=turn if self.started else 0)

    def finish(self) -> Tracker:
        self._open()
        return replace(self, ended=True)

    def member(self, target: str) -> tuple[Combatant, Member]:
        """The creature ``target`` names ("m7.2" for Goblin 2), and its combatant."""
        for entry in self.entries:
            for found in entry.combatant.members:
                if found.target == target:
                    return entry.combatant, found
        raise RuleError("dnd.unknown_combatant")

    def hurt(self, target: str, hp: HitPoints, mark: str | None = None, *, unlink: bool = False) -> Tracker:
        """``target``'s hit points become ``hp`` (a sheet's live in its pools: only ``mark``,
        the roll applied, is kept, once; ``unlink``: its sheet is gone, the tracker keeps
        them now). A group member's first ones give the others that maximum, full."""
        self._open()
        combatant, found = self.member(target)
        tracker = self.noted(mark) if mark else self
        if combatant.sheet_id is not None and not unlink:
            return tracker
        old = combatant.hp or (HitPoints(hp.maximum, hp.maximum),) * combatant.count
        hps = tuple(hp if i == found.index else kept for i, kept in enumerate(old))
        entries = tuple(
            replace(e, combatant=replace(e.combatant, hp=hps, sheet_id=None))
            if e.combatant.key == combatant.key
            else e
            for e in self.entries
        )
        return replace(tracker, entries=entries)

    def fate(self, target: str) -> Fate:
        """A creature's death saving throws, stability or death (nothing noted: none)."""
        return next((f for t, f in self.fates if t == target), Fate())

    def with_fate(self, target: str, fate: Fate) -> Tracker:
        """The tracker with ``target``'s fate; one with nothing to tell is not kept."""
        kept = tuple((t, f) for t, f in self.fates if t != target)
        return replace(self, fates=kept if fate == Fate() else (*kept, (target, fate)))

    def conditions(self, target: str) -> tuple[Affliction, ...]:
        """The conditions on ``target`` this round (one whose rounds ran out is gone)."""
        kept = next((a for t, a in self.afflictions if t == target), ())
        return tuple(a for a in kept if a.active(self.round))

    def afflict(self, target: str, condition: str, rounds: int | None) -> Tracker:
        """Set a condition on ``target`` (again: its new duration replaces the old one).
        Exhaustion adds a level each time ("This condition is cumulative"); the sixth kills."""
        self._open()
        self.member(target)
        new = affliction(condition, self.round, rounds)
        had = next((a for a in self.conditions(target) if a.condition == condition), None)
        if condition == EXHAUSTION and had is not None:
            new = replace(new, level=min(had.level + 1, MAX_EXHAUSTION))
        kept = tuple(a for a in self.conditions(target) if a.condition != condition)
        tracker = self._with_conditions(target, (*kept, new))
        if new.condition == EXHAUSTION and new.level == MAX_EXHAUSTION:
            tracker = tracker.with_fate(target, replace(self.fate(target), dead=True))
        return tracker

    def relieve(self, target: str, condition: str) -> Tracker:
        """Clear a condition from ``target``; refused when it does not have it. Exhaustion
        loses one level ("Finishing a Long Rest removes 1 of your Exhaustion levels")."""
        self._open()
        self.member(target)
        kept = self.conditions(target)
        had = next((a for a in kept if a.condition == condition), None)
        if had is None:
            raise RuleError("dnd.condition.not_there", condition=condition)
        others = tuple(a for a in kept if a.condition != condition)
        if condition == EXHAUSTION and had.level > 1:
            return self._with_conditions(target, (*others, replace(had, level=had.level - 1)))
        return self._with_conditions(target, others)

    def exhaustion(self, target: str) -> int:
        """``target``'s Exhaustion level (0 without it)."""
        return next((a.level for a in self.conditions(target) if a.condition == EXHAUSTION), 0)

    def _with_conditions(self, target: str, kept: tuple[Affliction, ...]) -> Tracker:
        others = tuple((t, a) for t, a in self.afflictions if t != target)
        return replace(self, afflictions=(*others, (target, kept)) if kept else others)

    def death_save(self, target: str, hp: HitPoints, rng: random.Random) -> tuple[Tracker, DeathSave]:
        """A death saving throw for ``target`` at ``hp``: one a turn, noted in its fate."""
        self._open()
        self.member(target)
        fate = self.fate(target)
        check_dying(fate, hp)
        if fate.saved_at is not None and fate.saved_at == self.step:
            raise RuleError("dnd.death.once_a_turn")
        saved = roll_death_save(rng, fate, hp, self.step)
        return self.with_fate(target, saved.after), saved

    def noted(self, mark: str) -> Tracker:
        """Remember that ``mark`` (a roll and a creature) was applied, refusing it twice."""
        if mark in self.applied:
            raise RuleError("dnd.hp.already_applied")
        return replace(self, applied=(*self.applied, mark)[-MAX_APPLIED:])


def _entry_from(data: dict[str, Any], started: bool) -> Entry:
    """Older trackers stored only each d20's final face and no modifier: the modifier is
    what the initiative adds to the kept die, and an old entry counts as settled once the
    combat started. Entries from before hit points have no sheet, AC or hit points."""
    the_mode = Mode(data.get("mode", Mode.NORMAL.value))
    rolls = tuple(
        tuple(r) if isinstance(r, list) else (r,) for r in data.get("rolls") or [[data["initiative"]]]
    )
    kept = D20Test(rolls, the_mode, 0).natural
    test = D20Test(rolls, the_mode, data["initiative"] - kept, inspired=data.get("inspired", False))
    combatant = Combatant(
        data["key"],
        data["name"],
        data["monster"],
        data["initiative"],
        data["count"],
        data.get("user"),
        data.get("sheet"),
        data.get("ac"),
        tuple(HitPoints(*h) for h in data.get("hp", [])),
    )
    return Entry(combatant, test, data.get("settled", started))


def _before_codec(data: dict[str, Any]) -> Tracker | None:
    """A tracker stored before the codec listed ``combatants`` (each entry flattened into
    one object), its fates as positional lists and its afflictions as ``conditions``."""
    if "combatants" not in data:
        return None
    return Tracker(
        entries=tuple(_entry_from(c, data["started"]) for c in data["combatants"]),
        started=data["started"],
        round=data["round"],
        turn=data["turn"],
        step=data["step"],
        ended=data["ended"],
        applied=tuple(data.get("applied", [])),
        fates=tuple((target, Fate(*fate)) for target, fate in data.get("fates", {}).items()),
        afflictions=tuple(
            (target, tuple(Affliction(*a) for a in kept))
            for target, kept in data.get("conditions", {}).items()
        ),
    )


TRACKERS = Codec(Tracker, _before_codec)
tracker_to_data = TRACKERS.to_data
tracker_from_data = TRACKERS.from_data
