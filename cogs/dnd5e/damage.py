"""The tracker's hit points on screen: the GM's view, "Aplicar daño" on a roll, the menu
of creatures and the GM's form. Every component is a DynamicItem whose custom_id carries
the record ids, so it works after a restart."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot import embeds
from bot.checks import is_gm, record_channel, table_of
from bot.client import Tirada
from bot.delivery import Drawn, send, update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Record
from bot.readers import asked_option
from bot.rolls import load
from bot.ui import ActionButton, Guarded, Modal, parse_int, selected
from cogs.dnd5e.order import refresh_order
from cogs.dnd5e.state import COMBAT_KIND, DAMAGE, EXPRESSION_KIND, KIND, NAME_LIMIT
from cogs.dnd5e.vitals import (
    Target,
    adjustment_of,
    allowed,
    alter,
    alter_all,
    harm_text,
    hurting,
    numbers,
    open_tracker,
    private_text,
    safe,
    targets,
    tracker_of,
    vitals_embed,
    what_it_did,
)
from rules.dnd5e import checks
from rules.dnd5e.damage_types import Adjustment
from rules.dnd5e.death import Fate, after_harm, after_healing, standing
from rules.dnd5e.hit_points import MAX_AMOUNT, MAX_HP, Harm, heal, with_maximum, with_temporary
from rules.dnd5e.hit_points import damage as take_damage

# Discord's limits: 25 options a select, 100 characters a label or description.
MAX_OPTIONS = 25
OPTION_LIMIT = 100
# The GM's form is titled with the creature's name: Discord allows 45 characters.
TITLE_LIMIT = 45
ALL = "-"


def damage_button(lang: Lang, record_id: int) -> Drawn:
    return HitPointsButton.draw(
        record_id, "dano", t(lang, "dnd.button.apply_damage"), discord.ButtonStyle.danger
    )


def vitals_button(lang: Lang, tracker_id: int) -> Drawn:
    return HitPointsButton.draw(tracker_id, "pg", t(lang, "dnd.button.vitals"))


@dataclass(frozen=True)
class Dealt:
    """A roll's damage: the total, whether a critical rolled it (doubled already), its type."""

    amount: int
    critical: bool
    kind: str | None


def damage_of(roll: Record) -> Dealt:
    """The damage a roll dealt: an attack's on a hit, or a plain roll's total."""
    if roll.kind == KIND:
        rolled = roll.data.get("damage_roll")
        if not rolled:
            raise Refusal("dnd.hp.no_damage")
        critical = checks.roll_from_data(roll.data["test"]).critical
        return Dealt(min(max(rolled["total"], 0), MAX_AMOUNT), critical, typed(roll.data["what"].get("type")))
    if "total" not in roll.data:
        raise Refusal("error.roll_gone")
    return Dealt(min(max(roll.data["total"], 0), MAX_AMOUNT), False, typed(asked_option(roll.data, "tipo")))


def typed(kind: str | None) -> str | None:
    """A damage type the defences know (a sheet's free text that names none: no type)."""
    return DAMAGE.resolve(kind) if kind else None


def can_take(found: list[Target]) -> list[Target]:
    """The creatures a roll's damage may go to: with hit points noted, and not dead."""
    return [x for x in found if x.hp is not None and not x.dead]


def target_menu(
    lang: Lang,
    source: int,
    tracker_id: int,
    found: list[Target],
    scope: str,
    gm: bool,
    chosen: Adjustment = Adjustment.FULL,
) -> discord.ui.View:
    """A menu of creatures (numbers only for the GM). Past 25 creatures it lists the
    combatants, and a group picked opens the menu of its members. A roll's damage may go
    to several creatures at once, with a second menu for how they take it."""
    shown = [x for x in found if scope == ALL or x.combatant.key == scope]
    several = bool(source) and len(shown) <= MAX_OPTIONS
    if len(shown) <= MAX_OPTIONS:
        options = [
            discord.SelectOption(
                label=x.member.name[:OPTION_LIMIT],
                value=x.member.target,
                description=numbers(lang, x)[:OPTION_LIMIT] if gm else None,
            )
            for x in shown
        ]
    else:
        groups = {x.combatant.key: x.combatant for x in shown}
        options = [
            discord.SelectOption(
                label=t(lang, "dnd.hp.group", name=c.name, n=c.count) if c.count > 1 else c.name, value=key
            )
            for key, c in list(groups.items())[:MAX_OPTIONS]
        ]
    view = discord.ui.View(timeout=None)
    count = len(options) if several else 1
    view.add_item(TargetSelect(source, tracker_id, scope, options, t(lang, "dnd.hp.pick"), chosen, count))
    if source:
        view.add_item(
            AdjustSelect(source, tracker_id, scope, adjust_options(lang, chosen), t(lang, "dnd.adjust.pick"))
        )
    return view


def adjust_options(lang: Lang, chosen: Adjustment) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=t(lang, f"dnd.adjust.{a.value}"), value=a.value, default=a is chosen)
        for a in Adjustment
    ]


async def show_vitals(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """The GM sees every creature's hit points and AC, with a menu to change them; a
    player sees only their own character's, and is refused without one."""
    lang = lang_for(interaction.locale)
    gm = is_gm(await table_of(interaction, record), interaction)
    found = await targets(interaction.client.store, record.channel_id, tracker_of(record))
    shown = [x for x in found if x.visible_to(gm, interaction.user.id)]
    if not shown:
        raise Refusal("dnd.hp.gm_only")
    kwargs: dict[str, Any] = {}
    if gm:
        kwargs["view"] = target_menu(lang, 0, record.id, found, ALL, True)
    await send(interaction, embed=vitals_embed(lang, shown), ephemeral=True, **kwargs)


async def offer_targets(interaction: discord.Interaction[Tirada], roll: Record) -> None:
    """ "Aplicar daño": straight to the attack's target (named, if it has left the fight),
    else a menu of the creatures that can still take it (the roller's or the GM's)."""
    bot = interaction.client
    lang = lang_for(interaction.locale)
    gm = is_gm(await table_of(interaction, roll), interaction)
    if interaction.user.id != roll.user_id and not gm:
        raise Refusal("dnd.hp.not_your_roll")
    damage_of(roll)  # refuse a roll without damage before looking for targets
    tracker = await open_tracker(bot.store, roll.channel_id)
    if tracker is None:
        raise Refusal("dnd.tracker.none")
    found = await targets(bot.store, tracker.channel_id, tracker_of(tracker))
    aimed = roll.data.get("options", {}).get("objetivo")
    if aimed and aimed["tracker"] == tracker.id:
        if all(x.member.target != aimed["target"] for x in found):
            raise Refusal("dnd.hp.unknown_target", name=safe(aimed["name"]))
        await apply_roll(interaction, roll, tracker.id, [aimed["target"]], from_menu=False)
        return
    alive = can_take(found)
    if not alive:
        raise Refusal("dnd.hp.no_targets")
    view = target_menu(lang, roll.id, tracker.id, alive, ALL, gm)
    await send(interaction, embed=embeds.card(t(lang, "dnd.hp.whom")), view=view, ephemeral=True)


async def apply_roll(
    interaction: discord.Interaction[Tirada],
    roll: Record,
    tracker_id: int,
    target_ids: list[str],
    *,
    from_menu: bool,
    chosen: Adjustment = Adjustment.FULL,
) -> None:
    """Apply a roll's damage to each creature picked, once each and all in one operation;
    the table reads what it did (and what changed it), the roller the hit points only
    where they may see them."""
    lang = lang_for(interaction.locale)
    dealt = damage_of(roll)
    marks = {target_id: f"{roll.id}:{target_id}" for target_id in target_ids}
    step = hurting(dealt.amount, dealt.critical, dealt.kind, chosen)
    done = await alter_all(
        interaction.client.store, interaction, tracker_id, target_ids, step, "dnd.hp.damage", marks
    )
    table = await table_of(interaction, roll)
    public_lines, private_lines = [], []
    for one in done:
        why = adjustment_of(one.target, dealt.amount, dealt.kind, chosen).why
        public_lines.append(harm_text(lang, safe(one.target.member.name), one.harm, one.fate, why))
        if allowed(table, interaction, one.target):
            private_lines.append(private_text(lang, one.target, one.harm))
    public, private = "\n".join(public_lines), "\n".join(private_lines)
    if from_menu:
        text = "\n".join(line for line in (public, private) if line)
        await update(interaction, embed=embeds.card(text, colour=embeds.FAILURE), view=None)
        await interaction.followup.send(embed=embeds.card(public, colour=embeds.FAILURE))
    else:
        await send(interaction, embed=embeds.card(public, colour=embeds.FAILURE))
        if private:
            await interaction.followup.send(embed=embeds.card(private), ephemeral=True)
    changed = any(one.fate != one.target.fate for one in done)
    await refresh_order(interaction, done[-1].record, changed)


class HitPointsButton(ActionButton, template=r"dnd:(?P<action>pg|dano):(?P<record>[0-9]{1,18})"):
    """ "PG y CA" on the tracker's panel (``record``: the tracker) and "Aplicar daño" on a
    roll that dealt damage (``record``: the roll)."""

    prefix = "dnd"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        store = interaction.client.store
        if self.action == "pg":
            await show_vitals(interaction, await load(interaction, self.record_id, COMBAT_KIND))
            return
        roll = await store.record(self.record_id)
        if roll is None or roll.kind not in (KIND, EXPRESSION_KIND):
            raise Refusal("error.roll_gone")
        await offer_targets(interaction, roll)


class TargetSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"dnd:blanco:(?P<source>[0-9]{1,18}):(?P<tracker>[0-9]{1,18}):(?P<scope>-|[um][0-9]{1,20})"
    r"(?::(?P<how>[a-z]{1,20}))?",
):
    """The creatures to change: ``source`` is the roll whose damage they take (one or
    several), or 0 for the GM's form (one); ``scope`` narrows the menu to one group's
    members; ``how`` is how they take the damage (menus posted before it: in full)."""

    def __init__(
        self,
        source: int,
        tracker_id: int,
        scope: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
        how: Adjustment = Adjustment.FULL,
        several: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"dnd:blanco:{source}:{tracker_id}:{scope}:{how.value}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder or None,
                max_values=several,
            )
        )
        self.source = source
        self.tracker_id = tracker_id
        self.scope = scope
        self.how = how

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TargetSelect:
        return cls(int(match["source"]), int(match["tracker"]), match["scope"], how=adjustment(match["how"]))

    async def record_table(self, interaction: discord.Interaction) -> int:
        return await record_channel(interaction, self.tracker_id)

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        store = interaction.client.store
        lang = lang_for(interaction.locale)
        values = list(dict.fromkeys(selected(interaction)))
        if not values or (len(values) > 1 and not self.source):
            raise Refusal("dnd.hp.pick_one")
        record = await load(interaction, self.tracker_id, COMBAT_KIND)
        found = await targets(store, record.channel_id, tracker_of(record))
        gm = is_gm(await table_of(interaction, record), interaction)
        if len(values) == 1 and any(x.combatant.key == values[0] and x.combatant.count > 1 for x in found):
            offered = can_take(found) if self.source else found
            view = target_menu(lang, self.source, self.tracker_id, offered, values[0], gm, self.how)
            await update(interaction, view=view)
            return
        picked = [next((x for x in found if x.member.target == value), None) for value in values]
        missing = next((value for value, x in zip(values, picked, strict=True) if x is None), None)
        if missing is not None:
            raise Refusal("dnd.hp.unknown_target", name=safe(missing[:60]))
        if self.source:
            roll = await source_roll(interaction, self.source, record, gm)
            await apply_roll(interaction, roll, self.tracker_id, values, from_menu=True, chosen=self.how)
            return
        if not gm:
            raise Refusal("error.not_gm")
        target = picked[0]
        assert target is not None
        await interaction.response.send_modal(HitPointsModal(self.tracker_id, target, lang))


def adjustment(value: str | None) -> Adjustment:
    """How a menu's damage is taken, from its custom_id (a value no menu carries: refused)."""
    try:
        return Adjustment(value or Adjustment.FULL.value)
    except ValueError:
        raise Refusal("error.roll_gone") from None


async def source_roll(
    interaction: discord.Interaction[Tirada], roll_id: int, tracker: Record, gm: bool
) -> Record:
    """The roll a damage menu applies: of this table, and the presser's own unless GM."""
    roll = await interaction.client.store.record(roll_id)
    if roll is None or roll.channel_id != tracker.channel_id or roll.kind not in (KIND, EXPRESSION_KIND):
        raise Refusal("error.roll_gone")
    if interaction.user.id != roll.user_id and not gm:
        raise Refusal("dnd.hp.not_your_roll")
    return roll


class AdjustSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"dnd:ajuste:(?P<source>[0-9]{1,18}):(?P<tracker>[0-9]{1,18}):(?P<scope>-|[um][0-9]{1,20})",
):
    """How the creatures picked take a roll's damage (in full, half for a successful save,
    a resistance, vulnerability or immunity no sheet notes): the creatures' menu is drawn
    again carrying it."""

    def __init__(
        self,
        source: int,
        tracker_id: int,
        scope: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"dnd:ajuste:{source}:{tracker_id}:{scope}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder or None,
            )
        )
        self.source = source
        self.tracker_id = tracker_id
        self.scope = scope

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AdjustSelect:
        return cls(int(match["source"]), int(match["tracker"]), match["scope"])

    async def record_table(self, interaction: discord.Interaction) -> int:
        return await record_channel(interaction, self.tracker_id)

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        store = interaction.client.store
        values = selected(interaction)
        if len(values) != 1:
            raise Refusal("dnd.hp.pick_one")
        how = adjustment(values[0])
        record = await load(interaction, self.tracker_id, COMBAT_KIND)
        gm = is_gm(await table_of(interaction, record), interaction)
        await source_roll(interaction, self.source, record, gm)
        found = can_take(await targets(store, record.channel_id, tracker_of(record)))
        lang = lang_for(interaction.locale)
        await update(
            interaction, view=target_menu(lang, self.source, self.tracker_id, found, self.scope, gm, how)
        )


class HitPointsModal(Modal):
    """The GM's form for one creature: a new maximum (a creature without a sheet: a
    sheet's is edited on the sheet), then damage, healing, and temporary hit points (which
    replace the ones it had)."""

    def __init__(self, tracker_id: int, target: Target, lang: Lang) -> None:
        title = t(lang, "dnd.hp.form.title", name=target.member.name[:NAME_LIMIT])[:TITLE_LIMIT]
        super().__init__(title=title, custom_id=f"dnd:pg-modal:{tracker_id}")
        self.tracker_id = tracker_id
        self.target = target.member.target
        self.fields: dict[str, discord.ui.TextInput[HitPointsModal]] = {}
        names = ["dano", "curacion", "temporales"] + (["maximos"] if target.row is None else [])
        for name in names:
            self.fields[name] = discord.ui.TextInput(
                label=t(lang, f"dnd.hp.form.{name}"), custom_id=name, max_length=4, required=False
            )
            self.add_item(self.fields[name])

    def number(self, lang: Lang, name: str, low: int, high: int) -> int | None:
        field = self.fields.get(name)
        if field is None or not field.value.strip():
            return None
        return parse_int(field.value, t(lang, f"dnd.hp.form.{name}"), low, high)

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        lang = lang_for(interaction.locale)
        maximum = self.number(lang, "maximos", 1, MAX_HP)
        hurt = self.number(lang, "dano", 0, MAX_AMOUNT)
        cure = self.number(lang, "curacion", 0, MAX_AMOUNT)
        temporary = self.number(lang, "temporales", 0, MAX_HP)
        if (maximum, hurt, cure, temporary) == (None, None, None, None):
            raise Refusal("dnd.hp.form.empty")

        def step(target: Target) -> tuple[Harm, Fate]:
            hp = target.hp if maximum is None else with_maximum(target.hp, maximum)
            if hp is None:
                raise Refusal("dnd.hp.unknown")
            if target.dead and (hurt or cure):
                raise Refusal("dnd.hp.already_dead" if hurt else "dnd.death.stays_dead")
            harm = take_damage(hp, hurt or 0, dies_at_zero=target.dies_at_zero)
            fate = after_harm(target.fate, harm)
            after = heal(harm.after, cure) if cure else harm.after
            fate = after_healing(fate, after) if cure else fate
            after = with_temporary(after, temporary) if temporary is not None else after
            state = standing(after, fate, dies_at_zero=target.dies_at_zero)
            return replace(harm, after=after, condition=state), fate

        table = await table_of(interaction, await load(interaction, self.tracker_id, COMBAT_KIND))
        if not is_gm(table, interaction):
            raise Refusal("error.not_gm")
        store = interaction.client.store
        done = await alter(store, interaction, self.tracker_id, self.target, step, "dnd.hp.gm")
        lines = [private_text(lang, done.target, done.harm)]
        if not done.target.dead:
            lines += what_it_did(lang, safe(done.target.member.name), done.harm, done.fate)
        await send(interaction, embed=embeds.card("\n".join(lines)), ephemeral=True)
        await refresh_order(interaction, done.record, done.fate != done.target.fate)
