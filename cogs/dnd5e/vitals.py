"""Hit points and AC of the D&D tracker's creatures: where each comes from, who sees them,
and how damage, healing and temporary hit points change them.

A creature with a character sheet (a player's active sheet when joining, or an NPC sheet
the GM adds) has its hit points in the sheet's ledger pools and its AC in the sheet: a
change goes through the ledger (``/mesa historial``, ``/mesa deshacer``). Any other
creature keeps its hit points and AC in the tracker record, one set per member of a group.
Either way the change and the tracker's note of it are one operation on the tracker record
(``bot.rolls.act``), so the same damage never reaches the same creature twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import discord

from bot import embeds
from bot.board.render import fit_more
from bot.checks import is_gm
from bot.errors import Refusal
from bot.i18n import Lang, t
from bot.models import Change, Record, SheetRow, Table
from bot.names import closest
from bot.rolls import Decision, act
from bot.sheets import access
from bot.sheets.live import live_field
from bot.store import Store
from cogs.dnd5e.sheet_model import DndSheet
from cogs.dnd5e.state import COMBAT_KIND
from rules.dnd5e import hit_points
from rules.dnd5e import tracker as dnd5e_tracker
from rules.dnd5e.damage_types import Adjusted, Adjustment, Defences, adjusted
from rules.dnd5e.death import Fate, after_harm, standing
from rules.dnd5e.hit_points import Condition, Harm, HitPoints
from rules.dnd5e.initiative import Combatant, Member
from rules.dnd5e.tracker import Tracker

# Trackers looked at for the open one (the newest few of the table).
RECENT_TRACKERS = 5

# What a change does to one creature: the damage it takes (with the hit points it leaves)
# and its fate afterwards (death saving throws, stable, dead).
Step = Callable[["Target"], tuple[Harm, Fate]]


def tracker_of(record: Record) -> Tracker:
    return dnd5e_tracker.tracker_from_data(record.data)


async def open_tracker(store: Store, channel_id: int) -> Record | None:
    """The table's combat that has not ended, if any."""
    records = await store.records(channel_id, COMBAT_KIND, RECENT_TRACKERS)
    return next((r for r in records if not r.data["ended"]), None)


def safe(text: str) -> str:
    """A creature's name as plain text: no markdown, no mention."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


@dataclass(frozen=True)
class Target:
    """One creature of the tracker with its hit points and AC as play has left them."""

    combatant: Combatant
    member: Member
    hp: HitPoints | None
    ac: int | None
    row: SheetRow | None = None
    fate: Fate = field(default_factory=Fate)
    defences: Defences = field(default_factory=Defences)

    @property
    def dies_at_zero(self) -> bool:
        """A monster without a sheet "dies the instant it drops to 0 hit points"."""
        return self.combatant.monster and self.row is None

    @property
    def dead(self) -> bool:
        """Killed (outright, by three failed death saves) or a monster at 0: for good."""
        return self.condition() is Condition.DEAD

    @property
    def dying(self) -> bool:
        """At 0 hit points, neither stable nor dead: it makes death saving throws."""
        return self.condition() is Condition.UNCONSCIOUS

    def condition(self) -> Condition | None:
        if self.fate.dead:
            return Condition.DEAD
        return None if self.hp is None else standing(self.hp, self.fate, dies_at_zero=self.dies_at_zero)

    def visible_to(self, gm: bool, user_id: int) -> bool:
        """Its numbers are the GM's, and a player's own character's (their sheet's, or the
        tracker's when they joined without one)."""
        if self.row is not None:
            return gm or (not self.row.npc and self.row.owner_id == user_id)
        return gm or (not self.combatant.monster and self.combatant.user_id == user_id)


async def targets(store: Store, channel_id: int, tracker: Tracker) -> list[Target]:
    """Every creature in initiative order (a sheet deleted since has no numbers)."""
    found: list[Target] = []
    for combatant in tracker.order:
        row = await store.sheet(channel_id, combatant.sheet_id) if combatant.sheet_id is not None else None
        if row is not None:
            sheet = access.of_kind(await access.content(store, row), DndSheet)
            pg = sheet.pg
            hp = HitPoints(pg.actuales, pg.maximos, pg.temporales)
            defences = Defences(
                frozenset(sheet.resistencias), frozenset(sheet.vulnerabilidades), frozenset(sheet.inmunidades)
            )
            found += [
                Target(combatant, m, hp, sheet.ca, row, tracker.fate(m.target), defences)
                for m in combatant.members
            ]
        else:
            found += [
                Target(combatant, m, m.hp, combatant.ac, fate=tracker.fate(m.target))
                for m in combatant.members
            ]
    return found


# A creature's id on the tracker as the autocomplete and the attack form send it: a
# monster's ``m`` or a player's ``u`` and a snowflake, then ``.n`` for one of a group.
TARGET_ID = re.compile(r"[mu][0-9]{1,20}(\.[0-9]{1,2})?")


def pick(found: list[Target], typed: str) -> Target:
    """The creature ``typed`` names: its id (from an autocomplete or the attack form) or its
    name. An id no longer on the tracker (the creature left, or the combat ended, since the
    list was drawn) is refused as such, not looked up as a name."""
    by_id = next((target for target in found if target.member.target == typed.strip()), None)
    if by_id is not None:
        return by_id
    if TARGET_ID.fullmatch(typed.strip()):
        raise Refusal("dnd.hp.target_gone")
    name = closest(typed, [target.member.name for target in found])
    if name is None:
        raise Refusal("dnd.hp.unknown_target", name=safe(typed[:60]))
    return next(target for target in found if target.member.name == name)


async def linked_sheet(store: Store, table: Table, user_id: int) -> tuple[SheetRow, DndSheet] | None:
    """The player's active D&D sheet, which joining the tracker links to the character."""
    row = await store.active_sheet(table.channel_id, user_id)
    if row is None or row.system != "dnd5e":
        return None
    return row, access.of_kind(await access.content(store, row), DndSheet)


# -- changing hit points -----------------------------------------------------------------------


def sheet_changes(row: SheetRow, before: HitPoints, after: HitPoints) -> tuple[Change, ...]:
    """The sheet's pools, moved from ``before`` to ``after`` (what did not move is left out)."""
    changes = []
    for path, old, new in (
        ("pg.actuales", before.current, after.current),
        ("pg.temporales", before.temporary, after.temporary),
    ):
        live = live_field(row, path)
        if live is not None and new != old:
            changes.append(Change(live.pool, new - old, live.owner(row), cap=live.cap(row.data)))
    return tuple(changes)


@dataclass(frozen=True)
class Altered:
    """A change made: the tracker as stored after it, the creature as it was, the damage
    it took (with the hit points left) and its fate now."""

    record: Record
    target: Target
    harm: Harm
    fate: Fate


async def alter(
    store: Store,
    interaction: discord.Interaction,
    tracker_id: int,
    target_id: str,
    step: Step,
    reason: str,
    mark: str | None = None,
) -> Altered:
    """Change one creature's hit points and fate by ``step``, once: the tracker notes
    ``mark`` and the fate in the same operation."""
    marks = {target_id: mark} if mark else {}
    return (await alter_all(store, interaction, tracker_id, [target_id], step, reason, marks))[0]


async def alter_all(
    store: Store,
    interaction: discord.Interaction,
    tracker_id: int,
    target_ids: list[str],
    step: Step,
    reason: str,
    marks: dict[str, str],
) -> list[Altered]:
    """Change each creature's hit points and fate by ``step`` (one roll's damage reaching
    several), all in one operation on the tracker or none: each ``marks`` entry, noted
    there, refuses the same roll reaching the same creature twice."""
    done: list[tuple[Target, Harm, Fate]] = []

    async def decide(record: Record) -> Decision:
        tracker = tracker_of(record)
        if tracker.ended:
            raise Refusal("dnd.tracker.is_over")
        found = await targets(store, record.channel_id, tracker)
        changes: list[Change] = []
        done.clear()
        for target_id in dict.fromkeys(target_ids):
            target = pick(found, target_id)
            harm, fate = step(target)
            done.append((target, harm, fate))
            tracker = tracker.with_fate(target.member.target, fate)
            mark = marks.get(target_id)
            if target.row is not None:
                changes += sheet_changes(target.row, harm.before, harm.after)
                tracker = tracker.noted(mark) if mark else tracker
            else:
                tracker = tracker.hurt(target.member.target, harm.after, mark, unlink=True)
        return Decision(dnd5e_tracker.tracker_to_data(tracker), tuple(changes), reason)

    record, _ = await act(store, interaction, tracker_id, COMBAT_KIND, decide)
    return [Altered(record, *one) for one in done]


def hurting(
    amount: int, critical: bool, kind: str | None = None, chosen: Adjustment = Adjustment.FULL
) -> Step:
    """Damage from a roll, adjusted for each creature (its sheet's defences against
    ``kind``, and what was ``chosen`` when applying): refused for a creature without hit
    points or already dead (the dead take no more death saving throw failures)."""

    def step(target: Target) -> tuple[Harm, Fate]:
        if target.hp is None:
            raise Refusal("dnd.hp.unknown")
        if target.dead:
            raise Refusal("dnd.hp.already_dead")
        taken = adjusted(amount, kind, target.defences, chosen).amount
        harm = hit_points.damage(target.hp, taken, critical=critical, dies_at_zero=target.dies_at_zero)
        return harm, after_harm(target.fate, harm)

    return step


def adjustment_of(target: Target, amount: int, kind: str | None, chosen: Adjustment) -> Adjusted:
    """What changed the damage a creature took (for the table to read why)."""
    return adjusted(amount, kind, target.defences, chosen)


# -- what the table and the GM read ------------------------------------------------------------


def numbers(lang: Lang, target: Target) -> str:
    """ "PG 3/7 (+5 temporales) · CA 15 · inconsciente", or what is not noted."""
    hp = target.hp
    parts = [
        t(lang, "dnd.hp.unknown_short")
        if hp is None
        else t(lang, "dnd.hp.line", current=hp.current, max=hp.maximum, temp=hp.temporary)
    ]
    if target.ac is not None:
        parts.append(t(lang, "dnd.hp.ac", ac=target.ac))
    state = target.condition()
    if state is not None and state is not Condition.UP:
        parts.append(t(lang, f"dnd.hp.condition.{state.value}"))
    if target.dying and (target.fate.successes or target.fate.failures):
        parts.append(saves_text(lang, target.fate))
    return " · ".join(parts)


def saves_text(lang: Lang, fate: Fate) -> str:
    """ "éxitos 1 · fallos 2": the death saving throws counted so far."""
    return t(lang, "dnd.death.count", successes=fate.successes, failures=fate.failures)


def vitals_embed(lang: Lang, shown: list[Target]) -> discord.Embed:
    """Each creature's hit points and AC, one line each; lines past the embed's limit are
    counted ("… y 12 más"), never cut in half (25 groups of 20 are 500 lines)."""
    lines = [f"**{safe(target.member.name)}** · {numbers(lang, target)}" for target in shown]
    return embeds.card(t(lang, "dnd.hp.title"), fit_more(lang, lines, embeds.DESCRIPTION_LIMIT))


def harm_text(lang: Lang, name: str, harm: Harm, fate: Fate, why: tuple[Adjustment, ...] = ()) -> str:
    """What the table reads: the damage (and what changed it) and what it did, never the
    hit points left."""
    if why:
        reasons = ", ".join(t(lang, f"dnd.adjust.why.{w.value}") for w in why)
        took = t(lang, "dnd.hp.took_adjusted", name=name, amount=harm.amount, why=reasons)
    else:
        took = t(lang, "dnd.hp.took", name=name, amount=harm.amount)
    return "\n".join([took, *what_it_did(lang, name, harm, fate)])


def what_it_did(lang: Lang, name: str, harm: Harm, fate: Fate) -> list[str]:
    """The lines damage earns: death (outright, or the third failure), falling
    unconscious, death saving throws failed."""
    if harm.condition is Condition.DEAD:
        return [t(lang, "dnd.hp.dies", name=name)]
    lines = []
    if harm.before.current > 0 and harm.after.current == 0:
        lines.append(t(lang, "dnd.hp.falls", name=name))
    if harm.death_failures:
        lines.append(t(lang, "dnd.hp.death_failures", name=name, n=harm.death_failures))
    if fate.dead:
        lines.append(t(lang, "dnd.hp.dies", name=name))
    return lines


def private_text(lang: Lang, target: Target, harm: Harm) -> str:
    """The hit points before and after, for whoever may see them."""
    before, after = harm.before, harm.after
    return t(
        lang,
        "dnd.hp.changed",
        name=safe(target.member.name),
        before=before.current,
        after=after.current,
        max=after.maximum,
        temp=after.temporary,
    )


def allowed(table: Table, interaction: discord.Interaction, target: Target) -> bool:
    return target.visible_to(is_gm(table, interaction), interaction.user.id)
