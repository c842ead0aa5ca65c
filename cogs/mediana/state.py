"""What Mediana keeps at a table: the record kinds, and how tests and sheets are stored."""

from __future__ import annotations

from typing import Any

from bot.client import Tirada
from bot.kinds import MEDIANA_SHEET as SHEET_KIND
from bot.models import RollRecord
from rules import mediana
from rules.mediana import Health, Test, Throw

KIND = "mediana"
COMBAT_KIND = "mediana_combate"
EFFECT_KIND = "mediana_efecto"
MAX_COMBATANTS = 25


def check(name: str, value: int, low: int, high: int) -> None:
    mediana.check_number(name, value, low, high)


# -- storage of tests and sheets ---------------------------------------------------------------


def test_data(test: Test) -> dict[str, Any]:
    return {
        "throws": [[list(x.dice), x.rank] for x in test.throws],
        "score": test.score,
        "difficulty": test.difficulty,
        "skill_test": test.skill_test,
    }


def test_from(data: dict[str, Any]) -> Test:
    throws = tuple(Throw(tuple(d), rank) for d, rank in data["throws"])  # type: ignore[arg-type]
    return Test(throws, data["score"], data["difficulty"], data["skill_test"])


def health_from(record: RollRecord | None) -> Health | None:
    if record is None:
        return None
    return Health(record.data["physique"], record.data["maximum"], record.data["current"])


async def sheet(bot: Tirada, channel_id: int, user_id: int) -> RollRecord | None:
    """A character's PV sheet at this table: the newest one recorded for them."""
    return next((r for r in await bot.store.rolls(channel_id, SHEET_KIND, 200) if r.user_id == user_id), None)
