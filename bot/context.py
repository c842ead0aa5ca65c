"""What an interaction acts on, resolved once: the table, the user's language, GM or not.

A command that needs more than the table builds this first and passes it on, so no helper
looks the table up a second time (one lookup, one answer: from a GM channel serving
several tables, a second lookup is a second chance to refuse or to differ). Underneath,
every read an interaction makes of the store (this table, the roll a button names, the
table's pools) is kept on the interaction by ``bot.seen``, so the pieces that cannot be
handed this context (discord.py calls the component guard and the button apart) still
read each thing once.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.checks import current_table, is_gm
from bot.errors import Refusal
from bot.i18n import Lang, lang_for
from bot.models import Table


@dataclass(frozen=True)
class TableContext:
    table: Table
    lang: Lang
    gm: bool

    def require_gm(self) -> None:
        """Refuse, saying so, unless the user is the table's GM."""
        if not self.gm:
            raise Refusal("error.not_gm")


async def table_context(interaction: discord.Interaction, mesa: str | None = None) -> TableContext:
    """The table this interaction acts on (see ``current_table``), read once."""
    table = await current_table(interaction, mesa)
    return TableContext(table, lang_for(interaction.locale), is_gm(table, interaction))
