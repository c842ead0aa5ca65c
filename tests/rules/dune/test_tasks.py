"""Tests of ``rules.dune.tasks``: Dune's extended tasks: the points a test adds to a goal's track,
or, from the opposite direction, to a looming problem's."""

import pytest

from rules.dune import momentum, skill_test, tasks
from rules.errors import RuleError
from tests.rules.dune.support import roll_of


def test_extended_task_points() -> None:
    roll = roll_of([1, 20], target=10, difficulty=1, task_id=1, asset_quality=1)
    assert tasks.task_points(roll) == 2 + 1 - 1
    pushed, _ = momentum.spend(roll, "tarea")
    assert tasks.task_points(pushed) == 3
    assert tasks.task_points(skill_test.ignore_complication(pushed)) == 4
    assert tasks.task_points(roll_of([15, 16], target=10, task_id=1)) == 0
    with pytest.raises(RuleError):
        momentum.spend(roll_of([1, 2]), "tarea")


def test_a_failed_test_and_its_complications_feed_an_opposing_track() -> None:
    assert tasks.opposing_task_points(roll_of([15, 20])) == 3
    assert tasks.opposing_task_points(roll_of([1, 20])) == 1
    assert tasks.opposing_task_points(roll_of([1, 2])) == 0
    assert tasks.opposing_task_points(skill_test.success_at_price(roll_of([15, 16]), 2)) == 2


def test_a_success_at_a_price_counts_as_passed_for_goal_and_looming_tasks() -> None:
    """One reading for both kinds of task (#26): "el personaje que falla un chequeo de
    habilidad aún logra su objetivo ... pero debe sufrir también una o más complicaciones",
    and the text calls it "un chequeo superado de esta forma". A goal gets its 2 points less
    each complication standing; a looming problem gets no failure, only the complications."""
    priced = skill_test.success_at_price(roll_of([15, 16]), 1)
    assert tasks.task_points(priced) == 1
    assert tasks.opposing_task_points(priced) == 1
    with_asset = skill_test.success_at_price(roll_of([15, 16], asset_quality=1), 1)
    assert tasks.task_points(with_asset) == 2
    assert tasks.task_points(skill_test.success_at_price(roll_of([15, 16]), 3)) == 0
    assert tasks.task_points(roll_of([15, 16])) == 0
