"""The life of a Dune test before its panel: pay, roll and post; the opposition that rolls
first; the assisted test's preparation; and *Repetir*, which starts any of them again.

The preparations' own menus and buttons (join an assisted test, roll it; answer the
opposition) live here too: they start a test, and a test's flow posts them, so keeping them
apart would make two files that import each other. The roll's panel, which only acts on a
roll already made, is ``cogs.dune.components``."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from typing import Any

import discord

from bot import rolls, seen
from bot.checks import current_table, is_gm, table_of
from bot.client import Tirada
from bot.delivery import send, update
from bot.errors import Refusal
from bot.forms import active_of_kind
from bot.i18n import Lang, lang_for, t
from bot.models import NewRecord, Record, RecordUpdate, Table
from bot.panel import TITLE_LIMIT, chosen, clip, labelled, picked, radio, ticked
from bot.repeat import Asked, asked, asked_of, codec
from bot.reveal import is_secret
from bot.rolls import Decision, act, load
from bot.sheets import access
from bot.ui import ActionButton, Guarded, Modal, selected
from cogs.dune import sheet
from cogs.dune.components import render_roll
from cogs.dune.forms import drive_answer, drive_question, skill_question
from cogs.dune.render import assist_embed, opposed_embed
from cogs.dune.sheet_model import DuneSheet
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
from rules.dune import opposition as dune_opposition
from rules.dune import pools as dune_pools
from rules.dune import skill_test, successes


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
        skill_test.check_statement(spec.drive_statement)
    pools = await seen.pools(interaction, table.channel_id)
    momentum = pools.get((IMPULSO, 0), 0)
    cost = dune_pools.roll_cost(
        spec.bought, spec.payment, momentum, npc=spec.npc, determination=spec.determination
    )
    # The GM's "+1 dificultad" waits for a player's test: an NPC's roll leaves it there, and
    # a prepared test (``closes``) took it when it was prepared (:func:`prepare`).
    waiting = 0 if spec.npc or closes is not None else pools.get((DIFICULTAD_EXTRA, 0), 0)
    difficulty, used = dune_pools.raised_difficulty(spec.difficulty, waiting)
    reason = "dune.npc_roll" if spec.npc else "dune.roll"
    changes = (
        pool_changes(cost, interaction.user.id, reason)
        + pool_changes(used, 0, reason)
        + challenge_changes(spec, interaction.user.id, reason)
    )
    roll = skill_test.roll_test(
        bot.rng,
        spec.target,
        dice=skill_test.BASE_DICE + spec.bought,
        focus_skill=spec.focus_skill,
        complication_range=spec.complication_range,
        difficulty=difficulty,
        automatic_ones=int(spec.determination),
        bonus=spec.bonus,
        npc=spec.npc,
        helpers=tuple(skill_test.HelperSpec(h["user"], h["target"], h["focus"]) for h in helpers),
        task_id=spec.task_id,
        asset_quality=spec.asset_quality,
    )
    extra: dict[str, Any] = {
        # The test as the card tells it (its options are kept apart, for *Repetir*).
        "spec": spec_data(spec),
        "raised": spec.raised + difficulty - spec.difficulty,
        "paid": {"momentum": -cost.momentum, "threat": cost.threat},
    }
    if spec.opponent is not None:
        extra["rival"] = spec.opponent
    if helpers:
        extra["helpers"] = list(helpers)
    if task is not None:
        extra["task"] = {"name": task.data["name"], "opposing": bool(task.data.get("opposing"))}
    rolled = replace(roll, extra=extra)
    data = skill_test.to_data(rolled) | asked(as_asked(spec, mode), secreta=secret, motivo=spec.motivo)
    record, applied = await rolls.record_applied(
        store, interaction, table, KIND, data, reason, changes, closes, secret=secret
    )
    # The card tells the roll as written: the one just thrown, which its data decodes back to
    # (the codec's round trip is exact: not decoded again); a replay's, the first delivery's.
    shown = skill_test.from_data(record.data) if applied.replayed else rolled
    lang = lang_for(interaction.locale)
    embed, view = await render_roll(bot, interaction, lang, record, shown)
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
    opposition = dune_opposition.roll_opposition(
        bot.rng,
        rival["target"],
        dice=rival["count"],
        focus_skill=rival["focus"],
        complication_range=spec.complication_range,
        helpers=tuple(skill_test.HelperSpec(0, target) for target in rival.get("helpers", ())),
    )
    base = dune_opposition.opposition_difficulty(opposition, rival["hindrances"])
    difficulty = min(max(base + rival["adjust"], 0), successes.MAX_RAISED_DIFFICULTY)
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
        view=opposed_view(lang, record.id),
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
    difficulty, used = dune_pools.raised_difficulty(spec.difficulty, waiting)
    spec = replace(spec, difficulty=difficulty, raised=difficulty - spec.difficulty)
    reason = "dune.prepare"
    applied = await rolls.change(
        bot.store,
        interaction,
        table,
        reason,
        *pool_changes(used, 0, reason),
        new_record=NewRecord(interaction.user.id, kind, {"spec": spec_data(spec), **data}),
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


# What a test keeps apart from its options, under the fixed keys every roll has.
HOW = ("secret", "motivo")
# What an opposition's roll made, which its repeat rolls anew.
ROLLED = ("dice", "helper_dice", "difficulty")


def as_asked(spec: RollSpec, mode: str) -> dict[str, Any]:
    """A test's options as its command asked them (``mode``: which command), what *Repetir*
    asks again: an opposed test's without what its opposition rolled and its actor then
    bought and spent (the opposition rolls again, and the actor answers again), with where
    the opposition's numbers came from (``rival``); an assisted test's without the GM's
    raise its preparation took (a new preparation takes the one waiting then)."""
    if mode == "enfrentada" and spec.opponent is not None:
        rival = {k: v for k, v in spec.opponent.items() if k not in ROLLED}
        spec = replace(spec, bought=0, determination=False, opponent=None, raised=0)
        return {"mode": mode, "spec": spec_fields(spec), "rival": rival}
    if mode == "ayuda":
        spec = replace(spec, difficulty=spec.difficulty - spec.raised, raised=0)
    return {"mode": mode, "spec": spec_fields(spec)}


# A test's fields' names, read once: ``fields`` filters the class's fields anew each call.
SPEC_FIELDS = tuple(field.name for field in fields(RollSpec))


def spec_data(spec: RollSpec) -> dict[str, Any]:
    """The test's fields by name, as its record keeps them: ``asdict`` would deep-copy each
    value (some fifteen calls a field, every roll), and the store writes them as JSON."""
    return {name: getattr(spec, name) for name in SPEC_FIELDS}


def spec_fields(spec: RollSpec) -> dict[str, Any]:
    return {k: v for k, v in spec_data(spec).items() if k not in HOW}


def before_options(data: dict[str, Any]) -> Asked | None:
    """A test stored before every roll kept its options: its card's ``extra`` held the
    test as rolled, with how it was made (the secrecy asked for), and the command as
    ``mode``; what *Repetir* asked again was worked out from them when pressed."""
    extra = data.get("extra") or {}
    if "options" in data or "spec" not in extra:
        return None
    spec = RollSpec(**extra["spec"])
    return Asked(as_asked(spec, extra.get("mode", "tirada")), spec.secret, motivo=spec.motivo)


ROLLS = codec(before_options)


async def repeat(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir*: the same command with the same options, for whoever presses. An opposed
    test rolls a new opposition and asks again; an assisted one opens a new preparation."""
    bot = interaction.client
    how = asked_of(record.data, ROLLS)
    options = how.options
    spec = RollSpec(**options["spec"], secret=how.secreta, motivo=how.motivo)
    if spec.character:
        await access.check_repeat(interaction, record, character=spec.character)
    if spec.challenge and spec.drive_key is not None:
        # Defied, that drive is crossed out until recovered: it cannot be rolled again.
        raise Refusal("dune.drive_crossed", pool=crossed_pool(spec.drive_key))
    if "rival" in options:
        await oppose(bot, interaction, spec, options["rival"])
    elif options["mode"] == "ayuda":
        await prepare_assist(bot, interaction, spec)
    else:
        await roll_and_post(bot, interaction, spec)


# -- the preparations' menus and buttons ------------------------------------------------


def assist_view(lang: Lang, prep_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        AssistButton.draw(prep_id, "unirme", t(lang, "dune.button.ayudar"), discord.ButtonStyle.secondary)
    )
    view.add_item(
        AssistButton.draw(prep_id, "tirar", t(lang, "dune.button.tirar"), discord.ButtonStyle.primary)
    )
    return view


class AssistButton(ActionButton, template=r"dune:ayuda:(?P<action>unirme|tirar):(?P<record>[0-9]{1,18})"):
    prefix = "dune:ayuda"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, ASSIST_KIND)
        if record.data.get("rolled"):
            raise Refusal("dune.ayuda.already_rolled")
        if self.action == "unirme":
            if interaction.user.id == record.user_id:
                raise Refusal("dune.ayuda.leader_cannot_help")
            found = await active_of_kind(
                bot.store, await table_of(interaction, record), interaction.user.id, DuneSheet
            )
            await interaction.response.send_modal(AssistModal(self.record_id, lang, found))
            return
        if interaction.user.id != record.user_id:
            raise Refusal("dune.ayuda.leader_only")
        await roll_assisted(bot, interaction, self.record_id)


async def roll_assisted(bot: Tirada, interaction: discord.Interaction, prep_id: int) -> None:
    """The leader rolls with every helper who joined; the preparation closes in the same
    operation, so a second "Tirar" finds it closed (or stale) and rolls nothing."""
    record = await load(interaction, prep_id, ASSIST_KIND)
    helpers = tuple(record.data["helpers"])
    closes = RecordUpdate(prep_id, record.version, {**record.data, "rolled": True})
    table = await table_of(interaction, record)
    spec = RollSpec(**record.data["spec"])
    await roll_and_post(bot, interaction, spec, helpers, closes, mode="ayuda", table=table)


class AssistModal(Modal):
    """A helper joins: their skill (with one of its focuses) and their drive, picked from
    their own active sheet as the test's form asks them, or, without a sheet, their scores
    (the book's 4 to 8) and whether a focus applies. ``kind``: the preparation joined, an
    assisted test's or an opposed test's ("pueden aceptar la ayuda de otros personajes
    próximos")."""

    def __init__(
        self, prep_id: int, lang: Lang, sheet: DuneSheet | None = None, kind: str = ASSIST_KIND
    ) -> None:
        """``sheet``: the helper's, whose skills, focuses and drives the questions offer."""
        super().__init__(
            title=clip(t(lang, "dune.ayuda.modal_title"), TITLE_LIMIT),
            custom_id=f"dune:ayuda-modal:{prep_id}",
        )
        self.prep_id = prep_id
        self.kind = kind
        self.skill_focus, self.skill, question = skill_question(lang, sheet)
        self.add_item(question)
        self.drive, question = drive_question(lang, sheet)
        self.add_item(question)
        self.focus: discord.ui.Checkbox[AssistModal] | None = None
        if sheet is None:
            self.focus = discord.ui.Checkbox(custom_id="enfoque")
            help_text = t(lang, "dune.ayuda.form_focus_help")
            self.add_item(labelled(t(lang, "dune.ayuda.form_focus"), self.focus, help_text))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        prep = await load(interaction, self.prep_id, self.kind)
        helper = await self.helper(bot, interaction, prep)
        user_id = interaction.user.id

        def join(current: Record) -> Decision:
            if current.data.get("rolled"):
                raise Refusal("dune.ayuda.already_rolled")
            helpers = [h for h in current.data.get("helpers", []) if h["user"] != user_id]
            if len(helpers) >= skill_test.MAX_HELPERS:
                raise Refusal("dune.ayuda.full", max=skill_test.MAX_HELPERS)
            helpers.append(helper)
            return Decision({**current.data, "helpers": helpers}, (), "dune.assist.join")

        record, _ = await act(bot.store, interaction, self.prep_id, self.kind, join)
        if self.kind == OPPOSED_KIND:
            await update(interaction, embed=opposed_embed(lang, record), view=opposed_view(lang, record.id))
        else:
            await update(interaction, embed=assist_embed(lang, record), view=assist_view(lang, record.id))

    async def helper(self, bot: Tirada, interaction: discord.Interaction, prep: Record) -> dict[str, Any]:
        """ "Cada ayudante elije una motivación y habilidad para crear un número objetivo":
        skill plus drive, the ones the form offered, read again from the helper's sheet when
        they are its names (a drive crossed out since is refused), kept with where they came
        from. The focus is the helper's skill, the dice it makes critical: a focus of the
        sheet's for that skill, or, without a sheet, the box ticked."""
        skill, named = self.skill_focus[picked(self.skill, self.skill_focus)]
        drive = drive_answer(self.drive)
        table = await table_of(interaction, prep)
        scores = await sheet.scores(bot, interaction, skill, drive, None, table, focus=named)
        applies = bool(scores.focus) if self.focus is None else ticked(self.focus.value)
        return {
            "user": interaction.user.id,
            "target": scores.skill + scores.drive,
            **sheet.source(scores),
            "focus": scores.skill if applies else None,
        }


# -- opposed tests ----------------------------------------------------------------------------

PAYMENT_WAYS = ("impulso", "amenaza", "mixto")


def bought_text(lang: Lang, bought: int, npc: bool) -> str:
    """What bought dice cost: "2 dados: cuestan 3" (a player's question of how to pay
    comes next), or "2 dados: 3 de Amenaza del DJ" for an NPC, who pays with Amenaza."""
    if not bought:
        return t(lang, "dune.bought.none")
    key = "dune.bought.npc" if npc else "dune.contra.dice"
    return t(lang, key, count=bought, cost=dune_pools.buy_cost(bought))


def opposed_view(lang: Lang, prep_id: int) -> discord.ui.View:
    """ "Ayudar" for whoever helps the actor, then the actor's answer, in a form (helpers
    join before the actor answers, as on the assisted test's panel)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        OpposedHelpButton.draw(
            prep_id, "unirme", t(lang, "dune.button.ayudar"), discord.ButtonStyle.secondary
        )
    )
    view.add_item(
        OpposedAnswerButton.draw(
            prep_id, "responder", t(lang, "dune.contra.answer"), discord.ButtonStyle.primary
        )
    )
    return view


class OpposedAnswerButton(
    ActionButton, template=r"dune:contra-responder:(?P<action>responder):(?P<record>[0-9]{1,18})"
):
    """The actor answers the opposition's roll: the form asks how many dice they buy, how
    they pay for them and whether they spend Determinación, three questions apart."""

    prefix = "dune:contra-responder"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        record = await load(interaction, self.record_id, OPPOSED_KIND)
        if record.data.get("rolled"):
            raise Refusal("dune.ayuda.already_rolled")
        if interaction.user.id != record.user_id:
            raise Refusal("error.not_yours")
        spec = RollSpec(**record.data["spec"])
        await interaction.response.send_modal(OpposedForm(self.record_id, lang_for(interaction.locale), spec))


class OpposedForm(Modal):
    """The opposed test's three questions: the bought dice (with their cost), how to pay
    for them, Determinación. An NPC pays with Amenaza and has no Determinación, and a drive
    without a statement allows none, so those questions are not asked."""

    def __init__(self, prep_id: int, lang: Lang, spec: RollSpec) -> None:
        super().__init__(
            title=clip(t(lang, "dune.contra.form_title"), TITLE_LIMIT), custom_id="dune:contra-form"
        )
        self.prep_id = prep_id
        dice = [(str(n), bought_text(lang, n, spec.npc)) for n in range(dune_pools.MAX_BOUGHT + 1)]
        self.dice = radio(dice, "0", "dados")
        self.add_item(labelled(t(lang, "dune.contra.form_dice"), self.dice))
        self.payment: discord.ui.RadioGroup[OpposedForm] | None = None
        if not spec.npc:
            ways = [(way, t(lang, f"dune.pago.{way}")) for way in PAYMENT_WAYS]
            self.payment = radio(ways, "impulso", "pago")
            help_text = t(lang, "dune.contra.form_payment_help")
            self.add_item(labelled(t(lang, "dune.contra.form_payment"), self.payment, help_text))
        self.determination: discord.ui.Checkbox[OpposedForm] | None = None
        if not spec.npc and spec.drive_statement is not False:
            self.determination = discord.ui.Checkbox(custom_id="determinacion")
            help_text = t(lang, "fichas.form.dune.determination_help")
            self.add_item(labelled(t(lang, "fichas.form.dune.determination"), self.determination, help_text))

    def choice(self) -> str:
        """The answers as ``bought:payment:determination``, what the old single menu sent:
        no dice bought pays nothing, so its way is the menu's ``impulso``."""
        bought = chosen(self.dice.value, {option.value for option in self.dice.options})
        way = "amenaza"
        if self.payment is not None:
            way = chosen(self.payment.value, set(PAYMENT_WAYS))
        point = self.determination is not None and ticked(self.determination.value)
        return f"{bought}:{way if bought != '0' else 'impulso'}:{int(point)}"

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        await roll_opposed(interaction.client, interaction, self.prep_id, self.choice())


class OpposedHelpButton(
    ActionButton, template=r"dune:contra-ayuda:(?P<action>unirme):(?P<record>[0-9]{1,18})"
):
    """ "los personajes en tiradas enfrentadas pueden aceptar la ayuda de otros personajes
    próximos": a helper joins the actor's side before the actor chooses and rolls."""

    prefix = "dune:contra-ayuda"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, OPPOSED_KIND)
        if record.data.get("rolled"):
            raise Refusal("dune.ayuda.already_rolled")
        if interaction.user.id == record.user_id:
            raise Refusal("dune.ayuda.leader_cannot_help")
        found = await active_of_kind(
            bot.store, await table_of(interaction, record), interaction.user.id, DuneSheet
        )
        await interaction.response.send_modal(AssistModal(self.record_id, lang, found, OPPOSED_KIND))


class OpposedSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dune:contra:(?P<record>[0-9]{1,18})",
):
    """The actor's answer to the opposition's roll as one menu of every combination, on
    the messages posted before the answer became a form (:class:`OpposedForm`): kept
    registered so those still roll after an update."""

    def __init__(
        self, prep_id: int, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="0:impulso:0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dune:contra:{prep_id}", options=options, placeholder=placeholder or None
            )
        )
        self.record_id = prep_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OpposedSelect:
        return cls(int(match["record"]), item.options if isinstance(item, discord.ui.Select) else [])

    @staticmethod
    def parse(value: str) -> tuple[int, str, bool]:
        """``bought:payment:determination`` as sent back by Discord, checked again (a
        client can send anything)."""
        match = re.fullmatch(r"([0-3]):(impulso|amenaza|mixto):([01])", value)
        if match is None:
            raise Refusal("error.roll_gone")
        return int(match[1]), match[2], match[3] == "1"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        values = selected(interaction)
        choice = values[0] if values else ""
        await roll_opposed(interaction.client, interaction, self.record_id, choice)
