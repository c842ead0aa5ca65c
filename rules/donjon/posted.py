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


def _upgrade(data: dict[str, Any]) -> DonjonRoll | None:
    """A roll stored in an older shape, read as it was; None for today's."""
    if "test" not in data:
        return _before_codec(data)
    law = data.get("law")
    if isinstance(law, dict) and "narrated" in law:
        return _one_flag(data, law)
    return None


def _before_codec(data: dict[str, Any]) -> DonjonRoll:
    """A roll stored before the codec kept the contest's pools at the top (``a``, ``b``,
    ``sides``, ``extra``) and each fact as ``[author, text]``."""
    test = Contest(tuple(data["a"]), tuple(data["b"]), data["sides"], tuple((x, y) for x, y in data["extra"]))
    law_data = data["law"]
    law = None
    if law_data is not None:
        told = bool(law_data["narrated"])
        law = Law(
            law_data["winner_id"],
            law_data["narrator_id"],
            law_data["successes"],
            tuple(Fact(a, t, told) for a, t in law_data["facts"]),
            tuple(law_data["banked"]),
        )
    return DonjonRoll(data["kind"], test, law, data["details"])


def _one_flag(data: dict[str, Any], law: dict[str, Any]) -> DonjonRoll:
    """A roll stored while one flag (``law.narrated``) said all its facts were narrated at
    once: each fact carries it now."""
    told = bool(law["narrated"])
    facts = [{**fact, "narrated": told} for fact in law.get("facts", ())]
    upgraded = {k: v for k, v in law.items() if k != "narrated"}
    return ROLLS.adapter.validate_python({**data, "law": {**upgraded, "facts": facts}})


ROLLS = Codec(DonjonRoll, _upgrade)
to_data = ROLLS.to_data
from_data = ROLLS.from_data
