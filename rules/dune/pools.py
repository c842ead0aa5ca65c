"""The table's pools in Dune: Impulso, Amenaza and Determinación, what buying dice and
the GM's spends cost, and what an adventure's start and a scene's end do to them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dune.successes import MAX_RAISED_DIFFICULTY
from rules.errors import RuleError, check_range

MAX_BOUGHT = 3
# "El primer dado cuesta 1 punto, el segundo 2 y el tercero 3 (... 1+2+3=6 puntos en total)."
DICE_COST = (0, 1, 3, 6)
MOMENTUM_CAP = 6
DETERMINATION_CAP = 3
# The rules give Amenaza no maximum; the bot keeps it at most this (docs/decisiones.md).
THREAT_CAP = 100
# The GM's quick Amenaza spends ("Gastar amenaza").
THREAT_SPENDS = {"dificultad": 2, "rasgo": 2, "casa_rival": 1, "complicacion_pnj": 2}


def buy_cost(bought: int) -> int:
    check_range("dados_extra", bought, 0, MAX_BOUGHT)
    return DICE_COST[bought]


def split_payment(cost: int, payment: str, momentum_available: int) -> tuple[int, int]:
    """How much of ``cost`` comes from Impulso and how much is paid by generating Amenaza.

    ``impulso`` and ``amenaza`` pay all one way; ``mixto`` takes what the group pool has
    and covers the rest with Amenaza ("generando un punto de Amenaza por cada punto de
    Impulso que quieras suplantar").
    """
    if payment == "impulso":
        return cost, 0
    if payment == "amenaza":
        return 0, cost
    if payment == "mixto":
        from_pool = min(cost, max(momentum_available, 0))
        return from_pool, cost - from_pool
    raise RuleError("dune.bad_payment", payment=payment)


ADVENTURE_THREAT_PER_PLAYER = 2
ADVENTURE_DETERMINATION = 1
SCENE_END_MOMENTUM = -1


@dataclass(frozen=True)
class Pools:
    """What a rule does to the table's pools: amounts to add (negative to take). The bot
    maps each to a store change; ``raised_difficulty`` is the GM's "+1 dificultad" waiting
    for the next test, capped at :data:`MAX_RAISED_DIFFICULTY`."""

    momentum: int = 0
    threat: int = 0
    determination: int = 0
    raised_difficulty: int = 0


def roll_cost(
    bought: int, payment: str, momentum_available: int, *, npc: bool = False, determination: bool = False
) -> Pools:
    """What starting a test costs. A player pays bought dice with Impulso and/or by
    generating Amenaza; the GM buys an NPC's dice with Amenaza ("misma dinámica que con el
    Impulso"); NPCs have no Determinación, a player's costs one point."""
    if npc and determination:
        raise RuleError("dune.npc_determination")
    cost = buy_cost(bought)
    if npc:
        return Pools(threat=-cost, determination=0)
    from_pool, as_threat = split_payment(cost, payment, momentum_available) if cost else (0, 0)
    return Pools(momentum=-from_pool, threat=as_threat, determination=-int(determination))


def raised_difficulty(difficulty: int, waiting: int) -> tuple[int, Pools]:
    """The test's difficulty with the GM's waiting raises, never past the cap, and the
    raises it uses up (all of them)."""
    check_range("dificultad", difficulty, 0, MAX_RAISED_DIFFICULTY)
    return min(difficulty + waiting, MAX_RAISED_DIFFICULTY), Pools(raised_difficulty=-waiting)


def threat_spend(use: str) -> Pools:
    """The GM's quick Amenaza spends; "+1 dificultad" also raises the next test."""
    cost = THREAT_SPENDS.get(use)
    if cost is None:
        raise RuleError("dune.bad_spend", use=use)
    return Pools(threat=-cost, raised_difficulty=int(use == "dificultad"))


def adventure_start(players: int) -> tuple[int, int]:
    """ "el Director comienza con 2 puntos por jugador" of Amenaza, and "Al comienzo de cada
    aventura, tienes un único punto de Determinación": (Amenaza, Determinación each), both
    set, not added."""
    check_range("jugadores", players, 1, 12)
    return ADVENTURE_THREAT_PER_PLAYER * players, ADVENTURE_DETERMINATION


def scene_end() -> Pools:
    """ "se pierde 1 punto de Impulso de la reserva de grupo" at the end of each scene
    (clamped at 0 by the store)."""
    return Pools(momentum=SCENE_END_MOMENTUM)
