"""``/probabilidad``: exact odds for every system before anyone rolls, with a chart."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import charts, embeds
from bot.chances import dnd_modes_line, dune_bought_line
from bot.checks import ANYWHERE_CONTEXTS, ANYWHERE_INSTALLS, current_table
from bot.client import Tirada
from bot.errors import Refusal
from bot.i18n import Lang, T, decimal, lang_for, options, percent, t
from rules import dnd5e, donjon, dune, mediana, odds

DIFFICULTY_CHOICES = [Choice(name=T(f"donjon.dificultad.{d}"), value=d) for d in donjon.DIFFICULTIES]
RANK_CHOICES = [Choice(name=T(f"mediana.rank.{r}"), value=r) for r in mediana.RANKS]
MAX_BARS = 30


def trimmed(distribution: dict[int, float]) -> tuple[list[str], list[float]]:
    """The bars worth drawing: drop the negligible ends, at most ``MAX_BARS``."""
    shown = [(k, p) for k, p in sorted(distribution.items()) if p >= 0.0005]
    shown = sorted(sorted(shown, key=lambda kp: -kp[1])[:MAX_BARS])
    return [str(k) for k, _ in shown], [p for _, p in shown]


async def answer(
    interaction: discord.Interaction,
    lang: Lang,
    title: str,
    lines: list[str],
    chart: tuple[list[str], list[float], str],
) -> None:
    labels, values, xlabel = chart
    png = await charts.bar_chart(lang, title, labels, values, xlabel, t(lang, "odds.chart.y"))
    embed = embeds.card(title, "\n".join(lines))
    embed.set_image(url="attachment://probabilidad.png")
    await interaction.followup.send(
        embed=embed, file=discord.File(fp=io.BytesIO(png), filename="probabilidad.png")
    )


class Probabilidad(commands.Cog):
    group = app_commands.Group(
        name=T("odds.cmd"),
        description=T("odds.cmd.desc"),
        allowed_installs=ANYWHERE_INSTALLS,
        allowed_contexts=ANYWHERE_CONTEXTS,
    )

    def __init__(self, bot: Tirada) -> None:
        self.bot = bot

    @group.command(name=T("odds.donjon"), description=T("odds.donjon.desc"))
    @options("donjon.opt", "dados", "contra", "dificultad")
    @app_commands.choices(dificultad=DIFFICULTY_CHOICES)
    async def donjon_odds(
        self,
        interaction: discord.Interaction,
        dados: app_commands.Range[int, 0, 40],
        contra: app_commands.Range[int, 0, 40] | None = None,
        dificultad: Choice[str] | None = None,
    ) -> None:
        table = await current_table(interaction)
        against = (
            contra
            if contra is not None
            else donjon.difficulty_dice(dificultad.value if dificultad else "media", table.donjon_level)
        )
        sides = min(table.settings.donjon_sides, 100)
        result = odds.donjon_distribution(dados, against, sides)
        await interaction.response.defer()
        lang = lang_for(interaction.locale)
        wins = result.successes("a")
        lines = [
            t(
                lang,
                "odds.donjon.win",
                dice=dados,
                against=against,
                sides=sides,
                p=percent(lang, result.win("a")),
            ),
            t(lang, "odds.donjon.expected", value=decimal(lang, result.expected("a"), 2)),
            t(lang, "odds.donjon.tie", p=percent(lang, result.full_tie)),
        ]
        await answer(
            interaction,
            lang,
            t(lang, "odds.donjon.title"),
            lines,
            (*trimmed(wins), t(lang, "odds.chart.successes")),
        )

    @group.command(name=T("odds.dune"), description=T("odds.dune.desc"))
    @options(
        "dune.opt",
        "habilidad",
        "motivacion",
        "enfoque",
        "dificultad",
        "dados_extra",
        "rango_complicacion",
        "determinacion",
    )
    async def dune_odds(
        self,
        interaction: discord.Interaction,
        habilidad: app_commands.Range[int, 1, 20],
        motivacion: app_commands.Range[int, 0, 20],
        enfoque: bool = False,
        dificultad: app_commands.Range[int, 0, 10] = 1,
        dados_extra: app_commands.Range[int, 0, 3] = 0,
        rango_complicacion: app_commands.Range[int, 1, 5] = 1,
        determinacion: bool = False,
    ) -> None:
        dune.check_range("habilidad", habilidad, 1, dune.MAX_SCORE)
        dune.check_range("motivacion", motivacion, 0, dune.MAX_SCORE)
        dune.check_range("dados_extra", dados_extra, 0, dune.MAX_BOUGHT)
        args = (
            habilidad + motivacion,
            2 + dados_extra,
            habilidad if enfoque else None,
            rango_complicacion,
            dificultad,
            int(determinacion),
        )
        result = odds.dune_distribution(*args)
        await interaction.response.defer()
        lang = lang_for(interaction.locale)
        lines = [
            t(
                lang,
                "odds.dune.pass",
                p=percent(lang, result.p_pass),
                difficulty=dificultad,
                dice=2 + dados_extra,
            ),
            t(lang, "odds.dune.momentum", value=decimal(lang, result.expected_momentum, 2)),
            t(lang, "odds.dune.complication", p=percent(lang, result.p_complication)),
            dune_bought_line(lang, *args),
        ]
        await answer(
            interaction,
            lang,
            t(lang, "odds.dune.title"),
            lines,
            (*trimmed(dict(result.successes)), t(lang, "odds.chart.successes")),
        )

    @group.command(name=T("odds.dnd"), description=T("odds.dnd.desc"))
    @options("dnd.opt", "modificador", "cd", "ventaja", "desventaja", "ataque", "dano")
    async def dnd_odds(
        self,
        interaction: discord.Interaction,
        modificador: app_commands.Range[int, -30, 30],
        cd: app_commands.Range[int, 1, 50] | None = None,
        ventaja: bool = False,
        desventaja: bool = False,
        ataque: bool = False,
        dano: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        mode = dnd5e.mode(ventaja, desventaja).value
        result = odds.dnd_distribution(modificador, cd, mode, ataque, dano)
        await interaction.response.defer()
        lang = lang_for(interaction.locale)
        lines = []
        if result.p_success is not None:
            lines.append(t(lang, "odds.dnd.success", p=percent(lang, result.p_success), target=cd))
            lines.append(dnd_modes_line(lang, modificador, cd, ataque))
        if ataque:
            lines.append(t(lang, "odds.dnd.critical", p=percent(lang, result.p_critical)))
        if result.expected_damage is not None:
            lines.append(
                t(
                    lang,
                    "odds.dnd.damage",
                    hit=decimal(lang, result.damage_hit, 1),
                    critical=decimal(lang, result.damage_critical, 1),
                    mean=decimal(lang, result.expected_damage, 2),
                )
            )
        await answer(
            interaction,
            lang,
            t(lang, "odds.dnd.title"),
            lines or [t(lang, "odds.dnd.no_target")],
            (*trimmed(dict(result.totals)), t(lang, "odds.chart.total")),
        )

    @group.command(name=T("odds.mediana"), description=T("odds.mediana.desc"))
    @options("mediana.opt", "atributo", "dificultad", "habilidad", "rango", "malherido", "solo_atributo")
    @app_commands.choices(rango=RANK_CHOICES)
    async def mediana_odds(
        self,
        interaction: discord.Interaction,
        atributo: app_commands.Range[int, -50, 50],
        dificultad: app_commands.Range[int, 0, 100],
        habilidad: app_commands.Range[int, 0, 50] = 0,
        rango: Choice[str] | None = None,
        malherido: bool = False,
        solo_atributo: bool = False,
    ) -> None:
        """Each rank the GM may set, after the roll's own drops (no skill points,
        malherido); an attribute test neither explodes nor fails on a natural 1."""
        mediana.check_number("atributo", atributo, -mediana.MAX_SCORE, mediana.MAX_SCORE)
        mediana.check_number("habilidad", habilidad, 0, mediana.MAX_SCORE)
        mediana.check_number("dificultad", dificultad, 0, mediana.MAX_DIFFICULTY)
        if solo_atributo and habilidad:
            raise Refusal("odds.mediana.attribute_with_skill")
        skill = None if solo_atributo else habilidad
        kind = mediana.roll_kind(solo_atributo)["skill_test"]
        ranks = {r: mediana.odds_rank(r, skill, malherido) for r in mediana.RANKS}
        results = {
            r: odds.mediana_distribution(atributo + habilidad, dificultad, rank, skill_test=kind)
            for r, rank in ranks.items()
        }
        await interaction.response.defer()
        lang = lang_for(interaction.locale)
        lines = [mediana_line(lang, base, ranks[base], x) for base, x in results.items()]
        chart = trimmed(dict(results[rango.value if rango else "medio"].totals))
        title = "odds.mediana.title_attribute" if solo_atributo else "odds.mediana.title"
        await answer(
            interaction,
            lang,
            t(lang, title, difficulty=dificultad),
            lines,
            (*chart, t(lang, "odds.chart.total")),
        )


def mediana_line(lang: Lang, base: str, rank: str, result: odds.MedianaOdds) -> str:
    """One rank's chances; when the roll drops it, say which rank it rolls at."""
    key = "odds.mediana.rank" if base == rank else "odds.mediana.rank_dropped"
    return t(
        lang,
        key,
        chosen=t(lang, f"mediana.rank.{base}"),
        rank=t(lang, f"mediana.rank.{rank}"),
        success=percent(lang, result.p_success),
        critical=percent(lang, result.p_critical),
        fumble=percent(lang, result.p_fumble),
    )


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Probabilidad(bot))
