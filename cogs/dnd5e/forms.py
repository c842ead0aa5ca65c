"""D&D on the character panel: every skill, save and attack of the sheet, each a button
that opens a form (advantage or disadvantage, and the DC, or the AC an attack needs) and
then rolls through ``/dnd prueba``, ``salvacion`` or ``ataque`` as if typed."""

from __future__ import annotations

from typing import Any

import discord

from bot.client import Tirada
from bot.i18n import Lang, lang_for, t
from bot.sheets.access import of_kind
from bot.sheets.models import DndSheet, SheetBase
from bot.ui import Modal, parse_int
from cogs.dnd5e import sheet as dnd_sheet
from cogs.dnd5e.cog import Dnd
from cogs.ficha.render import safe
from cogs.ficha.rollable import (
    TITLE_LIMIT,
    Game,
    Rollable,
    Roller,
    chosen,
    clip,
    command_function,
    labelled,
    radio,
)
from rules import dnd5e

MODES = ("normal", "ventaja", "desventaja")
CHECK, SAVE, ATTACK = "h", "s", "a"


def check_bonus(sheet: DndSheet, skill: str) -> int:
    """The skill check's modifier as ``/dnd prueba`` reads it from the sheet."""
    options = {
        "habilidad": skill,
        "caracteristica": None,
        "modificador": None,
        "competencia": False,
        "pericia": False,
        "nivel": None,
    }
    read = dnd_sheet.check(sheet, options)
    proficiency = dnd5e.proficiency_bonus(read["nivel"])
    return dnd5e.total_modifier(read["modificador"], proficiency, read["competencia"], read["pericia"])


def save_bonus(sheet: DndSheet, ability: str) -> int:
    """The saving throw's modifier as ``/dnd salvacion`` reads it from the sheet."""
    options = {"caracteristica": ability, "modificador": None, "competencia": False, "nivel": None}
    read = dnd_sheet.save(sheet, options)
    return dnd5e.total_modifier(
        read["modificador"], dnd5e.proficiency_bonus(read["nivel"]), read["competencia"]
    )


def rollables(lang: Lang, sheet: SheetBase) -> list[Rollable]:
    """Skills (★ where the sheet has expertise), then saves, then attacks."""
    dnd = of_kind(sheet, DndSheet)
    found = [
        Rollable(
            f"{CHECK}:{skill}",
            skill,
            f"**{t(lang, f'dnd.skill.{skill}')}** {check_bonus(dnd, skill):+d}"
            + (" ★" if skill in dnd.pericias else ""),
        )
        for skill in dnd5e.SKILLS
    ]
    found += [
        Rollable(
            f"{SAVE}:{ability}",
            ability,
            f"**{t(lang, 'fichas.panel.dnd.save', ability=t(lang, f'dnd.ability.{ability}'))}** "
            f"{save_bonus(dnd, ability):+d}",
        )
        for ability in dnd5e.ABILITIES
    ]
    for i, attack in enumerate(dnd.ataques):
        read = dnd_sheet.attack(dnd, attack.nombre, {"bonificador": None, "dano": None, "tipo": None})
        damage = safe(read["dano"] or "—")
        found.append(
            Rollable(
                f"{ATTACK}:{i}",
                attack.nombre,
                f"**{safe(attack.nombre)}** {read['bonificador']:+d} · {damage}",
            )
        )
    return found


class DndForm(Modal):
    """Advantage or disadvantage, and the number the roll is against (optional for a check
    or a save, as the typed command's ``cd``; required for an attack, its ``ca``)."""

    def __init__(self, lang: Lang, item: Rollable, who: Roller) -> None:
        self.kind = item.key.split(":")[0]
        self.item, self.who = item, who
        name = t(lang, f"dnd.skill.{item.name}") if self.kind == CHECK else item.name
        if self.kind == SAVE:
            name = t(lang, f"dnd.ability.{item.name}")
        title = t(lang, f"fichas.form.dnd.{self.kind}", name=name)
        super().__init__(title=clip(title, TITLE_LIMIT), custom_id="ficha:dnd")
        choices = [(mode, t(lang, f"fichas.form.dnd.mode.{mode}")) for mode in MODES]
        self.mode = radio(choices, "normal", "modo")
        self.add_item(labelled(t(lang, "fichas.form.dnd.mode"), self.mode))
        self.target_name = t(lang, "fichas.form.dnd.ac" if self.kind == ATTACK else "fichas.form.dnd.dc")
        self.target: discord.ui.TextInput[DndForm] = discord.ui.TextInput(
            custom_id="objetivo", required=self.kind == ATTACK, max_length=2
        )
        self.add_item(labelled(self.target_name, self.target))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        mode = chosen(self.mode.value, MODES)
        typed = self.target.value.strip()
        target = parse_int(typed, self.target_name, 1, dnd5e.MAX_TARGET) if typed else None
        cog = interaction.client.get_cog("Dnd")
        assert isinstance(cog, Dnd)
        common: dict[str, Any] = {
            "ventaja": mode == "ventaja",
            "desventaja": mode == "desventaja",
            "como": self.who.como,
        }
        if self.kind == CHECK:
            await command_function(Dnd.prueba)(
                cog, interaction, habilidad=self.item.name, cd=target, **common
            )
        elif self.kind == SAVE:
            await command_function(Dnd.salvacion)(
                cog, interaction, caracteristica=self.item.name, cd=target, **common
            )
        else:
            await command_function(Dnd.ataque)(cog, interaction, ca=target, arma=self.item.name, **common)


async def press(interaction: discord.Interaction, item: Rollable, sheet: SheetBase, who: Roller) -> None:
    await interaction.response.send_modal(DndForm(lang_for(interaction.locale), item, who))


GAME = Game(rollables, press)
