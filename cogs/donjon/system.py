"""What ``bot/`` needs from Donjon (bot/systems.py): its record kinds, its banks, its board
section and status line (the level), how its rolls read back with the facts narrated from
them, the numbers its sheets keep in pools."""

from __future__ import annotations

from typing import Any

from bot.i18n import Lang, t
from bot.kinds import SHEET_POOL_PREFIX
from bot.models import Table
from bot.systems import Declaration, Live, Reading
from cogs.donjon import board, components, sheet_card
from cogs.donjon.forms import GAME
from cogs.donjon.sheet_model import DonjonSheet
from cogs.donjon.state import ATTRIBUTES_KIND, BANK, COMBAT_KIND, GM_BANK, KIND
from rules.donjon import attributes, contest, posted
from rules.donjon.law import Law

NAME = "donjon"


def read(lang: Lang, data: dict[str, Any]) -> Reading:
    """A test's dice and winner, and the facts narrated from it (the chronicle tells them
    after the roll)."""
    roll = posted.from_data(data)
    test = roll.test
    faces = tuple((test.sides, v) for v in (*test.a, *test.b))
    winner = test.winner
    verdict = None if winner is None else ("cronica.won_a" if winner == "a" else "cronica.won_b")
    return Reading(NAME, f"{list(test.a)} / {list(test.b)}", verdict, faces, narrated(roll.law))


def dice(data: dict[str, Any]) -> tuple[tuple[int, int], ...]:
    """A new test's pools' dice, as :func:`read` gives them, from the stored contest without
    decoding the roll."""
    test = data["test"]
    sides = test["sides"]
    return tuple((sides, v) for v in (*test["a"], *test["b"]))


def narrated(law: Law | None) -> tuple[tuple[int, str], ...]:
    """The facts of a test's law the narrator has used (author, text), in order."""
    if law is None:
        return ()
    return tuple((fact.author, fact.text) for fact in law.facts if fact.narrated)


def read_attributes(lang: Lang, data: dict[str, Any]) -> Reading:
    """Six 3d6, each giving its median: every die counts, the medians are the result."""
    roll = attributes.AttributeRoll(tuple((r[0], r[1], r[2]) for r in data["rolls"]))
    faces = tuple((6, v) for dice in roll.rolls for v in dice)
    return Reading(NAME, f"{list(roll.medians)} = {roll.total}", None, faces)


def status(lang: Lang, table: Table) -> list[tuple[str, str]]:
    return [(t(lang, "mesa.estado.level"), str(board.level(table)))]


SYSTEM = Declaration(
    name=NAME,
    forgotten=(ATTRIBUTES_KIND,),
    # A test's facts wait to be narrated.
    kept=(KIND, COMBAT_KIND),
    table_pools=(GM_BANK,),
    player_pools=(BANK,),
    status=status,
    board=board.part,
    board_kinds=frozenset({KIND}),
    readers={KIND: read, ATTRIBUTES_KIND: read_attributes},
    dice={KIND: dice},
    revealers={KIND: components.narrate_revealed},
    sheet=DonjonSheet,
    live=tuple(
        Live(name, f"{SHEET_POOL_PREFIX}{name}", lambda d: contest.MAX_POOL)
        for name in ("heridas", "provisiones", "riqueza")
    ),
    panel=GAME,
    sheet_fields=sheet_card.sheet_fields,
)
