import contextlib
import random
import re
import string
from collections.abc import Callable

import d20
import d20.expression as d20_expression
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import render
from rules.dice import MAX_EXPRESSION_LENGTH, Mark
from rules.errors import RuleError
from rules.expression import _REFUSE, flatten, normalize, parse, roll_expression
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


@pytest.mark.parametrize("text", ["6d6rr<4", "10d6ro<4", "8d6rol4", "10d6e6rr<3"])
def test_one_seed_rerolls_the_same_dice_every_time(text: str) -> None:
    """Several dice rerolled take the generator's draws in the dice's order, so one seed is
    one roll (d20 walks them as a set, in its objects' addresses' order: with seed 7, each
    of these varied over 100 rolls before)."""
    rolls = {tuple(map(tuple, roll_expression(text, random.Random(7)).faces)) for _ in range(100)}
    assert len(rolls) == 1


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
    assert callable(getattr(d20.Roller, "_eval_operatedset", None))
    assert callable(getattr(d20.RollContext, "count_roll", None))


def test_a_keep_selects_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``4d6kh3`` selects its three highest once, not once for every die it keeps (d20's
    own ``keep``); the die dropped is the lowest, the total the other three."""
    selects = []
    select = d20_expression.SetOperator.select

    def counted(self: d20_expression.SetOperator, *args: object, **kwargs: object) -> object:
        selects.append(self.op)
        return select(self, *args, **kwargs)

    monkeypatch.setattr(d20_expression.SetOperator, "select", counted)
    roll = roll_expression("4d6kh3", Scripted([2, 5, 1, 6]))
    assert selects == ["k"]
    assert roll.total == 13 and [d.kept for d in roll.dice] == [True, True, False, True]


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
    assert roll.faces == [[6, 1], [6, 5]]
    twice = roll_expression("1d6mi3mi5", Scripted([1]))
    assert render.expression(twice.tree) == "1d6mi3mi5 (~~1~~, ~~3~~📌, **5**📌)"
    assert twice.faces == [[6, 1]]


@pytest.mark.parametrize(
    "text",
    ["2d20kh1+4", "4d6kh3", "8d6e6", "2d6ro1mi2", "(1d6,1d8)kh1+1d4", "3d6rr1pl2ma5", "-1d4*2", "1d6mi3mi5"],
)
def test_the_faces_kept_for_the_statistics_are_the_dice_not_forced(text: str) -> None:
    """A roll's stored faces are its dice's in order, each ``[sides, value]``, leaving out
    only the values ``mi``/``ma`` forced: read straight from the tree, they must be the
    same as the dice with their marks say."""
    for seed in range(40):
        roll = roll_expression(text, random.Random(seed))
        assert roll.faces == [[d.sides, d.value] for d in roll.dice if not d.has(Mark.FIXED)]


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


# -- the differential test: ours against raw d20, with the same seed ---------------------------

SIZES = (4, 6, 8, 10, 12, 20)
WORDS = ("Fuego", "a b", "Daño 1d6!", "FRÍO", "x!=y")
MARKUP = re.compile("[" + "".join(render.SYMBOLS.values()) + "]|\\*\\*|~~")
GROUP = re.compile(r"(~~)|\d+d\d+[^\s()~]* \(([^()]*)\)")
Token = tuple[int, bool, bool, bool]  # a die's value: struck, exploded, forced


def dice_term(rng: random.Random) -> tuple[str, str]:
    """One dice term as a player writes it (``!``, ``D``) and as d20 spells it."""
    count, sides = rng.randint(1, 4), rng.choice(SIZES)
    ops = []
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        op = rng.choice(("kh", "kl", "ph", "pl", "ro", "rr", "e", "ra", "mi", "ma"))
        if op in ("kh", "kl", "ph", "pl"):
            ops.append(f"{op}{rng.randint(1, count)}")
        elif op in ("ro", "rr"):
            ops.append(rng.choice((f"{op}1", f"{op}<{rng.randint(2, sides // 2)}")))
        elif op in ("e", "ra"):
            ops.append(rng.choice((f"{op}{sides}", f"{op}>{rng.randint(sides // 2, sides - 1)}")))
        else:
            ops.append(f"{op}{rng.randint(1, sides)}")
    d20_text = f"{count}d{sides}{''.join(ops)}"
    if not ops and rng.random() < 0.3:
        return f"{count}d{sides}!", f"{count}d{sides}e{sides}"
    return (d20_text.replace("d", "D", 1) if rng.random() < 0.2 else d20_text), d20_text


def term(rng: random.Random, depth: int = 0) -> tuple[str, str]:
    """A dice term, a number or a set of them, maybe annotated."""
    kind = rng.random()
    if kind < 0.15:
        text = str(rng.randint(0, 9))
        pair = (text, text)
    elif kind < 0.35 and depth == 0:
        members = [term(rng, 1) for _ in range(rng.randint(2, 3))]
        ops = rng.choice(("kh1", "kl1", "ph1", "pl1", "kh2", ""))
        pair = tuple(f"({', '.join(m[side] for m in members)}){ops}" for side in (0, 1))  # type: ignore[assignment]
    elif kind < 0.45:
        ours, theirs = dice_term(rng)
        bonus = rng.randint(1, 5)
        pair = (f"{ours} + {bonus}", f"{theirs} + {bonus}")
    else:
        pair = dice_term(rng)
    if rng.random() < 0.2:
        note = f" [{rng.choice(WORDS)}]"
        pair = (pair[0] + note, pair[1] + note)
    return pair


def expression_pair(rng: random.Random) -> tuple[str, str]:
    parts = [term(rng) for _ in range(rng.randint(1, 3))]
    ours, theirs = parts[0]
    for part in parts[1:]:
        op = rng.choice((" + ", " - ", " * ", " + ", " != ", " > "))
        ours, theirs = f"{ours}{op}{part[0]}", f"{theirs}{op}{part[1]}"
    return ours, theirs


def outside_annotations(text: str, change: Callable[[str], str]) -> str:
    parts = re.split(r"(\[.*?\])", text)
    return "".join(p if i % 2 else change(p) for i, p in enumerate(parts))


def plain(ours: str) -> str:
    """Our rendering without its marks: what d20's SimpleStringifier writes."""
    return outside_annotations(ours, lambda p: MARKUP.sub("", p))


def simple(theirs: str) -> str:
    """d20's SimpleStringifier with a forced value's history (``1 -> 3``) listed as our two
    values and an explosion's ``!`` left to our marks."""
    return outside_annotations(theirs, lambda p: re.sub(r"(?<=\d)!", "", p.replace(" -> ", ", ")))


def tokens(text: str, parse_value: Callable[[str, bool], list[Token]]) -> list[list[Token]]:
    """The die values shown in each of a rendering's ``NdS (…)`` groups, struck or not:
    inside a struck stretch (d20 strikes a dropped element, or a dropped die's whole
    history, as one), or struck by itself."""
    found: list[list[Token]] = []
    struck = False
    for match in GROUP.finditer(text):
        if match[1]:
            struck = not struck
            continue
        group: list[Token] = []
        for shown in match[2].split(", "):
            group.extend(parse_value(shown, struck or "~~" in shown))
            struck ^= shown.count("~~") % 2 == 1
        found.append(group)
    return found


def unordered(groups: list[list[Token]]) -> list[list[Token]]:
    """d20 rerolls and explodes the dice of a group in the order of a Python set, which
    follows memory addresses: which die gets which draw may differ from one run to the
    next (the draws and the total do not). Groups are compared as multisets."""
    return [sorted(group) for group in groups]


def sorted_groups(text: str) -> str:
    def by_value(match: re.Match[str]) -> str:
        values = sorted(match[2].split(", "), key=int)
        return f"{match[1]}{', '.join(values)})"

    return re.sub(r"(\d+d\d+[^\s()]* \()([^()]*)\)", by_value, text)


def d20_value(shown: str, struck: bool) -> list[Token]:
    """A value as d20's MarkdownStringifier writes it: ``~~1~~`` rerolled away, ``6!``
    exploded, ``1 -> 3`` forced (the face rolled, then each value forced in its place)."""
    bare = shown.replace("~~", "").replace("**", "")
    rolled, *forced = bare.split(" -> ")
    last = (forced or [rolled])[-1]
    value = (int(last.rstrip("!")), struck, last.endswith("!"), bool(forced))
    if not forced:
        return [value]
    replaced = [(int(v), True, False, True) for v in forced[:-1]]
    return [(int(rolled), True, False, False), *replaced, value]


def our_value(shown: str, struck: bool) -> list[Token]:
    """A value as our renderer writes it: ``~~1~~↺``, ``**6**💥``, ``**3**📌``."""
    value = int(re.sub(r"\D", "", shown.replace("~~", "")))
    return [(value, struck, "💥" in shown, "📌" in shown)]


def test_ours_and_raw_d20_agree_on_hundreds_of_expressions() -> None:
    """The same seed through raw ``d20`` (its own roller, its own parser) and through
    ``roll_expression``: the same total and text, the same rendering once our marks are
    taken off, the same struck, exploded and forced state for every die value as d20's
    Markdown shows it, and our flattened dice exactly the ones our card shows."""
    generator = random.Random(27)
    compared = 0
    for seed in range(400):
        ours_text, d20_text = expression_pair(generator)
        d20_expression.random = random.Random(seed)  # type: ignore[assignment]
        try:
            theirs = d20.Roller().roll(d20_text)
        except (d20.TooManyRolls, d20.RollValueError):
            theirs = None
        finally:
            d20_expression.random = _REFUSE  # type: ignore[assignment]
        try:
            ours = roll_expression(ours_text, random.Random(seed))
        except RuleError:
            assert theirs is None, (ours_text, d20_text)
            continue
        assert theirs is not None, (ours_text, d20_text)
        shown = render.expression(ours.tree)
        context = (ours_text, d20_text, shown)
        assert ours.total == theirs.total, context
        assert ours.expression == str(theirs.ast), context
        their_text = simple(d20.SimpleStringifier().stringify(theirs.expr.roll))
        assert sorted_groups(plain(shown)) == sorted_groups(their_text), context
        markdown = d20.MarkdownStringifier().stringify(theirs.expr.roll)
        ours_shown = tokens(shown, our_value)
        assert unordered(ours_shown) == unordered(tokens(markdown, d20_value)), (*context, markdown)
        flat = [(d.value, not d.kept, d.has(Mark.EXPLODED), d.has(Mark.FIXED)) for d in ours.dice]
        assert flat == [token for group in ours_shown for token in group], context
        compared += 1
    assert compared > 300


def test_dice_with_the_same_marks_share_one_set() -> None:
    """A value's marks are one frozen set per combination, not a set built per die."""
    roll = roll_expression("6d6e6kh3", random.Random(5))
    by_marks: dict[frozenset[Mark], set[int]] = {}
    for die in roll.dice:
        by_marks.setdefault(die.marks, set()).add(id(die.marks))
    assert len(roll.dice) > len(by_marks)
    assert all(len(ids) == 1 for ids in by_marks.values())


def test_a_roll_s_dice_are_read_without_abc_instance_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """d20's nodes are ``abc.ABC``s: ``flatten`` and the card's text tell them apart by
    class, so ``ABCMeta.__instancecheck__`` is never asked for a node."""
    import abc

    roll = roll_expression("(1d6,1d8)kh1+2d20kh1-1d4mi2", random.Random(9))
    asked: list[object] = []
    check = abc.ABCMeta.__instancecheck__

    def counting(cls: abc.ABCMeta, instance: object) -> bool:
        if d20_expression.Number in type(instance).__mro__:
            asked.append(instance)
        return check(cls, instance)

    expected = (roll.dice, render.expression(roll.tree))
    monkeypatch.setattr(abc.ABCMeta, "__instancecheck__", counting)
    flattened = flatten(roll.tree)
    text = render.expression(roll.tree)
    monkeypatch.undo()
    assert asked == []
    assert (tuple(flattened), text) == expected
