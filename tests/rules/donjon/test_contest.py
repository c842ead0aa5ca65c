"""Tests of ``rules.donjon.contest``: Donjon's test: two pools of dice compared die by die ("Cómo
se juega"), ties rolled again, and the successes of the winner."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import Mark
from rules.donjon import contest
from rules.donjon.contest import Contest, compare
from tests.support.dice import Scripted


def test_book_example_one_the_gm_wins_with_two() -> None:
    # "Un jugador tira 5 dados: (4, 7, 9, 11, 12) El DJ tira 4 dados: (6, 12, 15, 18) El DJ
    # gana y los dados que sacaron 15 y 18 son éxitos"
    result = compare([4, 7, 9, 11, 12], [6, 12, 15, 18])
    assert (result.winner, result.successes) == ("b", 2)
    assert [d.value for d in result.b if d.has(Mark.SUCCESS)] == [18, 15]


def test_book_example_two_ties_count_for_the_winner() -> None:
    # "(3, 11, 12, 13, 15) ... (5, 8, 10, 13, 15) El jugador gana con cuatro éxitos."
    result = compare([3, 11, 12, 13, 15], [5, 8, 10, 13, 15])
    assert (result.winner, result.successes, result.tied_pairs) == ("a", 4, 2)
    assert [d.value for d in result.a if d.has(Mark.SUCCESS)] == [15, 13, 12, 11]
    assert [d.value for d in result.b if d.has(Mark.TIED)] == [15, 13]


def test_book_example_three_nine_dice_against_eight() -> None:
    result = compare([19, 18, 15, 14, 11, 11, 6, 5, 1], [19, 18, 12, 10, 10, 9, 8, 6])
    assert (result.winner, result.successes) == ("a", 4)


def test_book_example_buying_provisions_scores_two() -> None:
    # "Robin: 3, 6, 9, 10, 12, 14, 17, 20 DJ: 2, 7, 8, 11, 14, 15, 16 Robin consigue dos éxitos"
    result = compare([3, 6, 9, 10, 12, 14, 17, 20], [2, 7, 8, 11, 14, 15, 16])
    assert (result.winner, result.successes) == ("a", 2)


def test_a_side_that_runs_out_loses_and_every_remaining_die_counts() -> None:
    result = compare([15, 9, 3], [15])
    assert (result.winner, result.successes) == ("a", 3)
    assert compare([4], []).successes == 1
    assert compare([], [2, 1]).winner == "b"


def test_a_full_tie_is_no_winner() -> None:
    result = compare([7, 3], [7, 3])
    assert (result.winner, result.successes, result.tied_pairs) == (None, 0, 2)
    assert compare([], []).winner is None


def test_a_full_tie_adds_one_die_a_side_and_keeps_the_tied_pairs() -> None:
    test = contest.settle(Scripted([5, 5, 9, 2]), Contest((7, 3), (7, 3)))
    assert test.extra == ((5, 5), (9, 2))
    assert (test.winner, test.successes) == ("a", 2 + 1 + 1)


def test_roll_test_uses_the_generator_in_order() -> None:
    test = contest.roll_contest(Scripted([10, 4, 10, 4, 2, 1]), 2, 2)
    assert (test.a, test.b, test.extra) == ((10, 4), (10, 4), ((2, 1),))
    assert (test.winner, test.successes) == ("a", 3)


pools = st.lists(st.integers(1, 6), max_size=8)


@given(pools, pools)
def test_compare_is_symmetric_and_bounded(a: list[int], b: list[int]) -> None:
    ab, ba = compare(a, b, 6), compare(b, a, 6)
    flipped = {"a": "b", "b": "a", None: None}[ab.winner]
    assert ba.winner == flipped
    assert ab.successes == ba.successes
    if ab.winner is not None:
        assert 1 <= ab.successes <= len(a if ab.winner == "a" else b)


def test_a_contest_is_compared_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its winner, its successes and its card each ask for the first comparison."""
    calls: list[object] = []
    monkeypatch.setattr(contest, "compare", lambda *a: calls.append(a) or compare(*a))
    test = Contest((5, 3), (5, 1))
    assert (test.winner, test.successes, test.first.tied_pairs) == ("a", 2, 1)
    assert len(calls) == 1


def test_a_contest_with_a_winner_is_settled_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settling asks whether the contest is a full tie: one that is not comes back as it
    was, its comparison made once and kept with it."""
    calls: list[object] = []
    monkeypatch.setattr(contest, "compare", lambda *a: calls.append(a) or compare(*a))
    test = Contest((6, 2), (4,))
    settled = contest.settle(Scripted([]), test)
    assert (settled, settled.winner, settled.successes) == (test, "a", 1)
    assert len(calls) == 1
