"""Tests of ``rules.dnd5e.damage_types``: D&D 5e damage types (SRD 5.2): resistance halves,
vulnerability doubles, immunity stops it, and the GM may choose which applies when the sheet says
nothing."""

from rules.dnd5e.damage_types import Adjusted, Adjustment, Defences, adjusted

FIRE = Defences(resistances=frozenset({"fuego"}))


def test_resistance_halves_rounding_down_by_type() -> None:
    assert adjusted(25, "fuego", FIRE, Adjustment.FULL) == Adjusted(12, (Adjustment.RESISTANCE,))
    assert adjusted(25, "frio", FIRE, Adjustment.FULL) == Adjusted(25)
    assert adjusted(25, None, FIRE, Adjustment.FULL) == Adjusted(25)


def test_immunity_takes_nothing_and_vulnerability_doubles() -> None:
    assert adjusted(25, "veneno", Defences(immunities=frozenset({"veneno"})), Adjustment.FULL).amount == 0
    assert (
        adjusted(7, "radiante", Defences(vulnerabilities=frozenset({"radiante"})), Adjustment.FULL).amount
        == 14
    )


def test_a_successful_save_halves_first_then_resistance_then_vulnerability() -> None:
    """The SRD's order: 25 halved by the save is 12, by resistance 6."""
    assert adjusted(25, "fuego", FIRE, Adjustment.HALF) == Adjusted(
        6, (Adjustment.HALF, Adjustment.RESISTANCE)
    )
    both = Defences(resistances=frozenset({"fuego"}), vulnerabilities=frozenset({"fuego"}))
    assert adjusted(25, "fuego", both, Adjustment.FULL).amount == 24


def test_a_chosen_defence_counts_once_with_the_sheets() -> None:
    assert adjusted(25, "fuego", FIRE, Adjustment.RESISTANCE).amount == 12
    assert adjusted(25, None, Defences(), Adjustment.VULNERABILITY).amount == 50
    assert adjusted(25, None, Defences(), Adjustment.IMMUNITY) == Adjusted(0, (Adjustment.IMMUNITY,))


def test_the_sheets_damage_types_are_the_rules() -> None:
    from typing import get_args

    from cogs.dnd5e.sheet_model import DamageType
    from rules.dnd5e.damage_types import DAMAGE_TYPES

    assert get_args(DamageType) == DAMAGE_TYPES
