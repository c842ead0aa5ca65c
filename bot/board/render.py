"""What a table's board shows, read from the store (never from a cog): one embed a table.

Each system has its own part (Dune's pools and tasks, Donjon's facts and banks, the
initiative of D&D and Mediana); every board ends with the last lines of the ledger. The
record kinds and pool names below are the ones the cogs store; tests/bot/test_board.py
checks they still match, since a cog is never imported here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

import discord
from discord.utils import escape_markdown

from bot import embeds
from bot.board import hp
from bot.errors import pool_name
from bot.hidden import threat_hidden
from bot.i18n import CATALOG, Lang, t
from bot.models import BoardHitPoints, LedgerRow, System, Table
from bot.sheets.live import POOLS as SHEET_POOLS
from bot.store import Store
from rules.dnd5e import tracker as dnd5e_tracker
from rules.donjon import law as donjon_law
from rules.donjon import posted
from rules.dune import pools, skill_test
from rules.dune import tasks as rules_dune_tasks
from rules.mediana import combat as mediana_combat

DUNE_ROLL, DUNE_TASK = "dune", "dune_tarea"
IMPULSO, AMENAZA, DETERMINACION, DIFICULTAD_EXTRA = "impulso", "amenaza", "determinacion", "dificultad_extra"
DONJON_ROLL, DONJON_BANK, DONJON_GM_BANK = "donjon", "dados", "dados_dj"
DND_COMBAT, MEDIANA_COMBAT = "dnd_combate", "mediana_combate"
LEDGER_LINES = 5
# Ledger rows read to find those lines, when some tell hit points the board keeps off it.
LEDGER_READ = 50
SHOWN = 10  # tasks, facts, banks or combatants listed before "and N more"
FACT_SHOWN = 80

Part = Callable[[Store, Lang, Table, discord.Embed], Awaitable[None]]


async def board_embed(store: Store, lang: Lang, table: Table) -> discord.Embed:
    """The whole board of ``table`` as it is now in the store."""
    system = t(lang, f"system.{table.system.value}") if table.system else t(lang, "board.no_system")
    embed = embeds.card(t(lang, "board.title"), t(lang, "board.system", system=system))
    part = PARTS.get(table.system) if table.system else None
    if part is not None:
        await part(store, lang, table, embed)
    hidden = hp.secret(table)
    rows = [row for row in await store.ledger(table.channel_id, limit=LEDGER_READ) if not hidden(row)]
    lines = [ledger_line(lang, row) for row in rows[:LEDGER_LINES]] or [t(lang, "board.ledger.empty")]
    embeds.field(embed, t(lang, "board.ledger"), fit(lines), inline=False)
    return embed


def fit(lines: Iterable[str], limit: int = embeds.FIELD_LIMIT) -> str:
    """Whole lines up to a field's limit (a cut line would be a lie about a value)."""
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def fit_more(lang: Lang, lines: list[str], limit: int = embeds.FIELD_LIMIT) -> str:
    """Every line if they fit a field; else the first ones and "… and N more"."""
    text = fit(lines, limit)
    if len(text.splitlines()) == len(lines):
        return text
    room = limit - len(t(lang, "board.more", n=len(lines))) - 1
    return fit(more(lang, fit(lines, room).splitlines(), len(lines)), limit)


def more(lang: Lang, lines: list[str], total: int) -> list[str]:
    if total > len(lines):
        return [*lines, t(lang, "board.more", n=total - len(lines))]
    return lines


def ledger_line(lang: Lang, row: LedgerRow) -> str:
    key = f"ledger.{row.reason}"
    reason = t(lang, key) if key in CATALOG.entries else row.reason
    pool = pool_name(lang, row.pool)
    if row.pool in SHEET_POOLS:
        # Owned by a character sheet: its id is no user to mention.
        pool = t(lang, "fichas.pool_owned", pool=pool, sheet=row.owner_id)
    elif row.owner_id:
        pool = t(lang, "board.ledger.owned", pool=pool, owner=row.owner_id)
    verb = "board.ledger.gained" if row.delta > 0 else "board.ledger.spent"
    return t(
        lang, verb, actor=row.actor_id, n=abs(row.delta), pool=pool, value=row.value_after, reason=reason
    )


# -- Dune ------------------------------------------------------------------------------------


# Dune's pools named for one scene: its traits and created assets (cogs/dune/state.py).
SCENE = ("rasgo:", "recurso:")


async def dune_part(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """Impulso n/6, Amenaza (or hidden), each player's Determinación, open tasks, +1 dificultad."""
    values = {(p.pool, p.owner_id): p.value for p in await store.pools(table.channel_id)}
    embeds.field(
        embed, t(lang, "board.dune.impulso"), f"**{values.get((IMPULSO, 0), 0)}**/{pools.MOMENTUM_CAP}"
    )
    threat = str(values.get((AMENAZA, 0), 0))
    hidden = threat_hidden(table)
    embeds.field(
        embed, t(lang, "board.dune.amenaza"), t(lang, "board.dune.hidden") if hidden else f"**{threat}**"
    )
    extra = values.get((DIFICULTAD_EXTRA, 0), 0)
    if extra:
        embeds.field(embed, t(lang, "board.dune.extra"), t(lang, "board.dune.extra_value", n=extra))
    holders = sorted((owner, v) for (pool, owner), v in values.items() if pool == DETERMINACION and owner)
    lines = [
        t(lang, "board.dune.determinacion_line", user=owner, value=v, cap=pools.DETERMINATION_CAP)
        for owner, v in holders[:SHOWN]
    ]
    if lines:
        embeds.field(embed, t(lang, "board.dune.determinacion"), fit(more(lang, lines, len(holders))), False)
    scene = sorted((pool, owner, v) for (pool, owner), v in values.items() if pool.startswith(SCENE) and v)
    if scene:
        shown = [scene_line(lang, pool, owner, v) for pool, owner, v in scene[:SHOWN]]
        embeds.field(embed, t(lang, "board.dune.scene"), fit(more(lang, shown, len(scene))), False)
    await dune_tasks(store, lang, table, embed)


def scene_line(lang: Lang, pool: str, owner: int, value: int) -> str:
    """A scene trait with its count ("Rasgo «humo denso» 2"), or an asset and whose."""
    if owner:
        return t(lang, "board.dune.asset", asset=pool_name(lang, pool), owner=owner)
    return t(lang, "board.dune.trait", trait=pool_name(lang, pool), value=value)


async def dune_tasks(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    tasks = [r for r in await store.records(table.channel_id, DUNE_TASK, limit=100) if not r.data.get("done")]
    if not tasks:
        return
    shown = list(reversed(tasks))[:SHOWN]
    points = dict.fromkeys((task.id for task in shown), 0)
    looming = {task.id for task in shown if task.data.get("opposing")}
    for record in await store.linked_records(table.channel_id, DUNE_ROLL, "task_id", list(points)):
        roll = skill_test.from_data(record.data)
        if roll.task_id in points:
            # A looming problem fills with failures and complications ("desde la dirección opuesta").
            count = (
                rules_dune_tasks.opposing_task_points
                if roll.task_id in looming
                else rules_dune_tasks.task_points
            )
            points[roll.task_id] += count(roll)
    lines = [
        t(
            lang,
            "board.dune.task",
            name=escape_markdown(task.data["name"]),
            points=points[task.id],
            requirement=task.data["requirement"],
        )
        for task in shown
    ]
    embeds.field(embed, t(lang, "board.dune.tasks"), fit(more(lang, lines, len(tasks))), inline=False)


# -- Donjon ----------------------------------------------------------------------------------


async def donjon_part(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """The facts awaiting narration, everyone's banked dice and the GM's, the Donjon level."""
    embeds.field(embed, t(lang, "board.donjon.level"), f"**{table.donjon_level}**")
    banks = [
        p for p in await store.pools(table.channel_id) if p.value and p.pool in (DONJON_BANK, DONJON_GM_BANK)
    ]
    banks.sort(key=lambda p: (p.pool != DONJON_GM_BANK, p.owner_id))
    lines = [bank_line(lang, p.pool, p.owner_id, p.value) for p in banks[:SHOWN]]
    text = fit(more(lang, lines, len(banks))) if lines else t(lang, "board.donjon.no_bank")
    embeds.field(embed, t(lang, "board.donjon.bank"), text)
    pending = []
    for record in await store.records(table.channel_id, DONJON_ROLL, limit=200):
        law = posted.from_data(record.data).law
        if law is not None and law.facts and not law.narrated:
            pending.append(law)
    if not pending:
        return
    lines = [fact_line(lang, law) for law in reversed(pending[:SHOWN])]
    embeds.field(embed, t(lang, "board.donjon.facts"), fit(more(lang, lines, len(pending))), inline=False)


def bank_line(lang: Lang, pool: str, owner: int, value: int) -> str:
    if pool == DONJON_GM_BANK:
        return t(lang, "board.donjon.gm_bank", n=value)
    return t(lang, "board.donjon.player_bank", user=owner, n=value)


def fact_line(lang: Lang, law: donjon_law.Law) -> str:
    facts = " · ".join(escape_markdown(embeds.clip(f.text, FACT_SHOWN)) for f in law.facts)
    if law.narrator_id:
        return t(lang, "board.donjon.fact", narrator=law.narrator_id, facts=facts)
    return t(lang, "board.donjon.fact_gm", facts=facts)


# -- initiative --------------------------------------------------------------------------------


async def dnd_part(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """The open combat's order, an arrow on whoever acts, the round, and hit points as the
    table's setting shows them."""
    record = next(
        (r for r in await store.records(table.channel_id, DND_COMBAT, 5) if not r.data["ended"]), None
    )
    if record is None:
        embeds.field(embed, t(lang, "board.initiative"), t(lang, "board.no_combat"), inline=False)
        return
    tracker = dnd5e_tracker.tracker_from_data(record.data)
    acting = tracker.acting
    setting = table.settings.board_hit_points
    lines = []
    for c in tracker.order:
        points = () if setting is BoardHitPoints.HIDDEN else await hp.dnd_hp(store, table, c, tracker)
        shown = hp.group_text(lang, setting, points, hp.dnd_player(c))
        shown = hp.with_conditions(lang, tracker, c, shown)
        lines.append(
            order_line(lang, c.name, c.initiative, c.count, acting is not None and c.key == acting.key, shown)
        )
    title = t(lang, "board.round", n=tracker.round) if tracker.started else t(lang, "board.not_started")
    embeds.field(embed, title, fit_more(lang, lines) or t(lang, "board.nobody"), inline=False)


async def mediana_part(store: Store, lang: Lang, table: Table, embed: discord.Embed) -> None:
    """The open combat's order this round (rolled again each round), ▶ on whoever acts, and
    PV as the table's setting shows them."""
    record = next(
        (r for r in await store.records(table.channel_id, MEDIANA_COMBAT, 5) if not r.data["ended"]), None
    )
    if record is None:
        embeds.field(embed, t(lang, "board.initiative"), t(lang, "board.no_combat"), inline=False)
        return
    combat = mediana_combat.combat_from_data(record.data)
    acting = combat.acting
    setting = table.settings.board_hit_points
    kept_sheets = {} if setting is BoardHitPoints.HIDDEN else await hp.pv_sheets(store, table)
    lines = []
    for f in combat.order:
        points = (
            None if setting is BoardHitPoints.HIDDEN else await hp.mediana_hp(store, table, f, kept_sheets)
        )
        shown = hp.hp_text(lang, setting, points, hp.mediana_player(f) is not None)
        lines.append(order_line(lang, f.name, f.total, 1, acting is not None and f.key == acting.key, shown))
    text = fit_more(lang, lines) or t(lang, "board.nobody")
    embeds.field(embed, t(lang, "board.round", n=combat.round), text, inline=False)


def order_line(
    lang: Lang, name: str, initiative: int, count: int, acting: bool, points: str | None = None
) -> str:
    """One place of the order; ``points``: the hit points the table's setting shows."""
    key = "board.order.acting" if acting else "board.order.line"
    label = (
        escape_markdown(name)
        if count == 1
        else t(lang, "board.order.group", name=escape_markdown(name), n=count)
    )
    if points is None:
        return t(lang, key, name=label, initiative=initiative)
    return t(lang, f"{key}_hp", name=label, initiative=initiative, hp=points)


PARTS: dict[System, Part] = {
    System.DUNE: dune_part,
    System.DONJON: donjon_part,
    System.DND5E: dnd_part,
    System.MEDIANA: mediana_part,
}
