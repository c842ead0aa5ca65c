"""The Ley de los Éxitos: "1 éxito = 1 hecho o 1 dado". The winner of a test narrates a
fact, or banks a die, for each success.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RuleError

FACT_LIMIT = 200


@dataclass(frozen=True)
class Fact:
    """A fact the winner told, and whether the narrator has used it yet ("el DJ los utiliza
    para narrar el resultado de la acción, asegurándose de utilizar todos los hechos")."""

    author: int
    text: str
    narrated: bool = False


@dataclass(frozen=True)
class Law:
    """The winner's successes being spent: "1 éxito = 1 hecho o 1 dado".

    ``banked`` holds the owner of each bonus die saved (the winner, or a friend). When
    nothing is left, the facts go to ``narrator``, who marks each one narrated as it is
    used.
    """

    winner_id: int
    narrator_id: int | None
    successes: int
    facts: tuple[Fact, ...] = ()
    banked: tuple[int, ...] = ()

    @property
    def left(self) -> int:
        return self.successes - len(self.facts) - len(self.banked)

    @property
    def allocated(self) -> bool:
        return self.left == 0

    @property
    def pending(self) -> tuple[int, ...]:
        """The positions of the facts the narrator has not used yet."""
        return tuple(i for i, fact in enumerate(self.facts) if not fact.narrated)

    @property
    def narrated(self) -> bool:
        """Whether there were facts and every one has been narrated."""
        return bool(self.facts) and not self.pending


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


def mark_narrated(law: Law, position: int) -> Law:
    """The fact at ``position`` (from 0) used in the narration; the others wait for theirs.
    Marked once: a second press finds it narrated and changes nothing."""
    _all_told(law)
    if not 0 <= position < len(law.facts):
        raise RuleError("donjon.no_such_fact", fact=position + 1)
    if law.facts[position].narrated:
        raise RuleError("donjon.fact_already_narrated", fact=position + 1)
    facts = tuple(replace(f, narrated=True) if i == position else f for i, f in enumerate(law.facts))
    return replace(law, facts=facts)


def mark_all_narrated(law: Law) -> Law:
    """Every fact still waiting, narrated at once: the one button of a narration posted
    before each fact had its own (and of the GM's notice of one Discord refused)."""
    _all_told(law)
    if not law.pending:
        raise RuleError("donjon.already_narrated")
    return replace(law, facts=tuple(replace(f, narrated=True) for f in law.facts))


def _all_told(law: Law) -> None:
    """The narrator narrates once every success is spent, not before."""
    if not law.allocated:
        raise RuleError("donjon.not_allocated", left=law.left)


def _has_success_left(law: Law) -> None:
    if law.left <= 0:
        raise RuleError("donjon.no_success_left")
