"""``rules.donjon.posted`` on exact dice. A posted Donjon test, as stored: what kind of test, its
pools, and the Law over its successes (where the Law applies)."""

import random

from hypothesis import given
from hypothesis import strategies as st

from rules.donjon import contest, posted


@given(st.integers(0, 30), st.integers(0, 30), st.integers(2, 20), st.integers(0, 10_000))
def test_every_rolled_test_is_decided(a: int, b: int, sides: int, seed: int) -> None:
    test = contest.roll_contest(random.Random(seed), a, b, sides)
    assert test.winner in ("a", "b")
    assert test.successes >= 1
    assert posted.from_data(posted.to_data(posted.DonjonRoll("prueba", test))).test == test
