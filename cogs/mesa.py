"""The table of a channel: its system, its GM and its pools at a glance."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import embeds
from bot.checks import can_manage, current_table, gm_only
from bot.client import Tirada
from bot.errors import Refusal, RefusedCheck, pool_name, send
from bot.i18n import Lang, T, lang_for, options, t
from bot.models import Applied, Change, Operation, PoolValue, System, Table

SYSTEM_CHOICES = [Choice(name=T(f"system.{s.value}"), value=s.value) for s in System]


def pool_line(lang: Lang, pool: PoolValue) -> str:
    name = pool_name(lang, pool.pool)
    if pool.owner_id:
        return t(lang, "mesa.estado.player_pool", pool=name, owner=pool.owner_id, value=pool.value)
    return t(lang, "mesa.estado.table_pool", pool=name, value=pool.value)


def table_embed(lang: Lang, table: Table, pools: list[PoolValue]) -> discord.Embed:
    embed = embeds.card(t(lang, "mesa.estado.title"))
    system = t(lang, f"system.{table.system.value}") if table.system else t(lang, "mesa.estado.no_system")
    embeds.field(embed, t(lang, "mesa.estado.system"), system)
    gm = f"<@{table.gm_id}>" if table.gm_id else t(lang, "mesa.estado.no_gm")
    embeds.field(embed, t(lang, "mesa.estado.gm"), gm)
    shown = [pool_line(lang, p) for p in pools if p.value]
    embeds.field(
        embed,
        t(lang, "mesa.estado.pools"),
        "\n".join(shown) or t(lang, "mesa.estado.no_pools"),
        inline=False,
    )
    return embed


class Mesa(commands.Cog):
    mesa = app_commands.Group(name=T("mesa.cmd"), description=T("mesa.cmd.desc"), guild_only=True)

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """``guild_only`` is only a hint to Discord's client; a DM payload still arrives."""
        if interaction.guild_id is None:
            raise RefusedCheck("error.guild_only")
        return True

    @mesa.command(name=T("mesa.estado"), description=T("mesa.estado.desc"))
    async def estado(self, interaction: discord.Interaction) -> None:
        table = await current_table(interaction)
        pools = await self.bot.store.pools(table.channel_id)
        await send(interaction, embed=table_embed(lang_for(interaction.locale), table, pools))

    @mesa.command(name=T("mesa.sistema"), description=T("mesa.sistema.desc"))
    @options("mesa.opt", "sistema")
    @app_commands.choices(sistema=SYSTEM_CHOICES)
    @gm_only()
    async def sistema(self, interaction: discord.Interaction, sistema: Choice[str]) -> None:
        assert interaction.channel_id is not None
        system = System(sistema.value)
        await self.bot.store.set_system(interaction.channel_id, interaction.guild_id, system)
        lang = lang_for(interaction.locale)
        text = t(lang, "mesa.sistema.done", system=t(lang, f"system.{system.value}"))
        await send(interaction, embed=embeds.card(text, colour=embeds.SUCCESS))

    @mesa.command(name=T("mesa.dj"), description=T("mesa.dj.desc"))
    @options("mesa.opt", "miembro")
    async def dj(self, interaction: discord.Interaction, miembro: discord.Member | None = None) -> None:
        assert interaction.channel_id is not None
        table = await current_table(interaction)
        if not (can_manage(interaction) or table.gm_id == interaction.user.id):
            raise Refusal("mesa.dj.not_allowed")
        target = miembro or interaction.user
        if target.bot:
            raise Refusal("mesa.dj.bot")
        await self.bot.store.set_gm(interaction.channel_id, interaction.guild_id, target.id)
        text = t(lang_for(interaction.locale), "mesa.dj.done", gm=target.id)
        await send(interaction, embed=embeds.card("", text, colour=embeds.SUCCESS))

    @mesa.command(name=T("mesa.escena_fin"), description=T("mesa.escena_fin.desc"))
    @gm_only()
    async def escena_fin(self, interaction: discord.Interaction) -> None:
        """The end of a scene. In Dune "se pierde 1 punto de Impulso de la reserva de grupo"
        (never below 0); other systems have nothing to settle yet."""
        assert interaction.channel_id is not None
        table = await current_table(interaction)
        lang = lang_for(interaction.locale)
        changes = SCENE_END.get(table.system, ()) if table.system else ()
        lines = [t(lang, "mesa.escena_fin.done")]
        if changes:
            outcome = await self.bot.store.apply(
                Operation(
                    table.channel_id,
                    interaction.id,
                    interaction.user.id,
                    "mesa.scene_end",
                    changes,
                    guild_id=interaction.guild_id,
                )
            )
            assert isinstance(outcome, Applied)
            lines += [
                t(lang, "mesa.escena_fin.pool", pool=pool_name(lang, p.pool), delta=p.delta, value=p.value)
                for p in outcome.pools
            ]
        await send(interaction, embed=embeds.card(t(lang, "mesa.escena_fin.title"), "\n".join(lines)))


# What the end of a scene does to each system's pools.
SCENE_END: dict[System, tuple[Change, ...]] = {
    System.DUNE: (Change("impulso", -1, clamp=True),),
}


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Mesa(bot))
