"""Dune: Aventuras en el Imperio — the 2d20 skill test and the roll's life afterwards.

Sections of ``../shared/reglas/dune-2d20.txt`` quoted in the docstrings. A roll is a value
(:class:`DuneRoll`): what was rolled, what has been spent, bought off or saved. Every
action on it returns a new roll plus the pool changes the bot must apply, so the store
can write both in one transaction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.dice import Die, Mark
from rules.errors import RuleError, check_range

SIDES = 20
BASE_DICE = 2
MAX_BOUGHT = 3
MAX_DICE = BASE_DICE + MAX_BOUGHT
# "El primer dado cuesta 1 punto, el segundo 2 y el tercero 3 (... 1+2+3=6 puntos en total)."
DICE_COST = (0, 1, 3, 6)
MAX_SCORE = 20
MAX_DIFFICULTY = 5
# Amenaza may raise a difficulty past 5 ("puede gastar Amenaza para incrementar la dificultad").
MAX_RAISED_DIFFICULTY = 10
MAX_COMPLICATION_RANGE = 5
MOMENTUM_CAP = 6
DETERMINATION_CAP = 3
# The rules give Amenaza no maximum; the bot keeps it at most this (docs/decisiones.md).
THREAT_CAP = 100
MAX_BONUS = 10
# The quality of an asset used on a task.
MAX_ASSET_QUALITY = 5
MAX_HELPERS = 6
IGNORE_COMPLICATION_THREAT = 2
# "Usos comunes" of Impulso after a passed test, with their cost.
MOMENTUM_SPENDS = {"info": 1, "rasgo": 2, "recurso": 2, "tarea": 1}
# "cada uso de Impulso ... solo puede ser usado una vez en un mismo chequeo", except the uses
# that work "por cada punto de Impulso gastado": a question each, a task point each.
REPEATABLE_SPENDS = frozenset({"info", "tarea"})
MAX_PRICE_COMPLICATIONS = 5
# One Determinación point per test: "un punto ... para ganar uno de los siguientes beneficios".
DETERMINATION_PER_TEST = 1
# The GM's quick Amenaza spends ("Gastar amenaza").
THREAT_SPENDS = {"dificultad": 2, "rasgo": 2, "casa_rival": 1, "complicacion_pnj": 2}
POINTS_PER_PASS = 2
# "por debajo de 6, ya no tendrá frase asociada (igualmente, cualquier motivación
# incrementada hasta 6 gana una frase)": the drives with a statement.
STATEMENT_FROM = 6


def die_successes(value: int, target: int, focus_skill: int | None = None) -> int:
    """ "Cada resultado igual o inferior a ese número objetivo es un éxito. Cada resultado
    de 1 es un éxito crítico"; with a focus, "cualquier resultado igual o inferior a su
    habilidad se considera éxito crítico"."""
    if value == 1 or (focus_skill is not None and value <= focus_skill):
        return 2
    return 1 if value <= target else 0


def is_complication(value: int, complication_range: int = 1) -> bool:
    """A 20 is a complication; each step of range adds the next number down."""
    return value >= SIDES + 1 - complication_range


@dataclass(frozen=True)
class Slot:
    """One die of the pool with its history: earlier values were rerolled away."""

    values: tuple[int, ...]
    fixed: bool = False

    @property
    def value(self) -> int:
        return self.values[-1]

    @property
    def rerolled(self) -> bool:
        return len(self.values) > 1


@dataclass(frozen=True)
class Helper:
    """An assisting character: one d20 against their own target, no bought dice."""

    user_id: int
    target: int
    focus_skill: int | None
    slot: Slot


@dataclass(frozen=True)
class Test:
    """A skill test evaluated: per-die successes, complications and the verdict."""

    dice: tuple[Die, ...]
    per_die: tuple[int, ...]
    helper_dice: tuple[Die, ...]
    helper_successes: int
    leader_successes: int
    successes: int
    complications: int
    difficulty: int
    passed: bool
    momentum: int
    bonus_momentum: int = 0


def _marked(slot: Slot, target: int, focus_skill: int | None, complication_range: int) -> list[Die]:
    history = [Die(SIDES, v, frozenset({Mark.REROLLED})) for v in slot.values[:-1]]
    marks: set[Mark] = {Mark.FIXED} if slot.fixed else set()
    successes = die_successes(slot.value, target, focus_skill)
    if successes == 2:
        marks.add(Mark.CRITICAL)
    elif successes == 1:
        marks.add(Mark.SUCCESS)
    if is_complication(slot.value, complication_range):
        marks.add(Mark.COMPLICATION)
    return [*history, Die(SIDES, slot.value, frozenset(marks))]


def evaluate(
    dice: Sequence[int | Slot],
    target: int,
    focus_skill: int | None = None,
    complication_range: int = 1,
    difficulty: int = 1,
    *,
    helpers: Sequence[Helper] = (),
    bonus_momentum: int = 0,
) -> Test:
    """Count successes and complications and give the verdict.

    Helpers' successes count only if the leader scores at least one ("siempre que
    consigas al menos un éxito por ti mismo"); everyone's complications count. Passing
    generates one Impulso per success over the difficulty; bonus Impulso is kept apart
    because it can never be saved.
    """
    check_range("dificultad", difficulty, 0, MAX_RAISED_DIFFICULTY)
    check_range("rango_complicacion", complication_range, 1, MAX_COMPLICATION_RANGE)
    slots = [d if isinstance(d, Slot) else Slot((d,)) for d in dice]
    per_die = tuple(die_successes(s.value, target, focus_skill) for s in slots)
    shown = [d for s in slots for d in _marked(s, target, focus_skill, complication_range)]
    helper_shown = [d for h in helpers for d in _marked(h.slot, h.target, h.focus_skill, complication_range)]
    leader = sum(per_die)
    helped = sum(die_successes(h.slot.value, h.target, h.focus_skill) for h in helpers)
    counted = helped if leader >= 1 else 0
    successes = leader + counted
    complications = sum(is_complication(s.value, complication_range) for s in slots) + sum(
        is_complication(h.slot.value, complication_range) for h in helpers
    )
    passed = successes >= difficulty
    return Test(
        dice=tuple(shown),
        per_die=per_die,
        helper_dice=tuple(helper_shown),
        helper_successes=counted,
        leader_successes=leader,
        successes=successes,
        complications=complications,
        difficulty=difficulty,
        passed=passed,
        momentum=successes - difficulty if passed else 0,
        bonus_momentum=bonus_momentum if passed else 0,
    )


def buy_cost(bought: int) -> int:
    check_range("dados_extra", bought, 0, MAX_BOUGHT)
    return DICE_COST[bought]


def split_payment(cost: int, payment: str, momentum_available: int) -> tuple[int, int]:
    """How much of ``cost`` comes from Impulso and how much is paid by generating Amenaza.

    ``impulso`` and ``amenaza`` pay all one way; ``mixto`` takes what the group pool has
    and covers the rest with Amenaza ("generando un punto de Amenaza por cada punto de
    Impulso que quieras suplantar").
    """
    if payment == "impulso":
        return cost, 0
    if payment == "amenaza":
        return 0, cost
    if payment == "mixto":
        from_pool = min(cost, max(momentum_available, 0))
        return from_pool, cost - from_pool
    raise RuleError("dune.bad_payment", payment=payment)


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

    @property
    def test(self) -> Test:
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


def _open(roll: DuneRoll) -> None:
    if roll.closed:
        raise RuleError("dune.closed")


def spend(roll: DuneRoll, use: str) -> tuple[DuneRoll, int]:
    """Spend Impulso on a passed test: bonus first (it is lost otherwise), then the
    roll's own, then the group pool. Returns the roll and what the pool must pay."""
    cost = MOMENTUM_SPENDS.get(use)
    if cost is None:
        raise RuleError("dune.bad_spend", use=use)
    _open(roll)
    if not roll.test.passed or roll.price:
        raise RuleError("dune.not_passed")
    if use == "tarea" and roll.task_id is None:
        raise RuleError("dune.no_task")
    if use not in REPEATABLE_SPENDS and use in roll.spends:
        raise RuleError("dune.spend_once", use=use)
    from_bonus = min(cost, roll.bonus_left)
    from_roll = min(cost - from_bonus, roll.momentum_left)
    from_group = cost - from_bonus - from_roll
    updated = replace(
        roll,
        spends=(*roll.spends, use),
        bonus_spent=roll.bonus_spent + from_bonus,
        from_roll=roll.from_roll + from_roll,
    )
    return updated, from_group


def save(roll: DuneRoll) -> tuple[DuneRoll, int]:
    """ "Una vez que el chequeo de habilidad se ha resuelto, cualquier punto de Impulso
    no gastado se guarda en la reserva de grupo"; bonus Impulso is lost. The store
    clamps the addition at the cap of 6 and reports what the cap took."""
    _open(roll)
    if roll.npc:
        raise RuleError("dune.npc_cannot_save")
    if not roll.test.passed or roll.price:
        raise RuleError("dune.not_passed")
    return replace(roll, closed=True), roll.momentum_left


def npc_to_threat(roll: DuneRoll) -> DuneRoll:
    """ "Los PNJ no pueden guardar su Impulso ... pueden añadir un punto de Amenaza a cambio
    de todo el Impulso que les quede." The bot adds that 1 Amenaza."""
    _open(roll)
    if not roll.npc:
        raise RuleError("dune.not_npc")
    if roll.momentum_left + roll.bonus_left <= 0:
        raise RuleError("dune.nothing_left")
    return replace(roll, closed=True)


def ignore_complication(roll: DuneRoll) -> DuneRoll:
    """A player buys off one complication for 2 Amenaza; once per complication."""
    if roll.complications <= 0:
        raise RuleError("dune.no_complication")
    return replace(roll, ignored=roll.ignored + 1)


def success_at_price(roll: DuneRoll, complications: int = 1) -> DuneRoll:
    """The GM lets a failed test succeed with no Impulso and "una o más complicaciones ...
    El Director determina cuantas complicaciones extra se sufren" (one unless told)."""
    _open(roll)
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
    _open(roll)
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


def opposed_difficulty(opponent_successes: int, hindrances: int = 0) -> int:
    """The opponent's successes, less 1 per factor hindering them, are the difficulty."""
    check_range("obstaculos", hindrances, 0, MAX_RAISED_DIFFICULTY)
    return min(max(opponent_successes - hindrances, 0), MAX_RAISED_DIFFICULTY)


def opponent_momentum(difficulty: int, successes: int) -> int:
    """ "Si fallas, el personaje que se opone genera 1 punto de Impulso por cada éxito que
    te ha faltado"."""
    return max(difficulty - successes, 0)


def task_points(roll: DuneRoll) -> int:
    """Points a roll adds to an extended task: 2 for a passed test, +1 per Impulso spent
    on the task, + the quality of an asset used, -1 per complication not bought off. A
    success at a price is passed ("un chequeo superado de esta forma"), as it is for a
    looming problem (:func:`opposing_task_points`); its complications take their points."""
    if not roll.passed:
        return 0
    pushed = roll.spends.count("tarea")
    return max(POINTS_PER_PASS + pushed + roll.asset_quality - roll.complications, 0)


# -- the table's pools ---------------------------------------------------------------------------

ADVENTURE_THREAT_PER_PLAYER = 2
ADVENTURE_DETERMINATION = 1
SCENE_END_MOMENTUM = -1


@dataclass(frozen=True)
class Pools:
    """What a rule does to the table's pools: amounts to add (negative to take). The bot
    maps each to a store change; ``raised_difficulty`` is the GM's "+1 dificultad" waiting
    for the next test, capped at :data:`MAX_RAISED_DIFFICULTY`."""

    momentum: int = 0
    threat: int = 0
    determination: int = 0
    raised_difficulty: int = 0


def roll_cost(
    bought: int, payment: str, momentum_available: int, *, npc: bool = False, determination: bool = False
) -> Pools:
    """What starting a test costs. A player pays bought dice with Impulso and/or by
    generating Amenaza; the GM buys an NPC's dice with Amenaza ("misma dinámica que con el
    Impulso"); NPCs have no Determinación, a player's costs one point."""
    if npc and determination:
        raise RuleError("dune.npc_determination")
    cost = buy_cost(bought)
    if npc:
        return Pools(threat=-cost, determination=0)
    from_pool, as_threat = split_payment(cost, payment, momentum_available) if cost else (0, 0)
    return Pools(momentum=-from_pool, threat=as_threat, determination=-int(determination))


def raised_difficulty(difficulty: int, waiting: int) -> tuple[int, Pools]:
    """The test's difficulty with the GM's waiting raises, never past the cap, and the
    raises it uses up (all of them)."""
    check_range("dificultad", difficulty, 0, MAX_RAISED_DIFFICULTY)
    return min(difficulty + waiting, MAX_RAISED_DIFFICULTY), Pools(raised_difficulty=-waiting)


def threat_spend(use: str) -> Pools:
    """The GM's quick Amenaza spends; "+1 dificultad" also raises the next test."""
    cost = THREAT_SPENDS.get(use)
    if cost is None:
        raise RuleError("dune.bad_spend", use=use)
    return Pools(threat=-cost, raised_difficulty=int(use == "dificultad"))


def adventure_start(players: int) -> tuple[int, int]:
    """ "el Director comienza con 2 puntos por jugador" of Amenaza, and "Al comienzo de cada
    aventura, tienes un único punto de Determinación": (Amenaza, Determinación each), both
    set, not added."""
    check_range("jugadores", players, 1, 12)
    return ADVENTURE_THREAT_PER_PLAYER * players, ADVENTURE_DETERMINATION


def scene_end() -> Pools:
    """ "se pierde 1 punto de Impulso de la reserva de grupo" at the end of each scene
    (clamped at 0 by the store)."""
    return Pools(momentum=SCENE_END_MOMENTUM)


# -- opposed tests and opposing tasks -------------------------------------------------------------


def roll_opposition(
    rng: random.Random,
    target: int,
    *,
    dice: int = BASE_DICE,
    focus_skill: int | None = None,
    complication_range: int = 1,
    helpers: Sequence[HelperSpec] = (),
) -> DuneRoll:
    """ "el personaje que se opone lanza primero para definir la Dificultad": the opponent's
    test, rolled before the actor chooses bought dice, payment or Determinación. It has no
    difficulty of its own (0): only its successes matter."""
    return roll_test(
        rng,
        target,
        dice=dice,
        focus_skill=focus_skill,
        complication_range=complication_range,
        difficulty=0,
        npc=True,
        helpers=helpers,
    )


def opposition_difficulty(opposition: DuneRoll, hindrances: int = 0) -> int:
    """The difficulty the actor then faces: the opposition's successes (helpers included)."""
    return opposed_difficulty(opposition.test.successes, hindrances)


def opposing_task_points(roll: DuneRoll) -> int:
    """Points a roll adds to a track "desde la dirección opuesta" (a looming problem), where
    "chequeos de habilidad fallidos, complicaciones o acciones peligrosas añaden puntos": a
    failed test adds 2 (the same as a pass adds to a goal), and each complication left
    standing 1. A success at a price is a pass, its complications still count."""
    failed = 0 if roll.passed else POINTS_PER_PASS
    return failed + max(roll.complications, 0)


# -- scene traits ---------------------------------------------------------------------------

# "humo denso 2, donde el número indica que el rasgo cuenta como dos rasgos": a trait's count.
MAX_TRAIT_COUNT = 5
# What each way to "crear, cambiar o eliminar" a trait costs: Impulso ("Gastando 2 puntos"),
# Amenaza ("gastando dos puntos de Amenaza"), Determinación (a Declaración, one point).
TRAIT_COSTS = {
    "impulso": Pools(momentum=-2),
    "amenaza": Pools(threat=-2),
    "determinacion": Pools(determination=-1),
}


def edit_trait(traits: dict[str, int], text: str, count: int, before: str | None = None) -> dict[str, int]:
    """One trait created, changed or removed ("crear un rasgo completamente nuevo, cambiar
    uno que exista o eliminarlo"): ``text`` at ``count`` (0 removes it), or, with
    ``before``, that trait turned into ``text``. ``traits`` are the scene's, by text; the
    answer is the new count of each trait touched (0: gone). Names compare without case."""
    check_range("cantidad", count, 0, MAX_TRAIT_COUNT)
    known = {name.casefold(): name for name, value in traits.items() if value > 0}
    result: dict[str, int] = {}
    if before is not None:
        old = known.get(before.casefold())
        if old is None:
            raise RuleError("dune.trait.unknown", name=before)
        result[old] = 0
    name = known.get(text.casefold(), text)
    if count == 0 and before is None and name.casefold() not in known:
        raise RuleError("dune.trait.unknown", name=text)
    if count or before is None:
        result[name] = count
    if all(traits.get(k, 0) == v for k, v in result.items()):
        raise RuleError("dune.trait.unchanged", name=text)
    return result


# -- storage ----------------------------------------------------------------------------


def to_data(roll: DuneRoll) -> dict[str, Any]:
    return {
        "target": roll.target,
        "focus_skill": roll.focus_skill,
        "complication_range": roll.complication_range,
        "difficulty": roll.difficulty,
        "slots": [[list(s.values), s.fixed] for s in roll.slots],
        "helpers": [[h.user_id, h.target, h.focus_skill, list(h.slot.values)] for h in roll.helpers],
        "bonus": roll.bonus,
        "npc": roll.npc,
        "spends": list(roll.spends),
        "from_roll": roll.from_roll,
        "bonus_spent": roll.bonus_spent,
        "ignored": roll.ignored,
        "price": roll.price,
        "price_complications": roll.price_complications,
        "closed": roll.closed,
        "task_id": roll.task_id,
        "asset_quality": roll.asset_quality,
        "extra": roll.extra,
    }


def from_data(data: dict[str, Any]) -> DuneRoll:
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
