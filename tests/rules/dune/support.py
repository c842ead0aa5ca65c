"""Helpers the tests of ``rules.dune`` share."""

from rules.dune.skill_test import DuneRoll
from rules.dune.successes import Slot


def roll_of(values: list[int], target: int = 10, **kwargs: object) -> DuneRoll:
    fields = {"focus_skill": None, "complication_range": 1, "difficulty": 1} | kwargs
    return DuneRoll(target=target, slots=tuple(Slot((v,)) for v in values), **fields)  # type: ignore[arg-type]
