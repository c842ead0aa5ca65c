"""Donjon on the character panel: each Atributo, Habilidad and Tirada de Salvación of the
sheet opens the Prueba's form (the Atributo and the Habilidad that make the pool, the
difficulty or an opposing pool, banked dice), then rolls through ``/donjon prueba`` as if
typed. ``/donjon enfrentada`` typed with no options opens the opposed test's form: the same
pool, the other player it is against and their dice."""

from __future__ import annotations

from typing import Any

import discord
from discord.app_commands import Choice

from bot.client import Tirada
from bot.errors import Refusal
from bot.forms import form_press
from bot.i18n import Lang, number, t
from bot.panel import (
    TITLE_LIMIT,
    WORDED,
    Game,
    Rollable,
    Roller,
    chosen,
    clip,
    labelled,
    number_or_none,
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
from cogs.donjon.sheet_model import DonjonAttributes, DonjonSheet
from rules.donjon import difficulty as donjon_difficulty

ATTRIBUTE, SKILL, SAVE, ITEM = "t", "h", "v", "o"
DEFAULT_DIFFICULTY = "media"
# The difficulty question's last choice: against an opposing NPC's pool (``contra:``), its
# dice picked in the question below it.
AGAINST = "contra"
# A select offers 25 options: "none", the two saves and the first 22 Habilidades.
SKILL_OPTIONS = 22
# The dice a form's select offers (the banked dice, an opposing pool, a rival's): 0 to 24,
# Discord's 25 options. A larger pool is typed (``banco:``, ``contra:``, ``rival_dados:``
# take up to ``contest.MAX_POOL``).
DICE_OFFERED = 25


def rollables(lang: Lang, sheet: SheetBase) -> list[Rollable]:
    """The six Atributos, the Habilidades, the two Tiradas de Salvación, then the
    Habilidades of the equipment ("una Habilidad apropiada, una Tirada de Salvación, o una
    Habilidad de un objeto"), each named with its item."""
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
    found += [
        Rollable(
            f"{ITEM}:{i}_{j}",
            skill.nombre,
            t(lang, "fichas.dice", name=f"**{safe(skill.nombre)}** ({safe(item.nombre)})", n=skill.dados),
        )
        for i, item in enumerate(dj.equipo)
        for j, skill in enumerate(item.habilidades)
    ]
    return found


def skill_options(lang: Lang, sheet: DonjonSheet) -> dict[str, str]:
    """What the Habilidad select offers, by value: its name as ``/donjon prueba`` reads it."""
    options = {f"{SKILL}:{i}": s.nombre for i, s in enumerate(sheet.habilidades[:SKILL_OPTIONS])}
    options |= {f"{SAVE}:{key}": t(lang, f"fichas.donjon.save.{key}") for key, _ in sheet.salvaciones}
    return options


def attribute_radio(lang: Lang, sheet: DonjonSheet, picked: str) -> discord.ui.RadioGroup[Any]:
    """The pool's Atributo: none, or one of the sheet's six."""
    attributes = [(WORDED, t(lang, "fichas.form.none"))]
    attributes += [(key, t(lang, f"fichas.donjon.attr.{key}")) for key in sheet.atributos.model_dump()]
    return radio(attributes, picked, "atributo")


def dice_select(lang: Lang, custom_id: str, none: str | None = None) -> discord.ui.Select[Any]:
    """Dice picked, not typed: 0 to 24, 0 chosen; with ``none``, that choice first (chosen)
    then 1 to 24."""
    if none is None:
        return number_select(custom_id, range(DICE_OFFERED), label=lambda n: number(lang, n), default=0)
    return number_select(custom_id, range(1, DICE_OFFERED), worded(none), label=lambda n: number(lang, n))


def skill_select(lang: Lang, skills: dict[str, str], picked: str) -> discord.ui.Select[Any]:
    """The pool's Habilidad or Salvación (:func:`skill_options`), or none."""
    none = discord.SelectOption(label=t(lang, "fichas.form.none"), value=WORDED, default=picked == WORDED)
    options = [none]
    options += [
        discord.SelectOption(label=safe(name)[:100], value=value, default=value == picked)
        for value, name in skills.items()
    ]
    return discord.ui.Select(custom_id="habilidad", options=options)


class PoolForm(Modal):
    """A form that rolls a Donjon pool: the pool's Atributo and Habilidad (or Salvación)
    and the banked dice added to it, asked alike by the Prueba's form and the opposed
    test's."""

    def ask_pool(self, lang: Lang, sheet: DonjonSheet, attribute: str, skill: str) -> None:
        """The Atributo and Habilidad questions, ``attribute`` and ``skill`` chosen."""
        self.attribute = attribute_radio(lang, sheet, attribute)
        self.add_item(labelled(t(lang, "fichas.form.donjon.attribute"), self.attribute))
        self.skills = skill_options(lang, sheet)
        self.skill = skill_select(lang, self.skills, skill)
        self.add_item(labelled(t(lang, "fichas.form.donjon.skill"), self.skill))

    def ask_bank(self, lang: Lang) -> None:
        """The banked dice added to the pool, picked (none chosen)."""
        self.bank = dice_select(lang, "banco")
        self.add_item(labelled(t(lang, "fichas.form.donjon.bank"), self.bank))

    def pool_answers(self) -> tuple[str | None, str | None]:
        """The Atributo and the Habilidad's name as ``/donjon prueba`` and ``enfrentada``
        read them (None: not chosen), each one the form offered."""
        attribute = chosen(self.attribute.value, {WORDED, *DonjonAttributes.model_fields})
        named = picked(self.skill, {WORDED, *self.skills}, WORDED)
        return (None if attribute == WORDED else attribute), (None if named == WORDED else self.skills[named])

    def banked(self) -> int:
        return number_or_none(self.bank) or 0


class DonjonForm(PoolForm):
    """A Prueba's pool (an Atributo and a Habilidad or Salvación), what it is against (a
    difficulty, or an opposing pool of the dice picked below it) and the banked dice added;
    the press that opened it chose its first answer."""

    def __init__(self, lang: Lang, item: Rollable | None, sheet: DonjonSheet, who: Roller) -> None:
        """``item`` None: ``/donjon prueba`` typed with no options, nothing chosen yet."""
        super().__init__(title=clip(form_title(lang, item), TITLE_LIMIT), custom_id="ficha:donjon")
        key = item.key if item is not None else WORDED
        self.who = who
        # An item's Habilidad pressed on the panel: the item goes with the roll (``objeto:``),
        # the questions ask the rest of the pool.
        self.item = item.name if item is not None and key.startswith(ITEM) else None
        attribute = item.name if item is not None and key.startswith(ATTRIBUTE) else WORDED
        self.ask_pool(lang, sheet, attribute, key if key.startswith((SKILL, SAVE)) else WORDED)
        levels = [(d, t(lang, f"donjon.dificultad.{d}")) for d in donjon_difficulty.DIFFICULTIES]
        levels.append((AGAINST, t(lang, "fichas.form.donjon.against")))
        self.difficulty = radio(levels, DEFAULT_DIFFICULTY, "dificultad")
        self.add_item(labelled(t(lang, "fichas.form.donjon.difficulty"), self.difficulty))
        self.pool = dice_select(lang, "contra", none=t(lang, "fichas.form.donjon.no_pool"))
        pool_name = t(lang, "fichas.form.donjon.pool")
        self.add_item(labelled(pool_name, self.pool, t(lang, "fichas.form.donjon.pool_help")))
        self.ask_bank(lang)

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        attribute, skill = self.pool_answers()
        difficulty = chosen(self.difficulty.value, {*donjon_difficulty.DIFFICULTIES, AGAINST})
        against = self.against(difficulty)
        await run_command(
            interaction,
            "Donjon",
            "prueba",
            atributo=attribute,
            habilidad=skill,
            contra=against,
            dificultad=None if difficulty == AGAINST else Choice(name=difficulty, value=difficulty),
            banco=self.banked(),
            objeto=self.item,
            como=self.who.como,
        )

    def against(self, difficulty: str) -> int | None:
        """The opposing pool's dice when the difficulty question chose it (then they must be
        picked), None for a difficulty (then none may be: the typed command takes one or the
        other, never both)."""
        dice = number_or_none(self.pool)
        if difficulty != AGAINST:
            if dice is not None:
                raise Refusal("fichas.form.donjon.pool_or_difficulty")
            return None
        if dice is None:
            raise Refusal("fichas.form.donjon.need_pool")
        return dice


class DonjonOpposedForm(PoolForm):
    """An opposed test against another player: the roller's pool from the sheet (as the
    Prueba's form asks it), the rival among the server's members, the rival's dice and the
    roller's banked dice. An NPC rival stays with the typed ``rival_pnj:`` (or, without a
    sheet, the Prueba against an opposing pool)."""

    def __init__(self, lang: Lang, item: Rollable | None, sheet: DonjonSheet, who: Roller) -> None:
        """Only ever opened bare (``item`` None), from the roller's active sheet."""
        super().__init__(
            title=clip(t(lang, "fichas.form.donjon.opposed"), TITLE_LIMIT), custom_id="ficha:donjon"
        )
        self.who = who
        self.ask_pool(lang, sheet, WORDED, WORDED)
        self.rival: discord.ui.UserSelect[DonjonOpposedForm] = discord.ui.UserSelect(
            custom_id="rival", required=True
        )
        self.add_item(labelled(t(lang, "fichas.form.donjon.rival"), self.rival))
        self.rival_dice = dice_select(lang, "rival_dados")
        self.add_item(labelled(t(lang, "fichas.form.donjon.rival_dice"), self.rival_dice))
        self.ask_bank(lang)

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        attribute, skill = self.pool_answers()
        if len(self.rival.values) != 1:
            raise Refusal("fichas.form.bad_choice")
        dice = number_or_none(self.rival_dice) or 0
        await run_command(
            interaction,
            "Donjon",
            "enfrentada",
            atributo=attribute,
            habilidad=skill,
            rival=self.rival.values[0],
            rival_dados=dice,
            banco=self.banked(),
            como=self.who.como,
        )


def form_title(lang: Lang, item: Rollable | None) -> str:
    if item is None:
        return t(lang, "fichas.form.donjon.any_test")
    if item.key.startswith(ATTRIBUTE):
        return t(lang, "fichas.form.donjon.title", name=t(lang, f"fichas.donjon.attr.{item.name}"))
    if item.key.startswith(SAVE):
        return t(lang, "fichas.form.donjon.title", name=t(lang, f"fichas.donjon.save.{item.name}"))
    return t(lang, "fichas.form.donjon.title", name=item.name)


GAME = Game(rollables, form_press(DonjonForm, DonjonSheet))
