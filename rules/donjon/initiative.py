"""Donjon's initiative: each combatant's pool rolled, and the turns it gives, in order."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules.donjon.contest import DEFAULT_SIDES, _roll, check_pool_size


@dataclass(frozen=True)
class Combatant:
    """One character, or a group of identical NPCs sharing one roll."""

    key: str
    name: str
    npc: bool
    dice: tuple[int, ...]
    count: int = 1
    user_id: int | None = None


@dataclass(frozen=True)
class Turn:
    number: int
    key: str
    name: str
    member: int = 0


def schedule(combatants: Sequence[Combatant], sides: int = DEFAULT_SIDES) -> tuple[Turn, ...]:
    """The ráfaga's countdown: from the die's maximum to 1, everyone showing the number acts
    once per die showing it, one action at a time round the table (seating order, NPCs last:
    "las acciones se ejecutan desde el jugador a la izquierda del DJ ... los PNJ siempre
    actuarán al último"). A group acts once per member at each of its numbers."""
    seated = [c for c in combatants if not c.npc] + [c for c in combatants if c.npc]
    turns: list[Turn] = []
    for number in sorted({n for c in seated for n in c.dice if 1 <= n <= sides}, reverse=True):
        showing = [(c, c.dice.count(number)) for c in seated]
        for action in range(max(count for _, count in showing)):
            for c, count in showing:
                if count > action:
                    turns.extend(Turn(number, c.key, c.name, m) for m in range(c.count))
    return tuple(turns)


def roll_initiative(rng: random.Random, dice: int, sides: int = DEFAULT_SIDES) -> tuple[int, ...]:
    """Nivel + Discernimiento dice; "ninguna otra Habilidad puede sumarse"."""
    check_pool_size("iniciativa", dice)
    return tuple(sorted(_roll(rng, dice, sides), reverse=True))
