"""D&D on the character panel: every skill, save and attack of the sheet, each a button
that opens a form (advantage or disadvantage, and the DC, or the AC an attack needs) and
then rolls through ``/dnd prueba``, ``salvacion`` or ``ataque`` as if typed."""

from __future__ import annotations

from typing import Any

import discord

from bot.checks import current_table
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
    picked,
    radio,
    run_command,
    safe,
)
from bot.sheets import access
from bot.sheets.access import of_kind
from bot.sheets.models import SheetBase
from bot.ui import Modal, parse_int
from cogs.dnd5e import sheet as dnd_sheet
from cogs.dnd5e.sheet_model import DndSheet
from rules.dnd5e import checks

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
    proficiency = checks.proficiency_bonus(read["nivel"])
    return checks.total_modifier(read["modificador"], proficiency, read["competencia"], read["pericia"])


def save_bonus(sheet: DndSheet, ability: str) -> int:
    """The saving throw's modifier as ``/dnd salvacion`` reads it from the sheet."""
    options = {"caracteristica": ability, "modificador": None, "competencia": False, "nivel": None}
    read = dnd_sheet.save(sheet, options)
    return checks.total_modifier(
        read["modificador"], checks.proficiency_bonus(read["nivel"]), read["competencia"]
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
        for skill in checks.SKILLS
    ]
    found += [
        Rollable(
            f"{SAVE}:{ability}",
            ability,
            f"**{t(lang, 'fichas.panel.dnd.save', ability=t(lang, f'dnd.ability.{ability}'))}** "
            f"{save_bonus(dnd, ability):+d}",
        )
        for ability in checks.ABILITIES
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

    def __init__(self, lang: Lang, item: Rollable | None, who: Roller, sheet: DndSheet | None = None) -> None:
        """``item`` None: ``/dnd prueba`` typed with no options, which asks the skill too
        (from ``sheet``, each with its modifier)."""
        self.kind = CHECK if item is None else item.key.split(":")[0]
        self.item, self.who = item, who
        super().__init__(title=clip(form_title(lang, item), TITLE_LIMIT), custom_id="ficha:dnd")
        self.skill: discord.ui.Select[DndForm] | None = None
        if item is None and sheet is not None:
            options = [
                discord.SelectOption(label=clip(r.text.replace("**", ""), 100), value=r.name)
                for r in rollables(lang, sheet)
                if r.key.startswith(f"{CHECK}:")
            ]
            self.skill = discord.ui.Select(custom_id="habilidad", options=options, required=True)
            self.add_item(labelled(t(lang, "fichas.form.dnd.skill"), self.skill))
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
        target = parse_int(typed, self.target_name, 1, checks.MAX_TARGET) if typed else None
        common: dict[str, Any] = {
            "ventaja": mode == "ventaja",
            "desventaja": mode == "desventaja",
            "como": self.who.como,
        }
        if self.kind == CHECK:
            await run_command(interaction, "Dnd", "prueba", habilidad=self.skill_name(), cd=target, **common)
        elif self.kind == SAVE:
            await run_command(
                interaction, "Dnd", "salvacion", caracteristica=self.name(), cd=target, **common
            )
        else:
            await run_command(interaction, "Dnd", "ataque", ca=target, arma=self.name(), **common)

    def name(self) -> str:
        assert self.item is not None  # only a check is asked without one
        return self.item.name

    def skill_name(self) -> str:
        if self.skill is None:
            return self.name()
        return picked(self.skill, set(checks.SKILLS))


def form_title(lang: Lang, item: Rollable | None) -> str:
    if item is None:
        return t(lang, "fichas.form.dnd.any_check")
    kind = item.key.split(":")[0]
    names = {CHECK: f"dnd.skill.{item.name}", SAVE: f"dnd.ability.{item.name}"}
    name = t(lang, names[kind]) if kind in names else item.name
    return t(lang, f"fichas.form.dnd.{kind}", name=name)


async def open_check(bot: Tirada, interaction: discord.Interaction) -> None:
    """``/dnd prueba`` with no options: the check's form, the skill asked from the roller's
    active sheet."""
    table = await current_table(interaction)
    _, sheet = await access.for_roll(bot.store, table, False, interaction.user.id, None)
    dnd = of_kind(sheet, DndSheet)
    form = DndForm(lang_for(interaction.locale), None, Roller(None, False), dnd)
    await interaction.response.send_modal(form)


async def press(interaction: discord.Interaction, item: Rollable, sheet: SheetBase, who: Roller) -> None:
    await interaction.response.send_modal(DndForm(lang_for(interaction.locale), item, who))


GAME = Game(rollables, press)
