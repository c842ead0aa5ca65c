import contextlib
import random
import string

import d20
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import render
from rules.dice import MAX_EXPRESSION_LENGTH, Mark
from rules.errors import RuleError
from rules.expression import normalize, parse, roll_expression
from tests.support.dice import Scripted


class Refuses(random.Random):
    def randrange(self, *args: int) -> int:  # type: ignore[override]
        raise AssertionError("nothing may be rolled")


def faces(seed: int, sides: int, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(sides) + 1 for _ in range(count)]


def test_seeded_expression_is_exact() -> None:
    roll = roll_expression("1d20+5", random.Random(11))
    assert roll.total == faces(11, 20, 1)[0] + 5
    assert roll.expression == "1d20 + 5"


def test_keep_highest_marks_the_dropped_die() -> None:
    values = faces(3, 6, 4)
    roll = roll_expression("4d6kh3", random.Random(3))
    assert [d.value for d in roll.dice] == values
    assert roll.total == sum(sorted(values)[1:])
    assert sum(d.has(Mark.DROPPED) for d in roll.dice) == 1
    assert min(roll.dice, key=lambda d: (d.kept, d.value)).value == min(values)


def test_reroll_once_marks_the_replaced_value() -> None:
    for seed in range(200):
        roll = roll_expression("2d6ro1", random.Random(seed))
        rerolled = [d for d in roll.dice if d.has(Mark.REROLLED)]
        if rerolled:
            assert all(d.value == 1 for d in rerolled)
            assert roll.total == sum(d.value for d in roll.dice if d.kept)
            return
    pytest.fail("no seed rerolled a 1")


def test_bang_explodes_on_the_maximum() -> None:
    assert normalize("8d6!") == "8d6e6"
    for seed in range(100):
        roll = roll_expression("8d6!", random.Random(seed))
        exploded = [d for d in roll.dice if d.has(Mark.EXPLODED)]
        assert all(d.value == 6 for d in exploded)
        assert len(roll.dice) == 8 + len(exploded)
        assert roll.total == sum(d.value for d in roll.dice)


def test_advantage_rolls_two_d20_and_keeps_the_highest() -> None:
    roll = roll_expression("1d20+2", random.Random(5), d20.AdvType.ADV)
    a, b = faces(5, 20, 2)
    assert roll.total == max(a, b) + 2
    assert len(roll.dice) == 2


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("1000000d1000000", "dice.too_many"),
        ("101d6", "dice.too_many"),
        ("1d1", "dice.bad_sides"),
        ("1d1001", "dice.bad_sides"),
        ("1d%", "dice.percentile"),
        ("", "expr.empty"),
        ("   ", "expr.empty"),
        ("1" * (MAX_EXPRESSION_LENGTH + 1), "expr.too_long"),
        ("1d", "expr.syntax"),
        ("hola", "expr.syntax"),
        ("@everyone", "expr.syntax"),
        ("1d20 # comentario", "expr.syntax"),
        ("+".join(["100d6"] * 11), "expr.too_many_rolls"),
    ],
)
def test_refusals_happen_before_any_die_is_rolled(text: str, key: str) -> None:
    with pytest.raises(RuleError) as caught:
        roll_expression(text, Refuses())
    assert caught.value.key == key


def test_value_errors_are_typed() -> None:
    with pytest.raises(RuleError) as caught:
        roll_expression("1d6/0", random.Random(1))
    assert caught.value.key == "expr.value"


def test_runaway_explosions_are_bounded() -> None:
    with pytest.raises(RuleError) as caught:
        roll_expression("1d6e>0", random.Random(1))
    assert caught.value.key == "expr.too_many_rolls"


def test_d20_cannot_roll_with_a_global_generator() -> None:
    with pytest.raises(RuntimeError):
        d20.roll("1d20")


def test_parse_checks_without_rolling() -> None:
    assert str(parse("2d6+3")) == "2d6 + 3"


DICE_ALPHABET = string.digits + "dkhlrpoaemi!<>+-*/%(),. "


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=DICE_ALPHABET, max_size=MAX_EXPRESSION_LENGTH))
def test_dice_like_text_only_ever_raises_typed_errors(text: str) -> None:
    try:
        roll = roll_expression(text, random.Random(0))
    except RuleError:
        return
    assert isinstance(roll.total, int)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_only_ever_raises_typed_errors(text: str) -> None:
    with contextlib.suppress(RuleError):
        roll_expression(text, random.Random(0))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 100), st.integers(2, 1000), st.sampled_from(["", "kh1", "kl1", "ro1", "e6", "mi2"]))
def test_valid_pools_roll_within_their_bounds(count: int, sides: int, op: str) -> None:
    try:
        roll = roll_expression(f"{count}d{sides}{op}", random.Random(count * sides))
    except RuleError as error:
        assert error.key == "expr.too_many_rolls"
        return
    assert all(1 <= d.value <= sides for d in roll.dice)


@pytest.mark.parametrize("text", ["1d20+5", "2d20kh1+7", "2d20kl1", "1d20", "2d20", "4d6kh3+2", "5+1d20"])
def test_crit_is_d20s_own_rule(text: str) -> None:
    """Worked out on first use, the crit must say what d20's RollResult.crit says."""
    seen = set()
    for seed in range(400):
        roll = roll_expression(text, random.Random(seed))
        assert roll.crit == d20.RollResult(None, roll.tree, None).crit  # type: ignore[arg-type]
        seen.add(roll.crit)
    if text in ("1d20+5", "2d20kh1+7", "1d20"):
        assert seen == {d20.CritType.NONE, d20.CritType.CRIT, d20.CritType.FAIL}


def test_the_same_text_rolls_differently_each_time() -> None:
    """Parsing once per text must not freeze a result: only the tree is kept."""
    rng = random.Random(2)
    totals = {roll_expression("3d20", rng).total for _ in range(50)}
    assert len(totals) > 10


def test_d20_still_has_the_roller_internals_we_override() -> None:
    """``rules.expression._Roller`` replaces d20's ``_eval_dice`` and calls its ``_eval`` and
    ``RollContext.count_roll``: an upgrade renaming them fails here, not in a roll."""
    assert callable(getattr(d20.Roller, "_eval_dice", None))
    assert callable(getattr(d20.Roller, "_eval", None))
    assert callable(getattr(d20.RollContext, "count_roll", None))


def test_every_die_inside_a_dropped_element_is_dropped() -> None:
    """``(1d6,1d8)kh1`` keeps one element: the other's dice are dropped, marked and struck,
    and the dice shown kept add up to the total."""
    roll = roll_expression("(1d6,1d8)kh1", Scripted([4, 7]))
    assert roll.total == 7
    assert [(d.value, d.kept) for d in roll.dice] == [(4, False), (7, True)]
    assert render.expression(roll.tree) == "(1d6 (~~4~~), 1d8 (**7**))kh1"
    mixed = roll_expression("(2d6+3,1d20)kh1", Scripted([6, 5, 2]))
    assert mixed.total == 14
    assert render.expression(mixed.tree) == "(2d6 (**6**, **5**) + 3, 1d20 (~~2~~))kh1"
    literals = roll_expression("(1,2,3)kh1", Scripted([]))
    assert render.expression(literals.tree) == "(~~1~~, ~~2~~, 3)kh1"


def test_a_forced_value_is_marked_and_the_face_rolled_counted() -> None:
    """``mi``/``ma`` put a die at a value it did not roll: the face rolled is shown struck,
    the value forced pinned, and only the face rolled counts as rolled."""
    roll = roll_expression("2d6mi3", Scripted([1, 5]))
    assert roll.total == 8
    assert [(d.value, d.kept, d.has(Mark.FIXED)) for d in roll.dice] == [
        (1, False, False),
        (3, True, True),
        (5, True, False),
    ]
    assert render.expression(roll.tree) == "2d6mi3 (~~1~~, **3**📌, **5**)"
    assert [(d.sides, d.value) for d in roll.rolled] == [(6, 1), (6, 5)]


def test_annotations_keep_what_the_player_wrote() -> None:
    """The text inside ``[…]`` is the player's: its case stays, and ``!`` is read as an
    explosion only on dice outside annotations, never in ``!=``."""
    fire = roll_expression("1D8[Fuego] + 2d6! [Daño 1d6!]", Scripted([3, 2, 4]))
    assert fire.expression == "1d8 [Fuego] + 2d6e6 [Daño 1d6!]"
    assert render.expression(fire.tree) == "1d8 (**3**) [Fuego] + 2d6e6 (**2**, **4**) [Daño 1d6!]"
    assert normalize("1d6!=3") == "1d6!=3"
    unequal = roll_expression("1d6!=3", Scripted([4]))
    assert unequal.total == 1 and unequal.expression == "1d6 != 3"


def test_an_annotation_is_the_one_written_whatever_was_parsed_before() -> None:
    """d20 caches its parses by the text without spaces, so ``1d6 [ab]`` and ``1d6 [a b]``
    are one entry there; ours are keyed on the exact text."""
    assert roll_expression("1d6 [ab]", Scripted([2])).expression == "1d6 [ab]"
    spaced = roll_expression("1d6 [a b]", Scripted([2]))
    assert spaced.expression == "1d6 [a b]"
    assert render.expression(spaced.tree) == "1d6 (**2**) [a b]"
