"""The GM's NPC sheets in /dnd (issue 27): a typed number wins over the sheet, and a
monster's challenge rating (0 to 30, fractions too) gives its proficiency bonus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.harness import Harness, Upload
from tests.support.payloads import GM

SHEET = Path(__file__).resolve().parents[3] / "docs" / "fichas" / "dnd5e.json"


def orc(**changes: Any) -> bytes:
    """The example sheet as "Orco": Destreza 8 (−1), Sabiduría 13 (+1), level 5 (+3),
    proficient in Stealth with expertise and in Dexterity saves."""
    data = json.loads(SHEET.read_bytes())
    data["nombre"] = "Orco"
    data["caracteristicas"]["destreza"] = 8
    data.update(changes)
    return json.dumps(data).encode()


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("dnd5e")
    return harness


async def npc(table: Harness, raw: bytes) -> None:
    reply = await table.slash("ficha importar", user=GM, archivo=Upload("orco.json", raw), pnj=True)
    assert "importada" in reply.text, reply.text


async def test_a_typed_modifier_wins_over_the_npc_sheet_in_a_check(table: Harness) -> None:
    await npc(table, orc())
    table.script(10)
    rolled = await table.slash("dnd prueba", user=GM, modificador=7, como="orco")
    assert "como **Orco**" in rolled.text and "**10** +7 = **17**" in rolled.text
    table.script(10)
    skill = await table.slash("dnd prueba", user=GM, modificador=2, habilidad="sigilo", como="orco")
    assert "**10** +8 = **18**" in skill.text  # the typed +2 and the sheet's expertise +6


async def test_a_typed_modifier_and_level_win_over_the_npc_sheet_in_a_save(table: Harness) -> None:
    await npc(table, orc())
    table.script(10)
    save = await table.slash("dnd salvacion", user=GM, caracteristica="destreza", modificador=7, como="orco")
    assert "como **Orco**" in save.text and "**10** +10 = **20**" in save.text  # +7, proficiency +3
    table.script(10)
    typed = await table.slash(
        "dnd salvacion", user=GM, caracteristica="destreza", modificador=7, nivel=17, como="orco"
    )
    assert "**10** +13 = **23**" in typed.text  # level 17: +6


@pytest.mark.parametrize(
    ("rating", "bonus"), [("30", 9), ("17", 6), ("1", 2), ("1/2", 2), ("1/8", 2), ("0", 2)]
)
async def test_a_challenge_rating_gives_the_proficiency_bonus(
    table: Harness, rating: str, bonus: int
) -> None:
    """The sheet's ``vd`` (a monster's challenge rating) decides its proficiency, not ``nivel``."""
    await npc(table, orc(vd=rating))
    table.script(10)
    save = await table.slash("dnd salvacion", user=GM, caracteristica="destreza", como="orco")
    assert f"**10** {bonus - 1:+d} = **{9 + bonus}**" in save.text, save.text


async def test_a_challenge_rating_is_one_the_tables_have(table: Harness) -> None:
    wrong = await table.slash("ficha importar", user=GM, archivo=Upload("orco.json", orc(vd="1/3")), pnj=True)
    assert wrong.ephemeral and "importada" not in wrong.text
    over = await table.slash("ficha importar", user=GM, archivo=Upload("orco.json", orc(vd="31")), pnj=True)
    assert over.ephemeral and "importada" not in over.text


async def test_the_gm_sets_a_challenge_rating_with_ficha_editar(table: Harness) -> None:
    await table.slash("ficha crear", user=GM, nombre="Dragón", pnj=True)
    edited = await table.slash("ficha editar", user=GM, ficha="Dragón", campo="vd", valor="1/4")
    assert "VD 1/4" in edited.text, edited.text
    edited = await table.slash("ficha editar", user=GM, ficha="Dragón", campo="vd", valor="24")
    assert "competencia +7" in edited.text, edited.text
