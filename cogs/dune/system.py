"""What ``bot/`` needs from Dune (bot/systems.py): its record kinds, its pools, its board
section, how its rolls read back, the drive marks its sheets keep in pools."""

from __future__ import annotations

from typing import Any

from bot.i18n import Lang, t
from bot.models import Change
from bot.systems import Declaration, Live, Reading
from cogs.dune import board, sheet_card
from cogs.dune.forms import GAME
from cogs.dune.sheet_model import DuneDrives, DuneSheet
from cogs.dune.state import (
    AMENAZA,
    ASSET,
    ASSIST_KIND,
    DETERMINACION,
    DIFICULTAD_EXTRA,
    IMPULSO,
    KIND,
    OPPOSED_KIND,
    TASK_KIND,
    TRAIT,
    announce_revealed_task,
    challenged_pool,
    crossed_pool,
)
from rules.dune import pools, skill_test

NAME = "dune"
# A permanent asset joins the sheet's list of assets: ``/mesa deshacer`` cannot take it back.
PERMANENT_ASSET = "dune.asset.permanent"


def read(lang: Lang, data: dict[str, Any]) -> Reading:
    roll = skill_test.from_data(data)
    test = roll.test
    faces = tuple((20, v) for slot in roll.slots for v in slot.values)
    result = t(lang, "cronica.dune", successes=test.successes, difficulty=roll.difficulty)
    return Reading(NAME, result, "cronica.passed" if roll.passed else "cronica.failed", faces)


def dice(data: dict[str, Any]) -> tuple[tuple[int, int], ...]:
    """A new roll's d20s (its slots', not its helpers'), as :func:`read` gives them, from the
    stored roll without decoding it."""
    return tuple((20, v) for slot in data["slots"] for v in slot["values"])


# Recovering a drive is the GM's ("puedes solicitar al Director que permita a tu personaje
# recuperar una motivación"): a player may not edit the mark away. Nor the mark of a drive
# defied this adventure (which only a new adventure clears).
LIVE = tuple(
    Live(f"motivaciones.{drive}.{mark}", pool(drive), lambda d: 1, gm_edits=True)
    for drive in DuneDrives.model_fields
    for mark, pool in (("tachada", crossed_pool), ("desafiada", challenged_pool))
)

SYSTEM = Declaration(
    name=NAME,
    forgotten=(KIND, ASSIST_KIND, OPPOSED_KIND),
    kept=(TASK_KIND,),
    table_pools=(IMPULSO, AMENAZA, DIFICULTAD_EXTRA),
    player_pools=(DETERMINACION,),
    hideable=(AMENAZA,),
    board=board.part,
    board_kinds=frozenset({TASK_KIND, KIND}),
    readers={KIND: read},
    dice={KIND: dice},
    revealers={KIND: announce_revealed_task},
    sheet=DuneSheet,
    live=LIVE,
    file_reasons=frozenset({PERMANENT_ASSET}),
    panel=GAME,
    sheet_fields=sheet_card.sheet_fields,
    # "se pierde 1 punto de Impulso de la reserva de grupo" (never below 0); a scene's traits
    # and created assets "son temporales y dejan de existir al final de la escena".
    scene_end=(Change(IMPULSO, pools.scene_end().momentum, clamp=True),),
    scene_pools=(TRAIT, ASSET),
)
