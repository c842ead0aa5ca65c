"""Mediana (1o3d10): the objective die of 3d10, ranks, explosions, criticals, fumbles,
effect rolls, initiative and hit points. Quotes from ``../shared/reglas/mediana-1o3d10.txt``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.dice import MAX_EXPLOSIONS, Die, Mark, explode_chain
from rules.errors import RuleError, check_range

RANKS = ("bajo", "medio", "alto")
SIDES = 10
EFFECT_SIDES = 6
CRITICAL_MARGIN = 10
DEGREE_STEP = 10
FUMBLE_NEXT_MAX = 5
MAX_SCORE = 50
MAX_DIFFICULTY = 100
MAX_EFFECT_DICE = 50
DEATH_FACTOR = 6
# The most PV a sheet holds, and the most one hurt or heal moves.
MAX_HEALTH = 1000
_EFFECT = re.compile(r"^\s*(\d{1,3})\s*d\s*6\s*(?:([+-])\s*(\d{1,3}))?\s*$", re.IGNORECASE)


def rank_index(rank: str) -> int:
    if rank not in RANKS:
        raise RuleError("mediana.bad_rank", rank=rank)
    return RANKS.index(rank)


def shift_rank(rank: str, steps: int) -> str:
    """Move a rank up (+) or down (−); it never goes past ``alto`` or ``bajo``."""
    return RANKS[min(max(rank_index(rank) + steps, 0), len(RANKS) - 1)]


def effective_rank(base: str = "medio", no_skill: bool = False, badly_hurt: bool = False) -> str:
    """ "En aquellas habilidades donde el personaje no tenga ningún punto ... el dado objetivo
    baja un rango"; malherido, "su dado objetivo baja 1 nivel". The GM's grant or
    imposition is the base rank."""
    return shift_rank(base, -(int(no_skill) + int(badly_hurt)))


def objective_die(dice: Sequence[int], rank: str = "medio") -> int:
    """Sort the three d10 and keep one by rank: lowest, median or highest."""
    return sorted(dice)[rank_index(rank)]


def is_fumble(dice: Sequence[int], rank: str = "medio") -> bool:
    """ "Se obtiene al sacar un 1 en el dado objetivo y 5 o menos en el siguiente dado. El
    triple 1 siempre se considera pifia." The next die is the next one up in the sorted three."""
    ordered = sorted(dice)
    index = rank_index(rank)
    if ordered == [1, 1, 1]:
        return True
    if ordered[index] != 1 or index + 1 >= len(ordered):
        return False
    return ordered[index + 1] <= FUMBLE_NEXT_MAX


def actions(initiative_total: int) -> int:
    """One action below 20, two from 20, three from 30, and so on."""
    return max(initiative_total // 10, 1)


def degrees(total: int, difficulty: int) -> int:
    """ "Cada 10 puntos que superemos la dificultad nos otorgará 1d6 extra de efecto"."""
    return max(total - difficulty, 0) // DEGREE_STEP


@dataclass(frozen=True)
class Throw:
    """One 1o3d10: the three dice and the rank that picks the objective die."""

    dice: tuple[int, int, int]
    rank: str

    @property
    def objective(self) -> int:
        return objective_die(self.dice, self.rank)

    @property
    def marked(self) -> tuple[Die, ...]:
        ordered = sorted(self.dice)
        keep = rank_index(self.rank)
        shown = []
        for index, value in enumerate(ordered):
            marks = {Mark.OBJECTIVE} if index == keep else {Mark.DROPPED}
            if index == keep and value == SIDES:
                marks.add(Mark.EXPLODED)
            shown.append(Die(SIDES, value, frozenset(marks)))
        return tuple(shown)


def throw(rng: random.Random, rank: str) -> Throw:
    rank_index(rank)
    return Throw((rng.randint(1, SIDES), rng.randint(1, SIDES), rng.randint(1, SIDES)), rank)


@dataclass(frozen=True)
class Test:
    """A test: the chain of throws (more than one when the objective die exploded), the
    score added, and the verdict against the difficulty."""

    throws: tuple[Throw, ...]
    score: int
    difficulty: int | None
    skill_test: bool = True

    @property
    def first(self) -> Throw:
        return self.throws[0]

    @property
    def rolled(self) -> int:
        return sum(t.objective for t in self.throws)

    @property
    def total(self) -> int:
        return self.score + self.rolled

    @property
    def natural_one(self) -> bool:
        return self.first.objective == 1

    @property
    def fumble(self) -> bool:
        return is_fumble(self.first.dice, self.first.rank)

    @property
    def success(self) -> bool | None:
        """ "Un 1 natural ... siempre es fallo en tiradas de habilidad"; a fumble always fails."""
        if self.difficulty is None:
            return None
        if self.fumble or (self.skill_test and self.natural_one):
            return False
        return self.total >= self.difficulty

    @property
    def critical(self) -> bool:
        """ "Se consigue un Crítico si el resultado final supera en 10 o más a la dificultad"."""
        return (
            bool(self.success)
            and self.difficulty is not None
            and self.total - self.difficulty >= CRITICAL_MARGIN
        )

    @property
    def degrees(self) -> int:
        if not self.success or self.difficulty is None:
            return 0
        return degrees(self.total, self.difficulty)

    def exploded(self, index: int) -> bool:
        """Whether throw ``index``'s objective 10 exploded (another throw follows it): the
        only 10s to mark 💥 — an attribute test's 10 never explodes."""
        return index < len(self.throws) - 1

    def marked(self, index: int) -> tuple[Die, ...]:
        """Throw ``index``'s dice as shown: 💥 only on an objective 10 that exploded."""
        dice = self.throws[index].marked
        if self.exploded(index):
            return dice
        return tuple(Die(d.sides, d.value, d.marks - {Mark.EXPLODED}) for d in dice)


def roll_test(
    rng: random.Random,
    score: int,
    difficulty: int | None,
    rank: str = "medio",
    *,
    explode: bool = True,
    skill_test: bool = True,
) -> Test:
    """Roll 1o3d10 + ``score``. In skill and opposed tests a 10 on the objective die
    explodes: "se suma el resultado y se vuelve a tirar 1o3d10", at the same rank, for as
    long as it shows 10 (bounded)."""
    check_range("puntuacion", score, -MAX_SCORE, MAX_SCORE)
    if difficulty is not None:
        check_range("dificultad", difficulty, 0, MAX_DIFFICULTY)
    throws = [throw(rng, rank)]
    while explode and throws[-1].objective == SIDES and len(throws) <= MAX_EXPLOSIONS:
        throws.append(throw(rng, rank))
    return Test(tuple(throws), score, difficulty, skill_test)


def fails_outright(test: Test) -> bool:
    """ "Un 1 natural ... siempre es fallo en tiradas de habilidad", and a fumble always
    fails: in an opposed test too (the bookworm against the martial artist is one)."""
    return test.fumble or (test.skill_test and test.natural_one)


def contest_winners(tests: Sequence[Test]) -> tuple[int, ...]:
    """ "Las tiradas enfrentadas se usan cuando dos o más personajes compiten": the indexes
    of the highest total among those that did not fail outright. Several indexes are a tie
    for the GM to accept or reroll; none means every side failed outright."""
    if len(tests) < 2:
        raise RuleError("mediana.contest_too_small")
    standing = [i for i, t in enumerate(tests) if not fails_outright(t)]
    if not standing:
        return ()
    best = max(tests[i].total for i in standing)
    return tuple(i for i in standing if tests[i].total == best)


@dataclass(frozen=True)
class Side:
    """One character in an opposed test, with the state its rank follows: its own skill
    points (None when it rolls its attribute alone, which has no skill to lack),
    malherido (from its PV sheet when it has one), the GM's base rank, and the armour's
    encumbrance when the test needs coordination."""

    attribute: int
    skill: int | None
    base_rank: str = "medio"
    badly_hurt: bool = False
    encumbrance: int = 0

    @property
    def rank(self) -> str:
        return effective_rank(self.base_rank, self.skill == 0, self.badly_hurt)

    @property
    def score(self) -> int:
        return self.attribute + (self.skill or 0) - self.encumbrance


MAX_CONTESTANTS = 10


def roll_opposed(rng: random.Random, sides: Sequence[Side]) -> tuple[Test, ...]:
    """Every side rolls its own test (exploding, natural 1 and fumble apply: it is a skill
    test); :func:`contest_winners` reads the result."""
    check_range("participantes", len(sides), 2, MAX_CONTESTANTS)
    for side in sides:
        check_range("atributo", side.attribute, -MAX_SCORE, MAX_SCORE)
        if side.skill is not None:
            check_range("habilidad", side.skill, 0, MAX_SCORE)
        check_range("estorbo", side.encumbrance, 0, MAX_SCORE)
    return tuple(roll_test(rng, side.score, None, side.rank) for side in sides)


def effect_dice(base: int, degrees_won: int, critical: bool, in_combat: bool) -> tuple[int, bool]:
    """The effect roll after a test: (d6 to roll, whether the total doubles).

    *Grados de crítico* adds "1d6 extra de efecto" per 10 points over the difficulty (its
    example, "hace 4d6 de daño (2d6+2d6)", counts the dice), and *Críticos* then says "Si
    además el Crítico se consigue en combate se multiplica el daño infligido por 2". Both
    apply: a critical is 10 or more over, so it always has a degree, and a ×2 kept for
    criticals without degrees would never apply (docs/decisiones.md)."""
    check_range("dados", base, 1, MAX_EFFECT_DICE)
    check_range("grados", degrees_won, 0, MAX_EFFECT_DICE)
    check_range("dados", base + degrees_won, 1, MAX_EFFECT_DICE)
    return base + degrees_won, critical and in_combat


def roll_to_data(test: Test) -> dict[str, Any]:
    return {
        "throws": [[list(x.dice), x.rank] for x in test.throws],
        "score": test.score,
        "difficulty": test.difficulty,
        "skill_test": test.skill_test,
    }


def roll_from_data(data: dict[str, Any]) -> Test:
    """Reads what :func:`roll_to_data` writes, the shape the cog stored before it."""
    throws = tuple(Throw((d[0], d[1], d[2]), rank) for d, rank in data["throws"])
    return Test(throws, data["score"], data["difficulty"], data["skill_test"])


def odds_rank(base: str = "medio", skill: int | None = None, badly_hurt: bool = False) -> str:
    """The rank the odds must use: the roll's own drops (no skill points, malherido).
    ``skill`` None is an attribute test, which has no skill to lack."""
    return effective_rank(base, skill == 0, badly_hurt)


def roll_kind(attribute_test: bool) -> dict[str, bool]:
    """How a test rolls: an attribute test neither explodes ("En tiradas de habilidad y
    enfrentadas ... éste explota") nor fails on a natural 1; pass as keywords to
    :func:`roll_test` and to the odds."""
    return {"explode": not attribute_test, "skill_test": not attribute_test}


# -- effect rolls -----------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectSpec:
    dice: int
    bonus: int = 0


def parse_effect(text: str) -> EffectSpec:
    """Effect dice as ``NdS`` with an optional bonus, in d6 (the text's effect die)."""
    match = _EFFECT.match(text)
    if not match:
        raise RuleError("mediana.bad_effect", text=text.strip()[:40])
    dice = int(match[1])
    bonus = int(match[3] or 0) * (-1 if match[2] == "-" else 1)
    check_range("dados", dice, 1, MAX_EFFECT_DICE)
    return EffectSpec(dice, bonus)


@dataclass(frozen=True)
class Effect:
    """Damage, healing, turns...: exploding d6s, the degrees' extra dice, the critical's
    doubling and armour's absorption, in that order."""

    chains: tuple[tuple[Die, ...], ...]
    bonus: int
    critical: bool
    absorption: int

    @property
    def rolled(self) -> int:
        return sum(d.value for chain in self.chains for d in chain) + self.bonus

    @property
    def total(self) -> int:
        doubled = self.rolled * (2 if self.critical else 1)
        return max(doubled - self.absorption, 0)


def roll_effect(
    rng: random.Random, spec: EffectSpec, *, extra_dice: int = 0, critical: bool = False, absorption: int = 0
) -> Effect:
    """Each d6 explodes on a 6 ("los seises son acumulativos"); every degree adds a d6; a
    critical in combat doubles the damage; absorption is subtracted, never below 0."""
    check_range("grados", extra_dice, 0, MAX_EFFECT_DICE)
    check_range("absorcion", absorption, 0, MAX_SCORE)
    count = spec.dice + extra_dice
    check_range("dados", count, 1, MAX_EFFECT_DICE)
    chains = tuple(explode_chain(rng, EFFECT_SIDES) for _ in range(count))
    return Effect(chains, spec.bonus, critical, absorption)


def effect_to_data(effect: Effect) -> dict[str, Any]:
    """What an effect roll keeps of itself (its record's data, read back by the chronicle
    and the dice statistics): each chain's faces."""
    return {
        "chains": [[d.value for d in chain] for chain in effect.chains],
        "bonus": effect.bonus,
        "critical": effect.critical,
        "absorption": effect.absorption,
    }


def effect_from_data(data: dict[str, Any]) -> Effect:
    """Reads what :func:`effect_to_data` writes: in a chain every die but the last exploded."""
    chains = tuple(
        tuple(
            Die(EFFECT_SIDES, v, frozenset({Mark.EXPLODED}) if i < len(faces) - 1 else frozenset())
            for i, v in enumerate(faces)
        )
        for faces in data["chains"]
    )
    return Effect(chains, data["bonus"], data["critical"], data["absorption"])


# -- hit points ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Health:
    """A character's PV. Malherido at PV ≤ Físico, unconscious at 0, dead at −Físico × 6."""

    physique: int
    maximum: int
    current: int

    @property
    def badly_hurt(self) -> bool:
        return self.current <= self.physique

    @property
    def unconscious(self) -> bool:
        return self.current <= 0 and not self.dead

    @property
    def dead(self) -> bool:
        return self.current <= -self.physique * DEATH_FACTOR

    @property
    def state(self) -> str:
        if self.dead:
            return "muerto"
        if self.unconscious:
            return "inconsciente"
        if self.badly_hurt:
            return "malherido"
        return "bien"


def check_health(physique: int, maximum: int) -> None:
    check_range("fisico", physique, 1, MAX_SCORE)
    check_range("maximo", maximum, 1, MAX_HEALTH)


def hurt(health: Health, amount: int) -> Health:
    check_range("cantidad", amount, 1, MAX_HEALTH)
    floor = -health.physique * DEATH_FACTOR
    return Health(health.physique, health.maximum, max(health.current - amount, floor))


def heal(health: Health, amount: int) -> Health:
    check_range("cantidad", amount, 1, MAX_HEALTH)
    if health.dead:
        raise RuleError("mediana.dead")
    return Health(health.physique, health.maximum, min(health.current + amount, health.maximum))


def rest(health: Health, full_comfort: bool = False) -> Health:
    """ "Podemos recuperar 1 PV por noche ... la curación ascenderá a 2 PV por noche" with
    every comfort."""
    return heal(health, 2 if full_comfort else 1)


# -- the combat tracker -------------------------------------------------------------------------

MAX_COMBATANTS = 25


@dataclass(frozen=True)
class Fighter:
    """A combatant and this round's initiative: bonus + 1o3d10 − encumbrance. ``roll`` is
    the test behind ``total`` (None for a fighter stored before the dice were kept)."""

    key: str
    name: str
    bonus: int
    encumbrance: int
    rank: str
    total: int
    roll: Test | None = None


def initiative_roll(rng: random.Random, bonus: int, encumbrance: int, rank: str) -> Test:
    """Bonus + 1o3d10 (exploding, as a skill test) − armour's encumbrance ("el estorbo hay
    que restarlo a la iniciativa")."""
    check_range("bono", bonus, -MAX_SCORE, MAX_SCORE)
    check_range("estorbo", encumbrance, 0, MAX_SCORE)
    return roll_test(rng, bonus - encumbrance, None, rank)


def initiative_total(rng: random.Random, bonus: int, encumbrance: int, rank: str) -> int:
    return initiative_roll(rng, bonus, encumbrance, rank).total


def _fighter(rng: random.Random, key: str, name: str, bonus: int, encumbrance: int, rank: str) -> Fighter:
    roll = initiative_roll(rng, bonus, encumbrance, rank)
    return Fighter(key, name, bonus, encumbrance, rank, roll.total, roll)


@dataclass(frozen=True)
class Combat:
    """A fight by rounds: "atacarán en orden de mayor a menor según la tirada", and "Una vez
    actúe el último en la iniciativa, se vuelve a tirar esta para ver el orden de actuación
    de la siguiente ronda". ``turn`` is the acting place in :attr:`order`; ``step`` counts
    every move, so a button drawn for one step moves the combat once."""

    fighters: tuple[Fighter, ...] = ()
    round: int = 1
    ended: bool = False
    turn: int = 0
    step: int = 0

    @property
    def order(self) -> tuple[Fighter, ...]:
        return tuple(sorted(self.fighters, key=lambda f: -f.total))

    @property
    def acting(self) -> Fighter | None:
        """Who acts now (None with nobody in the fight, or once it is over)."""
        order = self.order
        if self.ended or not order:
            return None
        return order[min(self.turn, len(order) - 1)]

    def _open(self) -> None:
        if self.ended:
            raise RuleError("mediana.combat.is_over")

    def _check_step(self, step: int) -> None:
        if step != self.step:
            raise RuleError("mediana.combat.already_moved")

    def _keeping(self, fighters: tuple[Fighter, ...], acting: Fighter | None) -> Combat:
        """The combat with ``fighters``, the turn still on whoever was acting."""
        moved = replace(self, fighters=fighters)
        keys = [f.key for f in moved.order]
        turn = keys.index(acting.key) if acting is not None and acting.key in keys else self.turn
        return replace(moved, turn=min(turn, max(len(keys) - 1, 0)))

    def join(
        self, rng: random.Random, key: str, name: str, bonus: int, encumbrance: int, rank: str
    ) -> Combat:
        """One initiative roll per round: joining again would be a second roll this round,
        so it is refused (the next round rolls everyone again). A newcomer takes their place
        by their roll; once the round is under way the turn stays with whoever acts."""
        self._open()
        if any(f.key == key for f in self.fighters):
            raise RuleError("mediana.combat.already_joined")
        if len(self.fighters) >= MAX_COMBATANTS:
            raise RuleError("mediana.combat.full", max=MAX_COMBATANTS)
        fighter = _fighter(rng, key, name, bonus, encumbrance, rank)
        return self._keeping((*self.fighters, fighter), self.acting if self.turn else None)

    def new_round(self, rng: random.Random, round_: int, ranks: Mapping[str, str]) -> Combat:
        """Everyone rolls again. ``ranks`` gives the current rank of those whose state the
        caller knows (a player who became malherido since joining drops to bajo); the others
        keep theirs. ``round_`` is the round the button was drawn for: two presses roll once."""
        self._open()
        if round_ != self.round:
            raise RuleError("mediana.combat.already_moved")
        fighters = tuple(
            _fighter(rng, f.key, f.name, f.bonus, f.encumbrance, ranks.get(f.key, f.rank))
            for f in self.fighters
        )
        return replace(self, fighters=fighters, round=self.round + 1, turn=0, step=self.step + 1)

    def next(self, rng: random.Random, step: int, ranks: Mapping[str, str]) -> Combat:
        """The turn passes down the order; after the last, a new round rolls everyone again.
        ``step`` is the step the button was drawn for: two presses move once."""
        self._open()
        self._check_step(step)
        if not self.fighters:
            raise RuleError("mediana.combat.empty")
        if self.turn + 1 < len(self.fighters):
            return replace(self, turn=self.turn + 1, step=self.step + 1)
        return self.new_round(rng, self.round, ranks)

    def remove(self, key: str) -> Combat:
        self._open()
        if all(f.key != key for f in self.fighters):
            raise RuleError("mediana.unknown_combatant")
        acting = self.acting
        following = acting
        if acting is not None and acting.key == key:
            rest = [f for f in self.order if f.key != key]
            following = rest[self.turn] if self.turn < len(rest) else None
        stepped = replace(self, step=self.step + 1)
        return stepped._keeping(tuple(f for f in self.fighters if f.key != key), following)

    def finish(self) -> Combat:
        self._open()
        return replace(self, ended=True, step=self.step + 1)


def _fighter_data(f: Fighter) -> dict[str, Any]:
    data: dict[str, Any] = {
        "key": f.key,
        "name": f.name,
        "bonus": f.bonus,
        "encumbrance": f.encumbrance,
        "rank": f.rank,
        "total": f.total,
    }
    if f.roll is not None:
        data["roll"] = roll_to_data(f.roll)
    return data


def combat_to_data(combat: Combat) -> dict[str, Any]:
    return {
        "combatants": [_fighter_data(f) for f in combat.fighters],
        "round": combat.round,
        "ended": combat.ended,
        "turn": combat.turn,
        "step": combat.step,
    }


def combat_from_data(data: dict[str, Any]) -> Combat:
    """Reads what :func:`combat_to_data` writes, and the shape stored before the turn and
    the dice were kept (no ``turn``, ``step`` or ``roll``)."""
    fighters = tuple(
        Fighter(
            c["key"],
            c["name"],
            c["bonus"],
            c["encumbrance"],
            c["rank"],
            c["total"],
            roll_from_data(c["roll"]) if "roll" in c else None,
        )
        for c in data["combatants"]
    )
    return Combat(fighters, data["round"], data["ended"], data.get("turn", 0), data.get("step", 0))
