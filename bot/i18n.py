"""Translations: one catalog of whole sentences, Spanish first, English too.

Every string the bot shows lives in ``bot/locales/*.toml`` (one file per cog, in the
manner of Red-DiscordBot), each key with its ``es`` and ``en`` sentence side by side.
Command names and descriptions are ``locale_str`` whose Spanish text is the base sent
to Discord; ``bot.translator.Translator`` gives Discord the English for ``en-US``/``en-GB``.
Replies follow ``interaction.locale``: English locales get English, everyone else
Spanish.

A sentence about a number of things has one form per CLDR plural category instead of a
single text, and names the placeholder that chooses among them::

    "donjon.bank_used_n".count = "n"
    "donjon.bank_used_n".es.one = "Se usa {n} dado de bonificación guardado."
    "donjon.bank_used_n".es.many = "Se usan {n} de dados de bonificación guardados."
    "donjon.bank_used_n".es.other = "Se usan {n} dados de bonificación guardados."
    "donjon.bank_used_n".en.one = "{n} banked bonus die is used."
    "donjon.bank_used_n".en.other = "{n} banked bonus dice are used."

so call sites pass the count as they pass any value (``t(lang, key, n=1)``). Spanish
``many`` is CLDR's form for exact millions ("1.000.000 de dados"). The categories and the rules that
pick them are CLDR's, through Babel; so are the decimal and percent formats of
:func:`decimal` and :func:`percent` (``45,8 %`` in Spanish, ``45.8%`` in English).
"""

from __future__ import annotations

import copy
import inspect
import string
import tomllib
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from babel import Locale
from babel.numbers import NumberPattern, format_decimal

if TYPE_CHECKING:
    import discord
    from discord import app_commands

Lang = Literal["es", "en"]
F = TypeVar("F", bound=Callable[..., Any])
LANGS: tuple[Lang, ...] = ("es", "en")
# Discord's English locales, by their values: this module does not import discord.py, so
# that what only needs the catalog (``python -m bot.migrate``, a bad setting at start) does
# not pay for discord.py and aiohttp (half a second of CPU).
ENGLISH = frozenset({"en-US", "en-GB"})


def lang_for(locale: discord.Locale | None) -> Lang:
    return "en" if locale is not None and locale.value in ENGLISH else "es"


@cache
def _locale(lang: Lang) -> Locale:
    return Locale.parse(lang)


def load_locales() -> None:
    """Read each language's CLDR data now. Babel reads a locale's files (and imports
    ``babel.dates`` for them) the first time anything of it is asked, which was a player's
    first plural or number: tens of milliseconds of the event loop in the middle of play,
    every interaction then in flight waiting on them (``bench/README.md``, the tenth session)."""
    for lang in LANGS:
        _locale(lang).plural_form(1)


# How many formatted numbers (and plural categories) are remembered: a card formats the
# same few values again and again (a select's 0 to 24, a pool's odds), each worth some
# 15 µs of Babel's pattern machinery; the oldest are forgotten past this many.
FORMATS_KEPT = 4096


@lru_cache(maxsize=FORMATS_KEPT, typed=True)
def _plural_category(lang: Lang, count: float) -> str:
    return _locale(lang).plural_form(count)


def plural_category(lang: Lang, count: float) -> str:
    """CLDR's plural category of ``count`` in ``lang``: ``one``, ``many`` or ``other``."""
    return _plural_category(lang, count)


@cache
def _percent_pattern(lang: Lang, digits: int) -> NumberPattern:
    """The language's own percent pattern (its spacing and sign) with fixed decimals."""
    pattern = copy.copy(_locale(lang).percent_formats[None])
    pattern.frac_prec = (digits, digits)
    return pattern


@lru_cache(maxsize=FORMATS_KEPT, typed=True)
def _percent(lang: Lang, p: float, digits: int) -> str:
    return _percent_pattern(lang, digits).apply(p, _locale(lang))


@lru_cache(maxsize=FORMATS_KEPT, typed=True)
def _decimal(lang: Lang, value: float, pattern: str) -> str:
    return format_decimal(value, pattern, locale=_locale(lang))


def _formatted(lang: Lang, value: float, pattern: str) -> str:
    """``value`` through Babel's ``pattern``, remembered by value (and type: ``typed``).
    A zero is formatted each time (:func:`_zero`)."""
    return (_decimal.__wrapped__ if _zero(value) else _decimal)(lang, value, pattern)


def _zero(value: float) -> bool:
    """Whether ``value`` is a zero, which no cache of these may keep: ``-0.0`` equals ``0``
    and would share its entry, while Babel writes it ``-0``."""
    return value == 0


def percent(lang: Lang, p: float, digits: int = 1) -> str:
    """A probability as a percentage: ``45,8 %`` in Spanish, ``45.8%`` in English."""
    return (_percent.__wrapped__ if _zero(p) else _percent)(lang, p, digits)


def number(lang: Lang, value: float) -> str:
    """A number with as many decimals as it needs, up to two (``0,5``, ``10``)."""
    return _formatted(lang, value, "#,##0.##")


def decimal(lang: Lang, value: float, digits: int) -> str:
    """A number with exactly ``digits`` (one or more) decimals in the language's notation
    (``2,50``): expected values read as averages, not as counts."""
    return _formatted(lang, value, "#,##0." + "0" * digits)


def signed(lang: Lang, value: int) -> str:
    """A change with its sign as a card writes it: ``+3``, ``+0``, ``−2`` (a minus sign,
    not a hyphen), grouped in the language's notation (``−1.200``)."""
    return _formatted(lang, value, "+#,##0;\u2212#,##0")


class Catalog:
    """Key -> {lang: sentence or plural forms, count: placeholder}, loaded from every TOML
    file of a folder."""

    def __init__(self, entries: Mapping[str, Mapping[str, Any]]) -> None:
        self.entries = dict(entries)

    @classmethod
    def load(cls, folder: Path) -> Catalog:
        entries: dict[str, dict[str, Any]] = {}
        for path in sorted(folder.glob("*.toml")):
            with path.open("rb") as handle:
                for key, value in _flatten(tomllib.load(handle)):
                    if key in entries:
                        raise ValueError(f"{path.name}: duplicate catalog key {key!r}")
                    _check_plural(path.name, key, value)
                    entries[key] = value
        return cls(entries)

    def template(self, key: str, lang: Lang, params: Mapping[str, Any]) -> str:
        """The sentence itself, or the plural form the entry's count placeholder calls for."""
        entry = self.entries[key]
        forms = entry[lang]
        if isinstance(forms, str):
            return forms
        return forms[plural_category(lang, params[entry["count"]])]

    def forms(self, key: str, lang: Lang) -> dict[str, str]:
        """The entry's plural forms in ``lang`` (a plain sentence is its own ``other``)."""
        value = self.entries[key][lang]
        return {"other": value} if isinstance(value, str) else dict(value)

    def placeholders(self, key: str, lang: Lang) -> set[str]:
        return {
            field
            for form in self.forms(key, lang).values()
            for _, field, _, _ in string.Formatter().parse(form)
            if field
        }


def _check_plural(filename: str, key: str, entry: Mapping[str, Any]) -> None:
    """A plural entry names its count placeholder, and only plural entries do."""
    plural = any(isinstance(entry.get(lang), dict) for lang in LANGS)
    if plural != ("count" in entry):
        raise ValueError(f"{filename}: {key!r} needs both plural forms and a count, or neither")


def _flatten(node: Mapping[str, Any], prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
    """TOML dotted keys nest; a leaf is the table holding the ``es``/``en`` pair."""
    if "es" in node:
        return [(prefix, dict(node))]
    out: list[tuple[str, dict[str, str]]] = []
    for key, value in node.items():
        out.extend(_flatten(value, f"{prefix}.{key}" if prefix else key))
    return out


CATALOG = Catalog.load(Path(__file__).parent / "locales")


def t(lang: Lang, key: str, /, **params: Any) -> str:
    """The sentence ``key`` in ``lang`` with its parameters filled in. Most are no plural:
    their text is at hand. Asked some eleven times an interaction, so it is one call: the
    catalog's entry read here, its type told without an ``isinstance`` call."""
    sentence = CATALOG.entries[key][lang]
    if type(sentence) is not str:
        sentence = CATALOG.template(key, lang, params)
    return sentence.format(**params) if params else sentence


def T(key: str) -> app_commands.locale_str:
    """A command-surface string: Spanish base text, translated by ``bot.translator``.
    (discord.py is imported here, by the cogs that declare commands, not with the catalog.)"""
    from discord import app_commands

    return app_commands.locale_str(t("es", key), key=key)


def options(prefix: str, *names: str) -> Callable[[F], F]:
    """Name and describe a command's options from the catalog: ``{prefix}.{name}`` is the
    option's name, ``{prefix}.{name}.desc`` its description.

    Without ``names``, the options are the callback's own parameters (after ``self`` and the
    interaction) that no decorator below this one (applied first) has named already, so a
    command states them once, in its signature. ``names`` picks some from another family
    (``@options("fichas.opt", "como")``, below the command's own)."""

    def decorate(func: F) -> F:
        from discord import app_commands

        chosen = names or _unnamed_parameters(func)
        described = app_commands.describe(**{n: T(f"{prefix}.{n}.desc") for n in chosen})(func)
        return app_commands.rename(**{n: T(f"{prefix}.{n}") for n in chosen})(described)

    return decorate


def _unnamed_parameters(func: Callable[..., Any]) -> tuple[str, ...]:
    parameters = list(inspect.signature(func).parameters)
    if parameters[:1] == ["self"]:
        parameters.pop(0)
    named = getattr(func, "__discord_app_commands_param_rename__", {})
    return tuple(p for p in parameters[1:] if p not in named)
