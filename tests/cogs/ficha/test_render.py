"""``/ficha ver``'s embed: the name and owner, then the parts each system declares of its
sheet (``Declaration.sheet_fields``), drawn from the sheet's values."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import SheetRow
from bot.sheets import io
from bot.systems import SYSTEMS
from cogs.ficha.render import sheet_embed
from tests.support.systems import declare_all

DOCS = Path(__file__).resolve().parents[3] / "docs" / "fichas"

# Each system's parts, in order, as the Spanish embed names them, and one line of each
# example sheet in docs/fichas that the embed must show.
PARTS = {
    "dune": (["Habilidades", "Motivaciones", "Enfoques", "Talentos", "Recursos"], "Comunicación **6**"),
    "dnd5e": (
        ["Características", "Combate", "Competencias (★ pericia)", "Salvaciones", "Ataques"],
        "Destreza **16** (+3)",
    ),
    "donjon": (["Atributos", "Estado", "Habilidades", "Equipo"], "Machete (ND 1)"),
    "mediana": (["Atributos", "Estado", "Habilidades"], "Espadas (Destreza) **3**"),
}


@pytest.fixture(autouse=True)
def declared() -> None:
    declare_all()


def test_every_system_with_sheets_declares_how_they_read() -> None:
    with_sheets = {name for name, system in SYSTEMS.items() if system.sheet is not None}
    assert with_sheets == set(PARTS)
    assert all(SYSTEMS[name].sheet_fields is not None for name in with_sheets)


@pytest.mark.parametrize("system", sorted(PARTS))
def test_the_example_sheet_shows_its_systems_parts(system: str) -> None:
    sheet = io.load((DOCS / f"{system}.json").read_bytes())
    row = SheetRow(7, 1, 42, False, sheet.nombre, sheet.nombre.casefold(), system, {})
    embed = sheet_embed("es", row, sheet)
    names, line = PARTS[system]
    assert [field.name for field in embed.fields] == names
    assert any(line in (field.value or "") for field in embed.fields)
    assert embed.description is not None and "<@42>" in embed.description
