"""Dune's extended tasks: the points a test adds to a goal's track, or, from the
opposite direction, to a looming problem's.
"""

from __future__ import annotations

from rules.dune.skill_test import DuneRoll

POINTS_PER_PASS = 2


def task_points(roll: DuneRoll) -> int:
    """Points a roll adds to an extended task: 2 for a passed test, +1 per Impulso spent
    on the task, + the quality of an asset used, -1 per complication not bought off. A
    success at a price is passed ("un chequeo superado de esta forma"), as it is for a
    looming problem (:func:`opposing_task_points`); its complications take their points."""
    if not roll.passed:
        return 0
    pushed = roll.spends.count("tarea")
    return max(POINTS_PER_PASS + pushed + roll.asset_quality - roll.complications, 0)


def opposing_task_points(roll: DuneRoll) -> int:
    """Points a roll adds to a track "desde la dirección opuesta" (a looming problem), where
    "chequeos de habilidad fallidos, complicaciones o acciones peligrosas añaden puntos": a
    failed test adds 2 (the same as a pass adds to a goal), and each complication left
    standing 1. A success at a price is a pass, its complications still count."""
    failed = 0 if roll.passed else POINTS_PER_PASS
    return failed + max(roll.complications, 0)
