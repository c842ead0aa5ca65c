"""``rules.codec``: the stored shape is the dataclass's fields by name, read back exactly;
a field added later takes its default; a shape from before the codec goes to ``upgrade``."""

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import pytest
from pydantic import ValidationError

from rules.codec import Codec, build_all


class Colour(StrEnum):
    RED = "rojo"


@dataclass(frozen=True)
class Inner:
    faces: tuple[int, ...]
    marks: frozenset[Colour] = frozenset()


@dataclass(frozen=True)
class Outer:
    name: str
    inner: tuple[Inner, ...]
    colour: Colour
    pairs: tuple[tuple[str, Inner], ...] = ()
    note: int | None = None
    extra: dict[str, Any] | None = None


VALUE = Outer(
    "a", (Inner((1, 2), frozenset({Colour.RED})),), Colour.RED, (("x", Inner((3,))),), extra={"k": [1]}
)


def old_outer(data: dict[str, Any]) -> Outer | None:
    """An older shape: ``[name, colour]``."""
    if "shape" not in data:
        return None
    name, colour = data["shape"]
    return Outer(name, (), Colour(colour))


CODEC = Codec(Outer, old_outer)


def test_the_stored_shape_is_the_fields_by_name() -> None:
    assert CODEC.to_data(VALUE) == {
        "name": "a",
        "inner": [{"faces": [1, 2], "marks": ["rojo"]}],
        "colour": "rojo",
        "pairs": [["x", {"faces": [3], "marks": []}]],
        "note": None,
        "extra": {"k": [1]},
    }
    assert CODEC.from_data(CODEC.to_data(VALUE)) == VALUE


def test_a_field_the_data_lacks_takes_its_default() -> None:
    assert CODEC.from_data({"name": "b", "inner": [], "colour": "rojo"}) == Outer("b", (), Colour.RED)


def test_an_older_shape_is_read_by_the_upgrade() -> None:
    assert CODEC.from_data({"shape": ["c", "rojo"]}) == Outer("c", (), Colour.RED)


def test_data_of_the_wrong_type_is_refused_not_half_read() -> None:
    with pytest.raises(ValidationError):
        CODEC.from_data({"name": "d", "inner": [{"faces": ["uno"]}], "colour": "rojo"})
    with pytest.raises(ValidationError):
        CODEC.from_data({"name": "d", "inner": [], "colour": "azul"})


def test_codecs_of_one_type_share_one_adapter() -> None:
    assert Codec(Inner).adapter is Codec(Inner).adapter


def test_build_all_builds_every_codecs_adapter_before_its_first_use() -> None:
    made = Codec(Outer)
    assert "adapter" not in vars(made)
    assert build_all() >= 1
    assert "adapter" in vars(made)
