"""``/estadisticas``: are the dice fair? Every die the bot rolled, counted against a fair
die's faces, with a chi-square test in plain words and a chart.

The counts are written where rolls are recorded (bot/rolls.py ``record``, through each
kind's reader in bot/readers.py) and kept per day, table, player, system and die size;
the test itself is rules/stats.py.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import charts, embeds
from bot.charts import Bar, Chart
from bot.checks import anywhere, current_table, with_tirada
from bot.client import Tirada
from bot.errors import Refusal
from bot.hidden import ledger_rows
from bot.i18n import Lang, T, decimal, lang_for, options, t
from bot.models import Table
from rules import stats

SCOPES = ("mias", "mesa", "bot")
MAX_DAYS = 365
# Lines in the answer: the most thrown sizes first.
MAX_LINES = 15
# The pools whose session the table's statistics tell.
POOLS = ("impulso", "amenaza")


def p_text(lang: Lang, p: float) -> str:
    """A p-value as people read it: two decimals, three when small, a bound when tiny."""
    if p < 0.001:
        return "< " + decimal(lang, 0.001, 3)
    return decimal(lang, p, 3 if p < 0.01 else 2)


def verdict(lang: Lang, scope: str, system: str, result: stats.Fairness) -> str:
    """One size's sentence: within what is expected, straying from it, or too few to say."""
    which = "few" if not result.enough else ("fair" if result.fair else "biased")
    return t(
        lang,
        f"estadisticas.{scope}.{which}",
        sides=result.sides,
        system=system,
        throws=result.throws,
        p=p_text(lang, result.p),
    )


async def pool_lines(bot: Tirada, lang: Lang, table: Table) -> list[str]:
    """Impulso and Amenaza over the session (since the last scene end, else a day); the
    answer is the table's, so a pool the GM hides from the players is left out."""
    now = datetime.now(UTC)
    channel_id = table.channel_id
    since = await bot.store.scene_end(channel_id) or (now - timedelta(days=1)).isoformat()
    rows = await bot.store.session_ledger(channel_id, since, now.isoformat(timespec="seconds"), 5000)
    hidden = ledger_rows(table)
    rows = [row for row in rows if not hidden(row)]
    lines = []
    for pool in POOLS:
        mine = [r for r in rows if r.pool == pool]
        if mine:
            gained = sum(r.delta for r in mine if r.delta > 0)
            spent = -sum(r.delta for r in mine if r.delta < 0)
            lines.append(
                t(lang, f"estadisticas.pool.{pool}", gained=gained, spent=spent, now=mine[-1].value_after)
            )
    return lines


class Estadisticas(commands.Cog):
    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    @app_commands.command(name=T("estadisticas.cmd"), description=T("estadisticas.cmd.desc"))
    @anywhere
    @options("estadisticas.opt")
    @app_commands.choices(de=[Choice(name=T(f"estadisticas.de.{s}"), value=s) for s in SCOPES])
    async def estadisticas(
        self,
        interaction: discord.Interaction,
        de: Choice[str] | None = None,
        dias: app_commands.Range[int, 1, MAX_DAYS] = 30,
        dado: app_commands.Range[int, 2, 1000] | None = None,
    ) -> None:
        scope = de.value if de is not None else "mias"
        if scope not in SCOPES:
            raise Refusal("error.bad_option", value=scope[:100])
        if not 1 <= dias <= MAX_DAYS:
            raise Refusal("estadisticas.bad_days", max=MAX_DAYS)
        lang = lang_for(interaction.locale)
        since = (datetime.now(UTC) - timedelta(days=dias - 1)).date().isoformat()
        table = None
        if scope == "mesa":
            if not with_tirada(interaction):
                raise Refusal("estadisticas.table_needs_server")
            table = await current_table(interaction)
        channel = table.channel_id if table is not None else None
        user = interaction.user.id if scope == "mias" else None
        counts = await self.bot.store.dice_counts(since, user_id=user, channel_id=channel)
        results = sorted(
            ((system, stats.test(sides, faces)) for (system, sides), faces in counts.items()),
            key=lambda item: -item[1].throws,
        )
        if dado is not None and not any(r.sides == dado for _, r in results):
            raise Refusal("estadisticas.no_such_die", sides=dado)
        await interaction.response.defer()
        lines = [verdict(lang, scope, system, result) for system, result in results[:MAX_LINES]]
        if table is not None:
            lines += await pool_lines(self.bot, lang, table)
        title = t(lang, f"estadisticas.title.{scope}", days=dias)
        embed = embeds.card(title, "\n".join(lines) or t(lang, "estadisticas.none"))
        if not results:
            await interaction.followup.send(embed=embed)
            return
        system, chosen = next(((s, r) for s, r in results if dado is None or r.sides == dado))
        png = await self.chart(lang, system, chosen, counts[(system, chosen.sides)])
        embed.set_image(url="attachment://estadisticas.png")
        await interaction.followup.send(embed=embed, file=discord.File(io.BytesIO(png), "estadisticas.png"))

    async def chart(self, lang: Lang, system: str, result: stats.Fairness, faces: dict[int, int]) -> bytes:
        """Each face's share (bars) against a fair die's (a dashed line); at most 100 faces."""
        sides = min(result.sides, 100)
        bars = [Bar(str(face), faces.get(face, 0) / result.throws) for face in range(1, sides + 1)]
        title = t(lang, "estadisticas.chart", sides=result.sides, system=system, throws=result.throws)
        chart = Chart(title, bars, t(lang, "estadisticas.chart.x"), t(lang, "estadisticas.chart.y"))
        expected = [1 / result.sides] * sides
        return await charts.against_chart(lang, chart, expected, t(lang, "estadisticas.chart.expected"))


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Estadisticas(bot))
