"""The Mediana combat tracker: initiative, the actions it gives, turns and rounds."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.codec import Codec
from rules.errors import RuleError, check_range
from rules.mediana.checks import MAX_SCORE, Test, roll_from_data, roll_test


def actions(initiative_total: int) -> int:
    """One action below 20, two from 20, three from 30, and so on."""
    return max(initiative_total // 10, 1)


MAX_COMBATANTS = 25


@dataclass(frozen=True)
class Fighter:
    """A combatant and this round's initiative: bonus + 1o3d10 − encumbrance. ``roll`` is
    the test behind ``total`` (None for a fighter stored before the dice were kept)."""

    key: str
    name: str
    bonus: int
    encumbrance: int
    rank: str
    total: int
    roll: Test | None = None


def initiative_roll(rng: random.Random, bonus: int, encumbrance: int, rank: str) -> Test:
    """Bonus + 1o3d10 (exploding, as a skill test) − armour's encumbrance ("el estorbo hay
    que restarlo a la iniciativa")."""
    check_range("bono", bonus, -MAX_SCORE, MAX_SCORE)
    check_range("estorbo", encumbrance, 0, MAX_SCORE)
    return roll_test(rng, bonus - encumbrance, None, rank)


def initiative_total(rng: random.Random, bonus: int, encumbrance: int, rank: str) -> int:
    return initiative_roll(rng, bonus, encumbrance, rank).total


def _fighter(rng: random.Random, key: str, name: str, bonus: int, encumbrance: int, rank: str) -> Fighter:
    roll = initiative_roll(rng, bonus, encumbrance, rank)
    return Fighter(key, name, bonus, encumbrance, rank, roll.total, roll)


@dataclass(frozen=True)
class Combat:
    """A fight by rounds: "atacarán en orden de mayor a menor según la tirada", and "Una vez
    actúe el último en la iniciativa, se vuelve a tirar esta para ver el orden de actuación
    de la siguiente ronda". ``turn`` is the acting place in :attr:`order`; ``step`` counts
    every move, so a button drawn for one step moves the combat once."""

    fighters: tuple[Fighter, ...] = ()
    round: int = 1
    ended: bool = False
    turn: int = 0
    step: int = 0

    @property
    def order(self) -> tuple[Fighter, ...]:
        return tuple(sorted(self.fighters, key=lambda f: -f.total))

    @property
    def acting(self) -> Fighter | None:
        """Who acts now (None with nobody in the fight, or once it is over)."""
        order = self.order
        if self.ended or not order:
            return None
        return order[min(self.turn, len(order) - 1)]

    def _open(self) -> None:
        if self.ended:
            raise RuleError("mediana.combat.is_over")

    def _check_step(self, step: int) -> None:
        if step != self.step:
            raise RuleError("mediana.combat.already_moved")

    def _keeping(self, fighters: tuple[Fighter, ...], acting: Fighter | None) -> Combat:
        """The combat with ``fighters``, the turn still on whoever was acting."""
        moved = replace(self, fighters=fighters)
        keys = [f.key for f in moved.order]
        turn = keys.index(acting.key) if acting is not None and acting.key in keys else self.turn
        return replace(moved, turn=min(turn, max(len(keys) - 1, 0)))

    def join(
        self, rng: random.Random, key: str, name: str, bonus: int, encumbrance: int, rank: str
    ) -> Combat:
        """One initiative roll per round: joining again would be a second roll this round,
        so it is refused (the next round rolls everyone again). A newcomer takes their place
        by their roll; once the round is under way the turn stays with whoever acts."""
        self._open()
        if any(f.key == key for f in self.fighters):
            raise RuleError("mediana.combat.already_joined")
        if len(self.fighters) >= MAX_COMBATANTS:
            raise RuleError("mediana.combat.full", max=MAX_COMBATANTS)
        fighter = _fighter(rng, key, name, bonus, encumbrance, rank)
        return self._keeping((*self.fighters, fighter), self.acting if self.turn else None)

    def new_round(self, rng: random.Random, round_: int, ranks: Mapping[str, str]) -> Combat:
        """Everyone rolls again. ``ranks`` gives the current rank of those whose state the
        caller knows (a player who became malherido since joining drops to bajo); the others
        keep theirs. ``round_`` is the round the button was drawn for: two presses roll once."""
        self._open()
        if round_ != self.round:
            raise RuleError("mediana.combat.already_moved")
        fighters = tuple(
            _fighter(rng, f.key, f.name, f.bonus, f.encumbrance, ranks.get(f.key, f.rank))
            for f in self.fighters
        )
        return replace(self, fighters=fighters, round=self.round + 1, turn=0, step=self.step + 1)

    def next(self, rng: random.Random, step: int, ranks: Mapping[str, str]) -> Combat:
        """The turn passes down the order; after the last, a new round rolls everyone again.
        ``step`` is the step the button was drawn for: two presses move once."""
        self._open()
        self._check_step(step)
        if not self.fighters:
            raise RuleError("mediana.combat.empty")
        if self.turn + 1 < len(self.fighters):
            return replace(self, turn=self.turn + 1, step=self.step + 1)
        return self.new_round(rng, self.round, ranks)

    def remove(self, key: str) -> Combat:
        self._open()
        if all(f.key != key for f in self.fighters):
            raise RuleError("mediana.unknown_combatant")
        acting = self.acting
        following = acting
        if acting is not None and acting.key == key:
            rest = [f for f in self.order if f.key != key]
            following = rest[self.turn] if self.turn < len(rest) else None
        stepped = replace(self, step=self.step + 1)
        return stepped._keeping(tuple(f for f in self.fighters if f.key != key), following)

    def finish(self) -> Combat:
        self._open()
        return replace(self, ended=True, step=self.step + 1)


def _before_codec(data: dict[str, Any]) -> Combat | None:
    """A combat stored before the codec listed ``combatants``; the oldest have no ``turn``,
    ``step`` or fighters' ``roll``."""
    if "combatants" not in data:
        return None
    fighters = tuple(
        Fighter(
            c["key"],
            c["name"],
            c["bonus"],
            c["encumbrance"],
            c["rank"],
            c["total"],
            roll_from_data(c["roll"]) if "roll" in c else None,
        )
        for c in data["combatants"]
    )
    return Combat(fighters, data["round"], data["ended"], data.get("turn", 0), data.get("step", 0))


COMBATS = Codec(Combat, _before_codec)
combat_to_data = COMBATS.to_data
combat_from_data = COMBATS.from_data
