"""Donjon mechanics of issue 15: NPC damage pools, banked dice, the attribute dials."""

import pytest

from rules import donjon
from rules.donjon import AttributeRoll
from rules.errors import RuleError


def test_npc_damage_pool_is_attribute_and_skill_plus_banked() -> None:
    """ "el DJ tira ya sea el Atributo y Habilidad apropiados del PNJ oponente o el Nivel"."""
    assert donjon.npc_damage_dice(4, 2, 2) == 8
    assert donjon.npc_damage_dice(3) == 3
    with pytest.raises(RuleError):
        donjon.npc_damage_dice(-1)


def test_banked_dice_join_a_pool_and_leave_the_bank() -> None:
    assert donjon.with_banked(5, 2, 3) == (7, -2)
    assert donjon.with_banked(5, 0, 0) == (5, 0)
    with pytest.raises(RuleError) as refused:
        donjon.with_banked(5, 4, 3)
    assert refused.value.params == {"use": 4, "banked": 3}


def test_the_improved_player_swap_moves_one_point() -> None:
    """ "el jugador puede agregar un punto a un Atributo restándole un punto a otro"."""
    assert donjon.swap_point((3, 3, 3, 3, 3, 3), "virilidad", "sociabilidad") == (4, 3, 3, 3, 3, 2)
    with pytest.raises(RuleError, match="swap_range"):
        donjon.swap_point((6, 3, 3, 3, 3, 1), "virilidad", "aguante")
    with pytest.raises(RuleError, match="swap_same"):
        donjon.swap_point((3,) * 6, "aguante", "aguante")
    with pytest.raises(RuleError, match="bad_attribute"):
        donjon.swap_point((3,) * 6, "fuerza", "aguante")


@pytest.mark.parametrize(
    ("method", "offered"),
    [("estandar", False), ("mejorado", True), ("jugador_mejorado", True), ("eleccion", True)],
)
def test_which_methods_offer_the_reroll(method: str, offered: bool) -> None:
    low = AttributeRoll(((2, 2, 2),) * 6)
    assert donjon.offers_reroll(method, low) is offered
    assert not donjon.offers_reroll(method, AttributeRoll(((3, 3, 3),) * 6))


def test_an_expense_spends_what_was_put_in_only_on_a_success() -> None:
    """ "Si tienes éxito … Los dados que usaste … se gastan. Si no tienes éxito, los dados no
    se gastan"; buying Provisiones adds every success, selling adds Riqueza."""
    assert donjon.expense_wants("comprar", True, 3, 2) == {"riqueza": -2}
    assert donjon.expense_wants("comprar", True, 3, 0) == {}
    assert donjon.expense_wants("comprar", False, 3, 2) == {}
    assert donjon.expense_wants("provisiones", True, 2, 6) == {"riqueza": -6, "provisiones": 2}
    assert donjon.expense_wants("objeto", True, 1, 2) == {"provisiones": -2}
    assert donjon.expense_wants("vender", True, 4, 0) == {"riqueza": 4}
    with pytest.raises(RuleError, match=r"put_in_over\.riqueza"):
        donjon.check_put_in("riqueza", 10, 3)


def test_a_sheet_takes_what_fits_between_zero_and_its_bound() -> None:
    """ "cada éxito del DJ en una Prueba de Daño resta una Herida": down to 0, never below."""
    assert donjon.damage_wants(True, 2) == {"heridas": -2}
    assert donjon.damage_wants(False, 2) == {}
    fitted = donjon.fit({"heridas": -5, "provisiones": 4}, {"heridas": 1, "provisiones": 98})
    assert fitted == (donjon.Entry("heridas", -1, -5), donjon.Entry("provisiones", 2, 4))
