"""Donjon's *Generación de Atributos* at the table (issue 15; cogs/donjon/attributes.py): the
improved player moves one point after rolling, and a roll to arrange offers its reroll once."""

from __future__ import annotations

import pytest

from tests.support.harness import Harness
from tests.support.payloads import OTHER


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("donjon")
    return harness


async def test_the_improved_player_rolls_then_moves_one_point(table: Harness) -> None:
    missing = await table.slash("donjon cambiar", sube="virilidad", baja="aguante")
    assert missing.ephemeral and "tira primero" in missing.text
    table.script(1, 5, 6, 1, 2, 2, 4, 4, 4, 2, 5, 5, 3, 4, 6, 1, 1, 6)
    rolled = await table.slash("donjon atributos", metodo="jugador_mejorado")
    assert "Puedes pasar un punto" in rolled.text
    assert rolled.message.custom_ids == []
    moved = await table.slash("donjon cambiar", sube="sociabilidad", baja="virilidad")
    assert "Virilidad: **4**" in moved.text and "Sociabilidad: **2**" in moved.text
    assert "Punto cambiado: Sociabilidad +1, Virilidad −1." in moved.text
    assert "Sociabilidad: **2**" in str(table.current(rolled.message).data)
    again = await table.slash("donjon cambiar", sube="sociabilidad", baja="virilidad")
    assert again.ephemeral and "el método permite uno" in again.text
    table.script(1, 1, 6, 1, 1, 6, 1, 1, 6, 1, 1, 6, 1, 1, 6, 1, 1, 6)
    await table.slash("donjon atributos", metodo="jugador_mejorado")
    out = await table.slash("donjon cambiar", sube="virilidad", baja="aguante")
    assert out.ephemeral and "Aguante quedaría en 0" in out.text


async def test_rolls_to_arrange_offer_the_reroll_once_to_their_roller(table: Harness) -> None:
    table.script(*([1, 2, 3] * 6))
    low = await table.slash("donjon atributos", metodo="eleccion")
    assert "Con 15 o menos puedes volver a tirarlo todo" in low.text
    button = low.message.custom_ids
    assert len(button) == 1 and button[0].startswith("rep:repetir:")
    other = await table.click(low.message, button[0], user=OTHER)
    assert other.ephemeral and "Solo quien tiró estos Atributos" in other.text
    table.script(*([4, 5, 6] * 6))
    rerolled = await table.click(low.message, button[0])
    assert "Suma: 30." in rerolled.text
    assert table.current(low.message).custom_ids == []
    twice = await table.click(low.message, button[0])
    assert twice.ephemeral
    table.script(*([1, 2, 3] * 6))
    standard = await table.slash("donjon atributos")
    assert standard.message.custom_ids == [] and "Suma: 12." in standard.text
