"""What a Donjon test takes from the sheet: dice put in from a characteristic, and the
successes of expense and damage tests, counted against what the sheet holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.donjon.contest import MAX_POOL
from rules.errors import RuleError

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
