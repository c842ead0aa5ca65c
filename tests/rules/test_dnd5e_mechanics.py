"""D&D mechanics of issue 15: critical damage groups, cover on saves, tools with skills."""

import pytest

from rules import dnd5e
from rules.dnd5e import Mode
from rules.errors import RuleError
from tests.support.dice import Scripted


def test_a_critical_rolls_a_keep_highest_group_twice() -> None:
    """ "4d6kh3" on a critical is two groups of 4d6kh3, each keeping 3: not 8d6kh3."""
    assert str(dnd5e.critical_tree("4d6kh3+2")) == "(4d6kh3 + 4d6kh3) + 2"
    damage = dnd5e.roll_damage("4d6kh3", Scripted([6, 6, 6, 1, 5, 5, 5, 1]), critical=True)
    assert damage.total == 33


def test_plain_dice_still_double_their_count() -> None:
    assert str(dnd5e.critical_tree("1d8+1d6+2")) == "2d8 + 2d6 + 2"


@pytest.mark.parametrize(("cover", "bonus"), [("ninguna", 0), ("media", 2), ("tres_cuartos", 5)])
def test_cover_adds_to_dexterity_saves(cover: str, bonus: int) -> None:
    assert dnd5e.save_cover("destreza", cover) == bonus


def test_cover_is_refused_on_other_saves_and_full_cover_is_no_target() -> None:
    assert dnd5e.save_cover("sabiduria", "ninguna") == 0
    with pytest.raises(RuleError, match="cover_dexterity_only"):
        dnd5e.save_cover("sabiduria", "media")
    with pytest.raises(RuleError, match="full_cover"):
        dnd5e.save_cover("destreza", "completa")


def test_tool_and_skill_proficiency_give_advantage_and_one_bonus() -> None:
    assert dnd5e.tool_check(True, True) == (True, Mode.ADVANTAGE)
    assert dnd5e.tool_check(False, True) == (True, Mode.NORMAL)
    assert dnd5e.tool_check(True, False) == (True, Mode.NORMAL)
    assert dnd5e.tool_check(True, True, disadvantage=True) == (True, Mode.NORMAL)


def test_a_d20_test_serialises_itself_in_the_cogs_shape() -> None:
    test = dnd5e.use_inspiration(
        dnd5e.roll_attack(Scripted([4, 17]), 5, 15, Mode.ADVANTAGE), Scripted([20]), 0
    )
    data = dnd5e.roll_to_data(test)
    assert data == {
        "rolls": [[4, 20], [17]],
        "mode": "ventaja",
        "modifier": 5,
        "target": 15,
        "attack": True,
        "inspired": True,
    }
    assert dnd5e.roll_from_data(data) == test
