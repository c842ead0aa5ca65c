"""Tests of ``rules.donjon.posted``: A posted Donjon test, as stored: what kind of test, its
pools, and the Law over its successes (where the Law applies)."""

import random

from hypothesis import given
from hypothesis import strategies as st

from rules.donjon import contest, posted
from rules.donjon.contest import Contest
from rules.donjon.law import Fact, Law
from rules.donjon.posted import DonjonRoll
from tests.rules.stored import stored


@given(st.integers(0, 30), st.integers(0, 30), st.integers(2, 20), st.integers(0, 10_000))
def test_every_rolled_test_is_decided(a: int, b: int, sides: int, seed: int) -> None:
    test = contest.roll_contest(random.Random(seed), a, b, sides)
    assert test.winner in ("a", "b")
    assert test.successes >= 1
    assert posted.from_data(posted.to_data(posted.DonjonRoll("prueba", test))).test == test


def test_a_roll_stored_before_the_codec_still_loads() -> None:
    roll = posted.from_data(stored("donjon_roll"))
    law = Law(11, 11, 2, (Fact(11, "El puente cede"),), (12,))
    assert roll == DonjonRoll("prueba", Contest((20, 7, 3), (20, 5), 20), law, {"dificultad": "media"})
    assert posted.from_data(posted.to_data(roll)) == roll
    fact = {"author": 11, "text": "El puente cede", "narrated": False}
    assert posted.to_data(roll)["law"]["facts"] == [fact]


def one_flag(narrated: bool) -> dict[str, object]:
    """A roll as stored while one flag said whether all its facts were narrated."""
    law = {
        "winner_id": 11,
        "narrator_id": 0,
        "successes": 2,
        "facts": [{"author": 11, "text": "El puente cede"}, {"author": 11, "text": "Cae al río"}],
        "banked": [],
        "narrated": narrated,
    }
    test = {"a": [20, 7, 3], "b": [20, 5], "sides": 20, "extra": []}
    return {"kind": "prueba", "test": test, "law": law, "details": {}}


def test_a_roll_stored_with_one_narrated_flag_reads_as_before() -> None:
    """Narrated then: every fact narrated now; not yet: every fact waits for its own."""
    done = posted.from_data(one_flag(True)).law
    waiting = posted.from_data(one_flag(False)).law
    assert done is not None and waiting is not None
    assert (done.narrated, done.pending) == (True, ())
    assert (waiting.narrated, waiting.pending) == (False, (0, 1))
    assert [f.text for f in done.facts] == ["El puente cede", "Cae al río"]
    again = posted.to_data(posted.from_data(one_flag(True)))
    assert "narrated" not in again["law"]
    assert posted.from_data(again).law == done


def test_a_roll_stored_before_the_codec_and_narrated_reads_every_fact_narrated() -> None:
    data = stored("donjon_roll")
    data["law"]["narrated"] = True
    law = posted.from_data(data).law
    assert law is not None and law.facts == (Fact(11, "El puente cede", narrated=True),)
