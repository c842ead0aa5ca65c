"""Tests of ``rules.odds``: what the systems' odds share."""

from fractions import Fraction

import pytest

from rules import odds
from rules.errors import RuleError


def test_a_pool_past_the_limit_is_refused_with_its_name() -> None:
    odds.check_pool("dados", odds.MAX_POOL)
    with pytest.raises(RuleError, match="pool_size") as refused:
        odds.check_pool("dados", odds.MAX_POOL + 1)
    assert refused.value.params["name"] == "dados"


def test_two_distributions_convolve_into_their_sum() -> None:
    coin = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert odds.convolve(coin, coin) == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    assert odds.floats({2: Fraction(1, 4)}) == {2: 0.25}
