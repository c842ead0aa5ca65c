"""The sheet format: the examples in docs/ read and write back byte for byte, the schema
there is the models', and bad files are refused with their first problems named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.kinds import SHEET_POOL_PREFIX, SHEET_POOLS
from bot.sheets import io
from bot.sheets.__main__ import SCHEMA_PATH, schema_text
from bot.sheets.io import blank
from tests.support.systems import DECLARATIONS, declare_all


@pytest.fixture(autouse=True)
def declared() -> None:
    """The sheet models and importers are the systems' declarations, which a bot registers
    as its cogs load: these tests read sheets without starting one."""
    declare_all()


DOCS = Path(__file__).resolve().parents[3] / "docs" / "fichas"
SYSTEMS = ("dune", "dnd5e", "donjon", "mediana")


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_example_reads_and_writes_back_the_same_bytes(system: str) -> None:
    raw = (DOCS / f"{system}.json").read_bytes()
    sheet = io.load(raw)
    assert sheet.sistema == system
    assert io.dump(sheet) == raw


def test_the_schema_in_docs_is_the_models() -> None:
    """Regenerate with ``python -m bot.sheets`` after changing a model."""
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_blank_sheet_is_valid_and_stable(system: str) -> None:
    sheet = blank(system, "Nadie")
    assert io.dump(io.load(io.dump(sheet))) == io.dump(sheet)


def example(system: str) -> dict:
    return json.loads((DOCS / f"{system}.json").read_text(encoding="utf-8"))


def kinds(data: object) -> list[tuple[str, str]]:
    with pytest.raises(io.Rejected) as refused:
        io.load(json.dumps(data).encode())
    return [(p.kind, p.where) for p in refused.value.problems]


def test_not_json_too_large_version_and_system_are_refused() -> None:
    for raw, kind in ((b"\xff{", "not_json"), (b"{nope", "not_json"), (b"[1]", "not_object")):
        with pytest.raises(io.Rejected) as refused:
            io.load(raw)
        assert refused.value.problems[0].kind == kind
    with pytest.raises(io.Rejected) as refused:
        io.load(b" " * (io.MAX_BYTES + 1))
    assert refused.value.problems[0].kind == "too_large"
    assert kinds(example("dune") | {"version": 2}) == [("version", "version")]
    assert kinds(example("dune") | {"sistema": "gurps"}) == [("system", "sistema")]


def test_values_outside_the_books_ranges_are_named() -> None:
    dune = example("dune")
    dune["habilidades"]["combate"] = 9  # "un valor numérico (entre 4 y 8)"
    dune["motivaciones"]["fe"]["valor"] = 3
    assert kinds(dune) == [("too_big", "habilidades.combate"), ("too_small", "motivaciones.fe.valor")]
    dnd = example("dnd5e")
    dnd["pericias"] = ["atletismo"]  # expertise doubles a proficiency the character has
    assert kinds(dnd) == [("expertise", "")]
    dnd["caracteristicas"]["fuerza"] = 31
    assert kinds(dnd) == [("too_big", "caracteristicas.fuerza")]
    donjon = example("donjon")
    donjon["atributos"]["aguante"] = 7  # "Ningún atributo puede ser menor a 1 o mayor a 6"
    assert kinds(donjon) == [("too_big", "atributos.aguante")]
    mediana = example("mediana")
    mediana["pv"]["actuales"] = -19  # dead at −Físico × 6 = −18
    assert kinds(mediana) == [("health", "pv")]


def test_names_and_lists_are_bounded_and_unknown_keys_refused() -> None:
    donjon = example("donjon")
    donjon["nombre"] = "x" * 61
    donjon["habilidades"] = [{"nombre": f"H{i}", "dados": 1} for i in range(41)]
    donjon["color"] = "rojo"
    assert kinds(donjon) == [("too_long", "nombre"), ("too_long", "habilidades"), ("extra", "color")]


def test_only_the_first_problems_are_listed() -> None:
    assert len(kinds({"version": 1, "sistema": "dnd5e", "ataques": [{}] * 10})) == io.SHOWN_PROBLEMS


def test_the_sheets_skills_are_the_rules_skills() -> None:
    from typing import get_args

    from cogs.dnd5e.sheet_model import Skill
    from rules.dnd5e import checks

    assert get_args(Skill) == tuple(checks.SKILLS)


def test_the_pools_the_store_knows_as_a_sheets_are_exactly_its_live_fields() -> None:
    """bot.kinds tells a sheet's pools by their name for the store (which may not read the
    systems' declarations): every pool a sheet owns carries the prefix, a player's does not."""
    lives = [live for declaration in DECLARATIONS for live in declaration.live]
    owned = {live.pool for live in lives if not live.by_player}
    drives = ("deber", "fe", "justicia", "poder", "verdad")
    assert owned == {
        "ficha_pg",
        "ficha_pg_temp",
        "ficha_heridas",
        "ficha_provisiones",
        "ficha_riqueza",
        *(f"ficha_{mark}_{drive}" for drive in drives for mark in ("tachada", "desafiada")),
    }
    assert all(pool in SHEET_POOLS and pool.startswith(SHEET_POOL_PREFIX) for pool in owned)
    assert not any(live.pool in SHEET_POOLS for live in lives if live.by_player)


def test_a_rule_of_what_is_written_does_not_make_a_stored_sheet_unreadable() -> None:
    """Nivel + 3 (Donjon) and a statement on a drive of 6 or more (Dune) came after sheets
    were stored: an import or an edit breaking them is refused, but a stored sheet read back
    (every roll by name reads it) still loads, so a table's old sheet never ends in a crash."""
    donjon = example("donjon") | {"heridas": 9}
    dune = example("dune")
    drive = next(iter(dune["motivaciones"]))
    dune["motivaciones"][drive] = dune["motivaciones"][drive] | {"valor": 7, "declaracion": ""}
    for data, kind in ((donjon, "level_cap"), (dune, "statement")):
        with pytest.raises(io.Rejected) as refused:
            io.validate(data)
        assert [p.kind for p in refused.value.problems] == [kind]
        assert io.validate(data, stored=True).nombre == data["nombre"]


def test_a_system_that_is_no_name_is_refused_naming_the_declared_ones() -> None:
    """A list or an object where the system's name goes (JSON has them) is a file's mistake,
    refused like an unknown name, not a crash."""
    for odd in (["dune"], {"dune": 1}, 7):
        assert kinds(example("dune") | {"sistema": odd}) == [("system", "sistema")]
    with pytest.raises(io.Rejected) as refused:
        io.load(json.dumps(example("dune") | {"sistema": ["dune"]}).encode())
    assert refused.value.problems[0].limit == "dnd5e, donjon, dune, mediana"
