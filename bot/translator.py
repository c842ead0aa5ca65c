"""Discord's translator of the command surface: the English of every command's name and
description, from the catalog (``bot.i18n``, which does not import discord.py)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import ENGLISH, t


class Translator(app_commands.Translator):
    """Gives Discord the English names and descriptions of every command."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or locale.value not in ENGLISH:
            return None
        return t("en", key)
