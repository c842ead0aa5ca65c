import random
from collections import Counter
from fractions import Fraction

import pytest

from rules import stats


class Loaded(random.Random):
    """A generator that shows the highest face a little more often than it should."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        top = (start if stop is None else stop) - 1
        return top if self.random() < 0.05 else super().randrange(start, stop, step)


@pytest.mark.parametrize(
    ("degrees", "statistic", "p"),
    [(1, 3.841459, 0.05), (5, 11.0705, 0.05), (19, 30.1435, 0.05), (99, 123.225, 0.05), (2, 0.5, 0.7788008)],
)
def test_the_p_value_matches_the_chi_square_tables(degrees: int, statistic: float, p: float) -> None:
    assert stats.upper_gamma(degrees, statistic) == pytest.approx(p, abs=2e-6)


def test_a_fair_die_is_uniform_exactly() -> None:
    assert stats.uniform(20) == {face: Fraction(1, 20) for face in range(1, 21)}
    assert sum(stats.uniform(6).values()) == 1


def throws(rng: random.Random, sides: int, n: int) -> Counter[int]:
    return Counter(rng.randrange(1, sides + 1) for _ in range(n))


def test_a_fair_seeded_generator_passes_and_a_loaded_one_is_flagged() -> None:
    fair = stats.test(20, throws(random.Random(21), 20, 20_000))
    loaded = stats.test(20, throws(Loaded(21), 20, 20_000))
    assert fair.enough and fair.fair and fair.p > 0.05
    assert loaded.enough and not loaded.fair and loaded.p < 1e-6


def test_too_few_throws_are_not_judged() -> None:
    few = stats.test(20, {20: 30})
    assert not few.enough and few.fair and few.throws == 30
    assert stats.test(6, {}).throws == 0
