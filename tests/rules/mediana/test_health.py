"""Tests of ``rules.mediana.health``: Mediana's hit points: hurt, healed, rested; badly hurt and
dead."""

import pytest

from rules.errors import RuleError
from rules.mediana import health as mediana_health


def test_hit_points() -> None:
    health = mediana_health.Health(physique=4, maximum=20, current=20)
    assert health.state == "bien"
    assert mediana_health.hurt(health, 16).state == "malherido"
    assert mediana_health.hurt(health, 20).state == "inconsciente"
    assert mediana_health.hurt(health, 43).state == "inconsciente"
    assert mediana_health.hurt(health, 44).state == "muerto"
    assert mediana_health.hurt(health, 500).current == -24
    assert mediana_health.rest(mediana_health.hurt(health, 5)).current == 16
    assert mediana_health.rest(mediana_health.hurt(health, 5), full_comfort=True).current == 17
    assert mediana_health.rest(health).current == 20
    with pytest.raises(RuleError):
        mediana_health.heal(mediana_health.hurt(health, 44), 1)
