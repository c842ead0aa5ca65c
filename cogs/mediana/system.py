"""What ``bot/`` needs from Mediana (bot/systems.py): its record kinds, its board section,
how its rolls read back, the PV its sheets share with ``/mediana pv``."""

from __future__ import annotations

from typing import Any

from bot.i18n import Lang
from bot.models import NewRecord, SheetRow
from bot.systems import Data, Declaration, Live, Reading
from cogs.mediana import board, sheet_card
from cogs.mediana.forms import GAME
from cogs.mediana.sheet_model import MedianaSheet, physique_of
from cogs.mediana.state import COMBAT_KIND, EFFECT_KIND, KIND, SHEET_KIND, WOUNDS, wounds_cap
from rules.mediana import checks, contests, effects

NAME = board.SYSTEM


def read(lang: Lang, data: dict[str, Any]) -> Reading:
    if data.get("kind") in ("enfrentada", "competicion"):
        return read_contest(data)
    test = checks.roll_from_data(data["test"])
    faces = tuple((10, v) for throw in test.throws for v in throw.dice)
    if test.difficulty is None:
        return Reading(NAME, str(test.total), None, faces)
    verdict = "cronica.passed" if test.total >= test.difficulty and not test.fumble else "cronica.failed"
    return Reading(NAME, f"{test.total} / {test.difficulty}", verdict, faces)


def read_contest(data: dict[str, Any]) -> Reading:
    """An opposed test or a contest: every side's dice and total; who won, when the roller
    met one rival. A contest still open has rolled nothing: it is told by name."""
    tests = [checks.roll_from_data(entry["test"]) for entry in data["entries"]]
    if not tests:
        raise ValueError("nothing rolled yet")
    faces = tuple((10, v) for test in tests for throw in test.throws for v in throw.dice)
    verdict = None
    if data["kind"] == "enfrentada" and len(tests) == 2:
        winners = contests.contest_winners(tests)
        if len(winners) == 1:
            verdict = "cronica.won_a" if winners[0] == 0 else "cronica.won_b"
    return Reading(NAME, " / ".join(str(test.total) for test in tests), verdict, faces)


def dice(data: dict[str, Any]) -> tuple[tuple[int, int], ...]:
    """A new test's or contest's d10s, as :func:`read` gives them, from the stored throws
    without decoding them (a contest still open has rolled nothing)."""
    if data.get("kind") in ("enfrentada", "competicion"):
        if data.get("open"):
            return ()
        tests = [entry["test"] for entry in data["entries"]]
    else:
        tests = [data["test"]]
    return tuple((10, v) for test in tests for throw in test["throws"] for v in throw["dice"])


def effect_dice(data: dict[str, Any]) -> tuple[tuple[int, int], ...]:
    """A new effect's dice, each chain's, as :func:`read_effect` gives them, undecoded."""
    return tuple((die["sides"], die["value"]) for chain in data["effect"]["chains"] for die in chain)


def read_effect(lang: Lang, data: dict[str, Any]) -> Reading:
    effect = effects.effect_from_data(data["effect"])
    faces = tuple((die.sides, die.value) for chain in effect.chains for die in chain)
    return Reading(NAME, str(effect.total), None, faces)


def wounds_limit(data: Data) -> int:
    """From the maximum down to death at −Físico × 6 (the wounds pool's own bound)."""
    return wounds_cap(physique_of(data), int(data["pv"]["maximos"]))


def companion(row: SheetRow, data: Data) -> NewRecord:
    """The PV sheet ``/mediana pv`` reads (Físico and maximum) for the active sheet."""
    return NewRecord(
        row.owner_id, SHEET_KIND, {"physique": physique_of(data), "maximum": data["pv"]["maximos"]}
    )


SYSTEM = Declaration(
    name=NAME,
    forgotten=(KIND, EFFECT_KIND),
    kept=(COMBAT_KIND, SHEET_KIND),
    kept_on_reset=(SHEET_KIND,),
    board=board.part,
    board_kinds=frozenset({COMBAT_KIND, SHEET_KIND}),
    board_sheets=True,
    hit_points=True,
    readers={KIND: read, EFFECT_KIND: read_effect},
    dice={KIND: dice, EFFECT_KIND: effect_dice},
    sheet=MedianaSheet,
    live=(Live("pv.actuales", WOUNDS, wounds_limit, lambda d: int(d["pv"]["maximos"]), by_player=True),),
    companion=companion,
    panel=GAME,
    sheet_fields=sheet_card.sheet_fields,
)
