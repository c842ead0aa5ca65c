"""``/probabilidad``: exact odds for every system before anyone rolls, with a chart."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import charts, embeds
from bot.charts import Bar, Chart
from bot.checks import ANYWHERE_CONTEXTS, ANYWHERE_INSTALLS, current_table, with_tirada
from bot.client import Tirada
from bot.errors import Refusal
from bot.i18n import Lang, T, decimal, lang_for, number, options, percent, t
from bot.models import Table
from bot.options import Bounded
from cogs.dnd5e.odds import dnd_modes_line
from cogs.donjon.settings import donjon_settings
from cogs.dune.odds import dune_bought_line
from rules import odds
from rules.dnd5e import checks as dnd5e_checks
from rules.dnd5e import odds as dnd5e_odds
from rules.donjon import difficulty as donjon_difficulty
from rules.donjon import odds as rules_donjon_odds
from rules.dune import odds as rules_dune_odds
from rules.dune import pools, successes
from rules.dune import skill_test as dune_skill_test
from rules.mediana import checks as mediana_checks
from rules.mediana import odds as rules_mediana_odds
from rules.mediana import ranks as mediana_ranks

DIFFICULTY_CHOICES = [
    Choice(name=T(f"donjon.dificultad.{d}"), value=d) for d in donjon_difficulty.DIFFICULTIES
]
RANK_CHOICES = [Choice(name=T(f"mediana.rank.{r}"), value=r) for r in mediana_ranks.RANKS]
MAX_BARS = 30
# Donjon's pool sizes stay app_commands.Range: rules.odds refuses a larger pool with its own
# sentence ("para las probabilidades…"), which says more than a bare range would.
DuneScore = app_commands.Transform[int, Bounded(1, dune_skill_test.MAX_SCORE)]
DuneDrive = app_commands.Transform[int, Bounded(0, dune_skill_test.MAX_SCORE)]
DuneDifficulty = app_commands.Transform[int, Bounded(0, successes.MAX_RAISED_DIFFICULTY)]
DuneBought = app_commands.Transform[int, Bounded(0, pools.MAX_BOUGHT)]
DuneComplicationRange = app_commands.Transform[int, Bounded(1, successes.MAX_COMPLICATION_RANGE)]
DndModifier = app_commands.Transform[int, Bounded(-dnd5e_checks.MAX_MODIFIER, dnd5e_checks.MAX_MODIFIER)]
DndTarget = app_commands.Transform[int, Bounded(1, dnd5e_checks.MAX_TARGET)]
MedianaScore = app_commands.Transform[int, Bounded(-mediana_checks.MAX_SCORE, mediana_checks.MAX_SCORE)]
MedianaSkill = app_commands.Transform[int, Bounded(0, mediana_checks.MAX_SCORE)]
MedianaDifficulty = app_commands.Transform[int, Bounded(0, mediana_checks.MAX_DIFFICULTY)]
# A result less likely than this (under 0.05 %) is not drawn: its bar would be invisible.
NEGLIGIBLE = 0.0005
# The largest mean damage shown: a float still exact to the decimal, which CLDR formatting
# (28 digits at most) prints; "9…9*9…9" within the 200 characters averages 10^190.
MAX_MEAN_DAMAGE = 10**12


def shown(distribution: Mapping[int, float], most: int = MAX_BARS) -> list[tuple[int, float]]:
    """The bars worth drawing, in order: drop the negligible ends, at most ``most``."""
    kept = [(k, float(p)) for k, p in sorted(distribution.items()) if p >= NEGLIGIBLE]
    return sorted(sorted(kept, key=lambda kp: -kp[1])[:most])


def threshold(keys: Sequence[int], first: int) -> float:
    """Where the line that marks success goes: just before the first bar at ``first`` or more."""
    return next((i for i, k in enumerate(keys) if k >= first), len(keys)) - 0.5


def passing(distribution: Mapping[int, float], first: int | None) -> list[Bar]:
    """Bars coloured by whether the value reaches ``first`` (neutral without a target)."""
    return [
        Bar(str(k), p, "neutral" if first is None else ("success" if k >= first else "failure"))
        for k, p in shown(distribution)
    ]


def legend(lang: Lang, **kinds: str) -> dict[str, str]:
    return {kind: t(lang, f"odds.chart.{key}") for kind, key in kinds.items()}


async def answer(
    interaction: discord.Interaction, lang: Lang, title: str, lines: list[str], chart: Chart
) -> None:
    png = await charts.bar_chart(lang, chart)
    embed = embeds.card(title, "\n".join(lines))
    embed.set_image(url="attachment://probabilidad.png")
    await interaction.followup.send(
        embed=embed, file=discord.File(fp=io.BytesIO(png), filename="probabilidad.png")
    )


def donjon_chart(lang: Lang, title: str, result: rules_donjon_odds.DonjonOdds) -> Chart:
    """Both sides on one axis: the rival's wins on the left (most successes outermost),
    yours on the right; the line between them is the middle of the table."""
    theirs = shown(result.successes("b"), MAX_BARS // 2)
    mine = shown(result.successes("a"), MAX_BARS // 2)
    bars = [Bar(str(k), p, "failure") for k, p in reversed(theirs)] + [
        Bar(str(k), p, "success") for k, p in mine
    ]
    return Chart(
        title,
        bars,
        t(lang, "odds.chart.winner_successes"),
        t(lang, "odds.chart.y"),
        legend(lang, failure="rival_wins", success="you_win"),
        marker=len(theirs) - 0.5 if theirs and mine else None,
    )


def dnd_chart(
    lang: Lang, title: str, result: dnd5e_odds.DndOdds, modifier: int, target: int | None, attack: bool
) -> Chart:
    """Totals coloured by the verdict; on an attack a natural 20 is a critical and a
    natural 1 a miss, whatever the total."""
    bars = passing(result.totals, target)
    if attack:
        special = {str(20 + modifier): "critical", str(1 + modifier): "fumble"}
        bars = [Bar(b.label, b.p, special.get(b.label, b.kind)) for b in bars]
    keys = [int(b.label) for b in bars]
    marker_key = "odds.chart.ac" if attack else "odds.chart.dc"
    return Chart(
        title,
        bars,
        t(lang, "odds.chart.total"),
        t(lang, "odds.chart.y"),
        legend(lang, success="pass", failure="fail", critical="natural_20", fumble="natural_1"),
        marker=None if target is None else threshold(keys, target),
        marker_label="" if target is None else t(lang, marker_key, value=target),
    )


async def odds_table(interaction: discord.Interaction) -> Table:
    """The table whose die and Donjon level the odds read. Outside a server with Tirada (a
    DM, a user install) there is none, nor always a channel discord.py can name: the
    book's d20 at a new table's level (1)."""
    if not with_tirada(interaction):
        return Table(0, None)
    return await current_table(interaction)


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
        dados: app_commands.Range[int, 0, odds.MAX_POOL],
        contra: app_commands.Range[int, 0, odds.MAX_POOL] | None = None,
        dificultad: Choice[str] | None = None,
    ) -> None:
        own = donjon_settings(await odds_table(interaction))
        against = (
            contra
            if contra is not None
            else donjon_difficulty.difficulty_dice(
                dificultad.value if dificultad else "media", own.donjon_level
            )
        )
        sides = min(own.donjon_sides, 100)
        result = rules_donjon_odds.donjon_distribution(dados, against, sides)
        await interaction.response.defer()
        lang = lang_for(interaction.locale)
        lines = [
            t(
                lang,
                "odds.donjon.win",
                dice=dados,
                against=against,
                sides=sides,
                p=percent(lang, result.win("a")),
            ),
            t(lang, "odds.donjon.lose", p=percent(lang, result.win("b"))),
            t(lang, "odds.donjon.expected", value=decimal(lang, result.expected("a"), 2)),
        ]
        if result.full_tie:
            lines.append(t(lang, "odds.donjon.tie", p=percent(lang, result.full_tie)))
        title = t(lang, "odds.donjon.title")
        await answer(interaction, lang, title, lines, donjon_chart(lang, title, result))

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
        habilidad: DuneScore,
        motivacion: DuneDrive,
        enfoque: bool = False,
        dificultad: DuneDifficulty = 1,
        dados_extra: DuneBought = 0,
        rango_complicacion: DuneComplicationRange = 1,
        determinacion: bool = False,
    ) -> None:
        args = (
            habilidad + motivacion,
            2 + dados_extra,
            habilidad if enfoque else None,
            rango_complicacion,
            dificultad,
            int(determinacion),
        )
        result = rules_dune_odds.dune_distribution(*args)
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
            dune_bought_line(lang, *args, shown=True),
        ]
        title = t(lang, "odds.dune.title")
        bars = passing(result.successes, dificultad)
        chart = Chart(
            title,
            bars,
            t(lang, "odds.chart.successes"),
            t(lang, "odds.chart.y"),
            legend(lang, success="pass", failure="fail"),
            marker=threshold([int(b.label) for b in bars], dificultad),
            marker_label=t(lang, "odds.chart.difficulty", value=dificultad),
            note=t(lang, "odds.chart.complication", p=percent(lang, result.p_complication)),
        )
        await answer(interaction, lang, title, lines, chart)

    @group.command(name=T("odds.dnd"), description=T("odds.dnd.desc"))
    @options("dnd.opt", "modificador", "cd", "ventaja", "desventaja", "ataque", "dano")
    async def dnd_odds(
        self,
        interaction: discord.Interaction,
        modificador: DndModifier,
        cd: DndTarget | None = None,
        ventaja: bool = False,
        desventaja: bool = False,
        ataque: bool = False,
        dano: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        mode = dnd5e_checks.mode(ventaja, desventaja).value
        result = dnd5e_odds.dnd_distribution(modificador, cd, mode, ataque, dano)
        lang = lang_for(interaction.locale)
        means = (result.damage_hit, result.damage_critical, result.expected_damage)
        if any(m is not None and abs(m) > MAX_MEAN_DAMAGE for m in means):
            raise Refusal("odds.dnd.damage_too_big", max=number(lang, MAX_MEAN_DAMAGE))
        await interaction.response.defer()
        lines = []
        if cd is not None and result.p_success is not None:
            lines.append(t(lang, "odds.dnd.success", p=percent(lang, result.p_success), target=cd))
            lines.append(dnd_modes_line(lang, modificador, cd, ataque, shown=True))
        if ataque:
            lines.append(t(lang, "odds.dnd.critical", p=percent(lang, result.p_critical)))
        hit, critical, mean = result.damage_hit, result.damage_critical, result.expected_damage
        if hit is not None and critical is not None and mean is not None:
            lines.append(
                t(
                    lang,
                    "odds.dnd.damage",
                    hit=decimal(lang, hit, 1),
                    critical=decimal(lang, critical, 1),
                    mean=decimal(lang, mean, 2),
                )
            )
        title = t(lang, "odds.dnd.title")
        chart = dnd_chart(lang, title, result, modificador, cd, ataque)
        await answer(interaction, lang, title, lines or [t(lang, "odds.dnd.no_target")], chart)

    @group.command(name=T("odds.mediana"), description=T("odds.mediana.desc"))
    @options("mediana.opt", "atributo", "dificultad", "habilidad", "rango", "malherido", "solo_atributo")
    @app_commands.choices(rango=RANK_CHOICES)
    async def mediana_odds(
        self,
        interaction: discord.Interaction,
        atributo: MedianaScore,
        dificultad: MedianaDifficulty,
        habilidad: MedianaSkill = 0,
        rango: Choice[str] | None = None,
        malherido: bool = False,
        solo_atributo: bool = False,
    ) -> None:
        """Each rank the GM may set, after the roll's own drops (no skill points,
        malherido); an attribute test neither explodes nor fails on a natural 1."""
        if solo_atributo and habilidad:
            raise Refusal("odds.mediana.attribute_with_skill")
        skill = None if solo_atributo else habilidad
        kind = mediana_checks.roll_kind(solo_atributo)["skill_test"]
        ranks = {r: mediana_ranks.odds_rank(r, skill, malherido) for r in mediana_ranks.RANKS}
        results = {
            r: rules_mediana_odds.mediana_distribution(
                atributo + habilidad, dificultad, rank, skill_test=kind
            )
            for r, rank in ranks.items()
        }
        await interaction.response.defer()
        lang = lang_for(interaction.locale)
        lines = [mediana_line(lang, base, ranks[base], x) for base, x in results.items()]
        chosen = rango.value if rango else "medio"
        title = "odds.mediana.title_attribute" if solo_atributo else "odds.mediana.title"
        await answer(
            interaction,
            lang,
            t(lang, title, difficulty=dificultad),
            lines,
            mediana_chart(lang, results[chosen], ranks[chosen], atributo + habilidad, dificultad, kind),
        )


def mediana_line(lang: Lang, base: str, rank: str, result: rules_mediana_odds.MedianaOdds) -> str:
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


def mediana_chart(
    lang: Lang,
    result: rules_mediana_odds.MedianaOdds,
    rank: str,
    score: int,
    difficulty: int,
    skill_test: bool,
) -> Chart:
    """Totals of the rank rolled: failure, success, and critical from the difficulty + 10
    on; in a skill test an objective die of 1 fails whatever the total. A fumble depends on
    the dice, not the total: its chance is written in the legend."""
    critical = difficulty + mediana_checks.CRITICAL_MARGIN

    def kind(bar: Bar) -> str:
        if skill_test and int(bar.label) == score + 1:
            return "failure"
        return "critical" if int(bar.label) >= critical else bar.kind

    bars = [Bar(b.label, b.p, kind(b)) for b in passing(result.totals, difficulty)]
    return Chart(
        t(lang, "odds.mediana.chart", rank=t(lang, f"mediana.rank.{rank}"), difficulty=difficulty),
        bars,
        t(lang, "odds.chart.total"),
        t(lang, "odds.chart.y"),
        legend(lang, success="success", failure="failure", critical="critical"),
        marker=threshold([int(b.label) for b in bars], difficulty),
        marker_label=t(lang, "odds.chart.difficulty", value=difficulty),
        note=t(lang, "odds.chart.fumble", p=percent(lang, result.p_fumble)),
    )


async def setup(bot: Tirada) -> None:
    await bot.add_cog(Probabilidad(bot))
