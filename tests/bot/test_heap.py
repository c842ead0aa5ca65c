"""``bot.heap.settle``: start-up's garbage collected, the rest frozen, CLDR data read."""

from __future__ import annotations

import gc
import weakref

import babel.localedata
import pytest

from bot import heap, i18n
from rules.dune.skill_test import ROLLS


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_settle_frees_start_ups_garbage_then_freezes_the_rest(thawed: None) -> None:
    cycle = Node()
    gone = weakref.ref(cycle)
    gc.collect()  # the cycle is old now: only a full collection frees it
    del cycle
    kept = Node()

    frozen = heap.settle()

    assert gone() is None
    assert frozen == gc.get_freeze_count() > 0
    assert gc.is_tracked(kept) and not any(kept is o for o in gc.get_objects(generation=2))


def test_settle_reads_each_languages_cldr_data_before_play(
    thawed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    i18n._locale.cache_clear()
    i18n._plural_category.cache_clear()
    monkeypatch.setattr(babel.localedata, "_cache", {})
    monkeypatch.setattr(babel.localedata, "_dict_cache", {})
    heap.settle()

    def read(*args: object, **kwargs: object) -> None:
        raise AssertionError("CLDR data read during play")

    monkeypatch.setattr(babel.localedata, "load", read)
    assert [i18n.plural_category(lang, 2) for lang in i18n.LANGS] == ["other", "other"]


def test_settle_builds_every_codecs_schema_before_play(thawed: None) -> None:
    """A codec's pydantic schema, built at its first roll, held the loop for milliseconds."""
    ROLLS.__dict__.pop("adapter", None)
    heap.settle()
    assert "adapter" in vars(ROLLS)


def test_settle_collects_young_objects_less_often(thawed: None) -> None:
    gc.set_threshold(700, 10, 10)
    heap.settle()
    assert gc.get_threshold() == (heap.YOUNG_THRESHOLD, 10, 10)
