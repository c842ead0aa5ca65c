"""Mediana on the character panel: each attribute and skill of the sheet opens a form
(the difficulty and the rank, picked: no number is typed) and rolls through ``/mediana
atributo`` or ``tirada`` as if typed. ``/mediana tirada`` typed with no options opens the
same form, asking first which attribute or skill of the sheet rolls; ``/mediana
enfrentada`` typed with none opens the opposed test's form (a skill of the sheet against
the GM's numbers, each side's rank)."""

from __future__ import annotations

from typing import Any

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
    number_or_none,
    number_picked,
    number_select,
    picked,
    radio,
    run_command,
    safe,
    worded,
)
from bot.sheets.access import of_kind
from bot.sheets.models import SheetBase
from bot.ui import Modal
from cogs.mediana.sheet_model import MedianaSheet
from rules.mediana import checks
from rules.mediana import ranks as mediana_ranks

ATTRIBUTE, SKILL = "t", "h"
DEFAULT_RANK = "medio"
# A select offers 25 options: the sheet's first 25 attributes and skills.
ROLL_OPTIONS = 25
# "una dificultad impuesta por el Director de Juego": the command's 0 to 100 in steps of 5
# (21 options); any other value is typed as ``dificultad:``.
DIFFICULTIES = range(0, checks.MAX_DIFFICULTY + 1, 5)
# The GM's rival in the opposed form: an attribute from -4 to 20 (25 options) and a skill
# from 0 to 20, or none; past them, typed (``rival_atributo:``, ``rival_habilidad:``).
RIVAL_ATTRIBUTES = range(-4, 21)
RIVAL_SKILLS = range(0, 21)


def rank_radio(lang: Lang, custom_id: str) -> discord.ui.RadioGroup[Any]:
    """The three ranks of the die kept ("bajo", "medio", "alto"), the middle one chosen."""
    ranks = [(rank, t(lang, f"mediana.rank.{rank}")) for rank in mediana_ranks.RANKS]
    return radio(ranks, DEFAULT_RANK, custom_id)


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


def roll_options(lang: Lang, sheet: MedianaSheet) -> dict[str, tuple[Rollable, str]]:
    """What the roll question offers when the form asks it, by the rollable's key: the
    rollable and its plain label (a select shows no markdown)."""
    labels = [f"{a.nombre} {a.valor}" for a in sheet.atributos]
    labels += [f"{s.nombre} ({s.atributo}) {s.valor}" for s in sheet.habilidades]
    pairs = zip(rollables(lang, sheet), labels, strict=True)
    return {item.key: (item, label) for item, label in list(pairs)[:ROLL_OPTIONS]}


class MedianaForm(Modal):
    """The difficulty (a select of 0 to 100 in steps of 5) and the rank of an attribute or
    skill roll; opened by no press (``/mediana tirada`` typed bare), it asks the roll first."""

    def __init__(self, lang: Lang, item: Rollable | None, sheet: MedianaSheet, who: Roller) -> None:
        title = (
            t(lang, "fichas.form.mediana.title", name=item.name)
            if item is not None
            else t(lang, "fichas.form.mediana.any_test")
        )
        super().__init__(title=clip(title, TITLE_LIMIT), custom_id="ficha:mediana")
        self.item, self.who = item, who
        self.choices: dict[str, tuple[Rollable, str]] = {}
        self.roll: discord.ui.Select[MedianaForm] | None = None
        if item is None:
            # A sheet has at least one attribute (MedianaSheet), so the select is never empty.
            self.choices = roll_options(lang, sheet)
            options = [
                discord.SelectOption(label=clip(safe(label), 100), value=key)
                for key, (_, label) in self.choices.items()
            ]
            self.roll = discord.ui.Select(custom_id="tirada", options=options, required=True)
            self.add_item(labelled(t(lang, "fichas.form.mediana.roll"), self.roll))
        self.difficulty = number_select("dificultad", DIFFICULTIES)
        self.add_item(
            labelled(t(lang, "fichas.form.mediana.difficulty", max=checks.MAX_DIFFICULTY), self.difficulty)
        )
        self.rank = rank_radio(lang, "rango")
        self.add_item(labelled(t(lang, "fichas.form.mediana.rank"), self.rank))

    def rolled(self) -> Rollable:
        """The press's attribute or skill, or the one the form's first question chose."""
        if self.item is not None:
            return self.item
        assert self.roll is not None
        return self.choices[picked(self.roll, self.choices)][0]

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        item = self.rolled()
        difficulty = number_picked(self.difficulty)
        rank = chosen(self.rank.value, set(mediana_ranks.RANKS))
        rango = Choice(name=rank, value=rank)
        if item.key.startswith(ATTRIBUTE):
            await run_command(
                interaction,
                "Mediana",
                "atributo_cmd",
                atributo=item.name,
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
                habilidad=item.name,
                rango=rango,
                como=self.who.como,
            )


class MedianaOpposedForm(Modal):
    """An opposed test's essential questions: the roller's skill from the sheet (its
    attribute and estorbo come with it, as ``habilidad:`` typed by name), the rival's
    attribute and skill picked as numbers (the GM's side, as typed without ``rival:`` or
    ``rival_pnj:``), and each side's rank; the rest stays with the typed command."""

    def __init__(self, lang: Lang, item: Rollable | None, sheet: MedianaSheet, who: Roller) -> None:
        """Only ever opened bare (``item`` None), from the roller's active sheet."""
        super().__init__(
            title=clip(t(lang, "fichas.form.mediana.opposed"), TITLE_LIMIT), custom_id="ficha:mediana"
        )
        self.who = who
        shown = sheet.habilidades[:ROLL_OPTIONS]
        if not shown:
            raise Refusal("fichas.form.mediana.no_skills")
        self.skills = {f"{SKILL}:{i}": s.nombre for i, s in enumerate(shown)}
        options = [
            discord.SelectOption(
                label=clip(safe(f"{s.nombre} ({s.atributo}) {s.valor}"), 100), value=f"{SKILL}:{i}"
            )
            for i, s in enumerate(shown)
        ]
        self.skill: discord.ui.Select[MedianaOpposedForm] = discord.ui.Select(
            custom_id="habilidad", options=options, required=True
        )
        self.add_item(labelled(t(lang, "fichas.form.mediana.my_skill"), self.skill))
        self.rival_attribute = number_select("rival_atributo", RIVAL_ATTRIBUTES)
        lowest, highest = RIVAL_ATTRIBUTES[0], RIVAL_ATTRIBUTES[-1]
        question = t(lang, "fichas.form.mediana.rival_attribute", min=lowest, max=highest)
        self.add_item(labelled(question, self.rival_attribute))
        # The rival's skill answered "none": attribute against attribute, as without rival_habilidad.
        none = worded(t(lang, "fichas.form.mediana.no_skill"))
        self.rival_skill = number_select("rival_habilidad", RIVAL_SKILLS, none)
        self.add_item(labelled(t(lang, "fichas.form.mediana.rival_skill"), self.rival_skill))
        self.rank = rank_radio(lang, "rango")
        self.add_item(labelled(t(lang, "fichas.form.mediana.my_rank"), self.rank))
        self.rival_rank = rank_radio(lang, "rival_rango")
        self.add_item(labelled(t(lang, "fichas.form.mediana.rival_rank"), self.rival_rank))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        skill = self.skills[picked(self.skill, self.skills)]
        attribute = number_picked(self.rival_attribute)
        rival_skill = number_or_none(self.rival_skill)
        rank = chosen(self.rank.value, set(mediana_ranks.RANKS))
        rival_rank = chosen(self.rival_rank.value, set(mediana_ranks.RANKS))
        await run_command(
            interaction,
            "Mediana",
            "enfrentada",
            habilidad=skill,
            rival_atributo=attribute,
            rival_habilidad=None if rival_skill is None else str(rival_skill),
            rango=Choice(name=rank, value=rank),
            rival_rango=Choice(name=rival_rank, value=rival_rank),
            como=self.who.como,
        )


GAME = Game(rollables, form_press(MedianaForm, MedianaSheet))
