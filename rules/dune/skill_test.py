"""A Dune skill test as a value (:class:`DuneRoll`): what was rolled, and its life
afterwards: Determinación's reroll, complications bought off, a success at a price. Every
action returns a new roll, so the store can write it with the pool changes in one
transaction.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.codec import Codec
from rules.dune.pools import MAX_BOUGHT
from rules.dune.successes import (
    MAX_COMPLICATION_RANGE,
    MAX_RAISED_DIFFICULTY,
    SIDES,
    Helper,
    Slot,
    Test,
    evaluate,
)
from rules.errors import RuleError, check_range

BASE_DICE = 2
MAX_DICE = BASE_DICE + MAX_BOUGHT
MAX_SCORE = 20
MAX_DIFFICULTY = 5
MAX_BONUS = 10
# The quality of an asset used on a task.
MAX_ASSET_QUALITY = 5
MAX_HELPERS = 6
IGNORE_COMPLICATION_THREAT = 2
MAX_PRICE_COMPLICATIONS = 5
# One Determinación point per test: "un punto ... para ganar uno de los siguientes beneficios".
DETERMINATION_PER_TEST = 1
# "por debajo de 6, ya no tendrá frase asociada (igualmente, cualquier motivación
# incrementada hasta 6 gana una frase)": the drives with a statement.
STATEMENT_FROM = 6


@dataclass(frozen=True)
class HelperSpec:
    user_id: int
    target: int
    focus_skill: int | None = None


@dataclass(frozen=True)
class DuneRoll:
    """A rolled test and everything done with it since."""

    target: int
    focus_skill: int | None
    complication_range: int
    difficulty: int
    slots: tuple[Slot, ...]
    helpers: tuple[Helper, ...] = ()
    bonus: int = 0
    npc: bool = False
    spends: tuple[str, ...] = ()
    from_roll: int = 0
    bonus_spent: int = 0
    ignored: int = 0
    price: bool = False
    price_complications: int = 1
    closed: bool = False
    task_id: int | None = None
    asset_quality: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @functools.cached_property
    def test(self) -> Test:
        """Evaluated once per roll: a card asks for it a dozen times (verdict, dice, panel,
        Impulso left…), and a roll never changes (every action returns a new one)."""
        return evaluate(
            self.slots,
            self.target,
            self.focus_skill,
            self.complication_range,
            self.difficulty,
            helpers=self.helpers,
            bonus_momentum=self.bonus,
        )

    @property
    def passed(self) -> bool:
        return self.test.passed or self.price

    @property
    def momentum_left(self) -> int:
        """The roll's own Impulso not yet spent or saved (none after a success at a price)."""
        if self.closed or self.price:
            return 0
        return self.test.momentum - self.from_roll

    @property
    def bonus_left(self) -> int:
        if self.closed or self.price:
            return 0
        return self.test.bonus_momentum - self.bonus_spent

    @property
    def complications(self) -> int:
        """Complications still standing: rolled ones and the price's, less those bought off."""
        return self.test.complications + (self.price_complications if self.price else 0) - self.ignored

    @property
    def rerollable(self) -> bool:
        """Whether Determinación may still reroll the dice: a player's test that has not
        taken its point and whose verdict nothing has used yet."""
        return not (
            self.npc or self.closed or self.spends or self.price or self.ignored or determination_used(self)
        )


def _roll_slots(rng: random.Random, count: int, automatic_ones: int) -> tuple[Slot, ...]:
    fixed = tuple(Slot((1,), fixed=True) for _ in range(automatic_ones))
    rolled = tuple(Slot((rng.randint(1, SIDES),)) for _ in range(count - automatic_ones))
    return fixed + rolled


def roll_test(
    rng: random.Random,
    target: int,
    *,
    dice: int = BASE_DICE,
    focus_skill: int | None = None,
    complication_range: int = 1,
    difficulty: int = 1,
    automatic_ones: int = 0,
    bonus: int = 0,
    npc: bool = False,
    helpers: Sequence[HelperSpec] = (),
    task_id: int | None = None,
    asset_quality: int = 0,
) -> DuneRoll:
    """Roll a skill test. ``automatic_ones`` dice are not rolled and count as a 1
    (Determinación before the roll: "ese dado se considera que saca un 1")."""
    check_range("objetivo", target, 1, 2 * MAX_SCORE)
    check_range("dados", dice, 1, MAX_DICE)
    check_range("determinacion", automatic_ones, 0, DETERMINATION_PER_TEST)
    if npc and automatic_ones:
        raise RuleError("dune.npc_determination")
    check_range("bonificacion_impulso", bonus, 0, MAX_BONUS)
    check_range("ayudantes", len(helpers), 0, MAX_HELPERS)
    check_range("calidad", asset_quality, 0, MAX_ASSET_QUALITY)
    check_range("dificultad", difficulty, 0, MAX_RAISED_DIFFICULTY)
    check_range("rango_complicacion", complication_range, 1, MAX_COMPLICATION_RANGE)
    if focus_skill is not None:
        check_range("enfoque", focus_skill, 1, MAX_SCORE)
    roll = DuneRoll(
        target=target,
        focus_skill=focus_skill,
        complication_range=complication_range,
        difficulty=difficulty,
        slots=_roll_slots(rng, dice, automatic_ones),
        helpers=tuple(
            Helper(h.user_id, h.target, h.focus_skill, Slot((rng.randint(1, SIDES),))) for h in helpers
        ),
        bonus=bonus,
        npc=npc,
        task_id=task_id,
        asset_quality=asset_quality,
    )
    return roll


def check_open(roll: DuneRoll) -> None:
    """Refuse to change a roll that is settled: its Impulso saved, or turned into Amenaza."""
    if roll.closed:
        raise RuleError("dune.closed")


def ignore_complication(roll: DuneRoll) -> DuneRoll:
    """A player buys off one complication for 2 Amenaza; once per complication."""
    if roll.complications <= 0:
        raise RuleError("dune.no_complication")
    return replace(roll, ignored=roll.ignored + 1)


def success_at_price(roll: DuneRoll, complications: int = 1) -> DuneRoll:
    """The GM lets a failed test succeed with no Impulso and "una o más complicaciones ...
    El Director determina cuantas complicaciones extra se sufren" (one unless told)."""
    check_open(roll)
    check_range("complicaciones", complications, 1, MAX_PRICE_COMPLICATIONS)
    if roll.test.passed or roll.price:
        raise RuleError("dune.not_failed")
    return replace(roll, price=True, price_complications=complications)


def determination_used(roll: DuneRoll) -> bool:
    """Whether the test already took its one Determinación point: a die set to 1 before
    the roll, or a reroll after it."""
    return any(s.fixed or s.rerolled for s in roll.slots)


def check_determination(roll: DuneRoll) -> None:
    """Refuse a Determinación reroll the test may not take: NPCs have no Determinación, and
    a test takes one point ("un punto ... para ganar uno de los siguientes beneficios").
    :func:`reroll` calls it."""
    if roll.npc:
        raise RuleError("dune.npc_determination")
    if determination_used(roll):
        raise RuleError("dune.determination_once")


def check_statement(statement: bool | None) -> None:
    """ "No puedes gastar Determinación si la motivación que empleas no tiene declaración":
    ``statement`` says whether the drive used has one (None when no sheet said)."""
    if statement is False:
        raise RuleError("dune.no_statement")


def reroll(roll: DuneRoll, rng: random.Random, dice: Sequence[int]) -> DuneRoll:
    """Determinación after the roll: "repite la tirada de cualquier número de d20 en tu
    reserva", and "siempre puedes decidir NO repetir un dado". Only the actor's dice at the
    positions in ``dice`` (at least one, each once) are rolled again; the others, a 1 kept
    for its two successes, stay, and so do the helpers' dice (theirs, not the actor's). One
    point per test (:func:`check_determination`), and refused once anything was spent,
    saved or settled, since the verdict it would change has already been used."""
    check_open(roll)
    check_determination(roll)
    if roll.spends or roll.price or roll.ignored:
        raise RuleError("dune.reroll_too_late")
    chosen = set(dice)
    if not chosen or len(chosen) != len(dice) or not chosen <= set(range(len(roll.slots))):
        raise RuleError("dune.reroll_dice", count=len(roll.slots))
    slots = tuple(
        Slot((*s.values, rng.randint(1, SIDES))) if i in chosen else s for i, s in enumerate(roll.slots)
    )
    return replace(roll, slots=slots)


def _before_codec(data: dict[str, Any]) -> DuneRoll | None:
    """A roll stored before the codec kept each slot as ``[values, fixed]`` and each
    helper as ``[user, target, focus, values]``; the oldest have no ``price_complications``."""
    if data["slots"] and isinstance(data["slots"][0], dict):
        return None
    return DuneRoll(
        target=data["target"],
        focus_skill=data["focus_skill"],
        complication_range=data["complication_range"],
        difficulty=data["difficulty"],
        slots=tuple(Slot(tuple(values), fixed) for values, fixed in data["slots"]),
        helpers=tuple(Helper(u, t, f, Slot(tuple(v))) for u, t, f, v in data["helpers"]),
        bonus=data["bonus"],
        npc=data["npc"],
        spends=tuple(data["spends"]),
        from_roll=data["from_roll"],
        bonus_spent=data["bonus_spent"],
        ignored=data["ignored"],
        price=data["price"],
        price_complications=data.get("price_complications", 1),
        closed=data["closed"],
        task_id=data["task_id"],
        asset_quality=data["asset_quality"],
        extra=data["extra"],
    )


ROLLS = Codec(DuneRoll, _before_codec)
to_data = ROLLS.to_data
from_data = ROLLS.from_data
