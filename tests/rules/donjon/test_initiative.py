"""Tests of ``rules.donjon.initiative``: Donjon's initiative: each combatant's pool rolled, and
the turns it gives, in order."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.donjon import initiative
from rules.donjon.initiative import Combatant, Turn


def test_the_book_initiative_example_and_its_tie_order() -> None:
    seated = [
        Combatant("robin", "Robin", False, (2, 5, 8, 10, 10, 15, 16, 18)),
        Combatant("jonathan", "Jonathan", False, (10, 13, 14, 17, 19)),
        Combatant("ron", "Ron", False, (2, 3, 10, 20)),
        Combatant("m1", "Minotauro 1", True, (5, 8, 17, 19)),
        Combatant("m2", "Minotauro 2", True, (7, 9, 10, 12)),
    ]
    turns = initiative.schedule(seated)
    at_ten = [t.name for t in turns if t.number == 10]
    assert at_ten == ["Robin", "Jonathan", "Ron", "Minotauro 2", "Robin"]
    assert [t.number for t in turns if t.key == "robin"] == [18, 16, 15, 10, 10, 8, 5, 2]
    assert [t.name for t in turns[:2]] == ["Ron", "Jonathan"]
    assert [t.name for t in turns if t.number == 19] == ["Jonathan", "Minotauro 1"]


def test_npcs_act_last_even_when_they_joined_first() -> None:
    turns = initiative.schedule([Combatant("orco", "Orco", True, (5,)), Combatant("p", "Pj", False, (5,))])
    assert [t.name for t in turns] == ["Pj", "Orco"]


def test_identical_npcs_share_one_roll_and_each_acts() -> None:
    group = Combatant("trasgos", "Trasgos", True, (12, 4), count=3)
    turns = initiative.schedule([group])
    assert [(t.number, t.member) for t in turns] == [(12, 0), (12, 1), (12, 2), (4, 0), (4, 1), (4, 2)]


def test_the_countdown_starts_at_the_die_maximum() -> None:
    turns = initiative.schedule([Combatant("p", "Pj", False, (6, 1))], sides=6)
    assert [t.number for t in turns] == [6, 1]


def countdown(combatants: list[Combatant], sides: int) -> list[Turn]:
    """The countdown read literally: every number from the die's maximum down to 1, one
    action a round round the table while anyone still shows it."""
    seated = [c for c in combatants if not c.npc] + [c for c in combatants if c.npc]
    turns: list[Turn] = []
    for number in range(sides, 0, -1):
        remaining = {c.key: c.dice.count(number) for c in seated}
        while any(remaining.values()):
            for c in seated:
                if remaining[c.key]:
                    remaining[c.key] -= 1
                    turns.extend(Turn(number, c.key, c.name, m) for m in range(c.count))
    return turns


@given(
    st.lists(st.tuples(st.booleans(), st.lists(st.integers(1, 8), max_size=6), st.integers(1, 3)), max_size=6)
)
def test_the_schedule_visits_only_the_numbers_shown_and_keeps_the_countdown(
    drawn: list[tuple[bool, list[int], int]],
) -> None:
    """Only the numbers some die shows are scheduled (a d20 countdown has twenty, a table
    shows a handful), in the same order as counting down every one of them."""
    combatants = [
        Combatant(f"c{i}", f"C{i}", npc, tuple(dice), count) for i, (npc, dice, count) in enumerate(drawn)
    ]
    assert list(initiative.schedule(combatants, 8)) == countdown(combatants, 8)


def test_a_number_no_die_shows_costs_the_schedule_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted per number shown: one die showing 20 asks its pool once, not twenty times."""
    counted: list[int] = []

    class Dice(tuple[int, ...]):
        def count(self, value: object) -> int:
            counted.append(value)  # type: ignore[arg-type]
            return super().count(value)

    initiative.schedule([Combatant("p", "P", False, Dice((20,)))])
    assert counted == [20]
