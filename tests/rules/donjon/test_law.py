"""Tests of ``rules.donjon.law``: The Ley de los Éxitos: "1 éxito = 1 hecho o 1 dado". The winner
of a test narrates a fact, or banks a die, for each success."""

import pytest

from rules.donjon import law as donjon_law
from rules.errors import RuleError


def test_the_law_of_successes() -> None:
    law = donjon_law.Law(winner_id=1, narrator_id=9, successes=3)
    law = donjon_law.narrate(law, 1, "  Ve un pequeño   grupo de orcos ")
    law = donjon_law.narrate(law, 1, "Están intentando encender un fuego")
    law = donjon_law.bank(law, 1)
    assert law.facts[0].text == "Ve un pequeño grupo de orcos"
    assert (law.left, law.allocated, law.banked) == (0, True, (1,))
    with pytest.raises(RuleError) as caught:
        donjon_law.bank(law, 2)
    assert caught.value.key == "donjon.no_success_left"
    narrated = donjon_law.mark_all_narrated(law)
    assert narrated.narrated
    with pytest.raises(RuleError):
        donjon_law.mark_all_narrated(narrated)


def test_facts_are_one_line_of_at_most_200_characters() -> None:
    law = donjon_law.Law(1, 9, 1)
    with pytest.raises(RuleError) as caught:
        donjon_law.narrate(law, 1, "x" * 201)
    assert caught.value.params == {"length": 201, "max": 200}
    with pytest.raises(RuleError):
        donjon_law.narrate(law, 1, " \n ")
    assert donjon_law.narrate(law, 1, "x" * 200).facts[0].text == "x" * 200


def told(*texts: str) -> donjon_law.Law:
    """A Law with every success told as a fact, in order."""
    law = donjon_law.Law(winner_id=1, narrator_id=9, successes=len(texts))
    for text in texts:
        law = donjon_law.narrate(law, 1, text)
    return law


def test_each_fact_is_narrated_by_itself() -> None:
    """The book's Azar: three facts, which the GM uses one by one ("asegurándose de utilizar
    todos los hechos del jugador")."""
    law = told("La puerta tiene una inscripción demoníaca", "Está en la pared norte", "Hay una llave")
    assert (law.pending, law.narrated) == ((0, 1, 2), False)
    law = donjon_law.mark_narrated(law, 1)
    assert [f.narrated for f in law.facts] == [False, True, False]
    assert (law.pending, law.narrated) == ((0, 2), False)
    with pytest.raises(RuleError) as caught:
        donjon_law.mark_narrated(law, 1)
    assert (caught.value.key, caught.value.params) == ("donjon.fact_already_narrated", {"fact": 2})
    law = donjon_law.mark_narrated(donjon_law.mark_narrated(law, 2), 0)
    assert (law.pending, law.narrated) == ((), True)
    with pytest.raises(RuleError) as gone:
        donjon_law.mark_all_narrated(law)
    assert gone.value.key == "donjon.already_narrated"


def test_a_fact_is_narrated_only_once_every_success_is_spent_and_only_if_it_exists() -> None:
    law = donjon_law.narrate(donjon_law.Law(1, 9, 2), 1, "Ratas saltan de la basura")
    with pytest.raises(RuleError) as early:
        donjon_law.mark_narrated(law, 0)
    assert (early.value.key, early.value.params) == ("donjon.not_allocated", {"left": 1})
    law = donjon_law.bank(law, 1)
    for position in (-1, 1):
        with pytest.raises(RuleError) as missing:
            donjon_law.mark_narrated(law, position)
        assert (missing.value.key, missing.value.params) == ("donjon.no_such_fact", {"fact": position + 1})
    assert donjon_law.mark_narrated(law, 0).narrated


def test_the_old_button_narrates_what_is_left() -> None:
    law = donjon_law.mark_narrated(told("Azar cae", "Ratas saltan"), 0)
    assert donjon_law.mark_all_narrated(law).pending == ()


def test_a_law_without_facts_has_nothing_narrated() -> None:
    law = donjon_law.bank(donjon_law.Law(1, 9, 1), 1)
    assert (law.pending, law.narrated) == ((), False)
