"""Mediana on the character panel: each attribute and skill of the sheet opens a form
(the difficulty and the rank) and rolls through ``/mediana atributo`` or ``tirada`` as if
typed."""

from __future__ import annotations

import discord
from discord.app_commands import Choice

from bot.client import Tirada
from bot.i18n import Lang, lang_for, t
from bot.panel import (
    TITLE_LIMIT,
    Game,
    Rollable,
    Roller,
    chosen,
    clip,
    labelled,
    radio,
    run_command,
    safe,
)
from bot.sheets.access import of_kind
from bot.sheets.models import MedianaSheet, SheetBase
from bot.ui import Modal, parse_int
from rules.mediana import checks
from rules.mediana import ranks as mediana_ranks

ATTRIBUTE, SKILL = "t", "h"
DEFAULT_RANK = "medio"


def rollables(lang: Lang, sheet: SheetBase) -> list[Rollable]:
    """The attributes, then the skills (with the attribute each adds to)."""
    med = of_kind(sheet, MedianaSheet)
    found = [
        Rollable(f"{ATTRIBUTE}:{i}", a.nombre, f"**{safe(a.nombre)}** {a.valor}")
        for i, a in enumerate(med.atributos)
    ]
    found += [
        Rollable(f"{SKILL}:{i}", s.nombre, f"**{safe(s.nombre)}** ({safe(s.atributo)}) {s.valor}")
        for i, s in enumerate(med.habilidades)
    ]
    return found


class MedianaForm(Modal):
    """The difficulty (typed: 0 to 100 is no list) and the rank of an attribute or skill roll."""

    def __init__(self, lang: Lang, item: Rollable, who: Roller) -> None:
        title = t(lang, "fichas.form.mediana.title", name=item.name)
        super().__init__(title=clip(title, TITLE_LIMIT), custom_id="ficha:mediana")
        self.item, self.who = item, who
        self.difficulty_name = t(lang, "fichas.form.mediana.difficulty", max=checks.MAX_DIFFICULTY)
        self.difficulty: discord.ui.TextInput[MedianaForm] = discord.ui.TextInput(
            custom_id="dificultad", max_length=3
        )
        self.add_item(labelled(self.difficulty_name, self.difficulty))
        ranks = [(rank, t(lang, f"mediana.rank.{rank}")) for rank in mediana_ranks.RANKS]
        self.rank = radio(ranks, DEFAULT_RANK, "rango")
        self.add_item(labelled(t(lang, "fichas.form.mediana.rank"), self.rank))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        difficulty = parse_int(self.difficulty.value, self.difficulty_name, 0, checks.MAX_DIFFICULTY)
        rank = chosen(self.rank.value, set(mediana_ranks.RANKS))
        rango = Choice(name=rank, value=rank)
        if self.item.key.startswith(ATTRIBUTE):
            await run_command(
                interaction,
                "Mediana",
                "atributo_cmd",
                atributo=self.item.name,
                dificultad=difficulty,
                rango=rango,
                como=self.who.como,
            )
        else:
            await run_command(
                interaction,
                "Mediana",
                "tirada",
                dificultad=difficulty,
                habilidad=self.item.name,
                rango=rango,
                como=self.who.como,
            )


async def press(interaction: discord.Interaction, item: Rollable, sheet: SheetBase, who: Roller) -> None:
    await interaction.response.send_modal(MedianaForm(lang_for(interaction.locale), item, who))


GAME = Game(rollables, press)
