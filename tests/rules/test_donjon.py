"""Donjon rules on exact dice, with the book's worked examples (``../shared/reglas/donjon.txt``)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import donjon
from rules.dice import Mark
from rules.donjon import Combatant, Contest, compare
from rules.errors import RuleError
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
    test = donjon.settle(Scripted([5, 5, 9, 2]), Contest((7, 3), (7, 3)))
    assert test.extra == ((5, 5), (9, 2))
    assert (test.winner, test.successes) == ("a", 2 + 1 + 1)


def test_roll_test_uses_the_generator_in_order() -> None:
    test = donjon.roll_contest(Scripted([10, 4, 10, 4, 2, 1]), 2, 2)
    assert (test.a, test.b, test.extra) == ((10, 4), (10, 4), ((2, 1),))
    assert (test.winner, test.successes) == ("a", 3)


@pytest.mark.parametrize(
    ("difficulty", "level", "dice"),
    [
        ("facil", 0, 0),
        ("media", 1, 4),
        ("media", 10, 13),
        ("dificil", 2, 8),
        ("muy_dificil", 0, 9),
        ("desquiciada", 3, 15),
    ],
)
def test_unopposed_difficulty_dice(difficulty: str, level: int, dice: int) -> None:
    assert donjon.difficulty_dice(difficulty, level) == dice


def test_damage_dice_are_level_severity_and_banked_successes() -> None:
    # "el DJ tira 7 dados (el Nivel del donjon, 2, más 3 por daño Medio, más los 2 dados de bonificación)"
    assert donjon.damage_dice(2, gm_bonus=2) == 7
    assert donjon.damage_dice(2, "dificil") == 8


def test_provisions_table() -> None:
    assert donjon.provisions_dice(0, item_skill=2) == 5  # la ganzúa de Azar
    assert donjon.provisions_dice(2) == 5  # la botella de Zoe
    assert donjon.provisions_dice(4, item_skill=2) == 7  # Valor y Habilidad no se suman
    assert donjon.provisions_dice(1, unusual=True) == 7
    with pytest.raises(RuleError):
        donjon.provisions_dice(0, item_skill=5)


def test_the_book_initiative_example_and_its_tie_order() -> None:
    seated = [
        Combatant("robin", "Robin", False, (2, 5, 8, 10, 10, 15, 16, 18)),
        Combatant("jonathan", "Jonathan", False, (10, 13, 14, 17, 19)),
        Combatant("ron", "Ron", False, (2, 3, 10, 20)),
        Combatant("m1", "Minotauro 1", True, (5, 8, 17, 19)),
        Combatant("m2", "Minotauro 2", True, (7, 9, 10, 12)),
    ]
    turns = donjon.schedule(seated)
    at_ten = [t.name for t in turns if t.number == 10]
    assert at_ten == ["Robin", "Jonathan", "Ron", "Minotauro 2", "Robin"]
    assert [t.number for t in turns if t.key == "robin"] == [18, 16, 15, 10, 10, 8, 5, 2]
    assert [t.name for t in turns[:2]] == ["Ron", "Jonathan"]
    assert [t.name for t in turns if t.number == 19] == ["Jonathan", "Minotauro 1"]


def test_npcs_act_last_even_when_they_joined_first() -> None:
    turns = donjon.schedule([Combatant("orco", "Orco", True, (5,)), Combatant("p", "Pj", False, (5,))])
    assert [t.name for t in turns] == ["Pj", "Orco"]


def test_identical_npcs_share_one_roll_and_each_acts() -> None:
    group = Combatant("trasgos", "Trasgos", True, (12, 4), count=3)
    turns = donjon.schedule([group])
    assert [(t.number, t.member) for t in turns] == [(12, 0), (12, 1), (12, 2), (4, 0), (4, 1), (4, 2)]


def test_the_countdown_starts_at_the_die_maximum() -> None:
    turns = donjon.schedule([Combatant("p", "Pj", False, (6, 1))], sides=6)
    assert [t.number for t in turns] == [6, 1]


def test_attributes_are_medians_in_order() -> None:
    # Fiera Corazón-Grueso: 1,5,6=5  1,2,2=2  4,4,4=4  2,5,5=5  3,4,6=4  1,1,6=1
    faces = [1, 5, 6, 1, 2, 2, 4, 4, 4, 2, 5, 5, 3, 4, 6, 1, 1, 6]
    roll = donjon.roll_attributes(Scripted(faces))
    assert roll.medians == (5, 2, 4, 5, 4, 1)
    assert (roll.total, roll.may_reroll) == (21, False)
    low = donjon.roll_attributes(Scripted([1, 2, 3] * 6))
    assert (low.total, low.may_reroll) == (12, True)


def test_the_21_point_method() -> None:
    donjon.check_point_buy([2, 3, 6, 5, 3, 2])
    for scores, key in [
        ([2, 3, 6, 5, 3, 3], "donjon.points_total"),
        ([0, 3, 6, 6, 3, 3], "donjon.points_range"),
        ([7, 3, 3, 3, 3, 2], "donjon.points_range"),
        ([3, 3, 3], "donjon.points_count"),
    ]:
        with pytest.raises(RuleError) as caught:
            donjon.check_point_buy(scores)
        assert caught.value.key == key


def test_the_law_of_successes() -> None:
    law = donjon.Law(winner_id=1, narrator_id=9, successes=3)
    law = donjon.narrate(law, 1, "  Ve un pequeño   grupo de orcos ")
    law = donjon.narrate(law, 1, "Están intentando encender un fuego")
    law = donjon.bank(law, 1)
    assert law.facts[0].text == "Ve un pequeño grupo de orcos"
    assert (law.left, law.allocated, law.banked) == (0, True, (1,))
    with pytest.raises(RuleError) as caught:
        donjon.bank(law, 2)
    assert caught.value.key == "donjon.no_success_left"
    narrated = donjon.mark_narrated(law)
    with pytest.raises(RuleError):
        donjon.mark_narrated(narrated)


def test_facts_are_one_line_of_at_most_200_characters() -> None:
    law = donjon.Law(1, 9, 1)
    with pytest.raises(RuleError) as caught:
        donjon.narrate(law, 1, "x" * 201)
    assert caught.value.params == {"length": 201, "max": 200}
    with pytest.raises(RuleError):
        donjon.narrate(law, 1, " \n ")
    assert donjon.narrate(law, 1, "x" * 200).facts[0].text == "x" * 200


def test_pools_are_bounded() -> None:
    with pytest.raises(RuleError):
        donjon.roll_contest(random.Random(1), 101, 1)
    with pytest.raises(RuleError):
        donjon.roll_contest(random.Random(1), 1, 1, sides=1)
    with pytest.raises(RuleError):
        donjon.difficulty_dice("imposible", 1)


pools = st.lists(st.integers(1, 6), max_size=8)


@given(pools, pools)
def test_compare_is_symmetric_and_bounded(a: list[int], b: list[int]) -> None:
    ab, ba = compare(a, b, 6), compare(b, a, 6)
    flipped = {"a": "b", "b": "a", None: None}[ab.winner]
    assert ba.winner == flipped
    assert ab.successes == ba.successes
    if ab.winner is not None:
        assert 1 <= ab.successes <= len(a if ab.winner == "a" else b)


@given(st.integers(0, 30), st.integers(0, 30), st.integers(2, 20), st.integers(0, 10_000))
def test_every_rolled_test_is_decided(a: int, b: int, sides: int, seed: int) -> None:
    test = donjon.roll_contest(random.Random(seed), a, b, sides)
    assert test.winner in ("a", "b")
    assert test.successes >= 1
    assert donjon.from_data(donjon.to_data(donjon.DonjonRoll("prueba", test))).test == test
