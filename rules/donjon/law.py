"""The Ley de los Éxitos: "1 éxito = 1 hecho o 1 dado". The winner of a test narrates a
fact, or banks a die, for each success.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RuleError

FACT_LIMIT = 200


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
