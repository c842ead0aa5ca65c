"""The cost per record of the two ways to write and read the rules' stored values: pydantic's
``TypeAdapter`` (what ``rules.codec`` uses) and one small dataclass codec of our own (below,
kept here as the measured alternative), on two real records: a Dune roll with a helper and
a spend, a D&D initiative tracker with a group of monsters, a fate and conditions.

Run: ``python bench/bench_codec.py`` (from the repository root). Each figure is the best of
seven runs of CPU time (``time.process_time``) per write and per read, in microseconds; each
codec reads the data the other wrote back to the value it started from (same shape).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import sys
import time
import types
import typing
from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dnd5e import checks, tracker
from rules.dnd5e.hit_points import HitPoints
from rules.dune import momentum, skill_test

RUNS = 7
LOOPS = 2000


def write(value: Any) -> Any:
    """The small codec's writer: dataclasses by field, tuples and sets as lists, enums by value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: write(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [write(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(write(item) for item in value)
    if isinstance(value, dict):
        return {key: write(item) for key, item in value.items()}
    return value


@functools.cache
def hints(kind: type) -> tuple[tuple[str, Any], ...]:
    resolved = typing.get_type_hints(kind)
    return tuple((f.name, resolved[f.name]) for f in dataclasses.fields(kind) if f.init)


def read(kind: Any, data: Any) -> Any:
    """The small codec's reader: by the dataclasses' type hints, a missing field defaulted."""
    if kind is Any or data is None:
        return data
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is types.UnionType or origin is typing.Union:
        return read(next(a for a in args if a is not type(None)), data)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(read(args[0], item) for item in data)
        return tuple(read(a, item) for a, item in zip(args, data, strict=True))
    if origin is frozenset:
        return frozenset(read(args[0], item) for item in data)
    if origin is dict:
        return {key: read(args[1], item) for key, item in data.items()}
    if dataclasses.is_dataclass(kind):
        return kind(**{name: read(hint, data[name]) for name, hint in hints(kind) if name in data})
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(data)
    return data


def dune_roll() -> skill_test.DuneRoll:
    rng = random.Random(7)
    roll = skill_test.roll_test(
        rng,
        12,
        dice=3,
        focus_skill=4,
        difficulty=2,
        bonus=1,
        helpers=(skill_test.HelperSpec(12, 10),),
        task_id=3,
    )
    roll, _ = momentum.spend(roll, "tarea")
    return replace(roll, extra={"motivo": "Huir"})


def dnd_tracker() -> tracker.Tracker:
    rng = random.Random(7)
    t = tracker.Tracker().join(tracker.initiative_entry(rng, "u1", "Ana", 3, user_id=11, sheet_id=5))
    goblins = tracker.initiative_entry(
        rng, "m2", "Goblin", 2, checks.Mode.ADVANTAGE, monster=True, count=4, hp=7
    )
    t = t.join(goblins).start().hurt("m2.1", HitPoints(0, 7), "r9:m2.1")
    t, _ = t.death_save("m2.1", HitPoints(0, 7), rng)
    return t.afflict("m2.2", "envenenado", 3).afflict("m2.3", "agotamiento", None)


def best_us(fn: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        for _ in range(LOOPS):
            fn()
        times.append(time.process_time() - start)
    return 1e6 * min(times) / LOOPS


def measure(name: str, value: Any) -> None:
    kind = type(value)
    adapter = TypeAdapter(kind)
    ours = write(value)
    theirs = adapter.dump_python(value, mode="json")
    assert ours == theirs
    assert read(kind, theirs) == value
    assert adapter.validate_python(ours) == value
    print(f"{name} ({len(json.dumps(ours))} bytes of JSON)")
    adapter_write = best_us(lambda: adapter.dump_python(value, mode="json"))
    adapter_read = best_us(lambda: adapter.validate_python(theirs))
    print(f"  TypeAdapter         write {adapter_write:6.1f} µs  read {adapter_read:6.1f} µs")
    codec_write, codec_read = best_us(lambda: write(value)), best_us(lambda: read(kind, ours))
    print(f"  dataclass codec     write {codec_write:6.1f} µs  read {codec_read:6.1f} µs")


def main() -> None:
    measure("Dune roll", dune_roll())
    measure("D&D tracker", dnd_tracker())


if __name__ == "__main__":
    main()
