"""Sheets as embeds read at a glance, and import problems as sentences."""

from __future__ import annotations

import discord

from bot import embeds
from bot.i18n import Lang, t
from bot.models import SheetRow
from bot.panel import safe
from bot.sheets.io import Problem
from bot.sheets.models import SheetBase
from cogs.dnd5e.sheet_model import DndSheet
from cogs.donjon.sheet_model import DonjonSheet
from cogs.dune.sheet_model import DuneSheet
from cogs.mediana.sheet_model import MedianaSheet
from rules.dnd5e import checks

# Each list shows this many entries; the rest is counted (an embed stays under 6,000).
SHOWN = 12


def listed(lang: Lang, lines: list[str]) -> str:
    shown = lines[:SHOWN]
    if len(lines) > SHOWN:
        shown.append(t(lang, "fichas.more", n=len(lines) - SHOWN))
    return "\n".join(shown) or "—"


def sheet_embed(lang: Lang, row: SheetRow, sheet: SheetBase) -> discord.Embed:
    title_key = "fichas.ver.npc_title" if row.npc else "fichas.ver.title"
    embed = embeds.card(t(lang, title_key, name=safe(sheet.nombre), system=t(lang, f"system.{row.system}")))
    embed.description = t(lang, "fichas.ver.owner", owner=row.owner_id, id=row.id)
    RENDER[row.system](lang, embed, sheet)
    return embed


def dune(lang: Lang, embed: discord.Embed, sheet: SheetBase) -> None:
    assert isinstance(sheet, DuneSheet)
    skills = sheet.habilidades.model_dump()
    embeds.field(
        embed,
        t(lang, "fichas.dune.skills"),
        "\n".join(f"{t(lang, f'fichas.dune.skill.{k}')} **{v}**" for k, v in skills.items()),
    )
    drives = [
        f"{t(lang, f'fichas.dune.drive.{k}')} **{d.valor}**"
        + (f" — {safe(d.declaracion)}" if d.declaracion and not d.tachada else "")
        + (f" — {t(lang, 'fichas.dune.crossed', statement=safe(d.declaracion))}" if d.tachada else "")
        for k, d in sheet.motivaciones
    ]
    embeds.field(embed, t(lang, "fichas.dune.drives"), "\n".join(drives), inline=False)
    focuses = [f"{t(lang, f'fichas.dune.skill.{f.habilidad}')}: {safe(f.nombre)}" for f in sheet.enfoques]
    embeds.field(embed, t(lang, "fichas.dune.focuses"), listed(lang, focuses), inline=False)
    embeds.field(
        embed, t(lang, "fichas.dune.talents"), listed(lang, [safe(x.nombre) for x in sheet.talentos])
    )
    embeds.field(embed, t(lang, "fichas.dune.assets"), listed(lang, [safe(x.nombre) for x in sheet.recursos]))


def dnd(lang: Lang, embed: discord.Embed, sheet: SheetBase) -> None:
    assert isinstance(sheet, DndSheet)
    scores = [
        f"{t(lang, f'dnd.ability.{k}')} **{v}** ({checks.ability_modifier(v):+d})"
        for k, v in sheet.caracteristicas.model_dump().items()
    ]
    embeds.field(embed, t(lang, "fichas.dnd.abilities"), "\n".join(scores))
    pg = sheet.pg
    summary = t(
        lang,
        "fichas.dnd.summary" if sheet.vd is None else "fichas.dnd.summary_cr",
        level=sheet.nivel if sheet.vd is None else sheet.vd,
        proficiency=sheet.proficiency,
        ac=sheet.ca,
        hp=pg.actuales,
        max=pg.maximos,
        temp=pg.temporales,
        speed=sheet.velocidad,
    )
    embeds.field(embed, t(lang, "fichas.dnd.combat"), summary)
    skills = [t(lang, f"dnd.skill.{s}") + (" ★" if s in sheet.pericias else "") for s in sheet.competencias]
    embeds.field(embed, t(lang, "fichas.dnd.skills"), listed(lang, skills))
    saves = [t(lang, f"dnd.ability.{a}") for a in sheet.salvaciones]
    embeds.field(embed, t(lang, "fichas.dnd.saves"), listed(lang, saves))
    attacks = [f"{safe(a.nombre)}: {safe(a.dano) or '—'} {safe(a.tipo)}".strip() for a in sheet.ataques]
    embeds.field(embed, t(lang, "fichas.dnd.attacks"), listed(lang, attacks), inline=False)


def donjon(lang: Lang, embed: discord.Embed, sheet: SheetBase) -> None:
    assert isinstance(sheet, DonjonSheet)
    attributes = [
        f"{t(lang, f'fichas.donjon.attr.{k}')} **{v}**" for k, v in sheet.atributos.model_dump().items()
    ]
    embeds.field(embed, t(lang, "fichas.donjon.attributes"), "\n".join(attributes))
    summary = t(
        lang,
        "fichas.donjon.summary",
        level=sheet.nivel,
        wounds=sheet.heridas,
        provisions=sheet.provisiones,
        wealth=sheet.riqueza,
    )
    embeds.field(embed, t(lang, "fichas.donjon.state"), summary)
    skills = [t(lang, "fichas.dice", name=safe(s.nombre), n=s.dados) for s in sheet.habilidades]
    saves = [
        t(lang, "fichas.dice", name=t(lang, f"fichas.donjon.save.{key}"), n=n) for key, n in sheet.salvaciones
    ]
    embeds.field(embed, t(lang, "fichas.donjon.skills"), listed(lang, skills + saves), inline=False)
    items = [t(lang, "fichas.donjon.item", name=safe(i.nombre), nd=i.nd) for i in sheet.equipo]
    embeds.field(embed, t(lang, "fichas.donjon.equipment"), listed(lang, items), inline=False)


def mediana(lang: Lang, embed: discord.Embed, sheet: SheetBase) -> None:
    assert isinstance(sheet, MedianaSheet)
    embeds.field(
        embed,
        t(lang, "fichas.mediana.attributes"),
        listed(lang, [f"{safe(a.nombre)} **{a.valor}**" for a in sheet.atributos]),
    )
    pv = sheet.pv
    summary = t(
        lang,
        "fichas.mediana.summary",
        hp=pv.actuales,
        max=pv.maximos,
        physique=sheet.physique,
        absorption=sheet.armadura.absorcion,
        encumbrance=sheet.armadura.estorbo,
    )
    embeds.field(embed, t(lang, "fichas.mediana.state"), summary)
    skills = [f"{safe(s.nombre)} ({safe(s.atributo)}) **{s.valor}**" for s in sheet.habilidades]
    embeds.field(embed, t(lang, "fichas.mediana.skills"), listed(lang, skills), inline=False)


RENDER = {"dune": dune, "dnd5e": dnd, "donjon": donjon, "mediana": mediana}


def problems_text(lang: Lang, problems: list[Problem]) -> str:
    """The first problems of a refused file, one line each."""
    return "\n".join(
        "• " + t(lang, f"fichas.problem.{p.kind}", field=safe(p.where)[:80], limit=str(p.limit)[:120])
        for p in problems
    )
