"""What Dune keeps at a table: the record kinds, the pools and how they change, a test's
request, and extended tasks (their progress and the one-time "done" announcement)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from typing import Any, cast

import discord

from bot import embeds
from bot.client import Tirada
from bot.errors import Refusal, pool_name
from bot.i18n import Lang, lang_for, t
from bot.models import Applied, Change, Operation, Record, RecordUpdate
from bot.seen import PoolValues
from rules.dune import pools as dune_pools
from rules.dune import skill_test, successes, tasks, traits
from rules.errors import RuleError

log = logging.getLogger(__name__)

KIND = "dune"
ASSIST_KIND = "dune_ayuda"
OPPOSED_KIND = "dune_enfrentada"
TASK_KIND = "dune_tarea"
IMPULSO = "impulso"
AMENAZA = "amenaza"
DETERMINACION = "determinacion"
DIFICULTAD_EXTRA = "dificultad_extra"
# The most Amenaza one command adds or spends; the most points a task asks for.
MAX_THREAT_STEP = 20
MAX_TASK_REQUIREMENT = 50
MENTION = re.compile(r"<@!?([0-9]{15,20})>")
TASK_NAME_LIMIT = 80


def momentum_change(delta: int, *, clamp: bool = False) -> Change:
    return Change(IMPULSO, delta, cap=dune_pools.MOMENTUM_CAP, clamp=clamp)


def threat_change(amount: int) -> Change:
    """Amenaza added, kept within the bot's cap (the rules give none)."""
    return Change(AMENAZA, amount, cap=dune_pools.THREAT_CAP)


def determination_change(user_id: int, delta: int = 0, *, set_to: int | None = None) -> Change:
    return Change(DETERMINACION, delta, owner_id=user_id, cap=dune_pools.DETERMINATION_CAP, set_to=set_to)


def pool_changes(pools: dune_pools.Pools, user_id: int, reason: str) -> tuple[Change, ...]:
    """A rule's amounts as store changes, each with its own ledger reason
    (``{reason}.impulso``, ``.amenaza``, ``.determinacion``, ``.dificultad_extra``) so the
    history says what each row paid for."""
    changes = (
        (pools.momentum, momentum_change(pools.momentum)),
        (pools.threat, threat_change(pools.threat)),
        (pools.determination, determination_change(user_id, pools.determination)),
        (
            pools.raised_difficulty,
            Change(DIFICULTAD_EXTRA, pools.raised_difficulty, cap=successes.MAX_RAISED_DIFFICULTY),
        ),
    )
    return tuple(replace(c, reason=f"{reason}.{c.pool}") for amount, c in changes if amount)


@dataclass(frozen=True)
class Funds:
    """What a roll's owner can pay with now: the group's Impulso, the GM's Amenaza and the
    owner's Determinación (0 for an NPC's roll)."""

    momentum: int
    threat: int
    determination: int


def funds_of(values: PoolValues, owner_id: int | None) -> Funds:
    """What ``owner_id`` can pay with, from the table's pools as read."""
    return Funds(
        values.get((IMPULSO, 0), 0),
        values.get((AMENAZA, 0), 0),
        values.get((DETERMINACION, owner_id), 0) if owner_id is not None else 0,
    )


# -- extended tasks -------------------------------------------------------------------------


def roll_task_points(roll: skill_test.DuneRoll) -> int:
    """What a roll adds to its task: to a goal, or to a looming problem ("desde la dirección
    opuesta"), which failures and complications fill."""
    if roll.extra.get("task", {}).get("opposing"):
        return tasks.opposing_task_points(roll)
    return tasks.task_points(roll)


def counted(linked: list[Record], secret_seen: int | None = None) -> list[Record]:
    """The rolls linked to a task that count where they are shown: a secret roll once
    revealed (before, its points would tell the table how it went), except the one whose own
    card asks (``secret_seen``, shown only to its roller)."""
    return [record for record in linked if not record.secret or record.id == secret_seen]


async def task_progress(
    bot: Tirada, channel_id: int, task_ids: list[int], secret_seen: int | None = None
) -> dict[int, int]:
    """Each task's points, from every roll linked to it that counts (:func:`counted`), read in
    one query."""
    points = dict.fromkeys(task_ids, 0)
    for record in counted(await bot.store.linked_records(channel_id, KIND, "task_id", task_ids), secret_seen):
        roll = skill_test.from_data(record.data)
        if roll.task_id in points:
            points[roll.task_id] += roll_task_points(roll)
    return points


async def announce_task(
    bot: Tirada, interaction: discord.Interaction, lang: Lang, task_id: int | None, *, at_table: bool = False
) -> None:
    """Mark a task done the first time its points reach the requirement, and say so once
    (a secret roll's points, counted once revealed, announce it at the reveal:
    :func:`announce_revealed_task`)."""
    if task_id is None:
        return
    task = await bot.store.record(task_id)
    if task is None or task.kind != TASK_KIND or task.data.get("done"):
        return
    points = (await task_progress(bot, task.channel_id, [task_id]))[task_id]
    if points < task.data["requirement"]:
        return
    outcome = await bot.store.apply(
        Operation(
            task.channel_id,
            interaction.id,
            interaction.user.id,
            "dune.task_done",
            record_update=RecordUpdate(task.id, task.version, {**task.data, "done": True}),
            step=1,
        )
    )
    if isinstance(outcome, Applied) and not outcome.replayed:
        text = t(
            lang,
            "dune.task.looming_done" if task.data.get("opposing") else "dune.task.done",
            name=task.data["name"],
            points=points,
            requirement=task.data["requirement"],
        )
        card = embeds.card(text, colour=embeds.SUCCESS)
        if at_table:
            await announce_at_table(bot, interaction, lang, task, card)
        else:
            await interaction.followup.send(embed=card)


async def announce_at_table(
    bot: Tirada, interaction: discord.Interaction, lang: Lang, task: Record, card: discord.Embed
) -> None:
    """A task's completion posted at its table (a reveal may be pressed in the GM's channel).
    The task is already marked done, so a post Discord refuses is not tried again: whoever
    revealed is told privately, with the completion to pass on."""
    table = bot.get_partial_messageable(task.channel_id, guild_id=interaction.guild_id)
    try:
        await table.send(embed=card)
    except discord.HTTPException as error:
        log.warning("task completion not posted", extra={"record": task.id, "error": repr(error)})
        note = t(lang, "dune.task.unposted", channel=task.channel_id)
        await interaction.followup.send(content=note, embed=card, ephemeral=True)


@dataclass(frozen=True)
class RollSpec:
    """What a test asks for, before it is paid and rolled."""

    target: int
    focus_skill: int | None = None
    # What the target is made of, to show it ("Habilidad 6 + Motivación 7 = 13").
    skill: int | None = None
    drive: int | None = None
    difficulty: int = 1
    bought: int = 0
    payment: str = "impulso"
    complication_range: int = 1
    determination: bool = False
    bonus: int = 0
    npc: bool = False
    task_id: int | None = None
    asset_quality: int = 0
    opponent: dict[str, Any] | None = None
    secret: bool = False
    motivo: str | None = None
    # What a sheet gave: the skill and drive by name, and whose sheet it was.
    skill_key: str | None = None
    drive_key: str | None = None
    character: str | None = None
    # Whether the drive has a statement, when a sheet said (Determinación needs one).
    drive_statement: bool | None = None
    # The focus that applies, by name (one of the skill's on the sheet, or as typed).
    focus: str | None = None
    # The GM's "+1 dificultad" already in ``difficulty``, taken when the test was prepared.
    raised: int = 0
    # The drive (``drive_key`` of sheet ``sheet_id``) is defied: crossed out with the roll.
    challenge: bool = False
    sheet_id: int | None = None


@dataclass(frozen=True)
class Scores:
    """A test's skill and drive, with their names when a sheet gave them, whether that
    drive has a statement (None when no sheet said) and the focus that applies."""

    skill: int
    drive: int
    skill_key: str | None = None
    drive_key: str | None = None
    character: str | None = None
    drive_statement: bool | None = None
    focus: str | None = None
    sheet_id: int | None = None
    # The drive was defied this adventure (a sheet's mark): it may not be defied again.
    drive_challenged: bool = False


def test_spec(
    scores: Scores,
    complication_range: int,
    bonus: int,
    asset_quality: int,
) -> RollSpec:
    """A test's request from the options every test command shares (their bounds checked
    as the options arrive: ``bot.options.Bounded``), naming what a sheet gave."""
    return RollSpec(
        target=scores.skill + scores.drive,
        focus_skill=scores.skill if scores.focus else None,
        skill=scores.skill,
        drive=scores.drive,
        complication_range=complication_range,
        bonus=bonus,
        asset_quality=asset_quality,
        skill_key=scores.skill_key,
        drive_key=scores.drive_key,
        character=scores.character,
        drive_statement=scores.drive_statement,
        focus=scores.focus,
        sheet_id=scores.sheet_id,
    )


def crossed_pool(drive_key: str) -> str:
    """The pool that holds whether a sheet's drive is crossed out (bot.sheets.live)."""
    return f"ficha_tachada_{drive_key}"


def challenged_pool(drive_key: str) -> str:
    """The pool that holds whether a sheet's drive was defied this adventure (bot.sheets.live)."""
    return f"ficha_desafiada_{drive_key}"


def challenged(spec: RollSpec, scores: Scores) -> RollSpec:
    """A test that defies its drive: "Si desafías la motivación, puedes usarla en el chequeo
    de habilidad, pero la declaración es inmediatamente tachada tras resolver el chequeo".
    It needs the drive by name from a sheet, with a statement to defy, not defied already
    this adventure ("no puedes desafiar una motivación que ya ha sido desafiada y recuperada
    durante la misma aventura"); no Determinación is spent on it (the statement goes against
    the action, so it does not support it)."""
    if spec.npc:
        raise RuleError("dune.npc_determination")
    if spec.drive_key is None or spec.sheet_id is None:
        raise Refusal("dune.challenge_needs_sheet")
    if not spec.drive_statement:
        raise Refusal("dune.challenge_needs_statement")
    if scores.drive_challenged:
        raise Refusal("dune.challenge_again")
    if spec.determination:
        raise RuleError("dune.no_statement")
    return replace(spec, challenge=True, drive_statement=False)


def challenge_changes(spec: RollSpec, user_id: int, reason: str) -> tuple[Change, ...]:
    """What defying costs and gives, written with the roll: the drive crossed out on the
    sheet, marked as defied this adventure (at its cap of 1, so a second defiance racing the
    first is refused by the store), and the Determinación point the GM offers ("el Director
    puede ofrecerte un punto de Determinación"), which may not pass the cap of 3."""
    if not spec.challenge or spec.drive_key is None or spec.sheet_id is None:
        return ()
    return (
        Change(crossed_pool(spec.drive_key), 1, spec.sheet_id, cap=1, reason=f"{reason}.tachada"),
        Change(challenged_pool(spec.drive_key), 1, spec.sheet_id, cap=1, reason=f"{reason}.tachada"),
        replace(determination_change(user_id, 1), reason=f"{reason}.desafio"),
    )


# -- scene traits and assets ---------------------------------------------------------------
# A scene's trait is a pool of the table, ``rasgo:humo denso`` at its count, and a created
# asset a pool of its creator, ``recurso:cuchillo`` at 1: each change is a ledger row, so the
# history lists it, undo reverts it and the end of the scene clears them (cogs/mesa.py).
TRAIT = "rasgo:"
ASSET = "recurso:"
# A pool's name holds at most 40 characters, the kind's prefix included.
SCENE_TEXT_LIMIT = 30


def trait_pool(name: str) -> str:
    return f"{TRAIT}{name}"


def asset_pool(name: str) -> str:
    return f"{ASSET}{name}"


async def scene_traits(bot: Tirada, channel_id: int) -> dict[str, int]:
    """The scene's traits standing now, by text."""
    return {
        p.pool.removeprefix(TRAIT): p.value
        for p in await bot.store.pools(channel_id)
        if p.pool.startswith(TRAIT) and not p.owner_id and p.value > 0
    }


async def trait_edit(
    bot: Tirada, channel_id: int, text: str, count: int, before: str | None, reason: str
) -> tuple[Change, ...]:
    """The changes that create, change or remove one trait (:func:`rules.dune.traits.edit_trait`),
    each setting its pool; the texts are checked as any text a player types."""
    name = typed_text(text, SCENE_TEXT_LIMIT) if text.strip() or before is None else ""
    old = typed_text(before, SCENE_TEXT_LIMIT) if before is not None else None
    edited = traits.edit_trait(await scene_traits(bot, channel_id), name, count, old)
    return tuple(
        Change(trait_pool(n), set_to=v, cap=traits.MAX_TRAIT_COUNT, reason=f"{reason}.rasgo")
        for n, v in edited.items()
    )


def scene_lines(lang: Lang, applied: Applied) -> list[str]:
    """What an operation did to the scene's traits and assets, from what it wrote."""
    return [
        t(
            lang,
            "dune.trait.now" if p.value else "dune.trait.gone",
            pool=pool_name(lang, p.pool),
            value=p.value,
        )
        for p in applied.pools
        if p.pool.startswith((TRAIT, ASSET))
    ]


def typed_text(text: str, limit: int) -> str:
    """A name a player types (a focus, a trait) as one line, within ``limit``. Control
    characters never reach it: every option and form field is checked once for them
    (``bot.options.untypable``), and so is every text of an imported sheet."""
    line = " ".join(text.split())
    if not line or len(line) > limit:
        raise Refusal("dune.text_length", max=limit)
    return line


def named_players(text: str, gm_id: int | None) -> list[int]:
    """The players mentioned in a text option (``@Ana @Luis``), each once, in order; the GM
    is not a player."""
    found: list[int] = []
    for match in MENTION.finditer(text):
        user = int(match[1])
        if user not in found and user != gm_id:
            found.append(user)
    return found


async def announce_revealed_task(interaction: discord.Interaction, record: Record) -> None:
    """A secret roll's reveal brings its points to its task (bot/systems.py ``revealers``):
    the task done by them is announced now, at the table (the reveal may be pressed in the
    GM's channel), as a public roll's would be at once."""
    roll = skill_test.from_data(record.data)
    bot = cast(Tirada, interaction.client)
    await announce_task(bot, interaction, lang_for(interaction.locale), roll.task_id, at_table=True)
