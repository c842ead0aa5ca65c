"""Exact odds for every system: what a player wants to know before deciding to roll.

Every figure is exact. Each question has two entry points: ``*_exact`` gives
``fractions.Fraction`` (what the tests compare with brute force), ``*_distribution`` gives
floats (what the bot shows). For Donjon both run the same dynamic programme of small matrix
products: in float64, or exactly modulo a few primes put back together at the end.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

import d20.diceast as ast
import numpy as np

from rules import dnd5e, dune, mediana
from rules.errors import RuleError, check_range
from rules.expression import parse

# Every odds type holds either exact fractions or floats, never a mix.
N = TypeVar("N", Fraction, float)
MAX_POOL = 40
TIE_ROUNDS = 40


def check_pool(name: str, count: int) -> None:
    if not 0 <= count <= MAX_POOL:
        raise RuleError("odds.pool_size", name=name, count=count, max=MAX_POOL)


# -- Donjon ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DonjonOdds(Generic[N]):
    """P(winner, successes) for pools of ``n`` ("a") and ``m`` ("b") dice.

    Full ties are settled by one added die a side, repeated; ``tail`` is the exact mass of
    the games still tied after ``TIE_ROUNDS`` extra rounds, which the table leaves out.
    """

    outcomes: Mapping[tuple[str, int], N]
    tail: N
    full_tie: N

    def win(self, side: str) -> N:
        return sum((p for (s, _), p in self.outcomes.items() if s == side), start=0 * self.tail)

    def successes(self, side: str) -> dict[int, N]:
        return {k: p for (s, k), p in sorted(self.outcomes.items()) if s == side}

    def expected(self, side: str) -> N:
        return sum((k * p for (s, k), p in self.outcomes.items() if s == side), start=0 * self.tail)


# Primes just below 2**22. Residues are kept only roughly reduced, within (-2p, 2p), so a
# product of two is below 2**46 and a float64 matrix product summing up to 82 of them stays
# below 2**53: exact, and done by BLAS. Together (550 bits) they exceed the largest count
# asked for, 100**80 (532 bits).
PRIMES = (
    4194301, 4194287, 4194277, 4194271, 4194247, 4194217, 4194199, 4194191, 4194187,
    4194181, 4194173, 4194167, 4194143, 4194137, 4194131, 4194107, 4194103, 4194023,
    4194011, 4194007, 4193977, 4193971, 4193963, 4193957, 4193939,
)  # fmt: skip


def _binomials(n: int) -> np.ndarray:
    table = np.zeros((n + 1, n + 1))
    for r in range(n + 1):
        for k in range(r + 1):
            table[r, k] = math.comb(r, k)
    return table


def _placement(n: int, binom: np.ndarray) -> np.ndarray:
    """P[a2, a] = ways to place (a2 - a) of the n - a dice still unplaced."""
    rows, cols = np.indices((n + 1, n + 1))
    return np.where(rows >= cols, binom[n - cols, np.clip(rows - cols, 0, None)], 0.0)


def _powers(sides: int, top: int, modulus: np.ndarray | None) -> np.ndarray:
    """powers[:, v, r] = v**r for every face value v (0 included) and r up to ``top``."""
    batch = 1 if modulus is None else len(modulus)
    table = np.ones((batch, sides + 1, top + 1))
    faces = np.arange(sides + 1, dtype=float)
    for r in range(1, top + 1):
        table[:, :, r] = table[:, :, r - 1] * faces
        if modulus is not None:
            table[:, :, r] = np.fmod(table[:, :, r], modulus[:, None])  # exact, and only 40 times
    return table


def _reducer(modulus: np.ndarray | None) -> Callable[[np.ndarray], np.ndarray]:
    """Reduction modulo each prime, layer by layer; nothing to do in floats."""
    if modulus is None:
        return lambda x: x
    inverse = 1 / modulus

    def reduce(x: np.ndarray) -> np.ndarray:
        """x minus a multiple of each prime, landing within (-2p, 2p): the quotient is
        rounded in floats, so it may be one off, which costs nothing and saves ``fmod``."""
        shape = (-1,) + (1,) * (x.ndim - 1)
        return x - np.floor(x * inverse.reshape(shape)) * modulus.reshape(shape)

    return reduce


def _donjon_counts(
    n: int, m: int, sides: int, modulus: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count the labelled assignments of faces to both pools by who wins with how many
    successes, scanning the faces from the highest down; in floats, or exactly modulo each
    prime of ``modulus`` (every array then has one layer per prime).

    States after the faces above ``v``: ``tied[T]`` — both pools have T dice placed, in
    equal numbers on every face so far; ``win_a[a, b]`` — A has won at some face, has a
    dice placed (every one a success: the tied pairs, and all it placed since, which beat
    anything B has left) and B has b placed and has placed nothing since. At each face,
    B placing its first die there ends A's count: A's remaining dice go anywhere at or
    below the face (v^(n-a) ways) and B's remaining have their maximum there.

    Every step is a matrix product: from ``tied[t]``, A placing i and B placing j of their
    remaining dice is ``place_a[t+i, t] * place_b[t+j, t]``, so all of them at once are
    ``place_a · diag(tied) · place_bᵀ``: its diagonal stays tied, below it A wins, above
    it B does.
    """

    reduce = _reducer(modulus)
    batch = 1 if modulus is None else len(modulus)
    binom = _binomials(max(n, m))
    place_a = reduce(np.broadcast_to(_placement(n, binom), (batch, n + 1, n + 1)))
    place_b = reduce(np.broadcast_to(_placement(m, binom), (batch, m + 1, m + 1)))
    k = min(n, m) + 1
    tie_a, tie_b_t = place_a[:, :, :k], place_b[:, :, :k].transpose(0, 2, 1)
    powers = _powers(sides, max(n, m), modulus)
    first = reduce(powers[:, 1:] - powers[:, :-1])
    tied = np.zeros((batch, k))
    tied[:, 0] = 1
    win_a = np.zeros((batch, n + 1, m + 1))
    win_b = np.zeros((batch, n + 1, m + 1))
    result_a, result_b = np.zeros((batch, n + 1)), np.zeros((batch, m + 1))
    lower, upper = np.tri(n + 1, m + 1, -1, dtype=bool), ~np.tri(n + 1, m + 1, 0, dtype=bool)
    for v in range(sides, 0, -1):
        # Ends: the losing side places its first die at v.
        ended_a = reduce((win_a @ first[:, v - 1, m::-1, None])[..., 0])
        result_a = reduce(result_a + ended_a * powers[:, v, n::-1])
        ended_b = reduce((win_b.transpose(0, 2, 1) @ first[:, v - 1, n::-1, None])[..., 0])
        result_b = reduce(result_b + ended_b * powers[:, v, m::-1])
        # Winners keep placing while the loser places nothing; tied pools split three ways.
        # (``split`` sums at most 41 products: added unreduced to another such sum, exact.)
        split = reduce(tie_a * tied[:, None, :]) @ tie_b_t
        win_a = reduce(place_a @ win_a + np.where(lower, split, 0.0))
        win_b = reduce(win_b @ place_b.transpose(0, 2, 1) + np.where(upper, split, 0.0))
        tied = reduce(np.diagonal(split, axis1=1, axis2=2)[:, :k])
    result_a[:, n] = reduce(result_a[:, n] + win_a[:, n, m])
    result_b[:, m] = reduce(result_b[:, m] + win_b[:, n, m])
    full_tie = tied[:, n] if n == m else np.zeros(batch)
    return result_a, result_b, full_tie


def _exact_counts(n: int, m: int, sides: int) -> tuple[list[int], list[int], int]:
    """The counts as integers: computed modulo enough primes to exceed every count
    (none exceeds sides**(n+m)), then put together by the Chinese remainder theorem."""
    total, used, product = sides ** (n + m), 0, 1
    while product <= total:
        product *= PRIMES[used]
        used += 1
    primes = PRIMES[:used]
    a, b, tie = _donjon_counts(n, m, sides, np.array(primes, dtype=float))
    weights = [(product // p) * pow(product // p, -1, p) for p in primes]

    def whole(residues: np.ndarray) -> list[int]:
        rows = residues.astype(np.int64).T.tolist()
        return [sum(r * w for r, w in zip(row, weights, strict=True)) % product for row in rows]

    return whole(a), whole(b), whole(tie[:, None])[0]


def _donjon_odds(n: int, m: int, sides: int, counts: tuple[list[N], list[N], N], one: N) -> DonjonOdds[N]:
    """Outcomes from counts already divided by ``sides**(n+m)``, with the full-tie rounds."""
    a, b, full_tie = counts
    outcomes: dict[tuple[str, int], N] = {}
    for side, values in (("a", a), ("b", b)):
        for k, p in enumerate(values):
            if p:
                outcomes[side, k] = p
    tail = full_tie
    if full_tie:
        stay = one / sides
        win = (one - stay) / 2
        for rounds in range(TIE_ROUNDS + 1):
            mass = full_tie * stay**rounds * win
            for side in ("a", "b"):
                key = (side, n + rounds + 1)
                outcomes[key] = outcomes.get(key, 0 * one) + mass
        tail = full_tie * stay ** (TIE_ROUNDS + 1)
    return DonjonOdds(outcomes, tail, full_tie)


def _check_donjon(n: int, m: int, sides: int) -> None:
    check_pool("a", n)
    check_pool("b", m)
    if not 2 <= sides <= 100:
        raise RuleError("odds.sides", sides=sides)


@functools.lru_cache(maxsize=512)
def donjon_distribution(n: int, m: int, sides: int = 20) -> DonjonOdds[float]:
    """The distribution of (winner, successes) under ``rules.donjon.compare`` with the
    full-tie extension (one added die a side per round; ties keep counting), in floats:
    the same counts as :func:`donjon_exact`, computed in float64."""
    _check_donjon(n, m, sides)
    total = float(sides) ** (n + m)
    a, b, tie = _donjon_counts(n, m, sides, None)
    counts = ([float(x) / total for x in a[0]], [float(x) / total for x in b[0]], float(tie[0]) / total)
    return _donjon_odds(n, m, sides, counts, 1.0)


@functools.lru_cache(maxsize=512)
def donjon_exact(n: int, m: int, sides: int = 20) -> DonjonOdds[Fraction]:
    """:func:`donjon_distribution` as exact fractions."""
    _check_donjon(n, m, sides)
    total = sides ** (n + m)
    a, b, tie = _exact_counts(n, m, sides)
    counts = ([Fraction(x, total) for x in a], [Fraction(x, total) for x in b], Fraction(tie, total))
    return _donjon_odds(n, m, sides, counts, Fraction(1))


# -- Dune ----------------------------------------------------------------------------------


def _floats(values: Mapping[int, Fraction]) -> dict[int, float]:
    return {k: float(p) for k, p in values.items()}


@dataclass(frozen=True)
class DuneOdds(Generic[N]):
    p_pass: N
    successes: Mapping[int, N]
    momentum: Mapping[int, N]
    p_complication: N

    @property
    def expected_momentum(self) -> N:
        return sum((k * p for k, p in self.momentum.items()), start=0 * self.p_pass)


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
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
) -> DuneOdds[float]:
    """:func:`dune_exact` in floats."""
    odds = dune_exact(target, dice, focus_skill, complication_range, difficulty, automatic_ones)
    return DuneOdds(
        float(odds.p_pass), _floats(odds.successes), _floats(odds.momentum), float(odds.p_complication)
    )


@functools.lru_cache(maxsize=2048)
def dune_exact(
    target: int,
    dice: int = 2,
    focus_skill: int | None = None,
    complication_range: int = 1,
    difficulty: int = 1,
    automatic_ones: int = 0,
) -> DuneOdds[Fraction]:
    """A skill test's odds: P(pass), successes, Impulso generated and P(≥1 complication).
    Dice fixed at 1 by Determinación score 2 and never complicate."""
    check_range("objetivo", target, 1, 2 * dune.MAX_SCORE)
    check_range("dados", dice, 1, dune.MAX_DICE)
    check_range("determinacion", automatic_ones, 0, dice)
    check_range("rango_complicacion", complication_range, 1, dune.MAX_COMPLICATION_RANGE)
    check_range("dificultad", difficulty, 0, dune.MAX_RAISED_DIFFICULTY)
    face = Fraction(1, dune.SIDES)
    one_die: defaultdict[int, Fraction] = defaultdict(Fraction)
    for value in range(1, dune.SIDES + 1):
        one_die[dune.die_successes(value, target, focus_skill)] += face
    successes: dict[int, Fraction] = {2 * automatic_ones: Fraction(1)}
    for _ in range(dice - automatic_ones):
        successes = _convolve(successes, one_die)
    p_pass = sum((p for k, p in successes.items() if k >= difficulty), start=Fraction(0))
    momentum: defaultdict[int, Fraction] = defaultdict(Fraction)
    for k, p in successes.items():
        momentum[k - difficulty if k >= difficulty else 0] += p
    clean = Fraction(dune.SIDES - complication_range, dune.SIDES) ** (dice - automatic_ones)
    return DuneOdds(p_pass, dict(sorted(successes.items())), dict(sorted(momentum.items())), 1 - clean)


# -- D&D 5e -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DndOdds(Generic[N]):
    p_success: N | None
    p_critical: N
    p_fumble: N
    totals: Mapping[int, N]
    damage_hit: N | None = None
    damage_critical: N | None = None

    @property
    def expected_damage(self) -> N | None:
        """Per attack: a normal hit's damage when it hits without a 20, a critical's on a 20."""
        if self.damage_hit is None or self.p_success is None or self.damage_critical is None:
            return None
        return (self.p_success - self.p_critical) * self.damage_hit + self.p_critical * self.damage_critical


def _kept_d20(mode: dnd5e.Mode) -> dict[int, Fraction]:
    faces = range(1, 21)
    if mode is dnd5e.Mode.NORMAL:
        return {f: Fraction(1, 20) for f in faces}
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for x, y in itertools.product(faces, faces):
        out[max(x, y) if mode is dnd5e.Mode.ADVANTAGE else min(x, y)] += Fraction(1, 400)
    return dict(out)


def _float_or_none(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


@functools.lru_cache(maxsize=2048)
def dnd_distribution(
    modifier: int,
    target: int | None = None,
    mode: str = "normal",
    attack: bool = False,
    damage: str | None = None,
) -> DndOdds[float]:
    """:func:`dnd_exact` in floats."""
    odds = dnd_exact(modifier, target, mode, attack, damage)
    return DndOdds(
        _float_or_none(odds.p_success),
        float(odds.p_critical),
        float(odds.p_fumble),
        _floats(odds.totals),
        _float_or_none(odds.damage_hit),
        _float_or_none(odds.damage_critical),
    )


@functools.lru_cache(maxsize=2048)
def dnd_exact(
    modifier: int,
    target: int | None = None,
    mode: str = "normal",
    attack: bool = False,
    damage: str | None = None,
) -> DndOdds[Fraction]:
    """A d20 test: the totals, P(success) against a DC (or an AC for attacks, where a 20
    always hits and is a critical and a 1 always misses), and an attack's expected damage."""
    check_range("modificador", modifier, -dnd5e.MAX_MODIFIER, dnd5e.MAX_MODIFIER)
    kept = _kept_d20(dnd5e.Mode(mode))
    totals = {face + modifier: p for face, p in kept.items()}
    p_success = None
    if target is not None:
        check_range("objetivo", target, 1, dnd5e.MAX_TARGET)
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
        try:
            hit, critical = expected_value(parse(damage)), expected_value(dnd5e.critical_tree(damage))
        except ZeroDivisionError:
            raise RuleError("expr.value", expression=damage.strip()) from None
    return DndOdds(p_success, p_critical, p_fumble, dict(sorted(totals.items())), hit, critical)


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
class MedianaOdds(Generic[N]):
    p_success: N
    p_critical: N
    p_fumble: N
    totals: Mapping[int, N]


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
    objective: defaultdict[int, Fraction] = defaultdict(Fraction)
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
    p_ten = objective.get(mediana.SIDES, Fraction(0))
    chain = dict(objective)
    for _ in range(mediana.MAX_EXPLOSIONS - 1):
        step = defaultdict(Fraction, {o: p for o, p in objective.items() if o != mediana.SIDES})
        for x, q in chain.items():
            step[mediana.SIDES + x] += p_ten * q
        chain = dict(step)
    return chain


@functools.lru_cache(maxsize=2048)
def mediana_distribution(
    score: int, difficulty: int, rank: str = "medio", skill_test: bool = True
) -> MedianaOdds[float]:
    """:func:`mediana_exact` in floats."""
    odds = mediana_exact(score, difficulty, rank, skill_test)
    return MedianaOdds(
        float(odds.p_success), float(odds.p_critical), float(odds.p_fumble), _floats(odds.totals)
    )


@functools.lru_cache(maxsize=2048)
def mediana_exact(
    score: int, difficulty: int, rank: str = "medio", skill_test: bool = True
) -> MedianaOdds[Fraction]:
    """P(success), P(critical) and P(fumble) of Atributo (+ Habilidad) + 1o3d10 against a
    difficulty, explosions included exactly (they stop at the rules' cap)."""
    check_range("puntuacion", score, -mediana.MAX_SCORE, mediana.MAX_SCORE)
    check_range("dificultad", difficulty, 0, mediana.MAX_DIFFICULTY)
    rest = _after_first(rank)
    p_success = p_critical = p_fumble = Fraction(0)
    totals: defaultdict[int, Fraction] = defaultdict(Fraction)
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
    return MedianaOdds(p_success, p_critical, p_fumble, dict(sorted(totals.items())))


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
    check_range("ayudantes", len(helpers), 0, dune.MAX_HELPERS)
    leader = dune_exact(target, dice, focus_skill, 1, 0, automatic_ones).successes
    help_: dict[int, Fraction] = {0: Fraction(1)}
    for helper_target, helper_focus in helpers:
        die: defaultdict[int, Fraction] = defaultdict(Fraction)
        for value in range(1, dune.SIDES + 1):
            die[dune.die_successes(value, helper_target, helper_focus)] += Fraction(1, dune.SIDES)
        help_ = _convolve(help_, die)
    total = Fraction(0)
    for own, p in leader.items():
        for helped, q in help_.items():
            if own + (helped if own >= 1 else 0) >= difficulty:
                total += Fraction(p) * q
    return total
