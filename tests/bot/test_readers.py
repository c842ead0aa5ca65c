"""Every system's roll is read back (for the chronicle and the statistics) from what its
cog stored, through the real commands: a reader that no longer fits its shape fails here."""

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from bot import readers
from bot.readers import faces, new_faces, read
from rules.dnd5e import checks as dnd_checks
from rules.donjon import contest, posted
from rules.dune import skill_test
from rules.mediana import checks, effects
from tests.support.decodes import Decodes
from tests.support.harness import Harness
from tests.support.payloads import CHANNEL_ID, OTHER, PLAYER
from tests.support.systems import declare_all

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
    await harness.table_for(system)
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


# Rolls without a verdict of their own (an expression, damage, attributes), and an opposed
# test: read, and their dice counted, like the rest.
MORE_ROLLS = [
    ("dnd5e", "dnd tirar", {"expresion": "2d20kh1 + 1d4"}, "dnd_tirar", "dnd5e", {20, 4}),
    ("mediana", "mediana daño", {"dados": "3d6+1", "critico": True}, "mediana_efecto", "mediana", {6}),
    (
        "mediana",
        "mediana enfrentada",
        {"atributo": 3, "habilidad": 2, "rival_atributo": 4, "rival_habilidad": 1},
        "mediana",
        "mediana",
        {10},
    ),
    ("donjon", "donjon atributos", {}, "donjon_atributos", "donjon", {6}),
]


@pytest.mark.parametrize(("system", "command", "options", "kind", "counted_as", "sizes"), MORE_ROLLS)
async def test_every_roll_with_dice_is_read_and_its_dice_counted(
    harness: Harness, system: str, command: str, options: dict, kind: str, counted_as: str, sizes: set[int]
) -> None:
    await harness.table_for(system)
    reply = await harness.slash(command, **options)
    assert "Algo ha fallado" not in reply.text and not reply.ephemeral
    assert harness.bot is not None
    [record] = await harness.bot.store.records(CHANNEL_ID, kind)
    reading = read("es", kind, record.data)
    assert reading is not None and reading.system == counted_as and reading.result
    assert {s for s, _ in reading.dice} == sizes
    today = datetime.now(UTC).date().isoformat()
    counts = await harness.bot.store.dice_counts(today, channel_id=CHANNEL_ID)
    assert sum(sum(counts[(counted_as, s)].values()) for s in sizes) == len(reading.dice)


async def test_a_mediana_contest_resolved_by_its_button_counts_every_sides_dice(harness: Harness) -> None:
    """A contest opens with no dice; its button rolls every side: those dice are counted
    with the resolution, once."""
    await harness.table_for("mediana")
    contest = (await harness.slash("mediana competicion")).message
    for user, attribute in ((PLAYER, "3"), (OTHER, "4")):
        form = await harness.click(contest, "mediana:concurso:participar:1", user=user)
        fields = {"atributo": [attribute], "habilidad": "1"}
        await harness.submit(form.modal_id, fields, user=user, message=harness.current(contest))
    harness.script(5, 5, 5, 2, 3, 4)
    await harness.click(harness.current(contest), "mediana:concurso:resolver:1")
    today = datetime.now(UTC).date().isoformat()
    assert harness.bot is not None
    counts = await harness.bot.store.dice_counts(today, channel_id=CHANNEL_ID)
    assert counts == {("mediana", 10): {5: 3, 2: 1, 3: 1, 4: 1}}


def test_a_mediana_contest_is_read_once_rolled_with_every_sides_dice() -> None:
    tests = [checks.roll_test(random.Random(seed), 5, None, "medio") for seed in range(3)]
    entries = [{"side": {}, "test": checks.roll_to_data(test)} for test in tests]
    reading = read("es", "mediana", {"kind": "competicion", "entries": entries, "open": False})
    assert reading is not None and reading.verdict is None
    assert reading.result == " / ".join(str(test.total) for test in tests)
    assert len(reading.dice) == sum(3 * len(test.throws) for test in tests)
    assert read("es", "mediana", {"kind": "competicion", "entries": [], "open": True}) is None


def test_a_shape_the_reader_does_not_know_is_told_by_name_only() -> None:
    assert read("es", "dune", {"target": 1}) is None
    assert read("es", "sistema_nuevo", {}) is None


@pytest.mark.parametrize(
    ("system", "command", "options", "kind"),
    [
        (None, "tirar", {"expresion": "2d6+1"}, "tirar"),
        ("dnd5e", "dnd tirar", {"expresion": "2d6+1", "tipo": "fuego"}, "dnd_tirar"),
    ],
)
async def test_an_expression_roll_keeps_what_it_was_asked_once_under_its_options(
    harness: Harness, system: str | None, command: str, options: dict, kind: str
) -> None:
    """The expression (and D&D's damage type) is an option of the command: kept under
    ``options`` only, where *Repetir* reads it, and read from there by the chronicle, the
    statistics and the damage button."""
    if system is not None:
        await harness.table_for(system)
    harness.script(3, 4)
    await harness.slash(command, **options)
    assert harness.bot is not None
    [record] = await harness.bot.store.records(CHANNEL_ID, kind)
    asked = record.data["options"]
    assert {k: asked[k] for k in options} == options
    assert not set(options) & set(record.data)
    reading = read("es", kind, record.data)
    assert reading is not None and reading.result == "2d6+1 = 8"


# /tirar's roll in each shape it was ever stored: before every roll kept its options (at
# the top), then with its options and the expression at the top again, and today's.
TIRAR_SHAPES = [
    {"expresion": "2d6+1", "privada": False, "secreta": False, "motivo": None, "total": 8},
    {"options": {"expresion": "2d6+1"}, "privada": False, "secreta": False, "expresion": "2d6+1", "total": 8},
    {"options": {"expresion": "2d6+1"}, "privada": False, "secreta": False, "total": 8},
]


@pytest.mark.parametrize("data", TIRAR_SHAPES)
def test_an_expression_roll_reads_the_same_in_every_shape_it_was_stored(data: dict) -> None:
    reading = read("es", "tirar", {**data, "dados": [[6, 3], [6, 4]]})
    assert reading is not None and (reading.result, reading.dice) == ("2d6+1 = 8", ((6, 3), (6, 4)))


def new_rolls(seed: int) -> list[tuple[str, dict[str, Any]]]:
    """Every kind whose system declares its dice alone, as its rules write it new."""
    rng = random.Random(seed)
    d20 = dnd_checks.roll_test(rng, 2, dnd_checks.Mode.ADVANTAGE, 12)
    inspired = dnd_checks.use_inspiration(d20, rng, 0)
    sides = [{"side": {}, "test": checks.roll_to_data(checks.roll_test(rng, 5, None))} for _ in range(3)]
    helper = skill_test.HelperSpec(7, 9)
    expression = {"options": {"expresion": "2d6+1d4"}, "total": 9, "dados": [[6, 3], [6, 2], [4, 4]]}
    return [
        ("tirar", expression),
        ("dnd_tirar", expression),
        ("dnd", {"test": dnd_checks.roll_to_data(d20)}),
        ("dnd", {"test": dnd_checks.roll_to_data(inspired)}),
        ("donjon", posted.to_data(posted.DonjonRoll("prueba", contest.roll_contest(rng, 3, 2, 6)))),
        ("dune", skill_test.to_data(skill_test.roll_test(rng, 10, dice=3, helpers=[helper]))),
        ("mediana", {"test": checks.roll_to_data(checks.roll_test(rng, 5, 10))}),
        ("mediana", {"kind": "enfrentada", "entries": sides[:2]}),
        ("mediana", {"kind": "competicion", "entries": sides, "open": False}),
        ("mediana", {"kind": "competicion", "entries": [{"side": {}}], "open": True}),
        (
            "mediana_efecto",
            {"effect": effects.EFFECTS.to_data(effects.roll_effect(rng, effects.EffectSpec(3)))},
        ),
    ]


@pytest.mark.parametrize("seed", range(20))
def test_a_new_rolls_dice_are_the_readers_without_decoding_it(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statistics count a new roll's dice from its kind's dice alone (``Declaration.dice``):
    the same system and dice its reader gives, without the reader (it decodes and tells
    the whole roll) and without one decoding."""
    declare_all()
    rolled = new_rolls(seed)
    read_whole = [faces(kind, data) for kind, data in rolled]
    decodes = Decodes(monkeypatch)
    monkeypatch.setattr(readers, "read", None)
    for (kind, data), expected in zip(rolled, read_whole, strict=True):
        assert new_faces(kind, data) == expected, (kind, data)
        assert expected[1] or data.get("open"), (kind, data)
    assert decodes.calls == []


def test_a_new_roll_in_a_shape_its_dice_cannot_read_is_counted_as_its_reader_reads_it() -> None:
    """A Mediana test of before the codec (a throw as ``[dice, rank]``): read whole."""
    declare_all()
    throw = {"throws": [[[5, 6, 7], "medio"]], "score": 5, "difficulty": None, "skill_test": True}
    assert new_faces("mediana", {"test": throw}) == ("mediana", ((10, 5), (10, 6), (10, 7)))


@pytest.mark.parametrize(("system", "command", "options", "kind"), [(s, c, o, k) for s, c, o, k, _ in ROLLS])
async def test_a_new_rolls_card_and_statistics_decode_it_at_most_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, system: str, command: str, options: dict, kind: str
) -> None:
    """A new roll's card is drawn from the value just thrown (Dune, Donjon, Mediana: never
    decoded) or from one decoding its embed and buttons share (D&D, whose value its builder
    keeps to itself); its dice reach the statistics undecoded. Each had decoded it on its own
    (issue 29), then the card's flow once (cards10)."""
    await harness.table_for(system)
    decodes = Decodes(monkeypatch)
    await harness.slash(command, **options)
    assert decodes.calls == ([system] if system == "dnd5e" else [])


async def test_a_dune_button_decodes_the_roll_for_its_decision_and_once_for_its_card(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """*Guardar Impulso*: the rules decide on the roll as stored, and the redrawn card and
    its task's announcement draw from one decoding (the announcement decoded it again)."""
    await harness.table_for("dune")
    harness.script(1, 1)
    posted_roll = await harness.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    decodes = Decodes(monkeypatch)
    saved = await harness.click(harness.current(posted_roll.message), "dune:guardar:1")
    assert "Impulso guardado" in saved.text
    assert decodes.calls == ["dune", "dune"]
