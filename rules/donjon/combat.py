"""The Donjon combat tracker: who is in, the turns their initiative gave, the round."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, replace
from typing import Any

from rules.codec import Codec
from rules.donjon.contest import DEFAULT_SIDES, check_pool_size
from rules.donjon.initiative import Combatant, Turn, roll_initiative, schedule
from rules.errors import RuleError

MAX_COMBATANTS = 25


@dataclass(frozen=True)
class Seat:
    """A combatant at the table: its initiative pool and, once rolled, this ráfaga's dice
    (empty while it waits for the next ráfaga)."""

    combatant: Combatant
    pool: int


@dataclass(frozen=True)
class Combat:
    """A fight as ráfagas: every seat's dice, and how many turns of the countdown are done.

    The ráfaga has started once a turn was taken (``step`` > 0).
    """

    seats: tuple[Seat, ...] = ()
    rafaga: int = 1
    step: int = 0
    ended: bool = False
    sides: int = DEFAULT_SIDES

    @functools.cached_property
    def turns(self) -> tuple[Turn, ...]:
        """Scheduled once per combat value: who acts, whether the ráfaga is over and the
        card's list of turns each ask for it."""
        return schedule([s.combatant for s in self.seats if s.combatant.dice], self.sides)

    @property
    def acting(self) -> Turn | None:
        turns = self.turns
        return turns[self.step] if self.step < len(turns) else None

    @property
    def over(self) -> bool:
        """Every turn of this ráfaga was taken."""
        return self.step >= len(self.turns)

    def _open(self) -> None:
        if self.ended:
            raise RuleError("donjon.combat.is_over")

    def join(self, rng: random.Random, combatant: Combatant, pool: int) -> Combat:
        """Join once. A newcomer rolls at once before the ráfaga starts, and after that waits
        for the next one. A second join is refused: before the start it would be a fresh
        roll (fishing for initiative), after it would empty the dice and break the countdown."""
        self._open()
        check_pool_size("iniciativa", pool)
        if any(s.combatant.key == combatant.key for s in self.seats):
            raise RuleError("donjon.combat.already_joined")
        if len(self.seats) >= MAX_COMBATANTS:
            raise RuleError("donjon.combat.full", max=MAX_COMBATANTS)
        dice = roll_initiative(rng, pool, self.sides) if self.step == 0 else ()
        return replace(self, seats=(*self.seats, Seat(replace(combatant, dice=dice), pool)))

    def next(self, step: int) -> Combat:
        """ "Siguiente" ends the turn its button was drawn for: two presses advance once."""
        self._open()
        if step != self.step:
            raise RuleError("donjon.combat.already_moved")
        if self.over:
            raise RuleError("donjon.combat.rafaga_over_refusal")
        return replace(self, step=step + 1)

    def new_rafaga(self, rng: random.Random) -> Combat:
        """Everyone rolls their pool again, newcomers included."""
        self._open()
        seats = tuple(
            replace(s, combatant=replace(s.combatant, dice=roll_initiative(rng, s.pool, self.sides)))
            for s in self.seats
        )
        return replace(self, seats=seats, rafaga=self.rafaga + 1, step=0)

    def remove(self, key: str) -> Combat:
        """Take a seat out. The turns already taken stay taken: the countdown resumes at the
        first turn not yet played, whoever had it."""
        self._open()
        if all(s.combatant.key != key for s in self.seats):
            raise RuleError("donjon.unknown_combatant")
        done = self.turns[: self.step]
        seats = tuple(s for s in self.seats if s.combatant.key != key)
        return replace(self, seats=seats, step=sum(t.key != key for t in done))

    def finish(self) -> Combat:
        self._open()
        return replace(self, ended=True)


def _before_codec(data: dict[str, Any]) -> Combat | None:
    """A combat stored before the codec listed ``combatants``, each seat flattened into
    one object (its ``user`` the combatant's ``user_id``)."""
    if "combatants" not in data:
        return None
    seats = tuple(
        Seat(Combatant(c["key"], c["name"], c["npc"], tuple(c["dice"]), c["count"], c.get("user")), c["pool"])
        for c in data["combatants"]
    )
    return Combat(seats, data["rafaga"], data["step"], data["ended"], data["sides"])


COMBATS = Codec(Combat, _before_codec)
combat_to_data = COMBATS.to_data
combat_from_data = COMBATS.from_data
