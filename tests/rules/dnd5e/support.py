"""Helpers the tests of ``rules.dnd5e`` share."""

from rules.dnd5e.conditions import Why


def effects(whys: tuple[Why, ...]) -> set[tuple[str, str, str]]:
    return {(w.whose, w.condition, w.effect.value) for w in whys}
