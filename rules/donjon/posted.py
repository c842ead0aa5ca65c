"""A posted Donjon test, as stored: what kind of test, its pools, and the Law over its
successes (where the Law applies).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.donjon.contest import Contest
from rules.donjon.law import Fact, Law


@dataclass(frozen=True)
class DonjonRoll:
    """A posted test: what kind, the pools, and (where the Law applies) its successes."""

    kind: str
    test: Contest
    law: Law | None = None
    details: dict[str, Any] = field(default_factory=dict)


def to_data(roll: DonjonRoll) -> dict[str, Any]:
    law = roll.law
    return {
        "kind": roll.kind,
        "a": list(roll.test.a),
        "b": list(roll.test.b),
        "sides": roll.test.sides,
        "extra": [list(p) for p in roll.test.extra],
        "law": None
        if law is None
        else {
            "winner_id": law.winner_id,
            "narrator_id": law.narrator_id,
            "successes": law.successes,
            "facts": [[f.author, f.text] for f in law.facts],
            "banked": list(law.banked),
            "narrated": law.narrated,
        },
        "details": roll.details,
    }


def from_data(data: dict[str, Any]) -> DonjonRoll:
    test = Contest(tuple(data["a"]), tuple(data["b"]), data["sides"], tuple((x, y) for x, y in data["extra"]))
    law_data = data["law"]
    law = None
    if law_data is not None:
        law = Law(
            law_data["winner_id"],
            law_data["narrator_id"],
            law_data["successes"],
            tuple(Fact(a, t) for a, t in law_data["facts"]),
            tuple(law_data["banked"]),
            law_data["narrated"],
        )
    return DonjonRoll(data["kind"], test, law, data["details"])
