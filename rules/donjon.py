"""Donjon: opposed pools, the Ley de los Éxitos, and every test of the book.

Sections of ``../shared/reglas/donjon.txt`` are quoted in the docstrings. A test compares two
pools; the winner's successes are then spent under the Ley de los Éxitos ("1 éxito =
1 hecho o 1 dado"), except in expense and damage tests, where they are counted only.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rules.dice import Die, Mark, check_sides, sort_high
from rules.errors import RuleError

Side = Literal["a", "b"]
DEFAULT_SIDES = 20
MAX_POOL = 100
MAX_LEVEL = 30
# A new table's Donjon level: the text's examples play at 1 ("una dificultad Media en un
# Donjon de Nivel 1 brinda 4 dados al DJ"), as a new character does ("el máximo para un
# personaje inicial es de 4 dados": Nivel 1 + 3).
START_LEVEL = 1
# The most dice one bank gives or a GM adjusts at once.
MAX_BANK = 100
# The "Tipo de dado" dial: from a coin to a d100.
MIN_SIDES = 2
MAX_SIDES = 100
# An item's own Habilidad on the Tabla de Provisiones.
MAX_ITEM_SKILL = 4
# Tabla 3-2: from "Puños y patadas" (−1) to "Placas y mallas" (4): "Ningún arma mundana … o
# armadura puede causar o detener más de 4 dados de daño".
MIN_DAMAGE_LEVEL = -1
MAX_DAMAGE_LEVEL = 4
# "no puedes tener una cantidad de dados mayor a tu Nivel + 3 en ninguna de estas características"
LEVEL_CAP_BONUS = 3
# "Si de nuevo resulta en un empate, repite la acción hasta que haya un vencedor": with
# d2 a round ties half the time, so a thousand rounds end it with certainty in practice.
MAX_TIE_ROUNDS = 1000
FACT_LIMIT = 200

# Tabla 4-2: Dificultades de Acciones sin Oposición.
DIFFICULTIES = {"facil": 0, "media": 3, "dificil": 6, "muy_dificil": 9, "desquiciada": 12}
DEFAULT_SEVERITY = "media"
# Tabla 3-3: Tirada de Provisiones.
PROVISIONS_AUTOMATIC = 3
PROVISIONS_UNUSUAL = 3
ATTRIBUTES = ("virilidad", "cerebralidad", "discernimiento", "celeridad", "aguante", "sociabilidad")
ATTRIBUTE_POINTS = 21
IMPROVED_THRESHOLD = 15


def check_pool_size(name: str, count: int) -> None:
    if not 0 <= count <= MAX_POOL:
        raise RuleError("donjon.pool_size", name=name, count=count, max=MAX_POOL)


@dataclass(frozen=True)
class Comparison:
    """Two pools compared once: each die marked, the winner and its successes.

    ``winner`` is None when every die was tied pair by pair: a full tie.
    """

    a: tuple[Die, ...]
    b: tuple[Die, ...]
    winner: Side | None
    successes: int
    tied_pairs: int


def _sorted(values: Sequence[int], sides: int) -> list[Die]:
    return list(sort_high(Die(sides, v) for v in values))


def compare(a: Sequence[int], b: Sequence[int], sides: int = DEFAULT_SIDES) -> Comparison:
    """ "Cada jugador identifica el dado con el número mayor. El jugador con la tirada baja
    pierde, y todos los dados del ganador que sean mayores que el dado mayor del perdedor
    se denominan éxitos. Si ambos jugadores tienen el mismo número en el dado más alto, esos
    dados se separan y se busca el próximo número más alto ... El ganador considera todos
    los dados empatados como éxitos, además de los éxitos normales."

    A side that runs out of dice while the other has some left loses, and every remaining
    die of the other side is a success (nothing of the loser's is left to beat).
    """
    pool_a, pool_b = _sorted(a, sides), _sorted(b, sides)
    ties = 0
    while ties < len(pool_a) and ties < len(pool_b) and pool_a[ties].value == pool_b[ties].value:
        ties += 1
    rest_a, rest_b = pool_a[ties:], pool_b[ties:]
    if not rest_a and not rest_b:
        return Comparison(_tied(pool_a), _tied(pool_b), None, 0, ties)
    winner: Side = "a" if not rest_b or (rest_a and rest_a[0].value > rest_b[0].value) else "b"
    win_rest, lose_rest = (rest_a, rest_b) if winner == "a" else (rest_b, rest_a)
    bar = lose_rest[0].value if lose_rest else 0
    counted = [d.mark(Mark.SUCCESS) if d.value > bar else d for d in win_rest]
    successes = ties + sum(d.has(Mark.SUCCESS) for d in counted)
    tied_winner = [d.mark(Mark.TIED, Mark.SUCCESS) for d in (pool_a if winner == "a" else pool_b)[:ties]]
    tied_loser = [d.mark(Mark.TIED) for d in (pool_b if winner == "a" else pool_a)[:ties]]
    win_dice, lose_dice = (*tied_winner, *counted), (*tied_loser, *lose_rest)
    a_dice, b_dice = (win_dice, lose_dice) if winner == "a" else (lose_dice, win_dice)
    return Comparison(tuple(a_dice), tuple(b_dice), winner, successes, ties)


def _tied(pool: list[Die]) -> tuple[Die, ...]:
    return tuple(d.mark(Mark.TIED) for d in pool)


@dataclass(frozen=True)
class Contest:
    """A test played out: the first comparison, then one added die a side per full tie.

    Each extension round compares only the two new dice; every tied pair before it stays
    set aside and counts for the eventual winner, together with the winning new die.
    """

    a: tuple[int, ...]
    b: tuple[int, ...]
    sides: int = DEFAULT_SIDES
    extra: tuple[tuple[int, int], ...] = ()

    @property
    def first(self) -> Comparison:
        return compare(self.a, self.b, self.sides)

    @property
    def winner(self) -> Side | None:
        if self.first.winner is not None:
            return self.first.winner
        for x, y in self.extra:
            if x != y:
                return "a" if x > y else "b"
        return None

    @property
    def successes(self) -> int:
        first = self.first
        if first.winner is not None:
            return first.successes
        return first.tied_pairs + sum(1 for x, y in self.extra if x == y) + (self.winner is not None)


def roll_contest(rng: random.Random, a: int, b: int, sides: int = DEFAULT_SIDES) -> Contest:
    """Roll two pools and settle any full tie by adding one die a side until decided."""
    check_pool_size("a", a)
    check_pool_size("b", b)
    check_sides(sides)
    test = Contest(_roll(rng, a, sides), _roll(rng, b, sides), sides)
    return settle(rng, test)


def settle(rng: random.Random, test: Contest) -> Contest:
    extra: list[tuple[int, int]] = list(test.extra)
    while replace(test, extra=tuple(extra)).winner is None and len(extra) < MAX_TIE_ROUNDS:
        extra.append((rng.randint(1, test.sides), rng.randint(1, test.sides)))
    return replace(test, extra=tuple(extra))


def _roll(rng: random.Random, count: int, sides: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, sides) for _ in range(count))


# -- what the GM rolls -----------------------------------------------------------------------


def difficulty_dice(difficulty: str, level: int) -> int:
    """ "El DJ siempre suma a los dados de dificultad el Nivel de Donjon"."""
    if difficulty not in DIFFICULTIES:
        raise RuleError("donjon.bad_difficulty", difficulty=difficulty)
    check_level(level)
    return DIFFICULTIES[difficulty] + level


def check_level(level: int) -> None:
    if not 0 <= level <= MAX_LEVEL:
        raise RuleError("donjon.bad_level", level=level, max=MAX_LEVEL)


def damage_dice(level: int, severity: str = DEFAULT_SEVERITY, gm_bonus: int = 0) -> int:
    """Prueba de Daño: the GM rolls "el Nivel de Donjon actual más los modificadores basados
    en la severidad del daño" (Media, +3, by default) plus the successes banked for it."""
    return difficulty_dice(severity, level) + gm_bonus


def npc_damage_dice(attribute: int, skill: int = 0, gm_bonus: int = 0) -> int:
    """Prueba de Daño, the other way: "el DJ tira ya sea el Atributo y Habilidad apropiados
    del PNJ oponente o el Nivel de Donjon actual más los modificadores basados en la
    severidad", plus the successes banked for it."""
    for name, value in (("atributo", attribute), ("habilidad", skill), ("bonificacion", gm_bonus)):
        check_pool_size(name, value)
    total = attribute + skill + gm_bonus
    check_pool_size("dados", total)
    return total


def with_banked(pool: int, use: int, banked: int) -> tuple[int, int]:
    """A pool with banked bonus dice added: the GM's ("dados de bonificación en una próxima
    acción del DJ relacionada al personaje", so also the opposing pool of a test) or a
    rival's in an opposed test. Returns the pool to roll and the change to the bank."""
    if not 0 <= use <= banked:
        raise RuleError("donjon.bank_short", use=use, banked=banked)
    check_pool_size("dados", pool + use)
    return pool + use, -use


def provisions_dice(value: int, item_skill: int = 0, unusual: bool = False) -> int:
    """Tabla 3-3: 3 automatic dice, + the item's Valor or its Habilidad, whichever is
    higher ("Habilidades y Valor no se suman; utiliza el mayor número"), + 3 if unusual or
    too large for the pack."""
    if not 0 <= value <= MAX_POOL or not 0 <= item_skill <= MAX_ITEM_SKILL:
        raise RuleError("donjon.bad_item", value=value, skill=item_skill)
    return PROVISIONS_AUTOMATIC + max(value, item_skill) + (PROVISIONS_UNUSUAL if unusual else 0)


# -- the character sheet's numbers ---------------------------------------------------------------


def characteristic_cap(level: int) -> int:
    """The most dice Heridas, a Tirada de Salvación or a Habilidad may hold: Nivel + 3."""
    return level + LEVEL_CAP_BONUS


def weight_penalty(weight: int, virility: int) -> int:
    """ "Si un arma tiene un Peso mayor a la Virilidad del personaje, las oportunidades de
    impactar con el arma reciben una penalización igual a la diferencia"; the same for
    armour and Celeridad."""
    return max(0, weight - virility)


def two_handed(weight: int, virility: int) -> bool:
    """ "Un personaje debe tener una puntuación de Virilidad mayor al Peso de un arma cuerpo a
    cuerpo para poder utilizarla con una mano"."""
    return weight >= virility


# -- what a test changes on the sheet ------------------------------------------------------------

# The kinds of Prueba de Gastos by the score the dice are put in from (vender puts none in).
PUT_IN_FROM = {
    "comprar": "riqueza",
    "provisiones": "riqueza",
    "influencia": "riqueza",
    "objeto": "provisiones",
}
# The most a sheet's Heridas, Provisiones or Riqueza holds (its file's bound).
MAX_SCORE = MAX_POOL


@dataclass(frozen=True)
class Entry:
    """One number of the sheet a test changes: ``delta`` is what is booked, ``wanted`` what
    the rule asked for (they differ when the score's bound cut it)."""

    score: str
    delta: int
    wanted: int


def check_put_in(score: str, put_in: int, held: int) -> None:
    """ "Decide la cantidad de dados que usarás de tu puntuación": no more than it holds."""
    if put_in > held:
        raise RuleError(f"donjon.put_in_over.{score}", put_in=put_in, held=held)


def expense_wants(kind: str, won: bool, successes: int, put_in: int) -> dict[str, int]:
    """What a Prueba de Gastos changes, by score. "Si tienes éxito … Los dados que usaste de
    tu puntuación de Riqueza o Provisiones se gastan. Si no tienes éxito, los dados no se
    gastan"; buying Provisiones, "Todos los éxitos de la tirada se agregan a tu puntuación de
    Provisiones"; selling, "Cada éxito que consigas suma un punto a tu Riqueza"."""
    if not won:
        return {}
    if kind == "vender":
        return {"riqueza": successes}
    wants = {PUT_IN_FROM[kind]: -put_in}
    if kind == "provisiones":
        wants["provisiones"] = successes
    return {score: delta for score, delta in wants.items() if delta}


def damage_wants(won_by_damage: bool, successes: int) -> dict[str, int]:
    """ "cada éxito del DJ en una Prueba de Daño resta una Herida al personaje afectado"."""
    return {"heridas": -successes} if won_by_damage and successes else {}


def fit(wants: dict[str, int], held: dict[str, int]) -> tuple[Entry, ...]:
    """The changes as the sheet can take them: a score stays between 0 and ``MAX_SCORE``, so
    a loss past 0 or a gain past the bound books only what fits (the rest is said)."""
    entries = []
    for score, wanted in wants.items():
        value = held[score]
        delta = max(-value, min(MAX_SCORE - value, wanted))
        entries.append(Entry(score, delta, wanted))
    return tuple(entries)


# -- the Ley de los Éxitos ------------------------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    author: int
    text: str


@dataclass(frozen=True)
class Law:
    """The winner's successes being spent: "1 éxito = 1 hecho o 1 dado".

    ``banked`` holds the owner of each bonus die saved (the winner, or a friend). When
    nothing is left, the facts go to ``narrator``, who marks them narrated.
    """

    winner_id: int
    narrator_id: int | None
    successes: int
    facts: tuple[Fact, ...] = ()
    banked: tuple[int, ...] = ()
    narrated: bool = False

    @property
    def left(self) -> int:
        return self.successes - len(self.facts) - len(self.banked)

    @property
    def allocated(self) -> bool:
        return self.left == 0


def clean_fact(text: str) -> str:
    """One fact, on one line, at most 200 characters."""
    fact = " ".join(text.split())
    if not fact:
        raise RuleError("donjon.fact_empty")
    if len(fact) > FACT_LIMIT:
        raise RuleError("donjon.fact_too_long", length=len(fact), max=FACT_LIMIT)
    return fact


def narrate(law: Law, author: int, text: str) -> Law:
    _has_success_left(law)
    return replace(law, facts=(*law.facts, Fact(author, clean_fact(text))))


def bank(law: Law, owner: int) -> Law:
    """Save a success as a bonus die, for the winner or for a friend ("Puedes usar tus
    éxitos como dados de bonificación para la acción de un amigo")."""
    _has_success_left(law)
    return replace(law, banked=(*law.banked, owner))


def mark_narrated(law: Law) -> Law:
    if not law.allocated:
        raise RuleError("donjon.not_allocated", left=law.left)
    if law.narrated:
        raise RuleError("donjon.already_narrated")
    return replace(law, narrated=True)


def _has_success_left(law: Law) -> None:
    if law.left <= 0:
        raise RuleError("donjon.no_success_left")


# -- initiative --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    """One character, or a group of identical NPCs sharing one roll."""

    key: str
    name: str
    npc: bool
    dice: tuple[int, ...]
    count: int = 1
    user_id: int | None = None


@dataclass(frozen=True)
class Turn:
    number: int
    key: str
    name: str
    member: int = 0


def schedule(combatants: Sequence[Combatant], sides: int = DEFAULT_SIDES) -> tuple[Turn, ...]:
    """The ráfaga's countdown: from the die's maximum to 1, everyone showing the number acts
    once per die showing it, one action at a time round the table (seating order, NPCs last:
    "las acciones se ejecutan desde el jugador a la izquierda del DJ ... los PNJ siempre
    actuarán al último"). A group acts once per member at each of its numbers."""
    seated = [c for c in combatants if not c.npc] + [c for c in combatants if c.npc]
    turns: list[Turn] = []
    for number in range(sides, 0, -1):
        remaining = {c.key: c.dice.count(number) for c in seated}
        while any(remaining.values()):
            for c in seated:
                if remaining[c.key]:
                    remaining[c.key] -= 1
                    turns.extend(Turn(number, c.key, c.name, m) for m in range(c.count))
    return tuple(turns)


def roll_initiative(rng: random.Random, dice: int, sides: int = DEFAULT_SIDES) -> tuple[int, ...]:
    """Nivel + Discernimiento dice; "ninguna otra Habilidad puede sumarse"."""
    check_pool_size("iniciativa", dice)
    return tuple(sorted(_roll(rng, dice, sides), reverse=True))


# -- attributes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttributeRoll:
    rolls: tuple[tuple[int, int, int], ...]
    arranged: bool = False

    @property
    def medians(self) -> tuple[int, ...]:
        return tuple(int(statistics.median(r)) for r in self.rolls)

    @property
    def total(self) -> int:
        return sum(self.medians)

    @property
    def may_reroll(self) -> bool:
        """Estándar Mejorado: "Si los puntajes de un personaje suman 15 o menos, el jugador
        puede tirar todos los dados nuevamente"."""
        return self.total <= IMPROVED_THRESHOLD


def roll_attributes(rng: random.Random, arranged: bool = False) -> AttributeRoll:
    """The median of 3d6 six times: in order (Estándar) or to arrange (Tiradas a Elección)."""
    rolls = tuple((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)) for _ in ATTRIBUTES)
    return AttributeRoll(rolls, arranged)


# The dial's methods that roll: the reroll of "Estándar Mejorado" is also part of "A Elección
# del Jugador Mejorado" ("Similar al método Estándar Mejorado") and of "Tiradas a Elección"
# ("anota las medianas como en el método Estándar Mejorado").
ROLLED_METHODS = ("estandar", "mejorado", "jugador_mejorado", "eleccion")
REROLL_METHODS = frozenset({"mejorado", "jugador_mejorado", "eleccion"})
MIN_ATTRIBUTE = 1
MAX_ATTRIBUTE = 6


def offers_reroll(method: str, roll: AttributeRoll) -> bool:
    """Whether the player may roll all the dice again (a total of 15 or less)."""
    if method not in ROLLED_METHODS:
        raise RuleError("donjon.bad_method", method=method)
    return method in REROLL_METHODS and roll.may_reroll


def swap_point(scores: Sequence[int], plus: str, minus: str) -> tuple[int, ...]:
    """A Elección del Jugador Mejorado: "el jugador puede agregar un punto a un Atributo
    restándole un punto a otro". Scores stay within 1–6, the range a median of 3d6 gives
    and the one "A Elección del Jugador" allows."""
    if plus not in ATTRIBUTES or minus not in ATTRIBUTES:
        raise RuleError("donjon.bad_attribute", attribute=plus if plus not in ATTRIBUTES else minus)
    if plus == minus:
        raise RuleError("donjon.swap_same")
    swapped = list(scores)
    swapped[ATTRIBUTES.index(plus)] += 1
    swapped[ATTRIBUTES.index(minus)] -= 1
    for name, score in zip(ATTRIBUTES, swapped, strict=True):
        if not MIN_ATTRIBUTE <= score <= MAX_ATTRIBUTE:
            raise RuleError("donjon.swap_range", attribute=name, score=score)
    return tuple(swapped)


def check_point_buy(scores: Sequence[int]) -> None:
    """A Elección del Jugador: 21 points, no Atributo under 1 or over 6."""
    if len(scores) != len(ATTRIBUTES):
        raise RuleError("donjon.points_count", count=len(scores))
    for name, score in zip(ATTRIBUTES, scores, strict=True):
        if not 1 <= score <= 6:
            raise RuleError("donjon.points_range", attribute=name, score=score)
    if sum(scores) != ATTRIBUTE_POINTS:
        raise RuleError("donjon.points_total", total=sum(scores), points=ATTRIBUTE_POINTS)


# -- storage --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DonjonRoll:
    """A posted test: what kind, the pools, and (where the Law applies) its successes."""

    kind: str
    test: Contest
    law: Law | None = None
    details: dict[str, Any] = field(default_factory=dict)


def to_data(roll: DonjonRoll) -> dict[str, Any]:
    law = roll.law
    return {
        "kind": roll.kind,
        "a": list(roll.test.a),
        "b": list(roll.test.b),
        "sides": roll.test.sides,
        "extra": [list(p) for p in roll.test.extra],
        "law": None
        if law is None
        else {
            "winner_id": law.winner_id,
            "narrator_id": law.narrator_id,
            "successes": law.successes,
            "facts": [[f.author, f.text] for f in law.facts],
            "banked": list(law.banked),
            "narrated": law.narrated,
        },
        "details": roll.details,
    }


def from_data(data: dict[str, Any]) -> DonjonRoll:
    test = Contest(tuple(data["a"]), tuple(data["b"]), data["sides"], tuple((x, y) for x, y in data["extra"]))
    law_data = data["law"]
    law = None
    if law_data is not None:
        law = Law(
            law_data["winner_id"],
            law_data["narrator_id"],
            law_data["successes"],
            tuple(Fact(a, t) for a, t in law_data["facts"]),
            tuple(law_data["banked"]),
            law_data["narrated"],
        )
    return DonjonRoll(data["kind"], test, law, data["details"])


# -- the combat tracker ----------------------------------------------------------------------------

MAX_COMBATANTS = 25


@dataclass(frozen=True)
class Seat:
    """A combatant at the table: its initiative pool and, once rolled, this ráfaga's dice
    (empty while it waits for the next ráfaga)."""

    combatant: Combatant
    pool: int


@dataclass(frozen=True)
class Combat:
    """A fight as ráfagas: every seat's dice, and how many turns of the countdown are done.

    The ráfaga has started once a turn was taken (``step`` > 0).
    """

    seats: tuple[Seat, ...] = ()
    rafaga: int = 1
    step: int = 0
    ended: bool = False
    sides: int = DEFAULT_SIDES

    @property
    def turns(self) -> tuple[Turn, ...]:
        return schedule([s.combatant for s in self.seats if s.combatant.dice], self.sides)

    @property
    def acting(self) -> Turn | None:
        turns = self.turns
        return turns[self.step] if self.step < len(turns) else None

    @property
    def over(self) -> bool:
        """Every turn of this ráfaga was taken."""
        return self.step >= len(self.turns)

    def _open(self) -> None:
        if self.ended:
            raise RuleError("donjon.combat.is_over")

    def join(self, rng: random.Random, combatant: Combatant, pool: int) -> Combat:
        """Join once. A newcomer rolls at once before the ráfaga starts, and after that waits
        for the next one. A second join is refused: before the start it would be a fresh
        roll (fishing for initiative), after it would empty the dice and break the countdown."""
        self._open()
        check_pool_size("iniciativa", pool)
        if any(s.combatant.key == combatant.key for s in self.seats):
            raise RuleError("donjon.combat.already_joined")
        if len(self.seats) >= MAX_COMBATANTS:
            raise RuleError("donjon.combat.full", max=MAX_COMBATANTS)
        dice = roll_initiative(rng, pool, self.sides) if self.step == 0 else ()
        return replace(self, seats=(*self.seats, Seat(replace(combatant, dice=dice), pool)))

    def next(self, step: int) -> Combat:
        """ "Siguiente" ends the turn its button was drawn for: two presses advance once."""
        self._open()
        if step != self.step:
            raise RuleError("donjon.combat.already_moved")
        if self.over:
            raise RuleError("donjon.combat.rafaga_over_refusal")
        return replace(self, step=step + 1)

    def new_rafaga(self, rng: random.Random) -> Combat:
        """Everyone rolls their pool again, newcomers included."""
        self._open()
        seats = tuple(
            replace(s, combatant=replace(s.combatant, dice=roll_initiative(rng, s.pool, self.sides)))
            for s in self.seats
        )
        return replace(self, seats=seats, rafaga=self.rafaga + 1, step=0)

    def remove(self, key: str) -> Combat:
        """Take a seat out. The turns already taken stay taken: the countdown resumes at the
        first turn not yet played, whoever had it."""
        self._open()
        if all(s.combatant.key != key for s in self.seats):
            raise RuleError("donjon.unknown_combatant")
        done = self.turns[: self.step]
        seats = tuple(s for s in self.seats if s.combatant.key != key)
        return replace(self, seats=seats, step=sum(t.key != key for t in done))

    def finish(self) -> Combat:
        self._open()
        return replace(self, ended=True)


def combat_to_data(combat: Combat) -> dict[str, Any]:
    return {
        "combatants": [
            {
                "key": s.combatant.key,
                "name": s.combatant.name,
                "npc": s.combatant.npc,
                "pool": s.pool,
                "count": s.combatant.count,
                "user": s.combatant.user_id,
                "dice": list(s.combatant.dice),
            }
            for s in combat.seats
        ],
        "rafaga": combat.rafaga,
        "step": combat.step,
        "ended": combat.ended,
        "sides": combat.sides,
    }


def combat_from_data(data: dict[str, Any]) -> Combat:
    """Reads what ``combat_to_data`` writes, which is the shape the cog stored before it."""
    seats = tuple(
        Seat(Combatant(c["key"], c["name"], c["npc"], tuple(c["dice"]), c["count"], c.get("user")), c["pool"])
        for c in data["combatants"]
    )
    return Combat(seats, data["rafaga"], data["step"], data["ended"], data["sides"])
