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
    assert posted.to_data(roll)["law"]["facts"] == [{"author": 11, "text": "El puente cede"}]
