import re
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
from babel import Locale
from babel.numbers import format_decimal

from bot import i18n
from bot.i18n import CATALOG, LANGS, Lang, decimal, lang_for, number, percent, plural_category, signed, t
from tests.support.systems import DECLARATIONS

ROOT = Path(__file__).resolve().parents[2]
KEY_USES = re.compile(
    r"""(?:\bt\(\s*\w+,\s*|\bT\(|Refusal\(|RefusedCheck\(|RuleError\()\s*"([a-z0-9_.]+)\""""
)


def source_files() -> list[Path]:
    return [p for folder in ("bot", "cogs", "rules") for p in (ROOT / folder).rglob("*.py")]


def test_every_key_has_both_languages_with_the_same_placeholders() -> None:
    for key, entry in CATALOG.entries.items():
        assert set(entry) - {"count"} == set(LANGS), key
        assert all(form.strip() for lang in LANGS for form in CATALOG.forms(key, lang).values()), key
        assert CATALOG.placeholders(key, "es") == CATALOG.placeholders(key, "en"), key


def test_every_key_the_code_names_is_in_the_catalog() -> None:
    used = {key for path in source_files() for key in KEY_USES.findall(path.read_text())}
    assert used, "the scan found no keys: the pattern is broken"
    missing = sorted(used - set(CATALOG.entries))
    assert not missing


def test_every_system_has_a_name() -> None:
    for system in DECLARATIONS:
        assert f"system.{system.name}" in CATALOG.entries


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        (discord.Locale.spain_spanish, "es"),
        (discord.Locale.latin_american_spanish, "es"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.french, "es"),
        (None, "es"),
    ],
)
def test_reply_language_follows_the_locale(locale: discord.Locale | None, lang: str) -> None:
    assert lang_for(locale) == lang


def test_parameters_are_filled_but_user_text_is_not_interpreted() -> None:
    assert t("es", "expr.syntax", expression="{ref}") == (
        "No entiendo «{ref}». Prueba algo como 1d20+5, 4d6kh3, 2d6ro1 u 8d6!."
    )


def test_a_sentence_is_filled_in_one_call() -> None:
    """``t`` is asked some eleven times an interaction: a plain sentence, with or without
    parameters, calls no other Python function of ours (a plural one asks for its form)."""
    called: list[str] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            called.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        plain = t("es", "board.title")
        filled = t("en", "expr.syntax", expression="1d")
    finally:
        sys.setprofile(None)
    assert called == ["t", "t"]
    assert plain == CATALOG.entries["board.title"]["es"]
    assert filled == CATALOG.entries["expr.syntax"]["en"].format(expression="1d")


# Placeholders that carry a number of things (a heuristic: the catalog's own names).
COUNT_NAMES = frozenset(
    {"actions", "amount", "bank", "count", "degrees", "dice", "have", "left", "length", "lost", "n"}
    | {"need", "players", "points", "requirement", "saved", "sides", "spent", "successes"}
)


def counted(spanish: str) -> set[str]:
    """Count placeholders a Spanish word agrees with: a plural noun or a reflexive verb
    after it ("{n} dados", "{lost} se pierden"), a plural verb or article just before it
    ("quedan {left}", "hacen falta {need}", "los {bank}"). Spanish marks the plural
    wherever English does, and on more words."""
    found = set()
    for name in COUNT_NAMES:
        after = re.search(rf"\{{{name}\}} (?:se \w+n\b|[^\W\d_]+s\b)", spanish)
        before = re.search(rf"(?:\b\w+n|\blos|\blas)(?: \w+)? \{{{name}\}}", spanish)
        if after or before:
            found.add(name)
    return found


def test_every_sentence_about_a_count_has_plural_forms() -> None:
    missing = [
        key
        for key, entry in CATALOG.entries.items()
        if any(counted(form) for form in CATALOG.forms(key, "es").values()) and "count" not in entry
    ]
    assert not missing


def test_every_plural_entry_gives_the_cldr_categories_of_each_language() -> None:
    """A plural entry must give every category CLDR defines for the language."""
    plurals = {key: entry for key, entry in CATALOG.entries.items() if "count" in entry}
    assert plurals, "no plural entries: the catalog format changed"
    for key in plurals:
        for lang in LANGS:
            categories = Locale.parse(lang).plural_form.tags | {"other"}
            assert set(CATALOG.forms(key, lang)) == categories, (key, lang)


@pytest.mark.parametrize(
    ("lang", "count", "text"),
    [
        ("es", 1, "Se usa 1 dado de bonificación guardado."),
        ("es", 2, "Se usan 2 dados de bonificación guardados."),
        ("es", 0, "Se usan 0 dados de bonificación guardados."),
        ("en", 1, "1 banked bonus die is used."),
        ("en", 3, "3 banked bonus dice are used."),
    ],
)
def test_the_count_chooses_the_form(lang: Lang, count: int, text: str) -> None:
    assert t(lang, "donjon.bank_used_n", n=count) == text


@pytest.mark.parametrize(
    ("lang", "p", "text"),
    [
        ("es", 0.458, "45,8\N{NO-BREAK SPACE}%"),
        ("en", 0.458, "45.8%"),
        ("es", 1.0, "100,0\N{NO-BREAK SPACE}%"),
    ],
)
def test_percentages_follow_the_language(lang: Lang, p: float, text: str) -> None:
    assert percent(lang, p) == text


def test_decimals_follow_the_language() -> None:
    assert (decimal("es", 2.5, 2), decimal("en", 2.5, 2)) == ("2,50", "2.50")


def test_options_are_read_from_the_signature_once() -> None:
    """``@options(prefix)`` names and describes every parameter after the interaction, each
    from ``{prefix}.{name}``; one a decorator below it named keeps that name (issue 30)."""
    from bot.i18n import options

    @options("tirar.opt")
    @options("fichas.opt", "como")
    async def roll(self: object, interaction: object, expresion: str, privada: bool, como: str) -> None: ...

    renames = roll.__discord_app_commands_param_rename__  # type: ignore[attr-defined]
    descriptions = roll.__discord_app_commands_param_description__  # type: ignore[attr-defined]
    assert {name: text.extras["key"] for name, text in renames.items()} == {
        "expresion": "tirar.opt.expresion",
        "privada": "tirar.opt.privada",
        "como": "fichas.opt.como",
    }
    assert descriptions["privada"].extras["key"] == "tirar.opt.privada.desc"


# A sentence asked for with a key built from data whose family is not written out there
# (``t(lang, f"{prefix}.{key}")``): a reader holding the key finds no line that names it.
UNFINDABLE_KEY = re.compile(r"""(?:\bt\(\s*\w+,\s*|Refusal\()f["']\{""")


def test_every_key_built_from_data_keeps_its_literal_family_prefix() -> None:
    """Issue 30: ``f"dnd.skill.{s}"`` is found by its prefix, ``f"{self.prefix}.{key}"`` is
    not. (``@options("dune.opt")`` names a command's options from its signature, the family
    written at each decorator, as the issue asks of options declared once.)"""
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in source_files()
        for line in path.read_text().splitlines()
        if UNFINDABLE_KEY.search(line)
    ]
    assert found == []


NUMBERS = [*range(-1300, 1300, 7), 10_000, -1_000_000, 0.5, 2.25, 1.005, -3.75, 12345.678]


@pytest.mark.parametrize("lang", LANGS)
def test_a_remembered_number_reads_as_babel_writes_it(lang: Lang) -> None:
    """The formats are remembered by value: asked twice, every value still reads exactly as
    Babel's pattern writes it."""
    for _ in range(2):
        for value in NUMBERS:
            assert number(lang, value) == format_decimal(value, "#,##0.##", locale=lang), value
            assert decimal(lang, value, 2) == format_decimal(value, "#,##0.00", locale=lang), value
            p = value / 1000
            assert percent(lang, p) == i18n._percent_pattern(lang, 1).apply(p, Locale.parse(lang)), p
        for value in range(-1300, 1300, 7):
            assert signed(lang, value) == format_decimal(value, "+#,##0;\u2212#,##0", locale=lang)
            assert plural_category(lang, value) == Locale.parse(lang).plural_form(value)


@pytest.mark.parametrize("lang", LANGS)
def test_a_negative_zero_keeps_its_sign_whatever_came_first(lang: Lang) -> None:
    """``-0.0`` equals ``0`` (one cache entry), yet Babel writes them apart."""
    assert [number(lang, 0), number(lang, -0.0), number(lang, 0)] == ["0", "-0", "0"]
    assert [signed(lang, 0), signed(lang, -0.0)] == ["+0", "\u22120"]
    assert percent(lang, -0.0) != percent(lang, 0.0)


def test_a_number_asked_again_is_not_formatted_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A select of 24 numbers drawn for every form: Babel formats each value once."""
    calls: list[float] = []

    def counted(value: float, *args: Any, **kwargs: Any) -> str:
        calls.append(value)
        return format_decimal(value, *args, **kwargs)

    monkeypatch.setattr(i18n, "format_decimal", counted)
    i18n._decimal.cache_clear()  # another test of this process may have formatted them
    values = [123_457, 123_458, 123_457, 123_458, 123_457]
    assert [number("es", v) for v in values] == ["123.457", "123.458", "123.457", "123.458", "123.457"]
    assert calls == [123_457, 123_458]
