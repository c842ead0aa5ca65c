"""The ``/ficha`` commands: create, read, edit, delete, import, export, choose sheets."""

from __future__ import annotations

import io as bytes_io
from dataclasses import replace

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds, rolls
from bot.client import Tirada
from bot.context import TableContext, table_context
from bot.errors import Refusal, RefusedCheck, send
from bot.i18n import T, number, options, t
from bot.models import Change, Operation, Refused, SheetRow
from bot.names import fold
from bot.sheets import access, fields, io
from bot.sheets.io import blank
from bot.sheets.live import Data, as_stored, companion, get, live_field, live_fields, opening
from bot.sheets.models import NAME_LIMIT, SheetBase
from cogs.ficha import panel
from cogs.ficha.opened import OpenPanels
from cogs.ficha.render import problems_text, safe, sheet_embed

# How many sheets one owner may keep at a table (each is at most io.MAX_BYTES).
SHEETS_PER_OWNER = 40


class Sheets(commands.Cog):
    group = app_commands.Group(name=T("fichas.cmd"), description=T("fichas.cmd.desc"), guild_only=True)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot
        self.menu = app_commands.ContextMenu(name=T("fichas.menu.ver"), callback=self.ver_menu)
        self.menu.guild_only = True
        self.panels = OpenPanels(panel.played, panel.drawn)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*panel.COMPONENTS)
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*panel.COMPONENTS)
        self.panels.close()
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise RefusedCheck("error.guild_only")
        return True

    async def here(self, interaction: discord.Interaction) -> TableContext:
        """The table, which must play a system: a sheet is a sheet of that system."""
        ctx = await table_context(interaction)
        if ctx.table.system is None:
            raise Refusal("fichas.no_system")
        return ctx

    async def store_new(
        self, interaction: discord.Interaction, ctx: TableContext, sheet: SheetBase, npc: bool, reason: str
    ) -> SheetRow:
        """Keep a new sheet (and its live pools, through the ledger) once, or refuse."""
        if ctx.table.system is None or sheet.sistema != ctx.table.system:
            raise Refusal("fichas.wrong_system")
        if npc:
            ctx.require_gm()
        owner = interaction.user.id
        if len(await self.bot.store.sheets(ctx.table.channel_id, owner)) >= SHEETS_PER_OWNER:
            raise Refusal("fichas.too_many", n=SHEETS_PER_OWNER)
        if not npc:
            await self.leave(ctx, owner, sheet.sistema)
        data = sheet.model_dump(mode="json")
        row = SheetRow(
            0,
            ctx.table.channel_id,
            owner,
            npc,
            sheet.nombre,
            fold(sheet.nombre),
            sheet.sistema,
            data,
            not npc,
        )
        op = Operation(
            ctx.table.channel_id,
            interaction.id,
            owner,
            reason,
            guild_id=interaction.guild_id,
            new_record=companion(row, sheet),
        )
        sheet_id, outcome = await self.bot.store.create_sheet(
            op, row, lambda i: opening(replace(row, id=i), sheet)
        )
        if isinstance(outcome, Refused):
            raise Refusal(outcome.key, name=safe(sheet.nombre))
        stored = await self.bot.store.sheet(ctx.table.channel_id, sheet_id)
        assert stored is not None
        return stored

    async def show(
        self, interaction: discord.Interaction, ctx: TableContext, row: SheetRow, key: str
    ) -> None:
        sheet = await access.content(self.bot.store, row)
        embed = sheet_embed(ctx.lang, row, sheet)
        await send(
            interaction,
            content=t(ctx.lang, key, name=safe(row.name)),
            embed=embed,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @group.command(name=T("fichas.crear"), description=T("fichas.crear.desc"))
    @options("fichas.opt")
    async def crear(
        self,
        interaction: discord.Interaction,
        nombre: app_commands.Range[str, 1, NAME_LIMIT],
        pnj: bool = False,
    ) -> None:
        """A new sheet at the book's lowest values (the active one, for a player)."""
        ctx = await self.here(interaction)
        if not nombre.strip() or len(nombre) > NAME_LIMIT:
            raise Refusal("fichas.bad_name", n=NAME_LIMIT)
        system = ctx.table.system
        assert system is not None  # here() refuses a table without one
        row = await self.store_new(interaction, ctx, blank(system, nombre), pnj, "fichas.crear")
        await self.show(interaction, ctx, row, "fichas.crear.done")

    @group.command(name=T("fichas.ver"), description=T("fichas.ver.desc"))
    @options("fichas.opt")
    async def ver(self, interaction: discord.Interaction, ficha: str | None = None) -> None:
        """A sheet read at a glance (only for whoever asked)."""
        ctx = await self.here(interaction)
        row = await access.find(self.bot.store, ctx.table, ctx.gm, interaction.user.id, ficha)
        await panel.show(interaction, ctx.table, row)

    async def ver_menu(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """*Ver ficha* on a member: their active sheet's panel, when this user may read it."""
        if interaction.guild_id is None:
            raise Refusal("error.guild_only")
        ctx = await self.here(interaction)
        row = await self.bot.store.active_sheet(ctx.table.channel_id, member.id)
        if row is None or not access.readable(ctx.table, ctx.gm, interaction.user.id, row):
            raise Refusal("fichas.menu.none", user=member.id)
        await panel.show(interaction, ctx.table, row)

    @group.command(name=T("fichas.editar"), description=T("fichas.editar.desc"))
    @options("fichas.opt")
    async def editar(
        self,
        interaction: discord.Interaction,
        campo: app_commands.Range[str, 1, 100],
        valor: app_commands.Range[str, 1, fields.VALUE_LIMIT],
        ficha: str | None = None,
    ) -> None:
        """One field; a number play changes goes through the ledger (undo reverts it)."""
        await self.edit(interaction, campo, valor, ficha)

    async def edit(
        self,
        interaction: discord.Interaction,
        campo: str,
        valor: str,
        ficha: str | None = None,
        was: int | None = None,
    ) -> None:
        """``/ficha editar``; from *Cambiar*'s form, ``was`` is the number as the form showed
        it: the edit sets a value, so a change made since (damage, a spend) would be undone
        in silence. The write itself refuses when the number moved: a live number's set
        expects its pool at that value, a number kept in the file is checked on the read
        whose version the write requires."""
        ctx = await self.here(interaction)
        row = await access.find(self.bot.store, ctx.table, ctx.gm, interaction.user.id, ficha, write=True)
        current = (await access.content(self.bot.store, row)).model_dump(mode="json")
        path = campo.strip()
        if path not in fields.paths(current):
            raise Refusal("fichas.editar.unknown_field", field=safe(path[:60]))
        live = live_field(row, path)
        # A live number's set carries ``was`` to the store, which refuses it there (and a
        # replay gets its first answer); a number kept in the file is checked on this read,
        # whose version the write requires.
        if was is not None and live is None and (now := int(get(current, path))) != was:
            raise moved(ctx, path, now)
        try:
            sheet = fields.edited(current, path, valor[: fields.VALUE_LIMIT])
        except io.Rejected as rejected:
            raise Refusal(
                "fichas.editar.refused", problems=problems_text(ctx.lang, rejected.problems)
            ) from None
        after = sheet.model_dump(mode="json")
        if live is not None and live.gm_edits and not ctx.gm:
            raise Refusal("fichas.editar.gm_only", field=path)
        if live is not None:
            # A set, not a difference from what was read: simultaneous edits (or an edit
            # and damage) cannot apply twice; the ledger row records what it really moved.
            target = live.pool_value(after, int(get(after, path)))
            expect = None if was is None else live.pool_value(current, was)
            change = Change(
                live.pool, owner_id=live.owner(row), cap=live.cap(after), set_to=target, expect=expect
            )

            def refuse(outcome: Refused) -> Exception:
                if outcome.key == "pool.moved":
                    return moved(ctx, path, live.field(current, outcome.value))
                return outcome.error()

            await rolls.change(self.bot.store, interaction, ctx.table, "fichas.editar", change, refuse=refuse)
        elif path == "nombre":
            await self.rename(row, after, sheet.nombre)
        elif not await self.bot.store.update_sheet(row.id, row.version, as_stored(row, after)):
            raise Refusal("fichas.busy")
        else:
            await self.renew_companion(interaction, ctx, row, io.validate(current, stored=True), sheet)
        fresh = await self.bot.store.sheet(ctx.table.channel_id, row.id)
        assert fresh is not None
        await self.show(interaction, ctx, fresh, "fichas.editar.done")

    async def rename(self, row: SheetRow, after: Data, name: str) -> None:
        """A new name is a new lookup too: the old name finds nothing, and it is refused
        when the owner already has a sheet of that name at the table."""
        refused = await self.bot.store.rename_sheet(
            row.id, row.version, as_stored(row, after), name, fold(name)
        )
        if refused is not None:
            raise Refusal(refused, name=safe(name))

    async def renew_companion(
        self,
        interaction: discord.Interaction,
        ctx: TableContext,
        row: SheetRow,
        before: SheetBase,
        after: SheetBase,
    ) -> None:
        """``/mediana pv`` reads Físico and the maximum from a record of its own: when an
        edit of the active sheet changes either, that record is written again, or
        ``/mediana pv``, its Malherido rank and the board would keep the old ones."""
        renewed = companion(row, after)
        previous = companion(row, before)
        if renewed is not None and previous is not None and renewed.data != previous.data:
            await rolls.change(self.bot.store, interaction, ctx.table, "fichas.editar", new_record=renewed)

    @group.command(name=T("fichas.borrar"), description=T("fichas.borrar.desc"))
    @options("fichas.opt")
    async def borrar(self, interaction: discord.Interaction, ficha: str) -> None:
        ctx = await self.here(interaction)
        row = await access.find(self.bot.store, ctx.table, ctx.gm, interaction.user.id, ficha, write=True)
        await self.bot.store.delete_sheet(ctx.table.channel_id, row.id)
        text = t(ctx.lang, "fichas.borrar.done", name=safe(row.name))
        await send(interaction, embed=embeds.card(text), ephemeral=True)

    @group.command(name=T("fichas.elegir"), description=T("fichas.elegir.desc"))
    @options("fichas.opt")
    async def elegir(self, interaction: discord.Interaction, ficha: str) -> None:
        """Make one of your own sheets the one your rolls read."""
        ctx = await self.here(interaction)
        row = await access.find(self.bot.store, ctx.table, False, interaction.user.id, ficha, write=True)
        if not row.active:
            await self.switch(interaction, ctx, row)
        text = t(ctx.lang, "fichas.elegir.done", name=safe(row.name))
        await send(interaction, embed=embeds.card(text), ephemeral=True)

    async def leave(self, ctx: TableContext, user_id: int, system: str) -> bool:
        """Before another sheet becomes active: where the player's pool is shared by their
        characters (Mediana's PV), the active one keeps its value in its file. Returns
        whether the pool is shared."""
        if not any(live.by_player for live in live_fields(system)):
            return False
        old = await self.bot.store.active_sheet(ctx.table.channel_id, user_id)
        if old is not None and old.system == system:
            kept = (await access.content(self.bot.store, old)).model_dump(mode="json")
            await self.bot.store.update_sheet(old.id, old.version, kept)
        return True

    async def switch(self, interaction: discord.Interaction, ctx: TableContext, row: SheetRow) -> None:
        """Make ``row`` the active sheet. Where the player's pool is shared by their
        characters (Mediana's PV), the one left keeps its PV in its file and the pool takes
        the chosen one's, through the ledger."""
        store = self.bot.store
        shared = await self.leave(ctx, interaction.user.id, row.system)
        sheet = await access.content(store, row)  # as its file keeps it, before it is active
        await store.choose_sheet(ctx.table.channel_id, interaction.user.id, row.id)
        chosen = replace(row, active=True)
        if shared:
            changes = opening(chosen, sheet)
            new_roll = companion(chosen, sheet)
            await rolls.change(store, interaction, ctx.table, "fichas.elegir", *changes, new_record=new_roll)

    @group.command(name=T("fichas.exportar"), description=T("fichas.exportar.desc"))
    @options("fichas.opt")
    async def exportar(self, interaction: discord.Interaction, ficha: str | None = None) -> None:
        """The sheet as a JSON file, the same bytes ``importar`` reads back."""
        ctx = await self.here(interaction)
        row = await access.find(self.bot.store, ctx.table, ctx.gm, interaction.user.id, ficha)
        raw = io.dump(await access.content(self.bot.store, row))
        file = discord.File(bytes_io.BytesIO(raw), filename=f"ficha-{row.id}.json")
        text = t(ctx.lang, "fichas.exportar.done", name=safe(row.name))
        await send(
            interaction,
            content=text,
            file=file,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @group.command(name=T("fichas.importar"), description=T("fichas.importar.desc"))
    @options("fichas.opt")
    async def importar(
        self, interaction: discord.Interaction, archivo: discord.Attachment, pnj: bool = False
    ) -> None:
        """A sheet from a file: refused whole, with its first problems, or kept whole."""
        ctx = await self.here(interaction)
        if archivo.size > io.MAX_UPLOAD_BYTES:
            raise Refusal("fichas.problem.too_large", limit=io.MAX_UPLOAD_BYTES // 1024)
        try:
            sheet = io.load(await archivo.read())
        except io.Rejected as rejected:
            raise Refusal(
                "fichas.importar.refused", problems=problems_text(ctx.lang, rejected.problems)
            ) from None
        row = await self.store_new(interaction, ctx, sheet, pnj, "fichas.importar")
        await self.show(interaction, ctx, row, "fichas.importar.done")

    @group.command(name=T("fichas.publicas"), description=T("fichas.publicas.desc"))
    @options("fichas.opt")
    async def publicas(self, interaction: discord.Interaction, publicas: bool) -> None:
        """The GM decides whether players may read each other's sheets."""
        ctx = await self.here(interaction)
        ctx.require_gm()
        settings = ctx.table.settings.model_copy(update={"public_sheets": publicas})
        await self.bot.store.set_settings(ctx.table.channel_id, interaction.guild_id, settings)
        key = "fichas.publicas.on" if publicas else "fichas.publicas.off"
        await send(interaction, embed=embeds.card(t(ctx.lang, key)), ephemeral=True)

    @ver.autocomplete("ficha")
    @editar.autocomplete("ficha")
    @borrar.autocomplete("ficha")
    @elegir.autocomplete("ficha")
    @exportar.autocomplete("ficha")
    async def sheet_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        ctx = await table_context(interaction)
        return await access.choices(self.bot.store, ctx.table, ctx.gm, interaction.user.id, current)

    @editar.autocomplete("campo")
    async def field_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        """The fields of the sheet being edited (the active one until another is chosen)."""
        ctx = await table_context(interaction)
        typed = interaction.namespace.ficha
        try:
            row = await access.find(self.bot.store, ctx.table, ctx.gm, interaction.user.id, typed, write=True)
        except Refusal:
            return []
        found = [p for p in fields.paths(row.data) if fold(current) in fold(p)]
        return [Choice(name=p, value=p) for p in found][:25]


def moved(ctx: TableContext, path: str, now: int) -> Refusal:
    """A *Cambiar* form's number changed since it was drawn: nothing set, and its value now."""
    name = t(ctx.lang, f"fichas.panel.live.{path}")
    return Refusal("fichas.form.change.moved", name=name, value=number(ctx.lang, now))
