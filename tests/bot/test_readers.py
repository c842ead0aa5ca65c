"""Every system's roll is read back (for the chronicle and the statistics) from what its
cog stored, through the real commands: a reader that no longer fits its shape fails here."""

from datetime import UTC, datetime

import pytest

from bot.readers import read
from tests.support.harness import Harness
from tests.support.payloads import ADMIN, CHANNEL_ID, GM

ROLLS = [
    ("dune", "dune tirada", {"habilidad": 6, "motivacion": 6}, "dune", 20),
    ("dnd5e", "dnd prueba", {"modificador": 2, "cd": 10}, "dnd", 20),
    ("mediana", "mediana tirada", {"atributo": 5, "dificultad": 10, "habilidad": 2}, "mediana", 10),
    ("donjon", "donjon prueba", {"dados": 3, "contra": 2}, "donjon", 20),
]


@pytest.mark.parametrize(("system", "command", "options", "kind", "sides"), ROLLS)
async def test_each_systems_roll_is_read_with_its_verdict_and_dice(
    harness: Harness, system: str, command: str, options: dict, kind: str, sides: int
) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    await harness.slash("mesa sistema", user=GM, sistema=system)
    reply = await harness.slash(command, **options)
    assert "Algo ha fallado" not in reply.text
    assert harness.bot is not None
    [record] = await harness.bot.store.records(CHANNEL_ID, kind)
    reading = read("es", kind, record.data)
    assert reading is not None and reading.dice and all(s == sides for s, _ in reading.dice)
    assert reading.verdict is not None
    today = datetime.now(UTC).date().isoformat()
    counts = await harness.bot.store.dice_counts(today, channel_id=CHANNEL_ID)
    assert sum(counts[(reading.system, sides)].values()) == len(reading.dice)


def test_a_shape_the_reader_does_not_know_is_told_by_name_only() -> None:
    assert read("es", "dune", {"target": 1}) is None
    assert read("es", "sistema_nuevo", {}) is None
