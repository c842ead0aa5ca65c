"""Impulso from a passed Dune test: spent on its uses ("Gastar Impulso"), saved to the
group pool, or, for an NPC, turned into Amenaza.
"""

from __future__ import annotations

from dataclasses import replace

from rules.dune.skill_test import DuneRoll, check_open
from rules.errors import RuleError

# "Usos comunes" of Impulso after a passed test, with their cost.
MOMENTUM_SPENDS = {"info": 1, "rasgo": 2, "recurso": 2, "tarea": 1}
# "cada uso de Impulso ... solo puede ser usado una vez en un mismo chequeo", except the uses
# that work "por cada punto de Impulso gastado": a question each, a task point each.
REPEATABLE_SPENDS = frozenset({"info", "tarea"})


def spend(roll: DuneRoll, use: str) -> tuple[DuneRoll, int]:
    """Spend Impulso on a passed test: bonus first (it is lost otherwise), then the
    roll's own, then the group pool. Returns the roll and what the pool must pay."""
    cost = MOMENTUM_SPENDS.get(use)
    if cost is None:
        raise RuleError("dune.bad_spend", use=use)
    check_open(roll)
    if not roll.test.passed or roll.price:
        raise RuleError("dune.not_passed")
    if use == "tarea" and roll.task_id is None:
        raise RuleError("dune.no_task")
    if use not in REPEATABLE_SPENDS and use in roll.spends:
        raise RuleError("dune.spend_once", use=use)
    from_bonus = min(cost, roll.bonus_left)
    from_roll = min(cost - from_bonus, roll.momentum_left)
    from_group = cost - from_bonus - from_roll
    updated = replace(
        roll,
        spends=(*roll.spends, use),
        bonus_spent=roll.bonus_spent + from_bonus,
        from_roll=roll.from_roll + from_roll,
    )
    return updated, from_group


def save(roll: DuneRoll) -> tuple[DuneRoll, int]:
    """ "Una vez que el chequeo de habilidad se ha resuelto, cualquier punto de Impulso
    no gastado se guarda en la reserva de grupo"; bonus Impulso is lost. The store
    clamps the addition at the cap of 6 and reports what the cap took."""
    check_open(roll)
    if roll.npc:
        raise RuleError("dune.npc_cannot_save")
    if not roll.test.passed or roll.price:
        raise RuleError("dune.not_passed")
    return replace(roll, closed=True), roll.momentum_left


def npc_to_threat(roll: DuneRoll) -> DuneRoll:
    """ "Los PNJ no pueden guardar su Impulso ... pueden añadir un punto de Amenaza a cambio
    de todo el Impulso que les quede." The bot adds that 1 Amenaza."""
    check_open(roll)
    if not roll.npc:
        raise RuleError("dune.not_npc")
    if roll.momentum_left + roll.bonus_left <= 0:
        raise RuleError("dune.nothing_left")
    return replace(roll, closed=True)
