import discord
from discord import app_commands

from bot.translator import Translator


async def test_translator_gives_english_only_to_english_locales() -> None:
    translator = Translator()
    name = app_commands.locale_str("tirar", key="tirar.cmd")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    assert await translator.translate(name, discord.Locale.american_english, context) == "roll"
    assert await translator.translate(name, discord.Locale.british_english, context) == "roll"
    assert await translator.translate(name, discord.Locale.spain_spanish, context) is None
    plain = app_commands.locale_str("sin clave")
    assert await translator.translate(plain, discord.Locale.american_english, context) is None
