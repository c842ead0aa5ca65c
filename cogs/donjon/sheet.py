"""Donjon dice from a character sheet: an Atributo and one of the character's invented
Habilidades by name ("sólo se puede tirar un Atributo más una Habilidad"), or a number of
dice as before, for tables without sheets. The card shows where the dice came from:
"Discernimiento 6 + Rastrear Cualquier Cosa 4 = 10 dados".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord.app_commands import Choice

from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import SheetRow, Table
from bot.names import Names, closest, containing
from bot.sheets import access
from cogs.donjon.sheet_model import DonjonAttributes, DonjonItem, DonjonSheet, DonjonSkill
from rules.donjon import contest
from rules.donjon import sheet as donjon_sheet
from rules.errors import check_range

ATTRIBUTES = Names(
    lambda attribute: f"fichas.donjon.attr.{attribute}",
    DonjonAttributes.model_fields,
    "fichas.donjon.unknown_attribute",
)
# A part of a pool named by the player rather than the catalog: "nombre:Trepar Árboles".
NAMED = "nombre:"
# What an item's Peso takes off a roll ("peso:Armadura de placas"), and a weapon held in
# both hands ("manos:Espada a dos manos", no dice).
WEIGHT = "peso:"
TWO_HANDED = "manos:"
WEAPONS = frozenset({"arma", "arma_distancia"})
ARMOUR = frozenset({"armadura", "escudo"})
LANGS: tuple[Lang, ...] = ("es", "en")
NUMBER = re.compile(r"\s*\d{1,3}\s*")

Parts = list[tuple[str, int]]
Suggest = Callable[[discord.Interaction[Tirada], str], Coroutine[Any, Any, list[Choice[str]]]]


async def read(
    bot: Tirada,
    interaction: discord.Interaction,
    table: Table,
    como: str | None,
    owner: int | None = None,
) -> DonjonSheet:
    """The sheet a roll reads: ``owner``'s active one (the roller's by default), or the
    GM's NPC ``como`` names."""
    gm = is_gm(table, interaction)
    _, sheet = await access.for_roll(bot.store, table, gm, owner or interaction.user.id, como)
    return access.of_kind(sheet, DonjonSheet)


def attribute_part(sheet: DonjonSheet, typed: str) -> tuple[str, int]:
    key = ATTRIBUTES.find(typed)
    return f"atributo.{key}", getattr(sheet.atributos, key)


def attribute_parts(sheet: DonjonSheet, typed: str) -> Parts:
    """An Atributo, and for Celeridad what armour heavier than the Virilidad takes off it
    ("Si un personaje lleva armadura con un Peso mayor que su Virilidad, su Celeridad es
    penalizada por la diferencia"; the heaviest piece counts)."""
    name, value = attribute_part(sheet, typed)
    parts: Parts = [(name, value)]
    armour = [i for i in sheet.equipo if i.tipo in ARMOUR]
    if name == "atributo.celeridad" and armour:
        heaviest = max(armour, key=lambda i: i.nd)
        penalty = donjon_sheet.weight_penalty(heaviest.nd, sheet.atributos.virilidad)
        if penalty:
            parts.append((WEIGHT + heaviest.nombre, -penalty))
    return parts


def skill_dice(sheet: DonjonSheet) -> dict[str, tuple[str, int]]:
    """What ``habilidad`` may name, by name: a Habilidad, or a Tirada de Salvación in either
    language ("una Habilidad apropiada, una Tirada de Salvación")."""
    found = {s.nombre: (NAMED + s.nombre, s.dados) for s in sheet.habilidades}
    for key, dice in sheet.salvaciones.model_dump().items():
        for lang in LANGS:
            found[t(lang, f"fichas.donjon.save.{key}")] = (f"salvacion.{key}", dice)
    return found


def skill_part(sheet: DonjonSheet, typed: str) -> tuple[str, int]:
    named = skill_dice(sheet)
    found = closest(typed, named)
    if found is None:
        raise Refusal("fichas.donjon.unknown_skill", name=discord.utils.escape_markdown(typed[:60]))
    return named[found]


def item_parts(sheet: DonjonSheet, typed: str) -> Parts:
    """An item of the sheet's equipment used in the roll, by its name or its Habilidad's:
    its Habilidad adds ("excepto cuando el personaje tiene objetos con Habilidades
    apropiadas. En ese caso, se suman ambas Habilidades"); a weapon heavier than the
    Virilidad takes the difference off ("las oportunidades de impactar con el arma reciben
    una penalización igual a la diferencia"), and one as heavy must be held in both hands."""
    uses: dict[str, tuple[DonjonItem, DonjonSkill | None]] = {}
    for item in sheet.equipo:
        uses.setdefault(item.nombre, (item, item.habilidades[0] if item.habilidades else None))
        uses.update({skill.nombre: (item, skill) for skill in item.habilidades})
    found = closest(typed, uses)
    if found is None:
        raise Refusal("fichas.donjon.unknown_item", name=discord.utils.escape_markdown(typed[:60]))
    item, skill = uses[found]
    parts: Parts = []
    if skill is not None:
        parts.append((f"{NAMED}{skill.nombre} ({item.nombre})", skill.dados))
    virility = sheet.atributos.virilidad
    if item.tipo in WEAPONS:
        penalty = donjon_sheet.weight_penalty(item.nd, virility)
        if penalty:
            parts.append((WEIGHT + item.nombre, -penalty))
    if item.tipo == "arma" and donjon_sheet.two_handed(item.nd, virility):
        parts.append((TWO_HANDED + item.nombre, 0))
    return parts


async def dice(
    bot: Tirada,
    interaction: discord.Interaction,
    table: Table,
    atributo: str | None,
    habilidad: str | None,
    como: str | None,
    owner: int | None = None,
    typed: int | None = None,
    objeto: str | None = None,
) -> tuple[int, Parts, str]:
    """The dice an Atributo plus a Habilidad (and an item) of the sheet give, what they are
    made of, and whose sheet it is: ``owner``'s active one (the GM may roll for a player),
    or ``como``. Dice ``typed`` win over the sheet, which then only names the character."""
    if typed is None and not atributo and not habilidad and not objeto:
        raise Refusal("fichas.donjon.need_dice")
    sheet = await read(bot, interaction, table, como, owner)
    if typed is not None:
        return typed, [("dados", typed)], sheet.nombre
    parts: Parts = []
    if atributo:
        parts += attribute_parts(sheet, atributo)
    if habilidad:
        parts.append(skill_part(sheet, habilidad))
    if objeto:
        parts += item_parts(sheet, objeto)
    return max(sum(v for _, v in parts), 0), parts, sheet.nombre


def number(typed: str | None, name: str) -> int | None:
    """A term typed as a number of dice (as before sheets), else None: a name or nothing."""
    if typed is None or not NUMBER.fullmatch(typed):
        return None
    check_range(name, int(typed), 0, contest.MAX_POOL)
    return int(typed)


async def npc_terms(
    bot: Tirada,
    interaction: discord.Interaction,
    table: Table,
    atributo: str | None,
    habilidad: str | None,
    pnj: str | None,
) -> tuple[Parts, str | None] | None:
    """The opposing NPC's Atributo and Habilidad in a Prueba de Daño, each a number or a
    name on the GM's NPC sheet ``pnj``, and the NPC's name; None when neither is given."""
    if atributo is None and habilidad is None:
        if pnj:
            raise Refusal("fichas.donjon.need_dice")
        return None
    attribute, skill = number(atributo, "atributo_pnj"), number(habilidad, "habilidad_pnj")
    named_attribute = atributo is not None and attribute is None
    named_skill = habilidad is not None and skill is None
    if (named_attribute or named_skill) and not pnj:
        raise Refusal("fichas.npc_names")
    if not pnj:
        return [("atributo", attribute or 0), ("habilidad", skill or 0)], None
    sheet = await read(bot, interaction, table, pnj)
    return [
        attribute_part(sheet, str(atributo)) if named_attribute else ("atributo", attribute or 0),
        skill_part(sheet, str(habilidad)) if named_skill else ("habilidad", skill or 0),
    ], sheet.nombre


async def taker(bot: Tirada, table: Table, owner: int) -> tuple[SheetRow, DonjonSheet] | None:
    """``owner``'s active sheet when it is of this table's system: the character whose
    Heridas, Provisiones and Riqueza a test changes. None without one (numbers only)."""
    row = await bot.store.active_sheet(table.channel_id, owner)
    if row is None or table.system is None or row.system != table.system:
        return None
    return row, access.of_kind(await access.content(bot.store, row), DonjonSheet)


async def endurance(
    bot: Tirada, interaction: discord.Interaction, table: Table, owner: int
) -> tuple[int, str]:
    """The Aguante on ``owner``'s active sheet (the one taking the Prueba de Daño)."""
    sheet = await read(bot, interaction, table, None, owner)
    return sheet.atributos.aguante, sheet.nombre


def absorbing(found: tuple[SheetRow, DonjonSheet] | None, typed: str | None) -> tuple[str, int] | None:
    """The Habilidad that absorbs damage ("Piel Dura para absorber daño"): its dice typed, or
    its name on the taker's sheet; None when none is given."""
    dice = number(typed, "habilidad")
    if typed is None or dice is not None:
        return None if not dice else ("habilidad", dice)
    if found is None:
        raise Refusal("fichas.no_active")
    return skill_part(found[1], typed)


# The terms of a Prueba de Gastos a sheet holds: an Atributo, or a number play changes.
EXPENSE_ATTRIBUTES = ("sociabilidad", "cerebralidad")
EXPENSE_POOLS = ("provisiones", "riqueza")


async def expense(
    bot: Tirada,
    interaction: discord.Interaction,
    table: Table,
    ask: dict[str, Any],
    from_sheet: tuple[str, ...],
) -> dict[str, Any]:
    """A Prueba de Gastos' options with the terms in ``from_sheet`` left empty read from the
    roller's active sheet (Sociabilidad, Cerebralidad, current Provisiones or Riqueza), and
    the Habilidad as a number or by name; each term the sheet gave is named for the card.
    With a sheet, the test is that character's: ``ficha`` names the sheet whose Riqueza or
    Provisiones it spends (and adds to)."""
    missing = [key for key in from_sheet if ask.get(key) is None]
    typed = ask.get("habilidad")
    skill = number(typed, "habilidad")
    if missing or (typed is not None and skill is None):
        gm = is_gm(table, interaction)
        row, found = await access.for_roll(bot.store, table, gm, interaction.user.id, None)
        sheet = access.of_kind(found, DonjonSheet)
    else:
        active = await taker(bot, table, interaction.user.id)
        if active is None:
            return {**ask, "habilidad": skill or 0}
        row, sheet = active
    filled, names = dict(ask), {}
    for key in missing:
        if key in EXPENSE_ATTRIBUTES:
            names[key] = f"atributo.{key}"
            filled[key] = getattr(sheet.atributos, key)
        else:
            filled[key] = getattr(sheet, key)
    if skill is None and typed is not None:
        names["habilidad"], filled["habilidad"] = skill_part(sheet, typed)
    else:
        filled["habilidad"] = skill or 0
    return {**filled, "nombres": names, "character": sheet.nombre, "ficha": row.id}


async def _sheet(interaction: discord.Interaction[Tirada], option: str, own: bool) -> DonjonSheet | None:
    """The sheet the ``option`` NPC names, else (when ``own``) the roller's active one."""
    sheet = await access.named_in(interaction, option, own)
    return sheet if isinstance(sheet, DonjonSheet) else None


def skills_of(option: str, own: bool = False) -> Suggest:
    """An autocomplete of the Habilidades, with their dice, on the sheet the ``option`` NPC
    names (with ``own``, the roller's when it is empty)."""

    async def suggest(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
        sheet = await _sheet(interaction, option, own)
        if sheet is None:
            return []
        dice_of = {name: dice for name, (_, dice) in skill_dice(sheet).items() if name_in(name, interaction)}
        return [Choice(name=f"{n} ({dice_of[n]})"[:100], value=n) for n in containing(current, dice_of)]

    return suggest


def name_in(name: str, interaction: discord.Interaction) -> bool:
    """A Tirada de Salvación is offered in the user's language only (both are understood)."""
    other: Lang = "en" if lang_for(interaction.locale) == "es" else "es"
    return all(name != t(other, f"fichas.donjon.save.{key}") for key in ("ilusion", "veneno"))


def items_of(option: str, own: bool = False) -> Suggest:
    """An autocomplete of the equipment's items and their Habilidades, with their dice."""

    async def suggest(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
        sheet = await _sheet(interaction, option, own)
        if sheet is None:
            return []
        named = {i.nombre: "" for i in sheet.equipo}
        named |= {s.nombre: f" ({s.dados})" for i in sheet.equipo for s in i.habilidades}
        return [Choice(name=f"{n}{named[n]}"[:100], value=n) for n in containing(current, named)]

    return suggest


def attributes_of(option: str, own: bool = False) -> Suggest:
    """An autocomplete of the Atributos, with the value on the sheet the ``option`` NPC
    names (with ``own``, the roller's when it is empty) when there is one."""

    async def suggest(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
        sheet = await _sheet(interaction, option, own)
        lang = lang_for(interaction.locale)
        return [
            Choice(name=f"{label} ({getattr(sheet.atributos, key)})" if sheet else label, value=key)
            for key, label in ATTRIBUTES.suggest(lang, current)
        ]

    return suggest


async def taker_skill_choices(interaction: discord.Interaction[Tirada], current: str) -> list[Choice[str]]:
    """The Habilidades of whoever takes the damage: the named player's for the GM, else the
    roller's own."""
    table = await current_table(interaction)
    member = getattr(interaction.namespace, "jugador", None)
    owner = getattr(member, "id", None) if is_gm(table, interaction) else None
    found = await taker(interaction.client, table, owner or interaction.user.id)
    if found is None:
        return []
    dice_of = {name: dice for name, (_, dice) in skill_dice(found[1]).items() if name_in(name, interaction)}
    return [Choice(name=f"{n} ({dice_of[n]})"[:100], value=n) for n in containing(current, dice_of)]


skill_choices = skills_of("como", own=True)
item_choices = items_of("como", own=True)
attribute_choices = attributes_of("como", own=True)
