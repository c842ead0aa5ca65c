"""Exact odds for every system: what a player wants to know before deciding to roll.

Every figure is exact. ``exact=True`` gives ``fractions.Fraction``; the default gives
floats computed by the same algorithm (for Donjon, the same dynamic programme over
floats instead of integers, which is what makes 40 against 40 dice fast).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import d20.diceast as ast
import numpy as np

from rules import dnd5e, dune, mediana
from rules.errors import RuleError
from rules.expression import parse

Number = Fraction | float
MAX_POOL = 40
TIE_ROUNDS = 40


def _out(value: Fraction, exact: bool) -> Number:
    return value if exact else float(value)


def check_pool(name: str, count: int) -> None:
    if not 0 <= count <= MAX_POOL:
        raise RuleError("odds.pool_size", name=name, count=count, max=MAX_POOL)


# -- Donjon ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DonjonOdds:
    """P(winner, successes) for pools of ``n`` ("a") and ``m`` ("b") dice.

    Full ties are settled by one added die a side, repeated; ``tail`` is the exact mass of
    the games still tied after ``TIE_ROUNDS`` extra rounds, which the table leaves out.
    """

    outcomes: Mapping[tuple[str, int], Number]
    tail: Number
    full_tie: Number

    def win(self, side: str) -> Number:
        return sum((p for (s, _), p in self.outcomes.items() if s == side), start=type(self.tail)(0))

    def successes(self, side: str) -> dict[int, Number]:
        return {k: p for (s, k), p in sorted(self.outcomes.items()) if s == side}

    def expected(self, side: str) -> Number:
        return sum((k * p for (s, k), p in self.outcomes.items() if s == side), start=type(self.tail)(0))


def _binomials(n: int, dtype: Any) -> np.ndarray:
    table = np.zeros((n + 1, n + 1), dtype=dtype)
    for r in range(n + 1):
        for k in range(r + 1):
            table[r, k] = math.comb(r, k)
    return table


def _placement(n: int, binom: np.ndarray, dtype: Any) -> np.ndarray:
    """P[a2, a] = ways to place (a2 - a) of the n - a dice still unplaced."""
    matrix = np.zeros((n + 1, n + 1), dtype=dtype)
    for a in range(n + 1):
        for a2 in range(a, n + 1):
            matrix[a2, a] = binom[n - a, a2 - a]
    return matrix


def _donjon_counts(n: int, m: int, sides: int, dtype: Any) -> tuple[np.ndarray, np.ndarray, Any]:
    """Count the labelled assignments of faces to both pools by who wins with how many
    successes, scanning the faces from the highest down.

    States after the faces above ``v``: ``tied[T]`` — both pools have T dice placed, in
    equal numbers on every face so far; ``win_a[a, b]`` — A has won at some face, has a
    dice placed (every one a success: the tied pairs, and all it placed since, which beat
    anything B has left) and B has b placed and has placed nothing since. At each face,
    B placing its first die there ends A's count: A's remaining dice go anywhere at or
    below the face (v^(n-a) ways) and B's remaining have their maximum there.
    """
    binom = _binomials(max(n, m), dtype)
    place_a, place_b = _placement(n, binom, dtype), _placement(m, binom, dtype)
    zero = dtype(0) if dtype is not object else 0
    tied = np.zeros(min(n, m) + 1, dtype=dtype)
    tied[0] = 1
    win_a = np.zeros((n + 1, m + 1), dtype=dtype)
    win_b = np.zeros((n + 1, m + 1), dtype=dtype)
    result_a = np.full(n + 1, zero, dtype=dtype)
    result_b = np.full(m + 1, zero, dtype=dtype)
    rest_a, rest_b = np.arange(n, -1, -1), np.arange(m, -1, -1)
    for v in range(sides, 0, -1):
        # Ends: the losing side places its first die at v.
        power = np.array([v**r for r in range(max(n, m) + 1)], dtype=dtype)
        first = np.array([v**r - (v - 1) ** r for r in range(max(n, m) + 1)], dtype=dtype)
        result_a += (win_a @ first[rest_b]) * power[rest_a]
        result_b += (win_b.T @ first[rest_a]) * power[rest_b]
        # Winners keep placing while the loser places nothing.
        new_a = place_a @ win_a
        new_b = win_b @ place_b.T
        new_tied = np.zeros_like(tied)
        for t in range(len(tied)):
            weight = tied[t]
            if not weight:
                continue
            ra, rb = n - t, m - t
            ways = weight * np.outer(binom[ra, : ra + 1], binom[rb, : rb + 1])
            k = min(ra, rb) + 1
            new_tied[t : t + k] += np.diagonal(ways)[:k]
            new_a[t:, t:] += np.tril(ways, -1)
            new_b[t:, t:] += np.triu(ways, 1)
        tied, win_a, win_b = new_tied, new_a, new_b
    result_a[n] += win_a[n, m]
    result_b[m] += win_b[n, m]
    full_tie = tied[n] if n == m else zero
    return result_a, result_b, full_tie


@functools.lru_cache(maxsize=512)
def donjon_distribution(n: int, m: int, sides: int = 20, exact: bool = False) -> DonjonOdds:
    """The exact distribution of (winner, successes) under ``rules.donjon.compare`` with
    the full-tie extension (one added die a side per round; ties keep counting)."""
    check_pool("a", n)
    check_pool("b", m)
    if not 2 <= sides <= 100:
        raise RuleError("odds.sides", sides=sides)
    total = sides ** (n + m)
    if exact:
        a, b, tie = _donjon_counts(n, m, sides, object)
        scale: Any = lambda x: Fraction(int(x), total)  # noqa: E731
    else:
        a, b, tie = _donjon_counts(n, m, sides, np.float64)
        scale = lambda x: float(x) / total  # noqa: E731
    outcomes: dict[tuple[str, int], Number] = {}
    for side, counts in (("a", a), ("b", b)):
        for k, count in enumerate(counts):
            if count:
                outcomes[side, k] = scale(count)
    full_tie = scale(tie)
    tail = full_tie
    if tie:
        one = Fraction(1) if exact else 1.0
        stay = one / sides
        win = (one - stay) / 2
        for rounds in range(TIE_ROUNDS + 1):
            mass = full_tie * stay**rounds * win
            for side in ("a", "b"):
                key = (side, n + rounds + 1)
                outcomes[key] = outcomes.get(key, 0 * one) + mass
        tail = full_tie * stay ** (TIE_ROUNDS + 1)
    return DonjonOdds(outcomes, tail, full_tie)


# -- Dune ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DuneOdds:
    p_pass: Number
    successes: Mapping[int, Number]
    momentum: Mapping[int, Number]
    p_complication: Number

    @property
    def expected_momentum(self) -> Number:
        return sum((k * p for k, p in self.momentum.items()), start=0 * self.p_pass)


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: Counter[int] = Counter()
    for (x, p), (y, q) in itertools.product(a.items(), b.items()):
        out[x + y] += p * q
    return dict(out)


@functools.lru_cache(maxsize=2048)
def dune_distribution(
    target: int,
    dice: int = 2,
    focus_skill: int | None = None,
    complication_range: int = 1,
    difficulty: int = 1,
    automatic_ones: int = 0,
    exact: bool = False,
) -> DuneOdds:
    """A skill test's odds: P(pass), successes, Impulso generated and P(≥1 complication).
    Dice fixed at 1 by Determinación score 2 and never complicate."""
    dune.check_range("objetivo", target, 1, 2 * dune.MAX_SCORE)
    dune.check_range("dados", dice, 1, dune.MAX_DICE)
    dune.check_range("determinacion", automatic_ones, 0, dice)
    dune.check_range("rango_complicacion", complication_range, 1, dune.MAX_COMPLICATION_RANGE)
    dune.check_range("dificultad", difficulty, 0, dune.MAX_RAISED_DIFFICULTY)
    face = Fraction(1, dune.SIDES)
    one_die: Counter[int] = Counter()
    for value in range(1, dune.SIDES + 1):
        one_die[dune.die_successes(value, target, focus_skill)] += face
    successes: dict[int, Fraction] = {2 * automatic_ones: Fraction(1)}
    for _ in range(dice - automatic_ones):
        successes = _convolve(successes, one_die)
    p_pass = sum((p for k, p in successes.items() if k >= difficulty), start=Fraction(0))
    momentum: Counter[int] = Counter()
    for k, p in successes.items():
        momentum[k - difficulty if k >= difficulty else 0] += p
    clean = Fraction(dune.SIDES - complication_range, dune.SIDES) ** (dice - automatic_ones)
    return DuneOdds(
        _out(p_pass, exact),
        {k: _out(p, exact) for k, p in sorted(successes.items())},
        {k: _out(p, exact) for k, p in sorted(momentum.items())},
        _out(1 - clean, exact),
    )


# -- D&D 5e -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DndOdds:
    p_success: Number | None
    p_critical: Number
    p_fumble: Number
    totals: Mapping[int, Number]
    damage_hit: Number | None = None
    damage_critical: Number | None = None

    @property
    def expected_damage(self) -> Number | None:
        """Per attack: a normal hit's damage when it hits without a 20, a critical's on a 20."""
        if self.damage_hit is None or self.p_success is None or self.damage_critical is None:
            return None
        return (self.p_success - self.p_critical) * self.damage_hit + self.p_critical * self.damage_critical


def _kept_d20(mode: dnd5e.Mode) -> dict[int, Fraction]:
    faces = range(1, 21)
    if mode is dnd5e.Mode.NORMAL:
        return {f: Fraction(1, 20) for f in faces}
    out: Counter[int] = Counter()
    for x, y in itertools.product(faces, faces):
        out[max(x, y) if mode is dnd5e.Mode.ADVANTAGE else min(x, y)] += Fraction(1, 400)
    return dict(out)


@functools.lru_cache(maxsize=2048)
def dnd_distribution(
    modifier: int,
    target: int | None = None,
    mode: str = "normal",
    attack: bool = False,
    damage: str | None = None,
    exact: bool = False,
) -> DndOdds:
    """A d20 test: the totals, P(success) against a DC (or an AC for attacks, where a 20
    always hits and is a critical and a 1 always misses), and an attack's expected damage."""
    dnd5e.check_number("modificador", modifier, -dnd5e.MAX_MODIFIER, dnd5e.MAX_MODIFIER)
    kept = _kept_d20(dnd5e.Mode(mode))
    totals = {face + modifier: p for face, p in kept.items()}
    p_success = None
    if target is not None:
        dnd5e.check_number("objetivo", target, 1, dnd5e.MAX_TARGET)
        if attack:
            p_success = sum(
                (p for f, p in kept.items() if f == 20 or (f != 1 and f + modifier >= target)),
                start=Fraction(0),
            )
        else:
            p_success = sum((p for f, p in kept.items() if f + modifier >= target), start=Fraction(0))
    p_critical = kept[20] if attack else Fraction(0)
    p_fumble = kept[1] if attack else Fraction(0)
    hit = critical = None
    if damage is not None:
        hit, critical = expected_value(parse(damage)), expected_value(dnd5e.critical_tree(damage))
    return DndOdds(
        None if p_success is None else _out(p_success, exact),
        _out(p_critical, exact),
        _out(p_fumble, exact),
        {k: _out(p, exact) for k, p in sorted(totals.items())},
        None if hit is None else _out(hit, exact),
        None if critical is None else _out(critical, exact),
    )


def expected_value(node: Any) -> Fraction:
    """The exact mean of a damage expression made of dice, numbers, + and −, and products
    or quotients by a number. Anything else (keep, reroll, explode...) is refused: its mean
    is not the sum of its parts."""
    if isinstance(node, ast.Expression | ast.Parenthetical):
        return expected_value(node.value if isinstance(node, ast.Parenthetical) else node.roll)
    if isinstance(node, ast.AnnotatedNumber):
        return expected_value(node.value)
    if isinstance(node, ast.Literal):
        return Fraction(node.value)
    if isinstance(node, ast.Dice):
        return Fraction(node.num * (int(node.size) + 1), 2)
    if isinstance(node, ast.UnOp):
        inner = expected_value(node.value)
        return -inner if node.op == "-" else inner
    if isinstance(node, ast.BinOp) and node.op in ("+", "-"):
        left, right = expected_value(node.left), expected_value(node.right)
        return left + right if node.op == "+" else left - right
    if isinstance(node, ast.BinOp) and node.op in ("*", "/") and isinstance(node.right, ast.Literal):
        factor = Fraction(node.right.value)
        left = expected_value(node.left)
        return left * factor if node.op == "*" else left / factor
    raise RuleError("odds.unsupported_expression")


# -- Mediana -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MedianaOdds:
    p_success: Number
    p_critical: Number
    p_fumble: Number
    totals: Mapping[int, Number]


@functools.lru_cache(maxsize=8)
def _throws(rank: str) -> tuple[tuple[int, bool, Fraction], ...]:
    """Every first throw of 1o3d10 at a rank: its objective die, whether it is a fumble,
    and its probability (1/1000 each, grouped)."""
    grouped: Counter[tuple[int, bool]] = Counter()
    for dice in itertools.product(range(1, 11), repeat=3):
        grouped[mediana.objective_die(dice, rank), mediana.is_fumble(dice, rank)] += 1
    return tuple((o, f, Fraction(c, 1000)) for (o, f), c in sorted(grouped.items()))


@functools.lru_cache(maxsize=8)
def _objective(rank: str) -> dict[int, Fraction]:
    objective: Counter[int] = Counter()
    for o, _, p in _throws(rank):
        objective[o] += p
    return dict(objective)


@functools.lru_cache(maxsize=8)
def _after_first(rank: str) -> dict[int, Fraction]:
    """The sum of the objective dice thrown after a first throw that exploded.

    ``rules.mediana.roll_test`` throws at most ``MAX_EXPLOSIONS + 1`` times: the last one
    allowed no longer explodes. Built from that last throw back to the second.
    """
    objective = _objective(rank)
    p_ten = objective[mediana.SIDES]
    chain = dict(objective)
    for _ in range(mediana.MAX_EXPLOSIONS - 1):
        step: Counter[int] = Counter({o: p for o, p in objective.items() if o != mediana.SIDES})
        for x, q in chain.items():
            step[mediana.SIDES + x] += p_ten * q
        chain = dict(step)
    return chain


@functools.lru_cache(maxsize=2048)
def mediana_distribution(
    score: int, difficulty: int, rank: str = "medio", skill_test: bool = True, exact: bool = False
) -> MedianaOdds:
    """P(success), P(critical) and P(fumble) of Atributo (+ Habilidad) + 1o3d10 against a
    difficulty, explosions included exactly (they stop at the rules' cap)."""
    mediana.check_number("puntuacion", score, -mediana.MAX_SCORE, mediana.MAX_SCORE)
    mediana.check_number("dificultad", difficulty, 0, mediana.MAX_DIFFICULTY)
    rest = _after_first(rank)
    p_success = p_critical = p_fumble = Fraction(0)
    totals: Counter[int] = Counter()
    for objective, fumble, p in _throws(rank):
        if fumble:
            p_fumble += p
        follow = {objective: Fraction(1)}
        if skill_test and objective == mediana.SIDES:
            follow = {mediana.SIDES + k: q for k, q in rest.items()}
        for rolled, q in follow.items():
            total = score + rolled
            totals[total] += p * q
            failed = fumble or (skill_test and objective == 1)
            if not failed and total >= difficulty:
                p_success += p * q
                if total - difficulty >= mediana.CRITICAL_MARGIN:
                    p_critical += p * q
    return MedianaOdds(
        _out(p_success, exact),
        _out(p_critical, exact),
        _out(p_fumble, exact),
        {k: _out(p, exact) for k, p in sorted(totals.items())},
    )


def dune_assisted_pass(
    target: int,
    dice: int,
    helpers: tuple[tuple[int, int | None], ...],
    focus_skill: int | None = None,
    difficulty: int = 1,
    automatic_ones: int = 0,
) -> Fraction:
    """P(pass) of an assisted test: each helper's one d20 (``(target, focus)``) counts only
    if the leader scores a success ("siempre que consigas al menos un éxito por ti mismo")."""
    dune.check_range("ayudantes", len(helpers), 0, dune.MAX_HELPERS)
    leader = dune_distribution(target, dice, focus_skill, 1, 0, automatic_ones, exact=True).successes
    help_: dict[int, Fraction] = {0: Fraction(1)}
    for helper_target, helper_focus in helpers:
        die: Counter[int] = Counter()
        for value in range(1, dune.SIDES + 1):
            die[dune.die_successes(value, helper_target, helper_focus)] += Fraction(1, dune.SIDES)
        help_ = _convolve(help_, die)
    total = Fraction(0)
    for own, p in leader.items():
        for helped, q in help_.items():
            if own + (helped if own >= 1 else 0) >= difficulty:
                total += Fraction(p) * q
    return total
