"""Hidden stays hidden (issue 28): what a player may not see never reaches an output they
can read. The GM's secret rolls before their reveal, a player's private rolls, an NPC
sheet's numbers and a hidden Amenaza are each given a distinctive value, and every output
a player reaches is searched for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.harness import Harness, Upload
from tests.support.payloads import ADMIN, GM, OTHER

DOCS = Path(__file__).resolve().parents[1] / "docs" / "fichas"


def npc_sheet(system: str, name: str, **fields: Any) -> Upload:
    """The example sheet of ``system`` renamed, with ``fields`` (top level) replaced."""
    data = json.loads((DOCS / f"{system}.json").read_text()) | {"nombre": name} | fields
    return Upload(f"{system}.json", json.dumps(data).encode())


async def test_a_deleted_npc_sheets_hit_points_stay_off_a_players_history(harness: Harness) -> None:
    """The hiding is the row's own: deleting the sheet does not make its numbers public."""
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    await harness.slash("mesa sistema", user=GM, sistema="dnd5e")
    upload = npc_sheet("dnd5e", "Capitana", pg={"actuales": 83, "maximos": 83, "temporales": 0})
    await harness.slash("ficha importar", user=GM, archivo=upload, pnj=True)
    await harness.slash("ficha editar", user=GM, ficha="Capitana", campo="pg.actuales", valor="71")
    assert "71" in (await harness.slash("mesa historial", user=GM)).text
    await harness.slash("ficha borrar", user=GM, ficha="Capitana")
    seen = (await harness.slash("mesa historial", user=OTHER)).text
    assert "83" not in seen and "71" not in seen, seen
    assert "71" in (await harness.slash("mesa historial", user=GM)).text
