"""What the GM rolls in Donjon: the dice of a difficulty (Tabla 4-2) at the Donjon's
level, of damage and of an NPC, banked dice added to a pool, and provisions (Tabla 3-3).
"""

from __future__ import annotations

from rules.donjon.contest import MAX_POOL, check_pool_size
from rules.errors import RuleError

MAX_LEVEL = 30
# A new table's Donjon level: the text's examples play at 1 ("una dificultad Media en un
# Donjon de Nivel 1 brinda 4 dados al DJ"), as a new character does ("el máximo para un
# personaje inicial es de 4 dados": Nivel 1 + 3).
START_LEVEL = 1
# The most dice one bank gives or a GM adjusts at once.
MAX_BANK = 100
# An item's own Habilidad on the Tabla de Provisiones.
MAX_ITEM_SKILL = 4
# Tabla 4-2: Dificultades de Acciones sin Oposición.
DIFFICULTIES = {"facil": 0, "media": 3, "dificil": 6, "muy_dificil": 9, "desquiciada": 12}
DEFAULT_SEVERITY = "media"
# Tabla 3-3: Tirada de Provisiones.
PROVISIONS_AUTOMATIC = 3
PROVISIONS_UNUSUAL = 3


def difficulty_dice(difficulty: str, level: int) -> int:
    """ "El DJ siempre suma a los dados de dificultad el Nivel de Donjon"."""
    if difficulty not in DIFFICULTIES:
        raise RuleError("donjon.bad_difficulty", difficulty=difficulty)
    check_level(level)
    return DIFFICULTIES[difficulty] + level


def check_level(level: int) -> None:
    if not 0 <= level <= MAX_LEVEL:
        raise RuleError("donjon.bad_level", level=level, max=MAX_LEVEL)


def damage_dice(level: int, severity: str = DEFAULT_SEVERITY, gm_bonus: int = 0) -> int:
    """Prueba de Daño: the GM rolls "el Nivel de Donjon actual más los modificadores basados
    en la severidad del daño" (Media, +3, by default) plus the successes banked for it."""
    return difficulty_dice(severity, level) + gm_bonus


def npc_damage_dice(attribute: int, skill: int = 0, gm_bonus: int = 0) -> int:
    """Prueba de Daño, the other way: "el DJ tira ya sea el Atributo y Habilidad apropiados
    del PNJ oponente o el Nivel de Donjon actual más los modificadores basados en la
    severidad", plus the successes banked for it."""
    for name, value in (("atributo", attribute), ("habilidad", skill), ("bonificacion", gm_bonus)):
        check_pool_size(name, value)
    total = attribute + skill + gm_bonus
    check_pool_size("dados", total)
    return total


def with_banked(pool: int, use: int, banked: int) -> tuple[int, int]:
    """A pool with banked bonus dice added: the GM's ("dados de bonificación en una próxima
    acción del DJ relacionada al personaje", so also the opposing pool of a test) or a
    rival's in an opposed test. Returns the pool to roll and the change to the bank."""
    if not 0 <= use <= banked:
        raise RuleError("donjon.bank_short", use=use, banked=banked)
    check_pool_size("dados", pool + use)
    return pool + use, -use


def provisions_dice(value: int, item_skill: int = 0, unusual: bool = False) -> int:
    """Tabla 3-3: 3 automatic dice, + the item's Valor or its Habilidad, whichever is
    higher ("Habilidades y Valor no se suman; utiliza el mayor número"), + 3 if unusual or
    too large for the pack."""
    if not 0 <= value <= MAX_POOL or not 0 <= item_skill <= MAX_ITEM_SKILL:
        raise RuleError("donjon.bad_item", value=value, skill=item_skill)
    return PROVISIONS_AUTOMATIC + max(value, item_skill) + (PROVISIONS_UNUSUAL if unusual else 0)
