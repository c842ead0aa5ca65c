"""Translations: one catalog of whole sentences, Spanish first, English too.

Every string the bot shows lives in ``bot/locales/*.toml`` (one file per cog, in the
manner of Red-DiscordBot), each key with its ``es`` and ``en`` sentence side by side.
Command names and descriptions are ``locale_str`` whose Spanish text is the base sent
to Discord; :class:`Translator` gives Discord the English for ``en-US``/``en-GB``.
Replies follow ``interaction.locale``: English locales get English, everyone else
Spanish.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

import discord
from discord import app_commands

Lang = Literal["es", "en"]
F = TypeVar("F", bound=Callable[..., Any])
LANGS: tuple[Lang, ...] = ("es", "en")
_ENGLISH = frozenset({discord.Locale.american_english, discord.Locale.british_english})


def lang_for(locale: discord.Locale | None) -> Lang:
    return "en" if locale in _ENGLISH else "es"


class Catalog:
    """Key -> {lang: sentence}, loaded from every TOML file of a folder."""

    def __init__(self, entries: Mapping[str, Mapping[str, str]]) -> None:
        self.entries = dict(entries)

    @classmethod
    def load(cls, folder: Path) -> Catalog:
        entries: dict[str, dict[str, str]] = {}
        for path in sorted(folder.glob("*.toml")):
            with path.open("rb") as handle:
                for key, value in _flatten(tomllib.load(handle)):
                    if key in entries:
                        raise ValueError(f"{path.name}: duplicate catalog key {key!r}")
                    entries[key] = value
        return cls(entries)

    def text(self, key: str, lang: Lang, /, **params: Any) -> str:
        template = self.entries[key][lang]
        return template.format(**params) if params else template

    def placeholders(self, key: str, lang: Lang) -> set[str]:
        return {field for _, field, _, _ in string.Formatter().parse(self.entries[key][lang]) if field}


def _flatten(node: Mapping[str, Any], prefix: str = "") -> list[tuple[str, dict[str, str]]]:
    """TOML dotted keys nest; a leaf is the table holding the ``es``/``en`` pair."""
    if "es" in node and isinstance(node["es"], str):
        return [(prefix, dict(node))]
    out: list[tuple[str, dict[str, str]]] = []
    for key, value in node.items():
        out.extend(_flatten(value, f"{prefix}.{key}" if prefix else key))
    return out


CATALOG = Catalog.load(Path(__file__).parent / "locales")


def t(lang: Lang, key: str, /, **params: Any) -> str:
    """The sentence ``key`` in ``lang`` with its parameters filled in."""
    return CATALOG.text(key, lang, **params)


def T(key: str) -> app_commands.locale_str:
    """A command-surface string: Spanish base text, translated by :class:`Translator`."""
    return app_commands.locale_str(CATALOG.text(key, "es"), key=key)


def options(prefix: str, *names: str) -> Callable[[F], F]:
    """Name and describe a command's options from the catalog: ``{prefix}.{name}`` is the
    option's name, ``{prefix}.{name}.desc`` its description."""

    def decorate(func: F) -> F:
        described = app_commands.describe(**{n: T(f"{prefix}.{n}.desc") for n in names})(func)
        return app_commands.rename(**{n: T(f"{prefix}.{n}") for n in names})(described)

    return decorate


class Translator(app_commands.Translator):
    """Gives Discord the English names and descriptions of every command."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or locale not in _ENGLISH:
            return None
        return CATALOG.text(key, "en")
