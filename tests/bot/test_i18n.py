import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.i18n import CATALOG, LANGS, Translator, lang_for, t
from bot.models import System

ROOT = Path(__file__).resolve().parents[2]
KEY_USES = re.compile(
    r"""(?:\bt\(\s*\w+,\s*|\bT\(|Refusal\(|RefusedCheck\(|RuleError\()\s*"([a-z0-9_.]+)\""""
)


def source_files() -> list[Path]:
    return [p for folder in ("bot", "cogs", "rules") for p in (ROOT / folder).rglob("*.py")]


def test_every_key_has_both_languages_with_the_same_placeholders() -> None:
    for key, entry in CATALOG.entries.items():
        assert set(entry) == set(LANGS), key
        assert all(entry[lang].strip() for lang in LANGS), key
        assert CATALOG.placeholders(key, "es") == CATALOG.placeholders(key, "en"), key


def test_every_key_the_code_names_is_in_the_catalog() -> None:
    used = {key for path in source_files() for key in KEY_USES.findall(path.read_text())}
    assert used, "the scan found no keys: the pattern is broken"
    missing = sorted(used - set(CATALOG.entries))
    assert not missing


def test_every_system_has_a_name() -> None:
    for system in System:
        assert f"system.{system.value}" in CATALOG.entries


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


async def test_translator_gives_english_only_to_english_locales() -> None:
    translator = Translator()
    name = app_commands.locale_str("tirar", key="tirar.cmd")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    assert await translator.translate(name, discord.Locale.american_english, context) == "roll"
    assert await translator.translate(name, discord.Locale.british_english, context) == "roll"
    assert await translator.translate(name, discord.Locale.spain_spanish, context) is None
    plain = app_commands.locale_str("sin clave")
    assert await translator.translate(plain, discord.Locale.american_english, context) is None


def test_parameters_are_filled_but_user_text_is_not_interpreted() -> None:
    assert t("es", "expr.syntax", expression="{ref}") == (
        "No entiendo «{ref}». Prueba algo como 1d20+5, 4d6kh3, 2d6ro1 u 8d6!."
    )
