"""Donjon's counts by winner and successes: a dynamic programme of small matrix products
(numpy), in float64, or exactly modulo a few primes put back together at the end.

Only ``rules.donjon.odds``' whole tables (``/probabilidad donjon``) need it, and it imports
this module when the first is asked for: numpy costs the process about 10 MB, which a card's
odds line (``donjon_win``) does without.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

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


def counts(
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


def exact_counts(n: int, m: int, sides: int) -> tuple[list[int], list[int], int]:
    """The counts as integers: computed modulo enough primes to exceed every count
    (none exceeds sides**(n+m)), then put together by the Chinese remainder theorem."""
    total, used, product = sides ** (n + m), 0, 1
    while product <= total:
        product *= PRIMES[used]
        used += 1
    primes = PRIMES[:used]
    a, b, tie = counts(n, m, sides, np.array(primes, dtype=float))
    weights = [(product // p) * pow(product // p, -1, p) for p in primes]

    def whole(residues: np.ndarray) -> list[int]:
        rows = residues.astype(np.int64).T.tolist()
        return [sum(r * w for r, w in zip(row, weights, strict=True)) % product for row in rows]

    return whole(a), whole(b), whole(tie[:, None])[0]
