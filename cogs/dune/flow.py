"""The life of a Dune test before its panel: pay, roll and post; the opposition that rolls
first; the assisted test's preparation; and *Repetir*, which starts any of them again."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

import discord

from bot import rolls, seen
from bot.checks import current_table, is_gm, table_of
from bot.client import Tirada
from bot.delivery import send
from bot.errors import Refusal
from bot.i18n import lang_for
from bot.models import NewRecord, Record, RecordUpdate, Table
from bot.reveal import is_secret
from bot.sheets import access
from cogs.dune.components import OpposedSelect, assist_view, opposed_view, render_roll
from cogs.dune.render import assist_embed, opposed_embed
from cogs.dune.state import (
    ASSIST_KIND,
    DIFICULTAD_EXTRA,
    IMPULSO,
    KIND,
    OPPOSED_KIND,
    TASK_KIND,
    RollSpec,
    announce_task,
    challenge_changes,
    crossed_pool,
    pool_changes,
)
from rules import dune


async def check_task(bot: Tirada, table: Table, task_id: int | None) -> Record | None:
    """The extended task a test adds to, when it names one of this table's."""
    if task_id is None:
        return None
    task = await bot.store.record(task_id)
    if task is None or task.kind != TASK_KIND or task.channel_id != table.channel_id:
        raise Refusal("dune.task_unknown")
    return task


async def roll_and_post(
    bot: Tirada,
    interaction: discord.Interaction,
    spec: RollSpec,
    helpers: tuple[dict[str, Any], ...] = (),
    closes: RecordUpdate | None = None,
    mode: str = "tirada",
    table: Table | None = None,
) -> Record:
    """Pay, roll and post a test: nothing is rolled if the payment is refused. ``helpers``
    are those who joined an assisted test, as its preparation keeps them (with where each
    one's target came from); ``closes`` settles a preparation (an assisted or opposed test,
    whose ``table`` it was made at) in the same operation; ``mode`` says which command
    *Repetir* starts again."""
    store = bot.store
    table = table or await current_table(interaction)
    secret = is_secret(interaction, table, spec.secret)
    if spec.npc and not is_gm(table, interaction):
        raise Refusal("dune.npc_gm_only")
    task = await check_task(bot, table, spec.task_id)
    if spec.determination:
        dune.check_statement(spec.drive_statement)
    pools = await seen.pools(interaction, table.channel_id)
    momentum = pools.get((IMPULSO, 0), 0)
    cost = dune.roll_cost(spec.bought, spec.payment, momentum, npc=spec.npc, determination=spec.determination)
    # The GM's "+1 dificultad" waits for a player's test: an NPC's roll leaves it there, and
    # a prepared test (``closes``) took it when it was prepared (:func:`prepare`).
    waiting = 0 if spec.npc or closes is not None else pools.get((DIFICULTAD_EXTRA, 0), 0)
    difficulty, used = dune.raised_difficulty(spec.difficulty, waiting)
    reason = "dune.npc_roll" if spec.npc else "dune.roll"
    changes = (
        pool_changes(cost, interaction.user.id, reason)
        + pool_changes(used, 0, reason)
        + challenge_changes(spec, interaction.user.id, reason)
    )
    roll = dune.roll_test(
        bot.rng,
        spec.target,
        dice=dune.BASE_DICE + spec.bought,
        focus_skill=spec.focus_skill,
        complication_range=spec.complication_range,
        difficulty=difficulty,
        automatic_ones=int(spec.determination),
        bonus=spec.bonus,
        npc=spec.npc,
        helpers=tuple(dune.HelperSpec(h["user"], h["target"], h["focus"]) for h in helpers),
        task_id=spec.task_id,
        asset_quality=spec.asset_quality,
    )
    extra: dict[str, Any] = {
        "spec": asdict(spec),
        "mode": mode,
        "raised": spec.raised + difficulty - spec.difficulty,
        "paid": {"momentum": -cost.momentum, "threat": cost.threat},
    }
    if spec.opponent is not None:
        extra["rival"] = spec.opponent
    if helpers:
        extra["helpers"] = list(helpers)
    if task is not None:
        extra["task"] = {"name": task.data["name"], "opposing": bool(task.data.get("opposing"))}
    roll = replace(roll, extra=extra)
    record = await rolls.record(
        store, interaction, table, KIND, dune.to_data(roll), reason, changes, closes, secret=secret
    )
    lang = lang_for(interaction.locale)
    embed, view = await render_roll(interaction, lang, record)
    await rolls.post(store, interaction, table, record, embed, view, secret=secret)
    await announce_task(bot, interaction, lang, spec.task_id)
    return record


async def oppose(
    bot: Tirada, interaction: discord.Interaction, spec: RollSpec, rival: dict[str, Any]
) -> None:
    """ "El personaje que se opone lanza primero para definir la Dificultad": roll the
    opposition, post its result and let the actor choose bought dice, payment and
    Determinación from a menu that survives restarts (it names the stored preparation)."""
    table = await current_table(interaction)
    if spec.npc and not is_gm(table, interaction):
        raise Refusal("dune.npc_gm_only")
    await check_task(bot, table, spec.task_id)
    opposition = dune.roll_opposition(
        bot.rng,
        rival["target"],
        dice=rival["count"],
        focus_skill=rival["focus"],
        complication_range=spec.complication_range,
        helpers=tuple(dune.HelperSpec(0, target) for target in rival.get("helpers", ())),
    )
    base = dune.opposition_difficulty(opposition, rival["hindrances"])
    difficulty = min(max(base + rival["adjust"], 0), dune.MAX_RAISED_DIFFICULTY)
    rival = {
        **rival,
        "dice": [s.value for s in opposition.slots],
        "helper_dice": [h.slot.value for h in opposition.helpers],
        "difficulty": base,
    }
    secret = is_secret(interaction, table, spec.secret)
    spec = replace(spec, difficulty=difficulty, opponent=rival)
    record = await prepare(bot, interaction, table, OPPOSED_KIND, spec, {"helpers": []})
    lang = lang_for(interaction.locale)
    await send(
        interaction,
        embed=opposed_embed(lang, record),
        view=opposed_view(lang, record.id, RollSpec(**record.data["spec"])),
        ephemeral=secret,
    )


async def prepare(
    bot: Tirada,
    interaction: discord.Interaction,
    table: Table,
    kind: str,
    spec: RollSpec,
    data: dict[str, Any],
) -> Record:
    """Save a test's preparation (an opposed or assisted test, whose dice are bought
    later) with the GM's waiting "+1 dificultad" taken into it in the same operation: the
    raise "Debe hacerlo antes de que ningún dado sea comprado o lanzado en el chequeo", so
    the menu shows it before anything is bought, and a raise spent afterwards waits for the
    next test. An NPC's test leaves the raises there (they are spent against players)."""
    pools = await seen.pools(interaction, table.channel_id)
    waiting = 0 if spec.npc else pools.get((DIFICULTAD_EXTRA, 0), 0)
    difficulty, used = dune.raised_difficulty(spec.difficulty, waiting)
    spec = replace(spec, difficulty=difficulty, raised=difficulty - spec.difficulty)
    reason = "dune.prepare"
    applied = await rolls.change(
        bot.store,
        interaction,
        table,
        reason,
        *pool_changes(used, 0, reason),
        new_record=NewRecord(interaction.user.id, kind, {"spec": asdict(spec), **data}),
    )
    assert applied.record_id is not None
    return await rolls.load(interaction, applied.record_id, kind)


async def roll_opposed(bot: Tirada, interaction: discord.Interaction, prep_id: int, choice: str) -> None:
    """The actor's choice on an opposed test: ``bought:payment:determination``."""
    record = await rolls.load(interaction, prep_id, OPPOSED_KIND)
    if record.data.get("rolled"):
        raise Refusal("dune.ayuda.already_rolled")
    if interaction.user.id != record.user_id:
        raise Refusal("error.not_yours")
    bought, payment, determination = OpposedSelect.parse(choice)
    spec = replace(
        RollSpec(**record.data["spec"]), bought=bought, payment=payment, determination=determination
    )
    closes = RecordUpdate(prep_id, record.version, {**record.data, "rolled": True})
    table = await table_of(interaction, record)
    helpers = tuple(record.data.get("helpers", ()))
    await roll_and_post(bot, interaction, spec, helpers, closes, mode="enfrentada", table=table)
    if interaction.message is not None:
        lang = lang_for(interaction.locale)
        done = await rolls.load(interaction, prep_id, OPPOSED_KIND)
        await interaction.message.edit(embed=opposed_embed(lang, done), view=None)


async def prepare_assist(bot: Tirada, interaction: discord.Interaction, spec: RollSpec) -> None:
    """A test others help with: "Ayudar" for each helper, then "Tirar" for the leader."""
    table = await current_table(interaction)
    if spec.npc and not is_gm(table, interaction):
        raise Refusal("dune.npc_gm_only")
    await check_task(bot, table, spec.task_id)
    record = await prepare(bot, interaction, table, ASSIST_KIND, spec, {"helpers": []})
    lang = lang_for(interaction.locale)
    await send(interaction, embed=assist_embed(lang, record), view=assist_view(lang, record.id))


async def repeat(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir*: the same command with the same options, for whoever presses. An opposed
    test rolls a new opposition and asks again; an assisted one opens a new preparation."""
    bot = interaction.client
    extra = record.data.get("extra", {})
    if "spec" not in extra:
        raise Refusal("error.roll_gone")
    spec = RollSpec(**extra["spec"])
    if spec.character:
        await access.check_repeat(interaction, record, character=spec.character)
    if spec.challenge and spec.drive_key is not None:
        # Defied, that drive is crossed out until recovered: it cannot be rolled again.
        raise Refusal("dune.drive_crossed", pool=crossed_pool(spec.drive_key))
    mode = extra.get("mode", "tirada")
    if mode == "enfrentada" and spec.opponent is not None:
        # The opposition rolls again: drop what its last roll made, keep where its numbers came from.
        rival = {k: v for k, v in spec.opponent.items() if k not in ("dice", "helper_dice", "difficulty")}
        await oppose(
            bot, interaction, replace(spec, bought=0, determination=False, opponent=None, raised=0), rival
        )
    elif mode == "ayuda":
        await prepare_assist(
            bot, interaction, replace(spec, difficulty=spec.difficulty - spec.raised, raised=0)
        )
    else:
        await roll_and_post(bot, interaction, spec)
