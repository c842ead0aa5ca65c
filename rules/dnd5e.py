"""D&D 5e (SRD 5.2, "Cómo jugar"): d20 tests, attacks and criticals, heroic inspiration,
initiative. Quotes from ``../shared/reglas/dnd5e-srd52.txt``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import d20.diceast as ast

from rules.dice import Die, Mark
from rules.dnd5e_conditions import EXHAUSTION, MAX_EXHAUSTION, Affliction, affliction
from rules.dnd5e_damage import (
    DeathSave,
    Fate,
    HitPoints,
    Member,
    check_dying,
    death_save,
    hit_points,
    members_of,
)
from rules.errors import RuleError, check_range
from rules.expression import ExpressionRoll, check_tree, parse, roll_tree

ABILITIES = ("fuerza", "destreza", "constitucion", "inteligencia", "sabiduria", "carisma")
# Tabla de Habilidades: each skill and the ability it most often uses.
SKILLS = {
    "acrobacias": "destreza",
    "atletismo": "fuerza",
    "conocimiento_arcano": "inteligencia",
    "engano": "carisma",
    "historia": "inteligencia",
    "interpretacion": "carisma",
    "intimidacion": "carisma",
    "investigacion": "inteligencia",
    "juego_de_manos": "destreza",
    "medicina": "sabiduria",
    "naturaleza": "inteligencia",
    "percepcion": "sabiduria",
    "perspicacia": "sabiduria",
    "persuasion": "carisma",
    "religion": "inteligencia",
    "sigilo": "destreza",
    "supervivencia": "sabiduria",
    "trato_con_animales": "sabiduria",
}
# Clase de Dificultad: "Muy fácil 5 ... Casi imposible 30".
DCS = {"muy_facil": 5, "facil": 10, "media": 15, "dificil": 20, "muy_dificil": 25, "casi_imposible": 30}
# Cobertura: +2 (media), +5 (tres cuartos); completa: "No puede ser un objetivo directo".
COVER = {"ninguna": 0, "media": 2, "tres_cuartos": 5}
FULL_COVER = "completa"
MAX_MODIFIER = 30
MAX_TARGET = 50
# The proficiency table's last level (and challenge rating).
MAX_LEVEL = 30
# Challenge ratings as stat blocks write them: "0", "1/8", "1/4", "1/2", then "1" to "30".
CHALLENGE_RATINGS = ("0", "1/8", "1/4", "1/2", *(str(n) for n in range(1, MAX_LEVEL + 1)))
# The most identical monsters one initiative roll stands for.
MAX_GROUP = 20
INSPIRATION_CAP = 1


class Mode(StrEnum):
    NORMAL = "normal"
    ADVANTAGE = "ventaja"
    DISADVANTAGE = "desventaja"


def mode(advantage: bool, disadvantage: bool) -> Mode:
    """ "Si las circunstancias causan que una tirada tenga tanto Ventaja como Desventaja, la
    tirada no tiene ninguna de ellas". Several sources of one kind still mean two d20."""
    if advantage == disadvantage:
        return Mode.NORMAL
    return Mode.ADVANTAGE if advantage else Mode.DISADVANTAGE


def ability_modifier(score: int) -> int:
    """Modificadores por característica: 1 → −5, 10–11 → +0, 30 → +10 (a sheet's scores)."""
    check_range("puntuacion", score, 1, 30)
    return (score - 10) // 2


def proficiency_bonus(level_or_cr: int) -> int:
    """Bono de competencia by level or CR: up to 4 → +2, then +1 every four, 29–30 → +9."""
    if not 0 <= level_or_cr <= MAX_LEVEL:
        raise RuleError("dnd.bad_level", level=level_or_cr)
    return 2 + max(level_or_cr - 1, 0) // 4


def challenge_level(rating: str) -> int:
    """A challenge rating as the proficiency table reads it: the fractions are below 1,
    where the bonus is +2 as for CR 0 and 1."""
    if rating not in CHALLENGE_RATINGS:
        raise RuleError("dnd.bad_challenge", rating=rating)
    return int(rating) if "/" not in rating else 0


@dataclass(frozen=True)
class D20Test:
    """A d20 test: the d20s (two with advantage or disadvantage), the one that counts,
    the modifiers, and the target (a DC, or an AC for attacks) when given.

    ``rolls`` holds each d20's history; a die rerolled by inspiration keeps its old value.
    """

    rolls: tuple[tuple[int, ...], ...]
    mode: Mode
    modifier: int
    target: int | None = None
    attack: bool = False
    inspired: bool = False
    # A condition decides: a hit is a critical (a Paralyzed target up close), or the test
    # fails whatever the die (a Stunned creature's Dexterity save).
    auto_critical: bool = False
    auto_fail: bool = False

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(r[-1] for r in self.rolls)

    @property
    def kept_index(self) -> int:
        faces = self.faces
        if self.mode is Mode.ADVANTAGE:
            return max(range(len(faces)), key=lambda i: (faces[i], -i))
        if self.mode is Mode.DISADVANTAGE:
            return min(range(len(faces)), key=lambda i: (faces[i], i))
        return 0

    @property
    def natural(self) -> int:
        return self.faces[self.kept_index]

    @property
    def total(self) -> int:
        return self.natural + self.modifier

    @property
    def critical(self) -> bool:
        """Only attack rolls: natural 20/1 have no automatic effect on checks or saves. A
        condition can make any hit a critical one."""
        if not self.attack or self.auto_fail:
            return False
        if self.natural == 20:
            return True
        return (
            self.auto_critical and not self.fumble and self.target is not None and self.total >= self.target
        )

    @property
    def fumble(self) -> bool:
        return self.attack and self.natural == 1

    @property
    def success(self) -> bool | None:
        if self.target is None:
            return None
        if self.auto_fail:
            return False
        if self.critical:
            return True
        if self.fumble:
            return False
        return self.total >= self.target

    @property
    def dice(self) -> tuple[Die, ...]:
        """Every d20 with its marks: the one that counts, the one dropped, the rerolled."""
        shown: list[Die] = []
        for index, history in enumerate(self.rolls):
            shown += [Die(20, v, frozenset({Mark.REROLLED})) for v in history[:-1]]
            marks: set[Mark] = set() if index == self.kept_index else {Mark.DROPPED}
            if self.critical and index == self.kept_index:
                marks.add(Mark.CRITICAL)
            if self.fumble and index == self.kept_index:
                marks.add(Mark.FUMBLE)
            shown.append(Die(20, history[-1], frozenset(marks)))
        return tuple(shown)


def total_modifier(
    modifier: int, proficiency: int = 0, proficient: bool = False, expertise: bool = False, bonus: int = 0
) -> int:
    """Ability modifier + proficiency (doubled by expertise, "solo puede ser multiplicado
    una vez", and never added twice) + circumstantial bonus."""
    check_range("modificador", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    check_range("bonificacion", bonus, -MAX_MODIFIER, MAX_MODIFIER)
    if expertise and not proficient:
        raise RuleError("dnd.expertise_needs_proficiency")
    return modifier + (proficiency * (2 if expertise else 1) if proficient else 0) + bonus


def save_cover(ability: str, cover: str) -> int:
    """Cover's bonus to a saving throw: "Bonificador de +2 a la CA y a las tiradas de
    salvación de Destreza" (+5 for three quarters), so only Dexterity saves get it; full
    cover means the target "No puede ser un objetivo directo"."""
    if ability not in ABILITIES:
        raise RuleError("dnd.bad_ability", ability=ability)
    if cover == FULL_COVER:
        raise RuleError("dnd.full_cover")
    if cover not in COVER:
        raise RuleError("dnd.bad_cover", cover=cover)
    if COVER[cover] and ability != "destreza":
        raise RuleError("dnd.cover_dexterity_only")
    return COVER[cover]


def tool_check(
    skill_proficient: bool, tool_proficient: bool, advantage: bool = False, disadvantage: bool = False
) -> tuple[bool, Mode]:
    """A check with a tool: "Si también tienes Competencia en la habilidad que se usa en esa
    prueba, también tienes Ventaja". Returns whether proficiency is added (once, from
    either) and the check's mode, where that advantage still cancels with disadvantage."""
    both = skill_proficient and tool_proficient
    return skill_proficient or tool_proficient, mode(advantage or both, disadvantage)


def roll_d20(rng: random.Random, the_mode: Mode) -> tuple[tuple[int, ...], ...]:
    count = 1 if the_mode is Mode.NORMAL else 2
    return tuple((rng.randint(1, 20),) for _ in range(count))


def roll_test(
    rng: random.Random, modifier: int, the_mode: Mode = Mode.NORMAL, dc: int | None = None
) -> D20Test:
    if dc is not None:
        check_range("cd", dc, 1, MAX_TARGET)
    return D20Test(roll_d20(rng, the_mode), the_mode, modifier, dc)


def roll_attack(
    rng: random.Random,
    attack_bonus: int,
    armor_class: int,
    the_mode: Mode = Mode.NORMAL,
    cover: str = "ninguna",
) -> D20Test:
    """An attack roll against AC + cover. A natural 20 always hits and is a critical; a
    natural 1 always misses. Full cover: the target cannot be attacked directly."""
    check_range("bonificador", attack_bonus, -MAX_MODIFIER, MAX_MODIFIER)
    check_range("ca", armor_class, 1, MAX_TARGET)
    if cover == FULL_COVER:
        raise RuleError("dnd.full_cover")
    if cover not in COVER:
        raise RuleError("dnd.bad_cover", cover=cover)
    return D20Test(roll_d20(rng, the_mode), the_mode, attack_bonus, armor_class + COVER[cover], attack=True)


def use_inspiration(test: D20Test, rng: random.Random, index: int = 0) -> D20Test:
    """Heroic inspiration rerolls one d20 — with advantage or disadvantage "solo puedes
    volver a lanzar o reemplazar un dado, no ambos. Tú eliges cuál"."""
    if test.inspired:
        raise RuleError("dnd.already_inspired")
    if not 0 <= index < len(test.rolls):
        raise RuleError("dnd.bad_die", die=index + 1)
    rolls = list(test.rolls)
    rolls[index] = (*rolls[index], rng.randint(1, 20))
    return replace(test, rolls=tuple(rolls), inspired=True)


def roll_to_data(test: D20Test) -> dict[str, Any]:
    """The cog's stored shape; what a condition decided is kept only when it decided."""
    data = {
        "rolls": [list(r) for r in test.rolls],
        "mode": test.mode.value,
        "modifier": test.modifier,
        "target": test.target,
        "attack": test.attack,
        "inspired": test.inspired,
    }
    forced = {"auto_critical": test.auto_critical, "auto_fail": test.auto_fail}
    return data | {key: True for key, value in forced.items() if value}


def roll_from_data(data: dict[str, Any]) -> D20Test:
    """Reads what :func:`roll_to_data` writes, the shape the cog stored before it."""
    return D20Test(
        tuple(tuple(r) for r in data["rolls"]),
        Mode(data["mode"]),
        data["modifier"],
        data["target"],
        data["attack"],
        data["inspired"],
        data.get("auto_critical", False),
        data.get("auto_fail", False),
    )


# -- damage ---------------------------------------------------------------------------------


def critical_tree(expression: str) -> ast.Expression:
    """A critical hit's damage: "damage dice rolled twice, modifiers once". A plain dice
    term doubles its count (``2d6+3`` becomes ``4d6+3``); a term with operations is rolled
    twice as its own group, so ``4d6kh3`` becomes ``(4d6kh3 + 4d6kh3)``, never ``8d6kh3``
    (which would keep 3 of 8)."""
    tree = _doubled(copy.deepcopy(parse(expression)))
    check_tree(tree)
    return tree


def _doubled(node: Any) -> Any:
    """``node`` with every dice term rolled twice (in place, returning the node to put in
    its parent's slot)."""
    if isinstance(node, ast.OperatedDice):
        return ast.Parenthetical(ast.BinOp(node, "+", copy.deepcopy(node)))
    if isinstance(node, ast.Dice):
        node.num *= 2
        return node
    for index, child in enumerate(node.children):
        replacement = _doubled(child)
        if replacement is not child:
            node.set_child(index, replacement)
    return node


def roll_damage(expression: str, rng: random.Random, critical: bool = False) -> ExpressionRoll:
    tree = critical_tree(expression) if critical else parse(expression)
    return roll_tree(tree, rng, expression)


# A damage die as drawn: its size and its face, in the order the roll drew them.
Draw = tuple[int, int]


class _Recorder(random.Random):
    """Draws from ``rng`` and notes each (size and face), in order; replaying ``draws``
    gives the same faces again except the ``fresh`` one, drawn anew ("reroll any die")."""

    def __init__(self, rng: random.Random, draws: Sequence[Draw] = (), fresh: int | None = None) -> None:
        super().__init__(0)
        self.rng, self.draws, self.fresh = rng, tuple(draws), fresh
        self.noted: list[Draw] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        index = len(self.noted)
        kept = self.draws[index] if index < len(self.draws) and index != self.fresh else None
        if kept is not None and stop is None and kept[0] == start:
            value = kept[1] - 1
        else:
            value = self.rng.randrange(start, stop, step)
        self.noted.append((start if stop is None else stop - start, value + 1))
        return value


def roll_damage_dice(
    expression: str, rng: random.Random, critical: bool = False
) -> tuple[ExpressionRoll, tuple[Draw, ...]]:
    """:func:`roll_damage`, with every die it drew (for Heroic Inspiration to reroll one)."""
    recorder = _Recorder(rng)
    return roll_damage(expression, recorder, critical), tuple(recorder.noted)


def reroll_damage_die(
    expression: str, rng: random.Random, critical: bool, draws: Sequence[Draw], index: int
) -> tuple[ExpressionRoll, tuple[Draw, ...]]:
    """The same damage with one die rolled again: Heroic Inspiration "can reroll any die
    immediately after rolling it, and you must use the new roll". A die that set off more
    dice (an explosion) may now set off fewer, or more, drawn anew."""
    if not 0 <= index < len(draws):
        raise RuleError("dnd.bad_die", die=index + 1)
    recorder = _Recorder(rng, draws, index)
    return roll_damage(expression, recorder, critical), tuple(recorder.noted)


def roll_death_save(rng: random.Random, fate: Fate, hp: HitPoints, turn: int | None = None) -> DeathSave:
    """A death saving throw: one d20, no modifier (``rules.dnd5e_damage.death_save``)."""
    return death_save(fate, hp, rng.randint(1, 20), turn)


# -- initiative --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    """One character, or a group of identical monsters sharing one roll. Its hit points
    and AC are a sheet's (``sheet_id``), else kept here: ``hp`` one per member of a group
    (empty until the GM gives them) and ``ac``."""

    key: str
    name: str
    monster: bool
    initiative: int
    count: int = 1
    user_id: int | None = None
    sheet_id: int | None = None
    ac: int | None = None
    hp: tuple[HitPoints, ...] = ()

    @property
    def members(self) -> tuple[Member, ...]:
        """Each creature it stands for: "Goblin 1", "Goblin 2"… (``members_of``)."""
        return members_of(self.key, self.name, self.count, self.hp)


def order(combatants: Sequence[Combatant]) -> tuple[Combatant, ...]:
    """Highest initiative first. Ties keep the order the table gave them (the list's own
    order): the GM and players settle ties by reordering, never the dice."""
    return tuple(sorted(combatants, key=lambda c: -c.initiative))


def move_up(combatants: Sequence[Combatant], key: str) -> tuple[Combatant, ...]:
    """Swap a combatant with the one just ahead of it, which must share its initiative."""
    ordered = list(order(combatants))
    index = next((i for i, c in enumerate(ordered) if c.key == key), None)
    if index is None:
        raise RuleError("dnd.unknown_combatant")
    if index == 0 or ordered[index - 1].initiative != ordered[index].initiative:
        raise RuleError("dnd.not_tied")
    ordered[index - 1], ordered[index] = ordered[index], ordered[index - 1]
    return tuple(ordered)


# -- the initiative tracker ----------------------------------------------------------------------

MAX_COMBATANTS = 25
# Damage applications a tracker remembers (to refuse a second press of the same one).
MAX_APPLIED = 500


@dataclass(frozen=True)
class Entry:
    """A combatant on the tracker with the d20 test that placed it. ``settled`` is False
    only just after the roll, while Heroic Inspiration may still reroll it."""

    combatant: Combatant
    roll: D20Test
    settled: bool = False


def initiative_entry(
    rng: random.Random,
    key: str,
    name: str,
    modifier: int,
    the_mode: Mode = Mode.NORMAL,
    *,
    monster: bool = False,
    count: int = 1,
    user_id: int | None = None,
    sheet_id: int | None = None,
    ac: int | None = None,
    hp: int | None = None,
) -> Entry:
    """A Dexterity check; a group of identical monsters rolls once ("una única tirada"),
    and each member has its own hit points (``hp`` each, when given)."""
    check_range("modificador", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    check_range("cantidad", count, 1, MAX_GROUP)
    if ac is not None:
        check_range("ca", ac, 1, MAX_TARGET)
    hps = (hit_points(hp, hp),) * count if hp is not None else ()
    test = roll_test(rng, modifier, the_mode)
    combatant = Combatant(key, name, monster, test.total, count, user_id, sheet_id, ac, hps)
    return Entry(combatant, test)


@dataclass(frozen=True)
class Tracker:
    """A combat's initiative: who is in, in which order, whose turn, which round.

    ``entries`` keep the table's order for ties; ``turn`` indexes :attr:`order`. Every
    change returns a new tracker; ``step`` counts turn changes so a stale button is refused;
    ``applied`` notes each damage roll and creature it reached, so it reaches it once;
    ``fates`` each creature's death saving throws, stability or death, and ``afflictions``
    the conditions the GM set on it (both by its target id)."""

    entries: tuple[Entry, ...] = ()
    started: bool = False
    round: int = 1
    turn: int = 0
    step: int = 0
    ended: bool = False
    applied: tuple[str, ...] = ()
    fates: tuple[tuple[str, Fate], ...] = ()
    afflictions: tuple[tuple[str, tuple[Affliction, ...]], ...] = ()

    @property
    def order(self) -> tuple[Combatant, ...]:
        return order([e.combatant for e in self.entries])

    @property
    def acting(self) -> Combatant | None:
        """Who acts now (None before the start, after the end, or with nobody in)."""
        ordered = self.order
        if not self.started or self.ended or not ordered:
            return None
        return ordered[self.turn % len(ordered)]

    def entry(self, key: str) -> Entry:
        found = next((e for e in self.entries if e.combatant.key == key), None)
        if found is None:
            raise RuleError("dnd.unknown_combatant")
        return found

    def _open(self) -> None:
        if self.ended:
            raise RuleError("dnd.tracker.is_over")

    def _placed(self, entries: Sequence[Entry], acting: str | None) -> Tracker:
        """Sort ``entries`` by initiative and keep the marker on ``acting``."""
        by_key = {e.combatant.key: e for e in entries}
        ordered = tuple(by_key[c.key] for c in order([e.combatant for e in entries]))
        turn = next((i for i, e in enumerate(ordered) if e.combatant.key == acting), 0)
        return replace(self, entries=ordered, turn=turn if self.started else 0)

    def join(self, entry: Entry) -> Tracker:
        """Join once: "El orden de Iniciativa permanece invariable de una ronda a otra", so a
        second roll is refused (the GM removes a wrong entry and it joins again). A newcomer
        to a started combat goes in by initiative without moving the marker."""
        self._open()
        if any(e.combatant.key == entry.combatant.key for e in self.entries):
            raise RuleError("dnd.tracker.already_joined")
        if len(self.entries) >= MAX_COMBATANTS:
            raise RuleError("dnd.tracker.full", max=MAX_COMBATANTS)
        acting = self.acting
        return self._placed((*self.entries, replace(entry, settled=False)), acting.key if acting else None)

    def inspire(self, key: str, rng: random.Random, index: int = 0) -> Tracker:
        """Heroic Inspiration on the initiative roll, like on any d20 test: once, right after
        rolling (before the combat starts, or before the next turn for a newcomer)."""
        self._open()
        entry = self.entry(key)
        if entry.settled:
            raise RuleError("dnd.tracker.inspiration_too_late")
        test = use_inspiration(entry.roll, rng, index)
        updated = replace(entry, roll=test, combatant=replace(entry.combatant, initiative=test.total))
        acting = self.acting
        entries = tuple(updated if e.combatant.key == key else e for e in self.entries)
        return self._placed(entries, acting.key if acting else None)

    def start(self) -> Tracker:
        self._open()
        if self.started:
            raise RuleError("dnd.tracker.already_started")
        if not self.entries:
            raise RuleError("dnd.tracker.empty")
        settled = tuple(replace(e, settled=True) for e in self.entries)
        return replace(self, started=True)._placed(settled, None)

    def next(self, step: int) -> Tracker:
        """The marker moves one place; after the last, a new round starts at the top.
        ``step`` is the one the pressed button was drawn for: two presses move once."""
        self._open()
        if step != self.step:
            raise RuleError("dnd.tracker.already_moved")
        if not self.started or not self.entries:
            raise RuleError("dnd.tracker.not_started")
        turn, round_ = self.turn + 1, self.round
        if turn >= len(self.entries):
            turn, round_ = 0, round_ + 1
        settled = tuple(replace(e, settled=True) for e in self.entries)
        return replace(self, entries=settled, turn=turn, round=round_, step=step + 1)

    def remove(self, key: str) -> Tracker:
        """Take a combatant out. Removing the one acting passes the turn to the next; if it
        was the last of the order, round 2 (or the next) starts at the top."""
        self._open()
        ordered = [e.combatant.key for e in self.entries]
        if key not in ordered:
            raise RuleError("dnd.unknown_combatant")
        index = ordered.index(key)
        remaining = tuple(e for e in self.entries if e.combatant.key != key)
        fates = tuple((t, f) for t, f in self.fates if t.split(".")[0] != key)
        afflictions = tuple((t, a) for t, a in self.afflictions if t.split(".")[0] != key)
        if not self.started:
            return replace(self, entries=remaining, fates=fates, afflictions=afflictions)
        turn, round_ = self.turn - (1 if index < self.turn else 0), self.round
        if remaining and turn >= len(remaining):
            turn, round_ = 0, round_ + 1
        return replace(
            self,
            entries=remaining,
            turn=turn if remaining else 0,
            round=round_,
            step=self.step + 1,
            fates=fates,
            afflictions=afflictions,
        )

    def move_up(self, key: str) -> Tracker:
        """Settle a tie: swap with the one just ahead, which must share the initiative."""
        self._open()
        moved = move_up([e.combatant for e in self.entries], key)
        by_key = {e.combatant.key: e for e in self.entries}
        acting = self.acting
        entries = tuple(by_key[c.key] for c in moved)
        turn = next((i for i, c in enumerate(moved) if acting and c.key == acting.key), 0)
        return replace(self, entries=entries, turn=turn if self.started else 0)

    def finish(self) -> Tracker:
        self._open()
        return replace(self, ended=True)

    def member(self, target: str) -> tuple[Combatant, Member]:
        """The creature ``target`` names ("m7.2" for Goblin 2), and its combatant."""
        for entry in self.entries:
            for found in entry.combatant.members:
                if found.target == target:
                    return entry.combatant, found
        raise RuleError("dnd.unknown_combatant")

    def hurt(self, target: str, hp: HitPoints, mark: str | None = None, *, unlink: bool = False) -> Tracker:
        """``target``'s hit points become ``hp`` (a sheet's live in its pools: only ``mark``,
        the roll applied, is kept, once; ``unlink``: its sheet is gone, the tracker keeps
        them now). A group member's first ones give the others that maximum, full."""
        self._open()
        combatant, found = self.member(target)
        tracker = self.noted(mark) if mark else self
        if combatant.sheet_id is not None and not unlink:
            return tracker
        old = combatant.hp or (HitPoints(hp.maximum, hp.maximum),) * combatant.count
        hps = tuple(hp if i == found.index else kept for i, kept in enumerate(old))
        entries = tuple(
            replace(e, combatant=replace(e.combatant, hp=hps, sheet_id=None))
            if e.combatant.key == combatant.key
            else e
            for e in self.entries
        )
        return replace(tracker, entries=entries)

    def fate(self, target: str) -> Fate:
        """A creature's death saving throws, stability or death (nothing noted: none)."""
        return next((f for t, f in self.fates if t == target), Fate())

    def with_fate(self, target: str, fate: Fate) -> Tracker:
        """The tracker with ``target``'s fate; one with nothing to tell is not kept."""
        kept = tuple((t, f) for t, f in self.fates if t != target)
        return replace(self, fates=kept if fate == Fate() else (*kept, (target, fate)))

    def conditions(self, target: str) -> tuple[Affliction, ...]:
        """The conditions on ``target`` this round (one whose rounds ran out is gone)."""
        kept = next((a for t, a in self.afflictions if t == target), ())
        return tuple(a for a in kept if a.active(self.round))

    def afflict(self, target: str, condition: str, rounds: int | None) -> Tracker:
        """Set a condition on ``target`` (again: its new duration replaces the old one).
        Exhaustion adds a level each time ("This condition is cumulative"); the sixth kills."""
        self._open()
        self.member(target)
        new = affliction(condition, self.round, rounds)
        had = next((a for a in self.conditions(target) if a.condition == condition), None)
        if condition == EXHAUSTION and had is not None:
            new = replace(new, level=min(had.level + 1, MAX_EXHAUSTION))
        kept = tuple(a for a in self.conditions(target) if a.condition != condition)
        tracker = self._with_conditions(target, (*kept, new))
        if new.condition == EXHAUSTION and new.level == MAX_EXHAUSTION:
            tracker = tracker.with_fate(target, replace(self.fate(target), dead=True))
        return tracker

    def relieve(self, target: str, condition: str) -> Tracker:
        """Clear a condition from ``target``; refused when it does not have it. Exhaustion
        loses one level ("Finishing a Long Rest removes 1 of your Exhaustion levels")."""
        self._open()
        self.member(target)
        kept = self.conditions(target)
        had = next((a for a in kept if a.condition == condition), None)
        if had is None:
            raise RuleError("dnd.condition.not_there", condition=condition)
        others = tuple(a for a in kept if a.condition != condition)
        if condition == EXHAUSTION and had.level > 1:
            return self._with_conditions(target, (*others, replace(had, level=had.level - 1)))
        return self._with_conditions(target, others)

    def exhaustion(self, target: str) -> int:
        """``target``'s Exhaustion level (0 without it)."""
        return next((a.level for a in self.conditions(target) if a.condition == EXHAUSTION), 0)

    def _with_conditions(self, target: str, kept: tuple[Affliction, ...]) -> Tracker:
        others = tuple((t, a) for t, a in self.afflictions if t != target)
        return replace(self, afflictions=(*others, (target, kept)) if kept else others)

    def death_save(self, target: str, hp: HitPoints, rng: random.Random) -> tuple[Tracker, DeathSave]:
        """A death saving throw for ``target`` at ``hp``: one a turn, noted in its fate."""
        self._open()
        self.member(target)
        fate = self.fate(target)
        check_dying(fate, hp)
        if fate.saved_at is not None and fate.saved_at == self.step:
            raise RuleError("dnd.death.once_a_turn")
        saved = roll_death_save(rng, fate, hp, self.step)
        return self.with_fate(target, saved.after), saved

    def noted(self, mark: str) -> Tracker:
        """Remember that ``mark`` (a roll and a creature) was applied, refusing it twice."""
        if mark in self.applied:
            raise RuleError("dnd.hp.already_applied")
        return replace(self, applied=(*self.applied, mark)[-MAX_APPLIED:])


def _entry_data(entry: Entry) -> dict[str, Any]:
    c = entry.combatant
    return {
        "key": c.key,
        "name": c.name,
        "monster": c.monster,
        "initiative": c.initiative,
        "count": c.count,
        "user": c.user_id,
        "sheet": c.sheet_id,
        "ac": c.ac,
        "hp": [[h.current, h.maximum, h.temporary] for h in c.hp],
        "rolls": [list(r) for r in entry.roll.rolls],
        "mode": entry.roll.mode.value,
        "inspired": entry.roll.inspired,
        "settled": entry.settled,
    }


def _entry_from(data: dict[str, Any], started: bool) -> Entry:
    """Older trackers stored only each d20's final face and no modifier: the modifier is
    what the initiative adds to the kept die, and an old entry counts as settled once the
    combat started. Entries from before hit points have no sheet, AC or hit points."""
    the_mode = Mode(data.get("mode", Mode.NORMAL.value))
    rolls = tuple(
        tuple(r) if isinstance(r, list) else (r,) for r in data.get("rolls") or [[data["initiative"]]]
    )
    kept = D20Test(rolls, the_mode, 0).natural
    test = D20Test(rolls, the_mode, data["initiative"] - kept, inspired=data.get("inspired", False))
    combatant = Combatant(
        data["key"],
        data["name"],
        data["monster"],
        data["initiative"],
        data["count"],
        data.get("user"),
        data.get("sheet"),
        data.get("ac"),
        tuple(HitPoints(*h) for h in data.get("hp", [])),
    )
    return Entry(combatant, test, data.get("settled", started))


def tracker_to_data(tracker: Tracker) -> dict[str, Any]:
    return {
        "combatants": [_entry_data(e) for e in tracker.entries],
        "started": tracker.started,
        "round": tracker.round,
        "turn": tracker.turn,
        "step": tracker.step,
        "ended": tracker.ended,
        "applied": list(tracker.applied),
        "fates": {target: _fate_data(fate) for target, fate in tracker.fates},
        "conditions": {
            target: [[a.condition, a.until, a.level] for a in kept] for target, kept in tracker.afflictions
        },
    }


def _fate_data(fate: Fate) -> list[Any]:
    return [fate.successes, fate.failures, fate.stable, fate.dead, fate.saved_at]


def tracker_from_data(data: dict[str, Any]) -> Tracker:
    """Reads what ``tracker_to_data`` writes and the dicts the cog stored before it."""
    return Tracker(
        entries=tuple(_entry_from(c, data["started"]) for c in data["combatants"]),
        started=data["started"],
        round=data["round"],
        turn=data["turn"],
        step=data["step"],
        ended=data["ended"],
        applied=tuple(data.get("applied", [])),
        fates=tuple((target, Fate(*fate)) for target, fate in data.get("fates", {}).items()),
        afflictions=tuple(
            (target, tuple(Affliction(*a) for a in kept))
            for target, kept in data.get("conditions", {}).items()
        ),
    )
