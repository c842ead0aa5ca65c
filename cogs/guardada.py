"""``/guardada``: named rolls a player keeps for themselves or for the whole table.

A saved roll is a roll kind and the data its *Repetir* reads (bot.repeat): an expression
(``1d20+{bono}`` with its parameters' defaults) is played by /tirar's repeater with the
parameters filled in; a system roll, saved from the player's latest roll at the table, is
played by its own system's repeater, so its buttons and pools work as if the command had
been typed again (one saved in an older shape is read by that repeater's own upgrade, as
an old roll is). No other cog is imported: the registry is the only link.
"""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds
from bot.checks import (
    ANYWHERE_CONTEXTS,
    ANYWHERE_INSTALLS,
    channel_of,
    current_table,
    is_gm,
    reason,
    with_tirada,
)
from bot.client import Tirada
from bot.delivery import send
from bot.errors import Refusal
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import Record, SavedRoll, Table
from bot.repeat import asked
from rules.expression import parse
from rules.template import MAX_VALUES_LENGTH, fill, parse_values, placeholders

log = logging.getLogger(__name__)

# The kind /tirar registers its repeater under: a saved expression is played through it.
EXPRESSION_KIND = "tirar"
NAME_LIMIT = 32
OWN_LIMIT = 50
TABLE_LIMIT = 100
# A name is words: letters, digits, spaces, hyphens, underscores (no markdown, no mentions).
_NAME = re.compile(r"[\w\- ]{1,32}")
# An autocomplete choice names the saved roll by id: ``#12`` (a name never holds ``#``).
_CHOSEN = re.compile(r"#([0-9]{1,18})")


def clean_name(text: str) -> str:
    """A saved roll's name as kept: one line, lowercase, within its bound and alphabet."""
    name = " ".join(text.split()).lower()
    if len(name) > NAME_LIMIT:
        raise Refusal("guardada.name_too_long", max=NAME_LIMIT, length=len(name))
    if not _NAME.fullmatch(name):
        raise Refusal("guardada.bad_name")
    return name


def checked_expression(expression: str, values: dict[str, int]) -> dict[str, object]:
    """A saved expression's data, refused now rather than at the table: the parameters it
    names, their defaults, and the expression filled (a parameter without a default is
    tried as 1) within the dice engine's limits."""
    names = placeholders(expression)
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise Refusal("template.unknown", name=unknown[0])
    parse(fill(expression, {name: values.get(name, 1) for name in names}))
    return {"expresion": expression.strip(), "valores": values}


def describe(lang: Lang, saved: SavedRoll) -> str:
    """One line of ``/guardada ver``: the name, what it rolls, whose it is."""
    name = discord.utils.escape_markdown(saved.name)
    whose = t(lang, "guardada.whose.table" if saved.scope else "guardada.whose.own")
    if saved.kind == EXPRESSION_KIND and "valores" in saved.data:
        values = ", ".join(f"{k}={v}" for k, v in saved.data["valores"].items())
        what = f"`{saved.data['expresion']}`" + (f" ({values})" if values else "")
    else:
        what = t(lang, "guardada.system_roll", kind=saved.kind)
    return t(lang, "guardada.line", name=name, what=what, whose=whose)


async def table_of(interaction: discord.Interaction) -> Table | None:
    """The table a saved roll of the table's belongs to; none outside a server with Tirada."""
    if not with_tirada(interaction):
        return None
    return await current_table(interaction)


def roller(interaction: discord.Interaction, saved: SavedRoll) -> int:
    """Who a saved roll is played as made by. A system roll was its creator's latest roll
    at the table: its system's *Repetir* is asked as if that roll were repeated, so one made
    as a character stays its player's and the GM's (``access.check_repeat``)."""
    return interaction.user.id if saved.kind == EXPRESSION_KIND else saved.creator_id


class Guardada(commands.Cog):
    group = app_commands.Group(
        name=T("guardada.cmd"),
        description=T("guardada.cmd.desc"),
        allowed_installs=ANYWHERE_INSTALLS,
        allowed_contexts=ANYWHERE_CONTEXTS,
    )

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def visible(self, interaction: discord.Interaction, typed: str = "") -> list[SavedRoll]:
        """The user's own saved rolls, then the table's, whose name contains ``typed``."""
        table = await table_of(interaction)
        channel = table.channel_id if table is not None else None
        return await self.bot.store.named_rolls(
            interaction.user.id, channel, typed.strip().lower()[:NAME_LIMIT]
        )

    async def find(self, interaction: discord.Interaction, nombre: str) -> SavedRoll:
        """The saved roll ``nombre`` names (an autocomplete's ``#id`` or a typed name: the
        user's own first), among those the user may see here."""
        chosen = _CHOSEN.fullmatch(nombre.strip())
        candidates = await self.visible(interaction)
        if chosen is not None:
            found = next((s for s in candidates if s.id == int(chosen[1])), None)
        else:
            name = " ".join(nombre.split()).lower()
            found = next((s for s in candidates if s.name == name), None)
        if found is None:
            raise Refusal("guardada.unknown", name=discord.utils.escape_markdown(nombre.strip()[:NAME_LIMIT]))
        return found

    async def complete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = lang_for(interaction.locale)
        choices = []
        for saved in (await self.visible(interaction, current))[:25]:
            whose = t(lang, "guardada.whose.table" if saved.scope else "guardada.whose.own")
            choices.append(Choice(name=f"{saved.name} ({whose})"[:100], value=f"#{saved.id}"))
        return choices

    @group.command(name=T("guardada.crear"), description=T("guardada.crear.desc"))
    @options("guardada.opt")
    async def crear(
        self,
        interaction: discord.Interaction,
        nombre: app_commands.Range[str, 1, NAME_LIMIT],
        expresion: app_commands.Range[str, 1, 200] | None = None,
        valores: app_commands.Range[str, 1, MAX_VALUES_LENGTH] | None = None,
        ultima: bool = False,
        compartida: bool = False,
    ) -> None:
        name = clean_name(nombre)
        if (expresion is None) == (not ultima):
            raise Refusal("guardada.expression_or_last")
        table = await table_of(interaction)
        if table is None and (compartida or ultima):
            raise Refusal("guardada.needs_server")
        if expresion is not None:
            kind, data = EXPRESSION_KIND, checked_expression(expresion, parse_values(valores))
        else:
            if valores is not None:
                raise Refusal("guardada.values_for_expressions")
            assert table is not None
            last = await self.bot.store.latest_roll(
                table.channel_id, interaction.user.id, list(self.bot.repeaters)
            )
            if last is None:
                raise Refusal("guardada.no_last_roll")
            kind, data = last.kind, last.data
        scope = table.channel_id if compartida and table is not None else 0
        saved = SavedRoll(
            0, scope, 0 if scope else interaction.user.id, interaction.user.id, name, kind, data
        )
        limit = TABLE_LIMIT if scope else OWN_LIMIT
        outcome = await self.bot.store.save_named_roll(saved, limit)
        if outcome != "saved":
            raise Refusal(f"guardada.{outcome}", name=name, max=limit)
        lang = lang_for(interaction.locale)
        await send(
            interaction, embed=embeds.card(t(lang, "guardada.saved"), describe(lang, saved)), ephemeral=True
        )

    @group.command(name=T("guardada.tirar"), description=T("guardada.tirar.desc"))
    @options("guardada.opt")
    async def tirar(
        self,
        interaction: discord.Interaction[Tirada],
        nombre: app_commands.Range[str, 1, 40],
        valores: app_commands.Range[str, 1, MAX_VALUES_LENGTH] | None = None,
        privada: bool = False,
    ) -> None:
        saved = await self.find(interaction, nombre)
        repeater = self.bot.repeaters.get(saved.kind)
        if repeater is None:
            raise Refusal("guardada.broken", name=saved.name)
        if saved.kind == EXPRESSION_KIND and "valores" in saved.data:
            values = {**saved.data["valores"], **parse_values(valores)}
            expression = fill(saved.data["expresion"], values)
            data = asked({"expresion": expression}, secreta=False, motivo=reason(saved.name), privada=privada)
        elif valores is not None or privada:
            raise Refusal("guardada.values_for_expressions")
        elif not with_tirada(interaction):
            raise Refusal("guardada.system_needs_server")
        else:
            data = saved.data
        record = Record(0, channel_of(interaction), roller(interaction, saved), saved.kind, data)
        try:
            await repeater(interaction, record)
        except (KeyError, TypeError, ValueError):
            log.warning(
                "saved roll no longer matches its kind", extra={"saved": saved.id, "kind": saved.kind}
            )
            raise Refusal("guardada.broken", name=saved.name) from None

    @group.command(name=T("guardada.ver"), description=T("guardada.ver.desc"))
    async def ver(self, interaction: discord.Interaction) -> None:
        lang = lang_for(interaction.locale)
        lines = [describe(lang, saved) for saved in await self.visible(interaction)]
        shown: list[str] = []
        for index, line in enumerate(lines):
            if sum(len(s) + 1 for s in shown) + len(line) > embeds.DESCRIPTION_LIMIT - 100:
                shown.append(t(lang, "guardada.more", count=len(lines) - index))
                break
            shown.append(line)
        text = "\n".join(shown) or t(lang, "guardada.none")
        await send(interaction, embed=embeds.card(t(lang, "guardada.list"), text), ephemeral=True)

    @group.command(name=T("guardada.borrar"), description=T("guardada.borrar.desc"))
    @options("guardada.opt")
    async def borrar(self, interaction: discord.Interaction, nombre: app_commands.Range[str, 1, 40]) -> None:
        saved = await self.find(interaction, nombre)
        if saved.scope and saved.creator_id != interaction.user.id:
            table = await current_table(interaction)
            if not is_gm(table, interaction):
                raise Refusal("guardada.not_yours")
        await self.bot.store.delete_named_roll(saved.id)
        lang = lang_for(interaction.locale)
        text = t(lang, "guardada.deleted", name=discord.utils.escape_markdown(saved.name))
        await send(interaction, embed=embeds.card(text), ephemeral=True)

    @tirar.autocomplete("nombre")
    async def tirar_names(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.complete(interaction, current)

    @borrar.autocomplete("nombre")
    async def borrar_names(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.complete(interaction, current)


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Guardada(bot))
