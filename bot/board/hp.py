"""Hit points on the board's initiative (D&D and Mediana), read from the store.

Where a combatant's hit points come from is one small function a system (:func:`dnd_hp`,
:func:`mediana_hp`): a character sheet's (a player's, or an NPC's the D&D tracker links),
else what the D&D tracker keeps of a monster. How much of them everyone sees is the table's
setting (``TableSettings.board_hit_points``, docs/decisiones.md): nothing; the players'
numbers and, for everyone else, only a word (a monster's numbers are the GM's secret); or
every number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bot.hidden import ledger_rows
from bot.i18n import Lang, t
from bot.kinds import MEDIANA_SHEET, MEDIANA_WOUNDS
from bot.models import BoardHitPoints, LedgerRow, Record, System, Table
from bot.sheets.access import played
from bot.sheets.live import LIVE, Data
from bot.sheets.models import physique_of
from bot.store import Store
from rules.dnd5e import death, initiative
from rules.dnd5e import tracker as dnd5e_tracker
from rules.dnd5e.conditions import EXHAUSTION, Affliction
from rules.dnd5e.death import Fate
from rules.dnd5e.hit_points import Condition, HitPoints
from rules.mediana import combat
from rules.mediana import health as mediana_health

# The states the rules name, said after a player's numbers too (each changes play): Mediana's
# malherido, inconsciente and muerto; D&D's inconsciente, estable and muerto.
NAMED_STATES = frozenset({"malherido", "inconsciente", "estable", "muerto"})
# The pools that hold hit points (a D&D sheet's PG and temporary PG, a player's Mediana
# wounds): the board's ledger lines would tell their numbers.
HP_POOLS = frozenset(live.pool for system in ("dnd5e", "mediana") for live in LIVE[system])


@dataclass(frozen=True)
class Hp:
    """A combatant's hit points as play has left them, and the word for their state
    (``board.hp.state.*``). ``unit``: PG (D&D) or PV (Mediana)."""

    current: int
    maximum: int
    state: str
    unit: str
    temporary: int = 0
    # D&D's death saving throws so far (successes, failures), told beside "Inconsciente".
    saves: tuple[int, int] = (0, 0)


def state_text(lang: Lang, hp: Hp) -> str:
    """The state's word, with the death saving throws counted when there are any."""
    if any(hp.saves):
        return t(lang, "board.hp.state.dying", successes=hp.saves[0], failures=hp.saves[1])
    return t(lang, f"board.hp.state.{hp.state}")


def hp_text(lang: Lang, setting: BoardHitPoints, hp: Hp | None, player: bool) -> str | None:
    """What the board says of one combatant's hit points (None: nothing)."""
    if hp is None or setting is BoardHitPoints.HIDDEN:
        return None
    if setting is BoardHitPoints.STATE and not player:
        return state_text(lang, hp)
    if hp.temporary:
        return t(
            lang, f"board.hp.{hp.unit}_temp", current=hp.current, maximum=hp.maximum, temporary=hp.temporary
        )
    if hp.state in NAMED_STATES:
        state = state_text(lang, hp)
        return t(lang, f"board.hp.{hp.unit}_state", current=hp.current, maximum=hp.maximum, state=state)
    return t(lang, f"board.hp.{hp.unit}", current=hp.current, maximum=hp.maximum)


def secret(table: Table) -> Callable[[LedgerRow], bool]:
    """Which ledger rows the board leaves out: every row a player may not read
    (bot/hidden.py), and every hit point pool's when the table hides hit points."""
    hidden = ledger_rows(table)
    if table.settings.board_hit_points is BoardHitPoints.HIDDEN:
        return lambda row: row.pool in HP_POOLS or hidden(row)
    return hidden


async def sheet_data(store: Store, table: Table, user_id: int, system: System) -> Data | None:
    """The player's active sheet of ``system`` as play has left it, if they have one."""
    row = await store.active_sheet(table.channel_id, user_id)
    if row is None or row.system != system.value:
        return None
    return await played(store, row)


# -- D&D -----------------------------------------------------------------------------------------


def dnd_points(
    current: int, maximum: int, temporary: int = 0, fate: Fate | None = None, *, dies_at_zero: bool = False
) -> Hp:
    """D&D hit points and their word: Ensangrentado ("Bloodied") at half the maximum or
    less (SRD 5.2, "Daño y curación"); at 0, what the tracker knows (``fate``): Muerto,
    Estable, or Inconsciente with its death saving throws (a monster without a sheet dies
    at 0)."""
    fate = fate or Fate()
    standing = death.standing(HitPoints(max(current, 0), maximum), fate, dies_at_zero=dies_at_zero)
    if standing is not Condition.UP:
        saves = (fate.successes, fate.failures) if standing is Condition.UNCONSCIOUS else (0, 0)
        return Hp(current, maximum, standing.value, "pg", temporary, saves)
    if current * 2 <= maximum:
        state = "ensangrentado"
    elif current < maximum:
        state = "herido"
    else:
        state = "ileso"
    return Hp(current, maximum, state, "pg", temporary)


def dnd_player(combatant: initiative.Combatant) -> bool:
    """A player's character (``u{user id}``), whose numbers the table sees."""
    return combatant.user_id is not None and not combatant.monster


async def dnd_hp(
    store: Store, table: Table, combatant: initiative.Combatant, tracker: dnd5e_tracker.Tracker | None = None
) -> tuple[Hp, ...]:
    """Each creature's hit points, one per member of a group, with its fate on ``tracker``
    (its death saving throws, stable, dead). A combatant linked to a
    sheet (``sheet_id``: a player's character or an NPC's sheet) reads it: current (pool
    ``ficha_pg``) and temporary (``ficha_pg_temp``), both owned by the sheet, and the
    file's maximum; a player of a tracker from before the link reads their active sheet.
    A monster without a sheet, or a player who joined without one, has what the tracker
    keeps (nothing until the GM notes it)."""
    if combatant.sheet_id is not None:
        row = await store.sheet(table.channel_id, combatant.sheet_id)
        data = await played(store, row) if row is not None else None
    elif dnd_player(combatant) and not combatant.hp:
        assert combatant.user_id is not None
        data = await sheet_data(store, table, combatant.user_id, System.DND5E)
    else:
        return tuple(
            dnd_points(
                m.hp.current,
                m.hp.maximum,
                m.hp.temporary,
                tracker.fate(m.target) if tracker else None,
                dies_at_zero=combatant.monster,
            )
            for m in combatant.members
            if m.hp
        )
    if data is None:
        return ()
    pg = data["pg"]
    fate = tracker.fate(combatant.key) if tracker else None
    return (dnd_points(int(pg["actuales"]), int(pg["maximos"]), int(pg.get("temporales") or 0), fate),)


def condition_name(lang: Lang, affliction: Affliction) -> str:
    """A condition's name; Exhaustion's with its level ("Agotamiento 2")."""
    if affliction.condition == EXHAUSTION:
        return t(lang, "dnd.condition.agotamiento_level", level=affliction.level)
    return t(lang, f"dnd.condition.{affliction.condition}")


def with_conditions(
    lang: Lang, tracker: dnd5e_tracker.Tracker, combatant: initiative.Combatant, shown: str | None
) -> str | None:
    """The hit points the board shows, then each member's conditions the GM set (the table
    already sees them on the tracker's panel): "7/7 PG · Aturdido"."""
    names = [
        ", ".join(condition_name(lang, a) for a in tracker.conditions(m.target)) for m in combatant.members
    ]
    tags = [
        text if combatant.count == 1 else t(lang, "board.dnd.member_conditions", name=m.name, conditions=text)
        for m, text in zip(combatant.members, names, strict=True)
        if text
    ]
    return " · ".join([shown, *tags] if shown else tags) or None


def group_text(lang: Lang, setting: BoardHitPoints, points: tuple[Hp, ...], player: bool) -> str | None:
    """A group's hit points on one line, member by member ("7/15 PG, 0/15 PG"); in words,
    alike ones counted ("Ileso ×2, Muerto"), so twenty goblins stay one short line."""
    texts = [text for p in points if (text := hp_text(lang, setting, p, player)) is not None]
    if not texts:
        return None
    if setting is BoardHitPoints.STATE and not player:
        counted = Counter(texts)
        return ", ".join(
            w if n == 1 else t(lang, "board.order.group", name=w, n=n) for w, n in counted.items()
        )
    return ", ".join(texts)


# -- Mediana -------------------------------------------------------------------------------------


def mediana_points(physique: int, maximum: int, current: int) -> Hp:
    """Mediana's PV and their word: the rules' malherido (PV ≤ Físico), inconsciente (0)
    and muerto (−Físico × 6); above malherido, Ileso at the maximum, else Herido."""
    health = mediana_health.Health(physique, maximum, current)
    state = health.state
    if state == "bien":
        state = "ileso" if current >= maximum else "herido"
    return Hp(current, maximum, state, "pv")


def mediana_player(fighter: combat.Fighter) -> int | None:
    """The player a fighter is (``u{user id}``; an NPC's key is ``n…``)."""
    digits = fighter.key[1:]
    return int(digits) if fighter.key.startswith("u") and digits.isdigit() else None


async def pv_sheets(store: Store, table: Table) -> dict[int, Record]:
    """Each player's newest PV sheet (``/mediana pv ficha``), read once for a whole board."""
    return await store.latest_records(table.channel_id, MEDIANA_SHEET)


async def mediana_hp(
    store: Store, table: Table, fighter: combat.Fighter, kept_sheets: dict[int, Record]
) -> Hp | None:
    """A player's PV: from their active Mediana sheet (``pv.maximos`` less the player's
    ``mediana_heridas`` pool), else from their PV sheet in ``kept_sheets`` (:func:`pv_sheets`;
    the same pool). None for an NPC and for a player with neither."""
    user_id = mediana_player(fighter)
    if user_id is None:
        return None
    data = await sheet_data(store, table, user_id, System.MEDIANA)
    if data is not None:
        pv = data["pv"]
        return mediana_points(physique_of(data), int(pv["maximos"]), int(pv["actuales"]))
    record = kept_sheets.get(user_id)
    if record is None:
        return None
    kept = record.data
    wounds = await store.pool(table.channel_id, MEDIANA_WOUNDS, user_id)
    # A PV sheet from before the wounds pool kept its current PV itself.
    current = int(kept["current"]) if "current" in kept else int(kept["maximum"]) - wounds
    return mediana_points(int(kept["physique"]), int(kept["maximum"]), current)
