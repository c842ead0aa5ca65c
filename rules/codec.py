"""One codec for every value the rules store: a frozen dataclass to JSON data and back.

Pydantic's ``TypeAdapter`` does the work from the dataclass's own type hints: an object of
its fields by name (nested dataclasses the same way), tuples and sets as lists, enums as
their values; a field missing from the data takes its default, so a record written before
a field existed still loads, and data of the wrong type is refused rather than half read.
A shape stored before this codec (positional lists, other key names) is read by the
type's ``upgrade``. Why pydantic rather than a codec of our own:
docs/decisiones.md ("Un códec para todo lo que guardan las reglas").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter

T = TypeVar("T")


# The adapters made, by type: one per type, however many codecs read it (six codecs read
# a roll's ``Asked``).
_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _adapter(kind: type[T]) -> TypeAdapter[T]:
    adapter: TypeAdapter[T] | None = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    return adapter


class Codec(Generic[T]):
    """How one stored type is written and read. ``upgrade`` reads a shape stored before
    this codec (positional lists, other keys) into the value, or answers None for data in
    today's shape."""

    def __init__(self, kind: type[T], upgrade: Callable[[dict[str, Any]], T | None] | None = None) -> None:
        self.kind, self.upgrade = kind, upgrade
        _MADE.append(self)

    @functools.cached_property
    def adapter(self) -> TypeAdapter[T]:
        """Built on first use, when every class the type's hints name is defined."""
        return _adapter(self.kind)

    def to_data(self, value: T) -> dict[str, Any]:
        data: dict[str, Any] = self.adapter.dump_python(value, mode="json")
        return data

    def from_data(self, data: dict[str, Any]) -> T:
        old = self.upgrade(data) if self.upgrade else None
        return old if old is not None else self.adapter.validate_python(data)


# Every codec made, for :func:`build_all`: the modules make theirs once, at import.
_MADE: list[Codec[Any]] = []


def build_all() -> int:
    """Build every codec's adapter now. Pydantic builds a type's schema in milliseconds;
    built on first use, that was the first roll of each system in the middle of play, every
    interaction then in flight waiting on it. Returns how many codecs there are."""
    for made in _MADE:
        made.adapter  # noqa: B018 (built and kept by cached_property)
    return len(_MADE)
