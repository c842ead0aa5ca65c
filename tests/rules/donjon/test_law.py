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
    narrated = donjon_law.mark_narrated(law)
    with pytest.raises(RuleError):
        donjon_law.mark_narrated(narrated)


def test_facts_are_one_line_of_at_most_200_characters() -> None:
    law = donjon_law.Law(1, 9, 1)
    with pytest.raises(RuleError) as caught:
        donjon_law.narrate(law, 1, "x" * 201)
    assert caught.value.params == {"length": 201, "max": 200}
    with pytest.raises(RuleError):
        donjon_law.narrate(law, 1, " \n ")
    assert donjon_law.narrate(law, 1, "x" * 200).facts[0].text == "x" * 200
