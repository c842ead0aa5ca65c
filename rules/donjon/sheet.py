"""The numbers of a Donjon character sheet the rules fix: the level's cap on
characteristics, weight against Virilidad, and the weapons of damage (Tabla 3-2).
"""

from __future__ import annotations

# Tabla 3-2: from "Puños y patadas" (−1) to "Placas y mallas" (4): "Ningún arma mundana … o
# armadura puede causar o detener más de 4 dados de daño".
MIN_DAMAGE_LEVEL = -1
MAX_DAMAGE_LEVEL = 4
# "no puedes tener una cantidad de dados mayor a tu Nivel + 3 en ninguna de estas características"
LEVEL_CAP_BONUS = 3


def characteristic_cap(level: int) -> int:
    """The most dice Heridas, a Tirada de Salvación or a Habilidad may hold: Nivel + 3."""
    return level + LEVEL_CAP_BONUS


def weight_penalty(weight: int, virility: int) -> int:
    """ "Si un arma tiene un Peso mayor a la Virilidad del personaje, las oportunidades de
    impactar con el arma reciben una penalización igual a la diferencia"; the same for
    armour and Celeridad."""
    return max(0, weight - virility)


def two_handed(weight: int, virility: int) -> bool:
    """ "Un personaje debe tener una puntuación de Virilidad mayor al Peso de un arma cuerpo a
    cuerpo para poder utilizarla con una mano"."""
    return weight >= virility
