"""Foundry VTT dnd5e actors through /ficha importar (cogs/dnd5e/foundry.py).

The examples in docs/fichas/foundry-dnd5e-*.json were written from the dnd5e system's data
model (one in its 4.x shape, one in its 3.x shape); what Foundry derives at load (level,
proficiency, modifiers, maximum hit points, armour class) is checked to the number.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Lang
from bot.sheets import io
from cogs.dnd5e import foundry
from cogs.dnd5e.sheet_model import DamageType, DndSheet
from cogs.ficha.render import problems_text
from tests.support.harness import Harness, Upload
from tests.support.systems import declare_all

DOCS = Path(__file__).resolve().parents[3] / "docs" / "fichas"


@pytest.fixture(autouse=True)
def declared() -> None:
    """The sheet models and importers are the systems' declarations, which a bot registers
    as its cogs load: these tests read sheets without starting one."""
    declare_all()


def actor(name: str = "cardo") -> dict[str, Any]:
    return dict(json.loads((DOCS / f"foundry-dnd5e-{name}.json").read_text(encoding="utf-8")))


def imported(data: dict[str, Any]) -> DndSheet:
    sheet = io.load(json.dumps(data).encode())
    assert isinstance(sheet, DndSheet)
    return sheet


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(io.Rejected) as refused:
        io.load(json.dumps(data).encode())
    return [(p.kind, p.where) for p in refused.value.problems]


def test_a_4x_multiclass_character_imports_to_exact_numbers() -> None:
    sheet = imported(actor("cardo"))
    assert (sheet.nombre, sheet.nivel, sheet.proficiency) == ("Tomás Cardo", 5, 3)  # Guerrero 3 + Pícaro 2
    assert sheet.caracteristicas.fuerza == 16 and sheet.caracteristicas.carisma == 8
    assert sheet.competencias == ["atletismo", "juego_de_manos", "percepcion", "sigilo"]
    assert sheet.pericias == ["sigilo"] and sheet.salvaciones == ["fuerza", "constitucion"]
    # max null: Guerrero d10 max, avg, 7; Pícaro d8 avg, 6; each level + Con 2: 12+8+9 + 7+8.
    assert (sheet.pg.actuales, sheet.pg.maximos, sheet.pg.temporales) == (38, 44, 0)
    # Studded leather 12 + Dex 2, and the shield 2; the chain mail is not worn.
    assert sheet.ca == 16
    assert sheet.velocidad == 9 and sheet.resistencias == ["veneno"]
    sword, bow = sheet.ataques
    assert sword.model_dump() == {
        "nombre": "Espada larga",
        "caracteristica": "fuerza",
        "bonificacion": 0,
        "competente": True,
        "dano": "1d8+3",
        "tipo": "cortante",
    }
    # Ranged: Dexterity; the +1 adds to hit and to damage; proficient null is "automatic".
    assert (bow.caracteristica, bow.bonificacion, bow.competente, bow.dano, bow.tipo) == (
        "destreza",
        1,
        True,
        "1d6+3",
        "perforante",
    )
    assert [r.nombre for r in sheet.rasgos] == [
        "Ataque furtivo",
        "Tomar aliento",
        "Acción astuta",
        "Competencia a medias",
    ]
    assert sheet.rasgos[-1].texto == "perspicacia"  # 0.5: the sheet has no half proficiency


def test_a_3x_character_with_damage_parts_imports_to_exact_numbers() -> None:
    sheet = imported(actor("wren"))
    assert (sheet.nivel, sheet.proficiency, sheet.ca) == (1, 2, 15)  # Mage Armor: 13 + Dex 2
    assert (sheet.pg.actuales, sheet.pg.maximos, sheet.pg.temporales) == (5, 7, 3)
    assert sheet.competencias == ["conocimiento_arcano", "historia", "investigacion"]
    staff, dagger = sheet.ataques
    assert (staff.caracteristica, staff.dano, staff.tipo) == ("fuerza", "1d6-1", "contundente")  # @mod −1
    assert (dagger.caracteristica, dagger.dano, dagger.tipo) == ("destreza", "1d4+2", "perforante")  # finesse
    assert [r.nombre for r in sheet.rasgos] == ["Arcane Recovery"]  # English names stay English


def test_a_null_maximum_without_recorded_levels_takes_the_average_and_the_bonuses() -> None:
    data = actor("cardo")
    for item in data["items"]:
        if item["type"] == "class":
            item["system"]["advancement"] = []
    data["system"]["attributes"]["hp"] |= {"value": None, "bonuses": {"level": "1", "overall": "+2"}}
    sheet = imported(data)
    # Guerrero 3 × (6 + 2), Pícaro 2 × (5 + 2), 1 a level for 5 levels, 2 overall.
    assert (sheet.pg.maximos, sheet.pg.actuales) == (24 + 14 + 5 + 2, 45)


def test_a_current_above_the_maximum_is_cut_to_it_as_foundry_shows_it() -> None:
    data = actor("wren")
    data["system"]["attributes"]["hp"]["value"] = 12
    assert imported(data).pg.actuales == 7


def test_the_damage_types_are_the_sheets() -> None:
    assert set(foundry.DAMAGE_TYPES.values()) == set(DamageType.__args__)  # type: ignore[attr-defined]


def broken(change: Any, name: str = "cardo") -> dict[str, Any]:
    data = actor(name)
    change(data)
    return data


def weapon(data: dict[str, Any]) -> dict[str, Any]:
    return next(i for i in data["items"] if i["type"] == "weapon")


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (lambda d: d.update(type="npc"), [("foundry_type", "type")]),
        (lambda d: d.update(_stats={"systemId": "pf2e"}), [("foundry_system", "_stats.systemId")]),
        (lambda d: d.update(items={}), [("foundry_items", "items")]),
        (lambda d: d["items"].append("espada"), [("invalid", "items.12")]),
        (lambda d: d["system"].pop("attributes"), [("missing", "system.attributes")]),
        (
            lambda d: d["system"]["abilities"]["str"].update(value=0),
            [("too_small", "system.abilities.str.value")],
        ),
        (
            lambda d: d["system"]["abilities"]["dex"].update(value="14"),
            [("invalid", "system.abilities.dex.value")],
        ),
        (lambda d: d["system"]["skills"]["ste"].update(value=3), [("choice", "system.skills.ste.value")]),
        (
            lambda d: d["system"]["skills"].update(cook={"value": 1}),
            [("foundry_skill", "system.skills.cook")],
        ),
        (
            lambda d: d["system"]["attributes"]["hp"].update(value=1000),
            [("too_big", "system.attributes.hp.value")],
        ),
        (
            lambda d: d["system"]["attributes"]["hp"].update(bonuses={"level": "@abilities.con.mod"}),
            [("foundry_formula", "system.attributes.hp.bonuses.level")],
        ),
        (
            lambda d: d["system"]["attributes"]["ac"].update(calc="custom"),
            [("foundry_ac", "system.attributes.ac.calc")],
        ),
        (
            lambda d: d.update(items=[i for i in d["items"] if i["type"] != "class"]),
            [("foundry_no_class", "items")],
        ),
        (lambda d: d["items"][0]["system"].update(levels=0), [("too_small", "items.0.system.levels")]),
        (
            lambda d: d["items"][0]["system"]["hd"].update(denomination=""),
            [("missing", "items.0.system.hd.denomination")],
        ),
        (
            lambda d: weapon(d)["system"]["damage"]["base"].update(bonus="@scale.rogue.sneak"),
            [("foundry_formula", "items.2.system.damage")],
        ),
        (
            lambda d: weapon(d)["system"].update(magicalBonus="+1d4"),
            [("foundry_formula", "items.2.system.magicalBonus")],
        ),
        (lambda d: d["system"]["traits"].update(dr=["poison"]), [("invalid", "system.traits.dr")]),
        # What the converted sheet refuses is named by Foundry's path.
        (lambda d: d["items"][0]["system"].update(levels=19), [("too_big", "items.system.levels")]),
        (lambda d: d.update(name="x" * 61), [("too_long", "name")]),
        (
            lambda d: d["system"]["attributes"]["ac"].update(calc="flat", flat=0),
            [("too_small", "system.attributes.ac.flat")],
        ),
    ],
)
def test_a_file_it_cannot_read_whole_is_refused_with_its_first_problem(
    change: Any, found: list[tuple[str, str]]
) -> None:
    assert problems(broken(change)) == found


def test_only_the_first_problems_are_listed_in_the_files_order() -> None:
    def everything(d: dict[str, Any]) -> None:
        for ability in d["system"]["abilities"].values():
            ability["value"] = 31

    assert problems(broken(everything)) == [
        ("too_big", f"system.abilities.{a}.value") for a in ("str", "dex", "con", "int", "wis")
    ]


def test_a_control_character_in_what_is_kept_is_refused_and_elsewhere_ignored() -> None:
    assert problems(broken(lambda d: d.update(name="Tomás\x00"))) == [("control", "nombre")]
    described = broken(lambda d: d["items"][0]["system"]["description"].update(value="<p>a\n\tb</p>"))
    assert imported(described).nivel == 5


def test_bounds_of_size_and_items() -> None:
    padded = actor("wren")
    padded["system"]["details"]["biography"] = "x" * (200 * 1024)  # past a sheet's 64 KB, within 1 MB
    assert imported(padded).nombre == "Wren Ashdown"
    padded["system"]["details"]["biography"] = "x" * io.MAX_UPLOAD_BYTES
    assert problems(padded) == [("too_large", "")]
    loot = {"type": "loot", "name": "Moneda", "system": {}}
    many = broken(lambda d: d["items"].extend([loot] * (foundry.MAX_ITEMS - len(d["items"]))))
    assert imported(many).nivel == 5
    many["items"].append(loot)
    assert problems(many) == [("foundry_items", "items")]
    sheet = json.loads((DOCS / "dnd5e.json").read_text(encoding="utf-8"))
    sheet["rasgos"][0]["texto"] = " " * (io.MAX_BYTES)  # a sheet file keeps its own bound
    assert problems(sheet) == [("too_large", "")]


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("es", "• El actor de Foundry es de tipo «npc»; solo se importan personajes («character»)."),
        ("en", "• The Foundry actor is of type “npc”; only characters (“character”) are imported."),
    ],
)
def test_the_problems_read_in_both_languages(lang: Lang, line: str) -> None:
    with pytest.raises(io.Rejected) as refused:
        io.load(json.dumps(broken(lambda d: d.update(type="npc"))).encode())
    assert problems_text(lang, refused.value.problems) == line


async def test_ficha_importar_takes_a_foundry_export(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    raw = (DOCS / "foundry-dnd5e-cardo.json").read_bytes()
    reply = await harness.slash("ficha importar", archivo=Upload("cardo.json", raw))
    assert "importada" in reply.text, reply.text
    shown = await harness.slash("ficha ver")
    assert "Tomás Cardo" in shown.text and "44" in shown.text
    bad = copy.deepcopy(actor("cardo")) | {"type": "vehicle"}
    refused = await harness.slash("ficha importar", archivo=Upload("v.json", json.dumps(bad).encode()))
    assert "solo se importan personajes" in refused.text and refused.ephemeral


def leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a decoded file, nested ones included."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    found = [path] if path else []
    for key, value in items:
        found += leaves(value, (*path, key))
    return found


KINDS = (None, "x", -3, 10**6, 1.5, True, [], {}, ["x"], {"x": 1})


@pytest.mark.parametrize("name", ["cardo", "wren"])
def test_any_value_of_any_kind_anywhere_is_read_or_refused_never_a_crash(name: str) -> None:
    """A hostile or broken export: each place of the example given another JSON kind, in
    turn (every kind everywhere, 16,000 files, found the same crashes in a minute)."""
    text = json.dumps(actor(name))
    for turn, path in enumerate(leaves(actor(name))):
        data = json.loads(text)
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = KINDS[turn % len(KINDS)]
        try:
            io.load(json.dumps(data).encode())
        except io.Rejected as refused:
            assert refused.problems, path
