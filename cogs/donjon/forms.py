"""Donjon on the character panel: each Atributo, Habilidad and Tirada de Salvación of the
sheet opens the Prueba's form (the Atributo and the Habilidad that make the pool, the
difficulty or an opposing pool, banked dice), then rolls through ``/donjon prueba`` as if
typed."""

from __future__ import annotations

import discord
from discord.app_commands import Choice

from bot.client import Tirada
from bot.errors import Refusal
from bot.forms import form_press
from bot.i18n import Lang, t
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
from bot.sheets.models import SheetBase
from bot.ui import Modal, parse_int
from cogs.donjon.sheet_model import DonjonAttributes, DonjonSheet
from rules.donjon import contest
from rules.donjon import difficulty as donjon_difficulty

ATTRIBUTE, SKILL, SAVE = "t", "h", "v"
NONE = "-"
DEFAULT_DIFFICULTY = "media"
# The difficulty question's last choice: against an opposing NPC's pool (``contra:``), its
# dice typed in the question below it.
AGAINST = "contra"
# A select offers 25 options: "none", the two saves and the first 22 Habilidades.
SKILL_OPTIONS = 22


def rollables(lang: Lang, sheet: SheetBase) -> list[Rollable]:
    """The six Atributos, the Habilidades, then the two Tiradas de Salvación."""
    dj = of_kind(sheet, DonjonSheet)
    found = [
        Rollable(f"{ATTRIBUTE}:{key}", key, f"**{t(lang, f'fichas.donjon.attr.{key}')}** {value}")
        for key, value in dj.atributos.model_dump().items()
    ]
    found += [
        Rollable(f"{SKILL}:{i}", s.nombre, t(lang, "fichas.dice", name=f"**{safe(s.nombre)}**", n=s.dados))
        for i, s in enumerate(dj.habilidades)
    ]
    found += [
        Rollable(
            f"{SAVE}:{key}",
            key,
            t(lang, "fichas.dice", name=f"**{t(lang, f'fichas.donjon.save.{key}')}**", n=n),
        )
        for key, n in dj.salvaciones
    ]
    return found


def skill_options(lang: Lang, sheet: DonjonSheet) -> dict[str, str]:
    """What the Habilidad select offers, by value: its name as ``/donjon prueba`` reads it."""
    options = {f"{SKILL}:{i}": s.nombre for i, s in enumerate(sheet.habilidades[:SKILL_OPTIONS])}
    options |= {f"{SAVE}:{key}": t(lang, f"fichas.donjon.save.{key}") for key, _ in sheet.salvaciones}
    return options


class DonjonForm(Modal):
    """A Prueba's pool (an Atributo and a Habilidad or Salvación), what it is against (a
    difficulty, or an opposing pool of the dice typed below it) and the banked dice added;
    the press that opened it chose its first answer."""

    def __init__(self, lang: Lang, item: Rollable | None, sheet: DonjonSheet, who: Roller) -> None:
        """``item`` None: ``/donjon prueba`` typed with no options, nothing chosen yet."""
        super().__init__(title=clip(form_title(lang, item), TITLE_LIMIT), custom_id="ficha:donjon")
        key = item.key if item is not None else NONE
        self.who = who
        attributes = [(NONE, t(lang, "fichas.form.none"))]
        attributes += [(key, t(lang, f"fichas.donjon.attr.{key}")) for key in sheet.atributos.model_dump()]
        picked = item.name if item is not None and key.startswith(ATTRIBUTE) else NONE
        self.attribute = radio(attributes, picked, "atributo")
        self.add_item(labelled(t(lang, "fichas.form.donjon.attribute"), self.attribute))
        self.skills = skill_options(lang, sheet)
        chosen_skill = key if key.startswith((SKILL, SAVE)) else NONE
        options = [
            discord.SelectOption(label=t(lang, "fichas.form.none"), value=NONE, default=chosen_skill == NONE)
        ]
        options += [
            discord.SelectOption(label=safe(name)[:100], value=value, default=value == chosen_skill)
            for value, name in self.skills.items()
        ]
        self.skill: discord.ui.Select[DonjonForm] = discord.ui.Select(custom_id="habilidad", options=options)
        self.add_item(labelled(t(lang, "fichas.form.donjon.skill"), self.skill))
        levels = [(d, t(lang, f"donjon.dificultad.{d}")) for d in donjon_difficulty.DIFFICULTIES]
        levels.append((AGAINST, t(lang, "fichas.form.donjon.against")))
        self.difficulty = radio(levels, DEFAULT_DIFFICULTY, "dificultad")
        self.add_item(labelled(t(lang, "fichas.form.donjon.difficulty"), self.difficulty))
        self.pool_name = t(lang, "fichas.form.donjon.pool")
        self.pool: discord.ui.TextInput[DonjonForm] = discord.ui.TextInput(
            custom_id="contra", required=False, max_length=3
        )
        self.add_item(labelled(self.pool_name, self.pool, t(lang, "fichas.form.donjon.pool_help")))
        self.bank_name = t(lang, "fichas.form.donjon.bank")
        self.bank: discord.ui.TextInput[DonjonForm] = discord.ui.TextInput(
            custom_id="banco", required=False, max_length=2
        )
        self.add_item(labelled(self.bank_name, self.bank))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        attribute = chosen(self.attribute.value, {NONE, *DonjonAttributes.model_fields})
        skill = chosen(self.skill.values[0] if self.skill.values else NONE, {NONE, *self.skills})
        difficulty = chosen(self.difficulty.value, {*donjon_difficulty.DIFFICULTIES, AGAINST})
        against = self.against(difficulty)
        typed = self.bank.value.strip()
        bank = parse_int(typed, self.bank_name, 0, contest.MAX_POOL) if typed else 0
        await run_command(
            interaction,
            "Donjon",
            "prueba",
            atributo=None if attribute == NONE else attribute,
            habilidad=None if skill == NONE else self.skills[skill],
            contra=against,
            dificultad=None if difficulty == AGAINST else Choice(name=difficulty, value=difficulty),
            banco=bank,
            como=self.who.como,
        )

    def against(self, difficulty: str) -> int | None:
        """The opposing pool's dice when the difficulty question chose it (then they must be
        typed), None for a difficulty (then none may be: the typed command takes one or the
        other, never both)."""
        typed = self.pool.value.strip()
        if difficulty != AGAINST:
            if typed:
                raise Refusal("fichas.form.donjon.pool_or_difficulty")
            return None
        if not typed:
            raise Refusal("fichas.form.donjon.need_pool")
        return parse_int(typed, self.pool_name, 0, contest.MAX_POOL)


def form_title(lang: Lang, item: Rollable | None) -> str:
    if item is None:
        return t(lang, "fichas.form.donjon.any_test")
    if item.key.startswith(ATTRIBUTE):
        return t(lang, "fichas.form.donjon.title", name=t(lang, f"fichas.donjon.attr.{item.name}"))
    if item.key.startswith(SAVE):
        return t(lang, "fichas.form.donjon.title", name=t(lang, f"fichas.donjon.save.{item.name}"))
    return t(lang, "fichas.form.donjon.title", name=item.name)


GAME = Game(rollables, form_press(DonjonForm, DonjonSheet))
