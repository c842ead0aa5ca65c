"""Mediana's PV through the table's ledger (issue 17; cogs/mediana/health.py): damage, healing
and rest in the history and undone, each read of the PV records once."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cogs.mediana.test_combat import join
from tests.support.harness import Harness
from tests.support.payloads import GM, OTHER, PLAYER


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("mediana")
    return harness


# -- hit points through the ledger -----------------------------------------------------------------


async def test_a_mistaken_damage_is_in_the_history_and_undone(table: Harness) -> None:
    """Issue 17: 20 damage by mistake, then /mesa deshacer puts the PV back."""
    await table.slash("mediana pv fijar", fisico=4, maximo=20)
    hurt = await table.slash("mediana pv daño", cantidad=20)
    assert "**0**/20 PV" in hurt.text
    history = await table.slash("mesa historial")
    assert f"PV perdidos de <@{PLAYER.id}> **+20** → 20 · daño recibido" in history.text
    undone = await table.slash("mesa deshacer", user=GM)
    assert "PV perdidos: -20 (queda 0)." in undone.text
    back = await table.slash("mediana pv ver")
    assert "**20**/20 PV (Físico 4) · en pie" in back.text
    await table.assert_ledger_matches()


def count_records(table: Harness, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of every read of records from now on (``store.records`` and
    ``store.latest_records``, each player's newest)."""
    assert table.bot is not None
    store = table.bot.store
    reads: list[str] = []
    for name in ("records", "latest_records"):
        original = getattr(store, name)

        async def counted(channel_id: int, kind: str, *args: Any, _original: Any = original) -> Any:
            reads.append(kind)
            return await _original(channel_id, kind, *args)

        monkeypatch.setattr(store, name, counted)
    return reads


async def test_a_pv_change_reads_the_pv_records_once(table: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/mediana pv daño`` reads the table's PV records once for the PV it changes."""
    await table.slash("mediana pv fijar", fisico=4, maximo=20)
    reads = count_records(table, monkeypatch)
    hurt = await table.slash("mediana pv daño", cantidad=5)
    assert "**15**/20 PV" in hurt.text
    assert reads.count("mediana_ficha") == 1


async def test_a_round_reads_the_pv_records_once(table: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new round of the combat panel reads the PV records once for all its players' ranks."""
    panel = (await table.slash("mediana iniciativa")).message
    await join(table, panel.id, PLAYER, "0", 2, 7, 9)
    await join(table, panel.id, OTHER, "0", 2, 7, 9)
    reads = count_records(table, monkeypatch)
    table.script(2, 7, 9, 2, 7, 9)
    round_button = next(c for c in table.current(panel).custom_ids if c.startswith("mediana:ini:ronda:"))
    await table.click(table.current(panel), round_button, user=GM)
    assert "Combate · ronda 2" in str(table.current(panel).data)
    assert reads.count("mediana_ficha") == 1


async def test_healing_and_rest_are_bounded_and_undone_too(table: Harness) -> None:
    await table.slash("mediana pv fijar", fisico=2, maximo=10, actual=5)
    healed = await table.slash("mediana pv curar", cantidad=50)
    assert "**10**/10 PV" in healed.text
    await table.slash("mesa deshacer", user=GM)
    assert "**5**/10 PV" in (await table.slash("mediana pv ver")).text
    dead = await table.slash("mediana pv daño", cantidad=500)
    assert "**-12**/10 PV (Físico 2) · muerto" in dead.text
    assert await table.pool("mediana_heridas", PLAYER.id) == 22
    await table.assert_ledger_matches()


async def test_a_sheet_stored_before_the_ledger_keeps_its_pv(table: Harness) -> None:
    assert table.bot is not None
    legacy = {"physique": 4, "maximum": 20, "current": 7}
    await table.bot.store.save_record(920000000000000001, 1, PLAYER.id, "mediana_ficha", legacy)
    assert "**7**/20 PV" in (await table.slash("mediana pv ver")).text
    hurt = await table.slash("mediana pv daño", cantidad=2)
    assert "**5**/20 PV" in hurt.text
    assert "**5**/20 PV" in (await table.slash("mediana pv ver")).text
