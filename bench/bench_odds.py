"""Exact odds: our engines' latency, and icepool side by side on the Donjon compare.

Run: ``python bench/bench_odds.py`` (test extras installed: icepool is a test dependency).
icepool computes the same first comparison by enumerating both pools' multisets and
applying ``rules.donjon.contest.compare`` to every pair, exactly; it is run only on the sizes it
finishes in seconds. A card's odds line, the chance to win alone (``donjon_win``, plain Python),
is timed beside the same figure read from the whole table (numpy). Times are the process's CPU
time (the machine is shared: other processes' load would otherwise decide the figures), with
every memo cleared first.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import icepool

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import expression, odds
from rules.dnd5e import odds as dnd5e_odds
from rules.donjon import contest
from rules.donjon import odds as donjon_odds
from rules.dune import odds as dune_odds
from rules.mediana import odds as mediana_odds


def best_ms(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return 1000 * min(times)


def clear_memos() -> None:
    """Every memo the odds can use: each question's, the per-rank Mediana tables and the
    parsed damage expressions."""
    for module in (odds, donjon_odds, dune_odds, dnd5e_odds, mediana_odds, expression):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


RUNS = 21


def median_ms(fn: Callable[[], object]) -> float:
    return statistics.median(best_ms(fn, 1) for _ in range(RUNS))


def uncached(fn: Callable[..., object]) -> Callable[..., object]:
    def call(*args: object, **kwargs: object) -> object:
        clear_memos()
        return fn(*args, **kwargs)

    return call


def icepool_first(n: int, m: int, sides: int) -> object:
    def compared(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[str, int]:
        result = contest.compare(a, b, sides)
        return (result.winner or "tie", result.successes)

    return icepool.map(compared, icepool.d(sides).pool(n).expand(), icepool.d(sides).pool(m).expand())


def main() -> None:
    donjon_dist = uncached(donjon_odds.donjon_distribution)
    donjon_exact = uncached(donjon_odds.donjon_exact)
    rows = []
    for n, m, sides in [(2, 2, 20), (3, 3, 10), (5, 5, 6), (6, 6, 6)]:
        ours = best_ms(lambda n=n, m=m, sides=sides: donjon_exact(n, m, sides), 3)
        theirs = best_ms(lambda n=n, m=m, sides=sides: icepool_first(n, m, sides), 1)
        rows.append(
            (
                f"Donjon {n} vs {m} d{sides}, exact",
                f"{ours:.1f} ms",
                f"{theirs:.0f} ms",
                f"{theirs / ours:.0f}×",
            )
        )
    for n, m in [(20, 20), (40, 40)]:
        fast = median_ms(lambda n=n, m=m: donjon_dist(n, m, 20))
        exact = median_ms(lambda n=n, m=m: donjon_exact(n, m, 20))
        both = f"{fast:.1f} ms (floats), {exact:.1f} ms (exact)"
        rows.append((f"Donjon {n} vs {m} d20 (median of {RUNS})", both, "—", "—"))
    donjon_win = uncached(donjon_odds.donjon_win)
    for n, m, sides in [(5, 4, 20), (10, 10, 20), (20, 20, 20), (40, 40, 20), (40, 40, 100)]:
        alone = median_ms(lambda n=n, m=m, sides=sides: donjon_win(n, m, sides))
        table = median_ms(lambda n=n, m=m, sides=sides: donjon_dist(n, m, sides).win("a"))
        both = f"{alone:.2f} ms (plain Python), {table:.2f} ms (the table, numpy)"
        rows.append((f"Donjon {n} vs {m} d{sides}, chance to win (a card's line)", both, "—", "—"))
    others: dict[str, Callable[[], object]] = {
        "Dune, 5 dice, focus, range 3": lambda: uncached(dune_odds.dune_distribution)(14, 5, 6, 3, 2, 1),
        "D&D attack with advantage and 2d6+3": lambda: uncached(dnd5e_odds.dnd_distribution)(
            5, 15, "ventaja", True, "2d6+3"
        ),
        "Mediana, exploding, rank alto": lambda: uncached(mediana_odds.mediana_distribution)(10, 25, "alto"),
    }
    for name, fn in others.items():
        rows.append((name, f"{median_ms(fn):.2f} ms", "—", "—"))
    print("| question | ours | icepool | ratio |\n| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
