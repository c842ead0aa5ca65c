"""What ``bot/`` needs from D&D 5e (bot/systems.py): its record kinds, Inspiración, its
board section, how its rolls read back, the hit points its sheets keep in pools."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.i18n import Lang
from bot.readers import expression, expression_dice
from bot.systems import Declaration, Live, Reading
from cogs.dnd5e import board, sheet_card
from cogs.dnd5e.forms import GAME
from cogs.dnd5e.foundry import FOUNDRY
from cogs.dnd5e.sheet_model import DndSheet
from cogs.dnd5e.state import COMBAT_KIND, EXPRESSION_KIND, GRANT_KIND, INSPIRATION, KIND
from rules.dnd5e import checks

NAME = board.SYSTEM
# The most temporary hit points a sheet holds.
MAX_TEMPORARY = 999


def read(lang: Lang, data: dict[str, Any]) -> Reading:
    test = checks.roll_from_data(data["test"])
    faces = tuple((20, v) for roll in test.rolls for v in roll)
    verdict = None
    if test.success is not None:
        verdict = "cronica.passed" if test.success else "cronica.failed"
    return Reading(NAME, str(test.total), verdict, faces)


def dice(data: dict[str, Any]) -> tuple[tuple[int, int], ...]:
    """A new test's d20s, each with its history (a die rerolled by inspiration counts both
    faces), as :func:`read` gives them, from the stored test without decoding it."""
    return tuple((20, v) for roll in data["test"]["rolls"] for v in roll)


def read_expression(lang: Lang, data: dict[str, Any]) -> Reading:
    """``/dnd tirar`` keeps its dice and total as ``/tirar`` does; its dice are D&D's."""
    return replace(expression(lang, data), system=NAME)


SYSTEM = Declaration(
    name=NAME,
    forgotten=(KIND, EXPRESSION_KIND),
    kept=(COMBAT_KIND, GRANT_KIND),
    player_pools=(INSPIRATION,),
    board=board.part,
    board_kinds=frozenset({COMBAT_KIND}),
    board_sheets=True,
    hit_points=True,
    readers={KIND: read, EXPRESSION_KIND: read_expression},
    dice={KIND: dice, EXPRESSION_KIND: expression_dice},
    sheet=DndSheet,
    importers=(FOUNDRY,),
    live=(
        Live("pg.actuales", "ficha_pg", lambda d: int(d["pg"]["maximos"])),
        Live("pg.temporales", "ficha_pg_temp", lambda d: MAX_TEMPORARY),
    ),
    panel=GAME,
    sheet_fields=sheet_card.sheet_fields,
)
