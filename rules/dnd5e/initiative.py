"""D&D 5e initiative (SRD 5.2, "Iniciativa"): who is in a combat, a group of identical
monsters as its numbered members, and the order, whose ties the table settles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dnd5e.hit_points import HitPoints
from rules.errors import RuleError


@dataclass(frozen=True)
class Member:
    """One creature of a tracker's combatant, as damage addresses it: "Goblin 2" is
    ``m7.2``. ``hp`` is the tracker's own (a monster without a sheet), else None."""

    target: str
    name: str
    index: int
    hp: HitPoints | None


def members_of(key: str, name: str, count: int, hps: tuple[HitPoints, ...]) -> tuple[Member, ...]:
    """A group's members are numbered from 1 ("Goblin 1", "Goblin 2"), each with its own
    hit points; a lone creature keeps its key and name."""
    if count == 1:
        return (Member(key, name, 0, hps[0] if hps else None),)
    return tuple(
        Member(f"{key}.{n + 1}", f"{name} {n + 1}", n, hps[n] if hps else None) for n in range(count)
    )


# The most identical monsters one initiative roll stands for.
MAX_GROUP = 20


@dataclass(frozen=True)
class Combatant:
    """One character, or a group of identical monsters sharing one roll. Its hit points
    and AC are a sheet's (``sheet_id``), else kept here: ``hp`` one per member of a group
    (empty until the GM gives them) and ``ac``."""

    key: str
    name: str
    monster: bool
    initiative: int
    count: int = 1
    user_id: int | None = None
    sheet_id: int | None = None
    ac: int | None = None
    hp: tuple[HitPoints, ...] = ()

    @property
    def members(self) -> tuple[Member, ...]:
        """Each creature it stands for: "Goblin 1", "Goblin 2"… (``members_of``)."""
        return members_of(self.key, self.name, self.count, self.hp)


def order(combatants: Sequence[Combatant]) -> tuple[Combatant, ...]:
    """Highest initiative first. Ties keep the order the table gave them (the list's own
    order): the GM and players settle ties by reordering, never the dice."""
    return tuple(sorted(combatants, key=lambda c: -c.initiative))


def move_up(combatants: Sequence[Combatant], key: str) -> tuple[Combatant, ...]:
    """Swap a combatant with the one just ahead of it, which must share its initiative."""
    ordered = list(order(combatants))
    index = next((i for i, c in enumerate(ordered) if c.key == key), None)
    if index is None:
        raise RuleError("dnd.unknown_combatant")
    if index == 0 or ordered[index - 1].initiative != ordered[index].initiative:
        raise RuleError("dnd.not_tied")
    ordered[index - 1], ordered[index] = ordered[index], ordered[index - 1]
    return tuple(ordered)
