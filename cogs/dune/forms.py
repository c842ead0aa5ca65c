"""Dune on the character panel: each skill of the sheet opens the test's form, the
thirteen options of ``/dune tirada`` that a table uses every scene asked in five
questions (the drive, the focus, the difficulty, the bought dice with how to pay for them,
Determinación), then rolled through ``/dune tirada`` as if typed. ``/dune tirada`` typed
with no options opens the same form, its first question the skill and focus together; for
a roller with no active sheet, the skill's and the drive's scores (the book's 4 to 8).
``/dune enfrentada`` typed bare asks the same skill and drive, then the opponent's."""

from __future__ import annotations

from typing import Any

import discord
from discord.app_commands import Choice

from bot.client import Tirada
from bot.forms import form_press
from bot.i18n import Lang, t
from bot.models import SheetRow
from bot.panel import (
    TITLE_LIMIT,
    WORDED,
    Game,
    Rollable,
    Roller,
    Words,
    chosen,
    clip,
    labelled,
    no_words,
    number_chosen,
    picked,
    radio,
    run_command,
    safe,
    ticked,
    worded,
)
from bot.sheets.access import of_kind
from bot.sheets.models import SheetBase
from bot.store import Store
from bot.ui import Modal
from cogs.dune.sheet_model import HIGHEST_SCORE, LOWEST_SCORE, DuneSheet
from cogs.dune.state import DETERMINACION
from rules.dune import pools, skill_test

PAYMENTS = ("impulso", "amenaza", "mixto")
# A select offers 25 options: "no focus" and the first 24 of the skill's focuses; or,
# when the form asks the skill too, the five skills and the first 20 focuses of the sheet.
FOCUS_OPTIONS = 24
SKILL_FOCUS_OPTIONS = 20
DEFAULT_DIFFICULTY = 1


def rollables(lang: Lang, sheet: SheetBase) -> list[Rollable]:
    """The five skills with their scores (the drive is the form's first question)."""
    skills = of_kind(sheet, DuneSheet).habilidades.model_dump()
    return [
        Rollable(f"h:{key}", key, f"**{t(lang, f'fichas.dune.skill.{key}')}** {value}")
        for key, value in skills.items()
    ]


def drive_options(lang: Lang, sheet: DuneSheet) -> list[discord.SelectOption]:
    """Each drive with its score and statement; a crossed-out one says so (the roll then
    refuses it, with the reason, as the typed command does)."""
    options = []
    for key, drive in sheet.motivaciones:
        label = f"{t(lang, f'fichas.dune.drive.{key}')} {drive.valor}"
        if drive.tachada:
            label += f" ({t(lang, 'fichas.form.dune.crossed')})"
        statement = drive.declaracion if drive.statement else ""
        options.append(discord.SelectOption(label=label, value=key, description=clip(statement, 100) or None))
    return options


def bought_choices(lang: Lang) -> list[tuple[str, str]]:
    """None, or one to three dice with each way to pay: ten choices, a radio group's most."""
    choices = [("0", t(lang, "fichas.form.dune.none_bought"))]
    for n in range(1, pools.MAX_BOUGHT + 1):
        for payment in PAYMENTS:
            label = t(lang, "fichas.form.dune.dice", n=n, payment=t(lang, f"dune.pago.{payment}"))
            choices.append((f"{n}:{payment}", label))
    return choices


def skill_focus_options(sheet: DuneSheet) -> dict[str, tuple[str, str | None]]:
    """What the skill question offers when the form asks it, by value: each skill alone,
    then each focus with its skill, as ``(skill, focus)``."""
    skills = sheet.habilidades.model_dump()
    options: dict[str, tuple[str, str | None]] = {key: (key, None) for key in skills}
    focuses = [f for f in sheet.enfoques if f.habilidad in skills][:SKILL_FOCUS_OPTIONS]
    options |= {f"{f.habilidad}:{i}": (f.habilidad, f.nombre) for i, f in enumerate(focuses)}
    return options


def book_scores() -> dict[str, tuple[str, str | None]]:
    """What the skill question offers without a sheet: the scores "entre 4 y 8", each as
    the number ``/dune tirada`` reads (numbers stay numbers), with no focus."""
    return {str(n): (str(n), None) for n in range(LOWEST_SCORE, HIGHEST_SCORE + 1)}


def score_options() -> list[discord.SelectOption]:
    """The drive question without a sheet: the same scores."""
    return [discord.SelectOption(label=value, value=value) for value in book_scores()]


def skill_focus_label(lang: Lang, sheet: DuneSheet, skill: str, focus: str | None) -> str:
    text = f"{t(lang, f'fichas.dune.skill.{skill}')} {getattr(sheet.habilidades, skill)}"
    return text if focus is None else t(lang, "fichas.form.dune.with_focus", skill=text, focus=safe(focus))


def skill_question(
    lang: Lang, sheet: DuneSheet | None
) -> tuple[dict[str, tuple[str, str | None]], discord.ui.Select[Any], discord.ui.Label[Any]]:
    """The skill question of a form no press chose the skill of: the sheet's skills and
    focuses in one select, or, with no sheet, the skill's score (its help says why); with
    what each value means, ``(skill, focus)``, and the select."""
    if sheet is None:
        meanings = book_scores()
        labels = {value: value for value in meanings}
        question, help_text = "fichas.form.dune.skill_score", t(lang, "fichas.form.dune.no_sheet")
    else:
        meanings = skill_focus_options(sheet)
        labels = {value: clip(skill_focus_label(lang, sheet, *pair), 100) for value, pair in meanings.items()}
        question, help_text = "fichas.form.dune.skill", None
    options = [discord.SelectOption(label=label, value=value) for value, label in labels.items()]
    select: discord.ui.Select[Any] = discord.ui.Select(custom_id="habilidad", options=options, required=True)
    return meanings, select, labelled(t(lang, question), select, help_text)


def drive_question(
    lang: Lang, sheet: DuneSheet | None
) -> tuple[discord.ui.Select[Any], discord.ui.Label[Any]]:
    """The roller's drive: the sheet's (:func:`drive_options`), or its score without one."""
    drives = score_options() if sheet is None else drive_options(lang, sheet)
    select: discord.ui.Select[Any] = discord.ui.Select(custom_id="motivacion", options=drives, required=True)
    return select, labelled(t(lang, "fichas.form.dune.drive"), select)


def drive_answer(select: discord.ui.Select[Any]) -> str:
    """The drive as ``/dune tirada`` and ``enfrentada`` read it: one the question offered."""
    return picked(select, {option.value for option in select.options})


class DuneForm(Modal):
    """A skill test's five questions; a drive the sheet crossed out is refused by the roll,
    with its reason, as the typed command refuses it. Opened by no skill (``/dune tirada``
    typed bare), its first question is the skill and the focus in one select, so the
    questions stay five; with no sheet (``sheet`` None, a bare command's only), the skill
    and the drive are their scores, and no focus is asked (the sheet lists them)."""

    def __init__(self, lang: Lang, item: Rollable | None, sheet: DuneSheet | None, who: Roller) -> None:
        super().__init__(title=clip(form_title(lang, item), TITLE_LIMIT), custom_id="ficha:dune")
        self.item, self.who = item, who
        self.skill_focus: dict[str, tuple[str, str | None]] = {}
        self.skill: discord.ui.Select[DuneForm] | None = None
        if item is None:
            self.ask_skill(lang, sheet)
        self.drive, question = drive_question(lang, sheet)
        self.add_item(question)
        self.focuses = (
            [f.nombre for f in sheet.enfoques if f.habilidad == item.name][:FOCUS_OPTIONS]
            if item and sheet
            else []
        )
        self.focus: discord.ui.Select[DuneForm] | None = None
        if self.focuses:
            options = [worded(t(lang, "fichas.form.dune.no_focus"))]
            options += [
                discord.SelectOption(label=safe(name)[:100], value=str(i))
                for i, name in enumerate(self.focuses)
            ]
            self.focus = discord.ui.Select(custom_id="enfoque", options=options, required=False)
            self.add_item(labelled(t(lang, "fichas.form.dune.focus"), self.focus))
        levels = [(str(d), str(d)) for d in range(skill_test.MAX_DIFFICULTY + 1)]
        self.difficulty = radio(levels, str(DEFAULT_DIFFICULTY), "dificultad")
        self.add_item(labelled(t(lang, "fichas.form.dune.difficulty"), self.difficulty))
        self.bought = radio(bought_choices(lang), "0", "dados")
        self.add_item(labelled(t(lang, "fichas.form.dune.bought"), self.bought))
        self.determination: discord.ui.Checkbox[DuneForm] = discord.ui.Checkbox(custom_id="determinacion")
        help_text = t(lang, "fichas.form.dune.determination_help")
        self.add_item(labelled(t(lang, "fichas.form.dune.determination"), self.determination, help_text))

    def ask_skill(self, lang: Lang, sheet: DuneSheet | None) -> None:
        """The first question when no press chose the skill (:func:`skill_question`)."""
        self.skill_focus, self.skill, question = skill_question(lang, sheet)
        self.add_item(question)

    def skill_and_focus(self) -> tuple[str, str | None]:
        """The skill the press chose and the focus the form's select chose; or both from
        the one select that asks them when no press chose the skill."""
        if self.item is not None:
            return self.item.name, self.focus_name()
        assert self.skill is not None
        return self.skill_focus[picked(self.skill, self.skill_focus)]

    def focus_name(self) -> str | None:
        if self.focus is None or not self.focus.values:
            return None
        allowed = {WORDED: None, **{str(i): name for i, name in enumerate(self.focuses)}}
        return allowed[chosen(self.focus.values[0], allowed)]

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        drive = drive_answer(self.drive)
        difficulty = number_chosen(self.difficulty)
        bought = chosen(self.bought.value, {option.value for option in self.bought.options})
        dice, _, payment = bought.partition(":")
        skill, focus = self.skill_and_focus()
        await run_command(
            interaction,
            "Dune",
            "tirada",
            habilidad=skill,
            motivacion=drive,
            enfoque=focus,
            dificultad=difficulty,
            dados_extra=int(dice),
            pago=Choice(name=payment, value=payment) if payment else None,
            determinacion=ticked(self.determination.value),
            pnj=self.who.npc,
            como=self.who.como,
        )


class DuneOpposedForm(Modal):
    """``/dune enfrentada`` typed bare: the roller's skill (and focus) and drive, as the
    test's form asks them (from the active sheet, or their scores without one), and the
    opponent's skill and drive as the book's scores, 4 to 8, whose sum is the opponent's
    target number ("hacen el chequeo contra su propio número objetivo"), and the opponent's
    hindrances ("ese factor reduce la Dificultad que genera en 1"). Only numbers: an NPC's
    sheet (``rival_pnj:``, the GM's) and every other option stay typed."""

    def __init__(self, lang: Lang, item: Rollable | None, sheet: DuneSheet | None, who: Roller) -> None:
        """Only ever opened bare (``item`` None)."""
        super().__init__(title=clip(t(lang, "fichas.form.dune.opposed"), TITLE_LIMIT), custom_id="ficha:dune")
        self.who = who
        self.skill_focus, self.skill, question = skill_question(lang, sheet)
        self.add_item(question)
        self.drive, question = drive_question(lang, sheet)
        self.add_item(question)
        self.rival_skill: discord.ui.Select[DuneOpposedForm] = discord.ui.Select(
            custom_id="rival_habilidad", options=score_options(), required=True
        )
        help_text = t(lang, "fichas.form.dune.rival_help")
        self.add_item(labelled(t(lang, "fichas.form.dune.rival_skill"), self.rival_skill, help_text))
        self.rival_drive: discord.ui.Select[DuneOpposedForm] = discord.ui.Select(
            custom_id="rival_motivacion", options=score_options(), required=True
        )
        self.add_item(labelled(t(lang, "fichas.form.dune.rival_drive"), self.rival_drive))
        hindrances = [(str(n), str(n)) for n in range(skill_test.MAX_DIFFICULTY + 1)]
        self.hindrances = radio(hindrances, "0", "obstaculos")
        help_text = t(lang, "fichas.form.dune.hindrances_help")
        self.add_item(labelled(t(lang, "fichas.form.dune.hindrances"), self.hindrances, help_text))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        skill, focus = self.skill_focus[picked(self.skill, self.skill_focus)]
        drive = drive_answer(self.drive)
        scores = book_scores()
        hindrances = chosen(self.hindrances.value, {option.value for option in self.hindrances.options})
        await run_command(
            interaction,
            "Dune",
            "enfrentada",
            habilidad=skill,
            motivacion=drive,
            enfoque=focus,
            rival_habilidad=picked(self.rival_skill, scores),
            rival_motivacion=picked(self.rival_drive, scores),
            obstaculos=int(hindrances),
            pnj=self.who.npc,
            como=self.who.como,
        )


def form_title(lang: Lang, item: Rollable | None) -> str:
    if item is None:
        return t(lang, "fichas.form.dune.any_test")
    return t(lang, "fichas.form.dune.title", skill=t(lang, f"fichas.dune.skill.{item.name}"))


async def status(store: Store, row: SheetRow) -> Words:
    """A player's Determinación: a pool of the player's, not of the sheet (an NPC has none)."""
    if row.npc:
        return no_words
    value = await store.pool(row.channel_id, DETERMINACION, row.owner_id)

    def words(lang: Lang) -> str:
        cap = pools.DETERMINATION_CAP
        return t(lang, "dune.pools.determinacion", user=row.owner_id, value=value, cap=cap)

    return words


GAME = Game(rollables, form_press(DuneForm, DuneSheet), status)
