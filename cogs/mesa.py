"""The table of a channel: its system, its GM and GM channel, its pools and their ledger.

The GM's commands answer privately in the table's channel (or in the GM channel, which is
private already); what they change shows in ``/mesa estado`` and in every roll's embed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import cronica, embeds, rolls, seen, systems
from bot.checks import (
    answer_gm,
    can_manage,
    current_table,
    gm_table,
    in_gm_channel,
    is_gm,
    table_option,
)
from bot.client import Tirada
from bot.context import table_context
from bot.delivery import send, update
from bot.errors import Refusal, pool_name
from bot.hidden import ledger_rows
from bot.i18n import CATALOG, Lang, T, lang_for, options, t
from bot.kinds import SHEET_POOLS
from bot.models import Applied, BoardHitPoints, Change, LedgerRow, Refused, Reset, Table, Undo
from bot.reveal import RevealButton
from bot.sheets.live import sheet_pools
from bot.status import table_embed
from bot.ui import ActionButton, Guarded
from bot.web import tokens as overlay_tokens
from bot.web.server import Web

# The systems declared when this cog loads, which is after every system's (bot/client.py),
# by name (whichever registered first in the process, the command reads the same).
SYSTEM_CHOICES = [Choice(name=T(f"system.{name}"), value=name) for name in sorted(systems.SYSTEMS)]
HIT_POINT_CHOICES = [Choice(name=T(f"mesa.vida_tablero.{v.value}"), value=v.value) for v in BoardHitPoints]
HISTORY_PAGE = 10


def keeping() -> Reset:
    """Character sheets are not table state: a reset keeps them (and what each system keeps
    beside them)."""
    return Reset(keep=systems.kept_on_reset(), keep_pools=tuple(sorted(sheet_pools())))


# Entries an undo's notice names one by one (undoing a reset may touch many pools).
NOTICE_LINES = 20


def change_lines(lang: Lang, outcome: Applied) -> list[str]:
    """What an operation did to each pool, a sentence a pool; a pool it left as it was
    (Impulso already at 0 at the end of a scene) says so, never "+0"."""
    return [
        t(
            lang,
            "mesa.pool_change" if p.delta else "mesa.pool_unchanged",
            pool=pool_name(lang, p.pool),
            delta=p.delta,
            value=p.value,
        )
        for p in outcome.pools
    ]


# -- the ledger, page by page ------------------------------------------------------------------


def reason_text(lang: Lang, reason: str) -> str:
    """What a ledger row was for, in words when the catalog has them, else its code."""
    key = f"ledger.{reason}"
    return t(lang, key) if key in CATALOG.entries else f"`{reason}`"


def owned_pool(lang: Lang, row: LedgerRow) -> str:
    """A ledger row's pool by name, and whose it is when it is a player's (or, for a
    character sheet's pool, owned by the sheet's id, which sheet)."""
    pool = pool_name(lang, row.pool)
    if row.pool in SHEET_POOLS:
        return t(lang, "fichas.pool_owned", pool=pool, sheet=row.owner_id)
    if row.owner_id:
        return t(lang, "mesa.historial.owned", pool=pool, owner=row.owner_id)
    return pool


def ledger_line(lang: Lang, row: LedgerRow, guild_id: int | None) -> str:
    when = int(datetime.fromisoformat(row.created_at).timestamp())
    pool = owned_pool(lang, row)
    line = t(
        lang,
        "mesa.historial.line",
        id=row.id,
        when=when,
        actor=row.actor_id,
        pool=pool,
        delta=row.delta,
        value=row.value_after,
        reason=reason_text(lang, row.reason),
    )
    if row.undoes is not None:
        line += " " + t(lang, "mesa.historial.undoes", id=row.undoes)
    if row.message_id is not None and guild_id is not None:
        link = f"https://discord.com/channels/{guild_id}/{row.channel_id}/{row.message_id}"
        line += " " + t(lang, "mesa.historial.message", link=link)
    return line


async def secret_to(
    bot: Tirada, table: Table, interaction: discord.Interaction
) -> Callable[[LedgerRow], bool]:
    """The ledger rows a reader may not see: for anyone but the GM, what bot/hidden.py
    keeps from the players (an NPC sheet's numbers, a hidden Amenaza)."""
    if is_gm(table, interaction):
        return lambda row: False
    return ledger_rows(table)


class HistoryPage:
    """Which page of which filtered ledger: all of it lives in the buttons' ``custom_id``."""

    def __init__(self, channel_id: int, before: int, pool: str, owner: int) -> None:
        self.channel_id, self.before, self.pool, self.owner = channel_id, before, pool, owner

    def custom_id(self, before: int) -> str:
        return f"mesa:historial:{self.channel_id}:{before}:{self.pool or '-'}:{self.owner}"

    async def render(
        self, bot: Tirada, lang: Lang, guild_id: int | None, hidden: Callable[[LedgerRow], bool]
    ) -> dict[str, Any]:
        """A page of the ledger; the rows ``hidden`` names are left out of it."""
        rows = await bot.store.ledger(
            self.channel_id,
            limit=HISTORY_PAGE + 1,
            before_id=self.before or None,
            pool=self.pool or None,
            owner_id=self.owner or None,
        )
        shown = rows[:HISTORY_PAGE]
        lines = [ledger_line(lang, r, guild_id) for r in shown if not hidden(r)]
        body = "\n".join(lines) or t(lang, "mesa.historial.empty")
        embed = embeds.card(t(lang, "mesa.historial.title"), body)
        view = discord.ui.View(timeout=None)
        if self.before:
            view.add_item(HistoryButton(self, 0, t(lang, "mesa.historial.newest")))
        if len(rows) > HISTORY_PAGE:
            view.add_item(HistoryButton(self, shown[-1].id, t(lang, "mesa.historial.older")))
        return {"embed": embed, "view": view}


class HistoryButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mesa:historial:(?P<channel>[0-9]{1,20}):(?P<before>[0-9]{1,20}):(?P<pool>[a-z_-]{1,40}):(?P<owner>[0-9]{1,20})",
):
    def __init__(self, page: HistoryPage, before: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "·", custom_id=page.custom_id(before)))
        self.page = HistoryPage(page.channel_id, before, page.pool, page.owner)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        pool = "" if match["pool"] == "-" else match["pool"]
        page = HistoryPage(int(match["channel"]), 0, pool, int(match["owner"]))
        return cls(page, int(match["before"]))

    async def record_table(self, interaction: discord.Interaction) -> int:
        return self.page.channel_id

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        table = await bot.store.table_or_default(self.page.channel_id, interaction.guild_id)
        hidden = await secret_to(bot, table, interaction)
        await update(
            interaction,
            **await self.page.render(bot, lang_for(interaction.locale), interaction.guild_id, hidden),
        )


# -- reset, after a confirmation -------------------------------------------------------------


class ResetButton(ActionButton, template=r"mesa:reiniciar:(?P<action>si|no):(?P<record>[0-9]{1,20})"):
    """ "Sí, reiniciar" / "Cancelar". The record it carries is the table itself: its channel id."""

    prefix = "mesa:reiniciar"

    async def record_table(self, interaction: discord.Interaction) -> int:
        return self.record_id

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        table = await bot.store.table_or_default(self.record_id, interaction.guild_id)
        if not is_gm(table, interaction):
            raise Refusal("error.not_gm")
        if self.action == "no":
            await update(interaction, embed=embeds.card(t(lang, "mesa.reiniciar.cancelled")), view=None)
            return
        outcome = await rolls.change(bot.store, interaction, table, "mesa.reset", reset=keeping())
        done = embeds.card(
            t(lang, "mesa.reiniciar.title"),
            t(lang, "mesa.reiniciar.done", count=len(outcome.pools)),
            embeds.SUCCESS,
        )
        await update(interaction, embed=done, view=None)
        if not outcome.replayed and outcome.changed:
            notice = embeds.card(
                t(lang, "mesa.reiniciar.title"), t(lang, "mesa.reiniciar.notice", gm=interaction.user.id)
            )
            await bot.get_partial_messageable(table.channel_id, guild_id=interaction.guild_id).send(
                embed=notice
            )


# -- the cog ---------------------------------------------------------------------------------


class Mesa(commands.Cog):
    mesa = app_commands.Group(name=T("mesa.cmd"), description=T("mesa.cmd.desc"), guild_only=True)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RevealButton, HistoryButton, ResetButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RevealButton, HistoryButton, ResetButton)

    @mesa.command(name=T("mesa.estado"), description=T("mesa.estado.desc"))
    @table_option
    async def estado(self, interaction: discord.Interaction, mesa: str | None = None) -> None:
        table = await current_table(interaction, mesa)
        # The pools came with the table, in the interaction's one read (bot.seen).
        pools = await seen.pools(interaction, table.channel_id)
        players = await self.bot.store.players(table.channel_id, not_players=sheet_pools())
        await send(interaction, embed=table_embed(lang_for(interaction.locale), table, pools, players))

    @mesa.command(name=T("mesa.sistema"), description=T("mesa.sistema.desc"))
    @options("mesa.opt")
    @app_commands.choices(sistema=SYSTEM_CHOICES)
    @table_option
    async def sistema(
        self, interaction: discord.Interaction, sistema: Choice[str], mesa: str | None = None
    ) -> None:
        table = await gm_table(interaction, mesa)
        await self.bot.store.set_system(table.channel_id, interaction.guild_id, sistema.value)
        lang = lang_for(interaction.locale)
        text = t(lang, "mesa.sistema.done", system=t(lang, f"system.{sistema.value}"))
        await answer_gm(interaction, table, embed=embeds.card(text, colour=embeds.SUCCESS))

    @mesa.command(name=T("mesa.dj"), description=T("mesa.dj.desc"))
    @options("mesa.opt")
    async def dj(self, interaction: discord.Interaction, miembro: discord.Member | None = None) -> None:
        """Hand the table over. The GM passes it on; anyone who may manage channels can
        always take over (a table whose GM left the server)."""
        table = await current_table(interaction)
        if not (can_manage(interaction, table) or table.gm_id == interaction.user.id):
            raise Refusal("mesa.dj.not_allowed")
        target = miembro or interaction.user
        if target.bot:
            raise Refusal("mesa.dj.bot")
        await self.bot.store.set_gm(table.channel_id, interaction.guild_id, target.id)
        text = t(lang_for(interaction.locale), "mesa.dj.done", gm=target.id)
        await send(interaction, embed=embeds.card("", text, colour=embeds.SUCCESS))

    @mesa.command(name=T("mesa.canal_dj"), description=T("mesa.canal_dj.desc"))
    @options("mesa.opt")
    async def canal_dj(
        self, interaction: discord.Interaction, canal: discord.TextChannel | None = None
    ) -> None:
        """Link (or, without ``canal``, unlink) the GM's private channel. It must be in
        this server and hidden from @everyone: secret rolls go there."""
        table = await current_table(interaction)
        if in_gm_channel(table, interaction):
            raise Refusal("mesa.canal_dj.from_table")
        if not is_gm(table, interaction):
            raise Refusal("error.not_gm")
        lang = lang_for(interaction.locale)
        if canal is None:
            await self.bot.store.set_gm_channel(table.channel_id, interaction.guild_id, None)
            unlinked = embeds.card(t(lang, "mesa.canal_dj.unlinked"), colour=embeds.SUCCESS)
            await answer_gm(interaction, table, embed=unlinked)
            return
        await self.check_private(interaction, table, canal.id)
        await self.bot.store.set_gm_channel(table.channel_id, interaction.guild_id, canal.id)
        text = t(lang, "mesa.canal_dj.linked", channel=canal.id, table=table.channel_id)
        await answer_gm(interaction, table, embed=embeds.card(text, colour=embeds.SUCCESS))

    async def check_private(self, interaction: discord.Interaction, table: Table, channel_id: int) -> None:
        guild = interaction.guild
        channel = guild.get_channel(channel_id) if guild is not None else None
        if guild is None or channel is None:
            raise Refusal("mesa.canal_dj.other_server")
        if channel_id == table.channel_id:
            raise Refusal("mesa.canal_dj.same")
        other = await self.bot.store.table(channel_id)
        if other is not None and other.system is not None:
            raise Refusal("mesa.canal_dj.is_table")
        if channel.permissions_for(guild.default_role).view_channel:
            raise Refusal("mesa.canal_dj.public", channel=channel_id)
        mine = channel.permissions_for(guild.me) if guild.me is not None else None
        if mine is not None and not (mine.view_channel and mine.send_messages and mine.embed_links):
            raise Refusal("mesa.canal_dj.no_access", channel=channel_id)
        member = interaction.user
        if not isinstance(member, discord.Member) or not channel.permissions_for(member).view_channel:
            raise Refusal("mesa.canal_dj.cannot_see", channel=channel_id)
        await self.check_not_taken(interaction, table, channel_id)

    async def check_not_taken(self, interaction: discord.Interaction, table: Table, channel_id: int) -> None:
        """A GM channel already serving another GM's table is theirs: only that GM (or the
        server's administrators) may link it to another table; the refusal names them."""
        if interaction.permissions.administrator:
            return
        for other in await self.bot.store.tables_served(channel_id):
            if other.channel_id == table.channel_id or is_gm(other, interaction):
                continue
            if other.gm_id is None:
                raise Refusal("mesa.canal_dj.taken_no_gm", channel=channel_id, table=other.channel_id)
            raise Refusal("mesa.canal_dj.taken", channel=channel_id, table=other.channel_id, gm=other.gm_id)

    @mesa.command(name=T("mesa.ajustes"), description=T("mesa.ajustes.desc"))
    @options("mesa.opt")
    @app_commands.choices(vida_tablero=HIT_POINT_CHOICES)
    @table_option
    async def ajustes(
        self,
        interaction: discord.Interaction,
        secretas_jugadores: bool | None = None,
        probabilidades: bool | None = None,
        vida_tablero: Choice[str] | None = None,
        mesa: str | None = None,
    ) -> None:
        """The table's own settings; without options, shows them (to anyone). A change the
        board shows (its hit points) redraws it: the store tells the board of every change."""
        here = await table_context(interaction, mesa)
        table = here.table
        chosen = {
            "player_secret_rolls": secretas_jugadores,
            "roll_odds": probabilidades,
            "board_hit_points": BoardHitPoints(vida_tablero.value) if vida_tablero else None,
        }
        update = {name: value for name, value in chosen.items() if value is not None}
        if update:
            here.require_gm()
            settings = table.settings.model_copy(update=update)
            table = await self.bot.store.set_settings(table.channel_id, interaction.guild_id, settings)
        lang = here.lang
        secret = "mesa.ajustes.secret_on" if table.settings.player_secret_rolls else "mesa.ajustes.secret_off"
        odds = "mesa.ajustes.odds_on" if table.settings.roll_odds else "mesa.ajustes.odds_off"
        lines = [t(lang, secret), t(lang, odds)]
        if systems.shows_hit_points(table.system):
            lines.append(t(lang, f"mesa.ajustes.hp.{table.settings.board_hit_points.value}"))
        text = "\n".join(lines)
        await send(interaction, embed=embeds.card(t(lang, "mesa.ajustes.title"), text), ephemeral=True)

    # -- the live board (issue 19: bot/board) ----------------------------------------------------

    @mesa.command(name=T("board.cmd"), description=T("board.cmd.desc"))
    @options("board.opt")
    @table_option
    async def tablero(
        self, interaction: discord.Interaction, ocultar_amenaza: bool | None = None, mesa: str | None = None
    ) -> None:
        """Post the table's board at the bottom of its channel (again: it moves there)."""
        table = await gm_table(interaction, mesa)
        lang = lang_for(interaction.locale)
        await interaction.response.defer(ephemeral=True)
        if ocultar_amenaza is not None:
            settings = table.settings.model_copy(update={"board_hides_threat": ocultar_amenaza})
            table = await self.bot.store.set_settings(table.channel_id, interaction.guild_id, settings)
        try:
            pinned = await self.bot.boards.place(table.channel_id, lang)
        except discord.Forbidden as error:
            raise Refusal("board.cannot_post", channel=table.channel_id) from error
        key = "board.placed" if pinned else "board.placed_unpinned"
        await send(
            interaction, embed=embeds.card(t(lang, key, channel=table.channel_id), colour=embeds.SUCCESS)
        )

    @mesa.command(name=T("overlay.cmd"), description=T("overlay.cmd.desc"))
    @options("overlay.opt", "revocar")
    @table_option
    async def overlay(
        self, interaction: discord.Interaction, revocar: bool | None = None, mesa: str | None = None
    ) -> None:
        """The table's secret overlay link (bot/web), shown once and only to the GM; again,
        a new one that stops the pages open with the old one."""
        table = await gm_table(interaction, mesa)
        web = Web.of(self.bot)
        if web is None:
            raise Refusal("overlay.disabled")
        lang = lang_for(interaction.locale)
        if revocar:
            had = await overlay_tokens.revoke(self.bot.store, table.channel_id)
            text = t(lang, "overlay.revoked" if had else "overlay.none")
        else:
            token = await overlay_tokens.issue(self.bot.store, table.channel_id, lang)
            text = t(lang, "overlay.link", link=web.link(token))
        web.overlays.revoke(table.channel_id)
        card = embeds.card(t(lang, "overlay.title"), text, colour=embeds.SUCCESS)
        await send(interaction, embed=card, ephemeral=True)

    @mesa.command(name=T("mesa.escena_fin"), description=T("mesa.escena_fin.desc"))
    @table_option
    async def escena_fin(self, interaction: discord.Interaction, mesa: str | None = None) -> None:
        """The end of a scene: what its system declares (in Dune "se pierde 1 punto de
        Impulso de la reserva de grupo"); other systems have nothing to settle yet."""
        table = await gm_table(interaction, mesa)
        lang = lang_for(interaction.locale)
        system = systems.declared(table.system)
        changes = system.scene_end if system is not None else ()
        changes += await self.scene_clears(interaction, table, system)
        lines = [t(lang, "mesa.escena_fin.done")]
        await self.bot.store.mark_scene_end(table.channel_id)
        if changes:
            outcome = await rolls.change(self.bot.store, interaction, table, "mesa.scene_end", *changes)
            lines += change_lines(lang, outcome)
        await send(interaction, embed=embeds.card(t(lang, "mesa.escena_fin.title"), "\n".join(lines)))

    async def scene_clears(
        self, interaction: discord.Interaction, table: Table, system: systems.Declaration | None
    ) -> tuple[Change, ...]:
        """The pools that last one scene, set to 0 with its end, by the prefixes its system
        declares (Dune's scene traits and created assets), from the interaction's one read
        of the table's pools."""
        prefixes = system.scene_pools if system is not None else ()
        if not prefixes:
            return ()
        pools = await seen.pools(interaction, table.channel_id)
        return tuple(
            Change(pool, owner_id=owner_id, set_to=0)
            for (pool, owner_id), value in pools.items()
            if pool.startswith(prefixes) and value
        )

    @mesa.command(name=T("cronica.cmd"), description=T("cronica.cmd.desc"))
    @options("cronica.opt")
    @app_commands.choices(formato=[Choice(name=T(f"cronica.formato.{f}"), value=f) for f in cronica.FORMATS])
    @table_option
    async def cronica(
        self,
        interaction: discord.Interaction,
        desde: app_commands.Range[str, 1, 40] | None = None,
        hasta: app_commands.Range[str, 1, 40] | None = None,
        formato: Choice[str] | None = None,
        mesa: str | None = None,
    ) -> None:
        """The session as files, built by bot/cronica.py (GM only)."""
        table = await gm_table(interaction, mesa)
        form = formato.value if formato is not None else "markdown"
        await cronica.answer(self.bot.store, interaction, table, desde, hasta, form)

    # -- the ledger ----------------------------------------------------------------------------

    @mesa.command(name=T("mesa.historial"), description=T("mesa.historial.desc"))
    @options("mesa.opt")
    @table_option
    async def historial(
        self,
        interaction: discord.Interaction,
        reserva: str | None = None,
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        """Everyone may read the ledger: the pools are the whole table's."""
        table = await current_table(interaction, mesa)
        pool = await self.known_pool(table, reserva)
        page = HistoryPage(table.channel_id, 0, pool or "", jugador.id if jugador else 0)
        lang = lang_for(interaction.locale)
        hidden = await secret_to(self.bot, table, interaction)
        await send(
            interaction, ephemeral=True, **await page.render(self.bot, lang, interaction.guild_id, hidden)
        )

    # -- undo and reset --------------------------------------------------------------------------

    @mesa.command(name=T("mesa.deshacer"), description=T("mesa.deshacer.desc"))
    @options("mesa.opt")
    @table_option
    async def deshacer(
        self,
        interaction: discord.Interaction,
        reserva: str | None = None,
        jugador: discord.Member | None = None,
        mesa: str | None = None,
    ) -> None:
        """Revert the last change (to ``reserva``, of ``jugador``) with compensating ledger
        rows; the history keeps both. Refused, with the reason, if a bound would break."""
        table = await gm_table(interaction, mesa)
        pool = await self.known_pool(table, reserva)
        outcome = await rolls.change(
            self.bot.store,
            interaction,
            table,
            "mesa.undo",
            undo=Undo(pool, jugador.id if jugador else None, systems.file_reasons()),
            refuse=undo_refusal,
        )
        lang = lang_for(interaction.locale)
        undone = embeds.card(
            t(lang, "mesa.deshacer.title"), "\n".join(change_lines(lang, outcome)), embeds.SUCCESS
        )
        await answer_gm(interaction, table, embed=undone)
        if not outcome.replayed:
            await self.announce_undo(interaction, table, lang, outcome)

    async def announce_undo(
        self, interaction: discord.Interaction, table: Table, lang: Lang, outcome: Applied
    ) -> None:
        """Tell the table, in its channel, who undid which entry of the history and whose
        pool it changed (the GM's own answer may be private)."""
        store = self.bot.store
        newest = await store.ledger(table.channel_id, limit=NOTICE_LINES)
        undoing = [r for r in reversed(newest) if r.interaction_id == interaction.id and r.undoes is not None]
        if not undoing:
            return
        hidden = ledger_rows(table)
        rows = [r for r in undoing if not hidden(r)]
        undone = await store.ledger(table.channel_id, limit=1, before_id=(undoing[0].undoes or 0) + 1)
        reason = reason_text(lang, undone[0].reason) if undone else "-"
        lines = [t(lang, "mesa.deshacer.notice", gm=interaction.user.id, reason=reason)]
        lines += [
            t(
                lang,
                "mesa.deshacer.notice_line",
                id=r.undoes,
                pool=owned_pool(lang, r),
                delta=r.delta,
                value=r.value_after,
            )
            for r in rows
        ]
        if len(outcome.pools) > len(rows):
            lines.append(t(lang, "mesa.deshacer.notice_more", count=len(outcome.pools) - len(rows)))
        notice = embeds.card(t(lang, "mesa.deshacer.title"), "\n".join(lines))
        await self.bot.get_partial_messageable(table.channel_id, guild_id=interaction.guild_id).send(
            embed=notice
        )

    @mesa.command(name=T("mesa.reiniciar"), description=T("mesa.reiniciar.desc"))
    @table_option
    async def reiniciar(self, interaction: discord.Interaction, mesa: str | None = None) -> None:
        """Ask first: a reset empties every pool and closes every open roll and combat."""
        table = await gm_table(interaction, mesa)
        lang = lang_for(interaction.locale)
        view = discord.ui.View(timeout=None)
        view.add_item(
            ResetButton.draw(
                table.channel_id, "si", t(lang, "mesa.reiniciar.yes"), discord.ButtonStyle.danger
            )
        )
        view.add_item(ResetButton.draw(table.channel_id, "no", t(lang, "mesa.reiniciar.no")))
        text = t(lang, "mesa.reiniciar.ask", table=table.channel_id)
        await answer_gm(
            interaction, table, embed=embeds.card(t(lang, "mesa.reiniciar.title"), text), view=view
        )

    @historial.autocomplete("reserva")
    @deshacer.autocomplete("reserva")
    async def pool_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        try:
            table = await current_table(interaction, getattr(interaction.namespace, "mesa", None))
        except Refusal:
            return []
        lang = lang_for(interaction.locale)
        names = {p: pool_name(lang, p) for p in await self.bot.store.ledger_pools(table.channel_id)}
        return [Choice(name=n[:100], value=p) for p, n in names.items() if current.lower() in n.lower()][:25]

    async def known_pool(self, table: Table, reserva: str | None) -> str | None:
        """A pool named in an option: one this table's ledger knows, or a refusal."""
        pool = (reserva or "").strip()
        if not pool:
            return None
        if pool not in await self.bot.store.ledger_pools(table.channel_id):
            raise Refusal("mesa.historial.unknown_pool", pool=pool[:40])
        return pool


def undo_refusal(outcome: Refused) -> Refusal:
    """Why an undo changed nothing: nothing left to undo, or the bound it would break."""
    if not outcome.pool:
        return Refusal(outcome.key)
    key = "mesa.deshacer.spent" if outcome.delta < 0 else "mesa.deshacer.over_cap"
    return Refusal(key, pool=outcome.pool, have=outcome.value, need=abs(outcome.delta), cap=outcome.cap)


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Mesa(bot))
