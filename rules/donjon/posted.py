"""A posted Donjon test, as stored: what kind of test, its pools, and the Law over its
successes (where the Law applies).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.codec import Codec
from rules.donjon.contest import Contest
from rules.donjon.law import Fact, Law


@dataclass(frozen=True)
class DonjonRoll:
    """A posted test: what kind, the pools, and (where the Law applies) its successes."""

    kind: str
    test: Contest
    law: Law | None = None
    details: dict[str, Any] = field(default_factory=dict)


def _before_codec(data: dict[str, Any]) -> DonjonRoll | None:
    """A roll stored before the codec kept the contest's pools at the top (``a``, ``b``,
    ``sides``, ``extra``) and each fact as ``[author, text]``."""
    if "test" in data:
        return None
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


ROLLS = Codec(DonjonRoll, _before_codec)
to_data = ROLLS.to_data
from_data = ROLLS.from_data
