"""Tests of ``rules.donjon.expenses``: What a Donjon test takes from the sheet: dice put in from a
characteristic, and the successes of expense and damage tests, counted against what the sheet holds."""

import pytest

from rules.donjon import expenses
from rules.errors import RuleError


def test_an_expense_spends_what_was_put_in_only_on_a_success() -> None:
    """ "Si tienes éxito … Los dados que usaste … se gastan. Si no tienes éxito, los dados no
    se gastan"; buying Provisiones adds every success, selling adds Riqueza."""
    assert expenses.expense_wants("comprar", True, 3, 2) == {"riqueza": -2}
    assert expenses.expense_wants("comprar", True, 3, 0) == {}
    assert expenses.expense_wants("comprar", False, 3, 2) == {}
    assert expenses.expense_wants("provisiones", True, 2, 6) == {"riqueza": -6, "provisiones": 2}
    assert expenses.expense_wants("objeto", True, 1, 2) == {"provisiones": -2}
    assert expenses.expense_wants("vender", True, 4, 0) == {"riqueza": 4}
    with pytest.raises(RuleError, match=r"put_in_over\.riqueza"):
        expenses.check_put_in("riqueza", 10, 3)


def test_a_sheet_takes_what_fits_between_zero_and_its_bound() -> None:
    """ "cada éxito del DJ en una Prueba de Daño resta una Herida": down to 0, never below."""
    assert expenses.damage_wants(True, 2) == {"heridas": -2}
    assert expenses.damage_wants(False, 2) == {}
    fitted = expenses.fit({"heridas": -5, "provisiones": 4}, {"heridas": 1, "provisiones": 98})
    assert fitted == (expenses.Entry("heridas", -1, -5), expenses.Entry("provisiones", 2, 4))
