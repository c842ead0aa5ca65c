"""D&D on the character panel: every skill, save and attack of the sheet, each a button
that opens a form (advantage or disadvantage, and the DC, or the target an attack needs) and
then rolls through ``/dnd prueba``, ``salvacion`` or ``ataque`` as if typed. The numbers are
picked, never typed: a DC from a list, an attack's target among the open tracker's creatures
(``objetivo:``, its AC and conditions with it) or an AC."""

from __future__ import annotations

from typing import Any

import discord

from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.i18n import Lang, lang_for, t
from bot.panel import (
    TITLE_LIMIT,
    WORDED,
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
    worded,
)
from bot.sheets import access
from bot.sheets.access import of_kind
from bot.sheets.models import SheetBase
from bot.store import Store
from bot.ui import Modal
from cogs.dnd5e import sheet as dnd_sheet
from cogs.dnd5e.damage import MAX_OPTIONS, OPTION_LIMIT
from cogs.dnd5e.sheet_model import DndSheet
from cogs.dnd5e.vitals import Target, open_tracker, targets, tracker_of
from rules.dnd5e import checks

CHECK, SAVE, ATTACK = "h", "s", "a"
# A save's DC is the effect's ("determinada por el efecto que la causa"): 8 to 30.
SAVE_DCS = range(8, checks.DCS["casi_imposible"] + 1)
# "CA Base = 10 + el modificador de Destreza": from 5 (Destreza -5), the 25 ACs from there,
# those nearest 15 first when the tracker's creatures take room.
LOWEST_AC, USUAL_AC = 5, 15
# The tracker's creatures an attack form lists: some room is always left for an AC.
MAX_CREATURES = 20
AC_VALUE = "ca:"


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
    """Advantage or disadvantage, and what the roll is against, picked: a check's or a
    save's DC, or none (the typed command's ``cd``, optional); an attack's target, a
    creature of the tracker (``objetivo``) or an AC (``ca``), required as in the command."""

    def __init__(
        self,
        lang: Lang,
        item: Rollable | None,
        who: Roller,
        sheet: DndSheet | None = None,
        creatures: list[discord.SelectOption] | None = None,
    ) -> None:
        """``item`` None: ``/dnd prueba`` typed with no options, which asks the skill too
        (from ``sheet``, each with its modifier). ``creatures``: an attack's targets on the
        open tracker (:func:`creature_options`), listed before the ACs."""
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
        choices = [(mode.value, t(lang, f"fichas.form.dnd.mode.{mode.value}")) for mode in checks.Mode]
        self.mode = radio(choices, checks.Mode.NORMAL, "modo")
        self.add_item(labelled(t(lang, "fichas.form.dnd.mode"), self.mode))
        if self.kind == ATTACK:
            options = target_options(lang, creatures or [])
            question = "fichas.form.dnd.target"
        else:
            options = dc_options(lang, self.kind)
            question = "fichas.form.dnd.dc"
        self.offered = {option.value for option in options}
        self.target: discord.ui.Select[DndForm] = discord.ui.Select(
            custom_id="objetivo", options=options, required=self.kind == ATTACK
        )
        self.add_item(labelled(t(lang, question), self.target))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        mode = checks.Mode(chosen(self.mode.value, {mode.value for mode in checks.Mode}))
        answer = picked(self.target, self.offered, WORDED)
        common: dict[str, Any] = {
            "ventaja": mode is checks.Mode.ADVANTAGE,
            "desventaja": mode is checks.Mode.DISADVANTAGE,
            "como": self.who.como,
        }
        if self.kind == ATTACK:
            aim = (
                {"ca": int(answer.removeprefix(AC_VALUE))}
                if answer.startswith(AC_VALUE)
                else {"objetivo": answer}
            )
            await run_command(interaction, "Dnd", "ataque", arma=self.name(), **aim, **common)
            return
        dc = None if answer == WORDED else int(answer)
        if self.kind == CHECK:
            await run_command(interaction, "Dnd", "prueba", habilidad=self.skill_name(), cd=dc, **common)
        else:
            await run_command(interaction, "Dnd", "salvacion", caracteristica=self.name(), cd=dc, **common)

    def name(self) -> str:
        assert self.item is not None  # only a check is asked without one
        return self.item.name

    def skill_name(self) -> str:
        if self.skill is None:
            return self.name()
        return picked(self.skill, set(checks.SKILLS))


def dc_options(lang: Lang, kind: str) -> list[discord.SelectOption]:
    """A check's DC from the SRD's table ("un abanico de posibles CDs para pruebas de
    habilidad"), a save's from 8 to 30 (the table's named); first, none (the GM keeps it)."""
    named = {dc: t(lang, f"dnd.dc.{key}", dc=dc) for key, dc in checks.DCS.items()}
    dcs = list(named) if kind == CHECK else list(SAVE_DCS)
    # The worded answer: the GM keeps the DC (the typed command without ``cd``).
    return [worded(t(lang, "fichas.form.dnd.no_dc"))] + [
        discord.SelectOption(
            label=named.get(dc) or t(lang, "fichas.form.dnd.dc_option", dc=dc), value=str(dc)
        )
        for dc in dcs
    ]


def target_options(lang: Lang, creatures: list[discord.SelectOption]) -> list[discord.SelectOption]:
    """The tracker's ``creatures``, then as many ACs as fit: around 15, in order."""
    room = MAX_OPTIONS - len(creatures)
    nearest = sorted(range(LOWEST_AC, LOWEST_AC + MAX_OPTIONS), key=lambda ac: (abs(ac - USUAL_AC), ac))
    acs = [
        discord.SelectOption(label=t(lang, "fichas.form.dnd.ac_option", ac=ac), value=f"{AC_VALUE}{ac}")
        for ac in sorted(nearest[:room])
    ]
    return creatures + acs


async def creature_options(interaction: discord.Interaction) -> list[discord.SelectOption]:
    """The open tracker's creatures an attack may aim at (standing, with an AC), by name,
    with the AC only for whoever may see the creature's numbers (``Target.visible_to``):
    a monster's stays the GM's, as on the card."""
    table = await current_table(interaction)
    store: Store = interaction.client.store  # type: ignore[attr-defined]
    record = await open_tracker(store, table.channel_id)
    if record is None:
        return []
    gm, lang = is_gm(table, interaction), lang_for(interaction.locale)
    found = [x for x in await targets(store, table.channel_id, tracker_of(record)) if aimable(x)]
    return [
        discord.SelectOption(
            label=clip(x.member.name, OPTION_LIMIT),
            value=x.member.target,
            description=t(lang, "fichas.form.dnd.ac_option", ac=x.ac)
            if x.visible_to(gm, interaction.user.id)
            else None,
        )
        for x in found[:MAX_CREATURES]
    ]


def aimable(target: Target) -> bool:
    """What ``/dnd ataque objetivo:`` accepts without ``ca``: not dead, its AC known."""
    return not target.dead and target.ac is not None


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
    """The roll's form; an attack's lists the open tracker's creatures, read at the press."""
    creatures = await creature_options(interaction) if item.key.startswith(f"{ATTACK}:") else None
    await interaction.response.send_modal(DndForm(lang_for(interaction.locale), item, who, None, creatures))


GAME = Game(rollables, press)
