"""``bot.options``: one bound, published to Discord and checked with our refusal; the
characters no text option holds."""

from __future__ import annotations

import unicodedata

import discord
import pytest
from discord import app_commands

from bot.errors import RefusedOption
from bot.options import Bounded, typable, untypable
from rules.errors import RuleError, check_range
from tests.support.harness import Harness
from tests.support.payloads import GM


def test_check_range_refuses_outside_the_bounds_only() -> None:
    check_range("dados", 1, 1, 5)
    check_range("dados", 5, 1, 5)
    for bad in (0, 6):
        try:
            check_range("dados", bad, 1, 5)
        except RuleError as refusal:
            assert (refusal.key, refusal.params) == (
                "error.out_of_range",
                {"name": "dados", "value": bad, "min": 1, "max": 5},
            )
        else:
            raise AssertionError(f"{bad} passed")


def test_bounded_publishes_its_bounds_as_an_integer_option() -> None:
    bounded = Bounded(-5, 5)
    assert bounded.type is discord.AppCommandOptionType.integer
    assert (bounded.min_value, bounded.max_value) == (-5, 5)


async def test_discord_receives_the_bounds_the_command_checks(harness: Harness) -> None:
    assert harness.bot is not None
    dune = harness.bot.tree.get_command("dune")
    assert isinstance(dune, app_commands.Group)
    impulso = dune.get_command("impulso")
    assert isinstance(impulso, app_commands.Group)
    add = impulso.get_command("añadir")
    assert isinstance(add, app_commands.Command)
    (cantidad,) = (o for o in add.to_dict(harness.bot.tree)["options"] if o["name"] == "cantidad")
    assert (cantidad["type"], cantidad["min_value"], cantidad["max_value"]) == (4, 1, 6)


async def test_an_option_out_of_its_bounds_gets_our_sentence_and_changes_nothing(harness: Harness) -> None:
    await harness.table_for("dune")
    refused = await harness.slash("dune impulso añadir", user=GM, cantidad=7)
    assert refused.ephemeral
    assert "cantidad debe estar entre 1 y 6 (pusiste 7)" in refused.text
    english = await harness.slash("dune impulso añadir", user=GM, locale="en-US", cantidad=0)
    assert "cantidad must be between 1 and 6 (you gave 0)" in english.text
    assert await harness.pool("impulso") == 0


def test_the_refusal_is_an_app_command_error_so_discord_py_does_not_wrap_it() -> None:
    assert issubclass(RefusedOption, app_commands.AppCommandError)


@pytest.mark.parametrize(
    ("text", "lines", "refused"),
    [
        ("Lía Brezo", False, False),
        ("\u202eolleh \u200b", False, False),  # direction marks and zero widths are format, not control
        ("a\x00b", False, True),
        ("\x1b[31m", False, True),
        ("\x85", False, True),
        ("\ud800", False, True),
        ("una\nlínea", False, True),
        ("una\r\nlínea", True, False),  # a form's paragraph keeps its lines
        ("una\tlínea", True, True),
    ],
)
def test_untypable_characters(text: str, lines: bool, refused: bool) -> None:
    assert untypable(text, lines=lines) is refused
    assert not untypable(typable(text))


async def test_a_value_in_range_is_taken_without_looking_for_its_option() -> None:
    """Every bounded option of every command passes through here: the option's name is
    looked for (walking the command's parameters) only to refuse a value."""

    class Unnamed:
        @property
        def command(self) -> None:
            raise AssertionError("looked for the option's name")

    assert await Bounded(1, 6).transform(Unnamed(), 6) == 6  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="option's name"):
        await Bounded(1, 6).transform(Unnamed(), 7)  # type: ignore[arg-type]


def test_untypable_is_every_control_character_and_surrogate_of_unicode() -> None:
    """The ranges stand for Unicode's categories Cc and Cs, closed by its stability policy:
    every code point of the basic plane (the others hold none of either) agrees."""
    every = "".join(map(chr, range(0x10000)))
    assert "".join(c for c in every if untypable(c)) == "".join(
        c for c in every if unicodedata.category(c) in ("Cc", "Cs")
    )
    assert typable(every) == "".join(c for c in every if unicodedata.category(c) not in ("Cc", "Cs"))
    assert [c for c in "\t\n\x0b\x0c\r" if untypable(c, lines=True)] == ["\t", "\x0b", "\x0c"]


def test_a_text_is_checked_without_asking_each_characters_category(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text option of every command passes through here."""

    def asked(char: str) -> str:
        raise AssertionError("asked a character's category")

    monkeypatch.setattr(unicodedata, "category", asked)
    assert not untypable("2d20kh1+4 para «la puerta»")
    assert untypable("a\x00b", lines=True)
    assert typable("a\x00b") == "ab"
