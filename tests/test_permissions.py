"""The permission matrix: every command and every button, used by the GM, a player and an
outsider, in the table's channel and in its GM channel.

Each use is either allowed (no refusal, and the state changes when the command is meant
to change it) or refused (a translated refusal, and the database exactly as before).
A command added without a row here fails ``test_every_command_is_in_the_matrix``.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from discord import AppCommandType, app_commands

from bot import charts, embeds
from bot.models import Change, Operation, SavedRoll
from tests.support.harness import Harness, Message, Reply, Upload
from tests.support.payloads import (
    ADMIN,
    CHANNEL_ID,
    GM,
    GM_CHANNEL_ID,
    OTHER,
    OTHER_CHANNEL_ID,
    PLAYER,
    User,
)

OTHER_GUILD_ID = 910000000000000002

GM_ONLY = frozenset({"gm"})
OWN = frozenset({"gm", "player"})  # the player acts on their own things; the outsider on the player's
ANYONE = frozenset({"gm", "player", "other"})
ROLES = {"gm": GM, "player": PLAYER, "other": OTHER}

Setup = Callable[[Harness], Awaitable[dict[str, Any] | None]]


@dataclass(frozen=True)
class Case:
    command: str
    system: str = "dune"
    options: dict[str, Any] = field(default_factory=dict)
    allowed: frozenset[str] = ANYONE
    # True: an allowed use changes the database; False: it never does; None: it depends.
    changes: bool | None = True
    setup: Setup | None = None
    in_gm_channel: bool = True

    def __str__(self) -> str:
        return self.command


SETUP_IDS = itertools.count(1)


async def add(h: Harness, *changes: Change) -> None:
    """Pool changes made outside any interaction, each under its own id."""
    assert h.bot is not None
    await h.bot.store.apply(Operation(CHANNEL_ID, -next(SETUP_IDS), GM.id, "setup", changes))


async def some_pools(h: Harness) -> None:
    await add(h, Change("impulso", 3, cap=6), Change("amenaza", 5), Change("dados_dj", 2))
    await add(h, *(Change("determinacion", set_to=1, owner_id=u.id, cap=3) for u in ROLES.values()))


async def sheets(h: Harness) -> None:
    for user in (GM, PLAYER, OTHER):
        await h.slash("mediana pv fijar", user=user, fisico=5, maximo=20, actual=15)


DUNE_SHEET = (Path(__file__).resolve().parents[1] / "docs" / "fichas" / "dune.json").read_bytes()
DND_SHEET = (Path(__file__).resolve().parents[1] / "docs" / "fichas" / "dnd5e.json").read_bytes()


async def own_sheets(h: Harness) -> None:
    """Each user's own Dune sheet, called Ana, active."""
    for user in (GM, PLAYER, OTHER):
        await h.slash("ficha crear", user=user, nombre="Ana")


async def fresh_trait(h: Harness) -> dict[str, Any]:
    """Pools to pay with and a trait the scene does not have yet."""
    await some_pools(h)
    return {"texto": f"humo {next(SETUP_IDS)}"}


async def crossed_drive(h: Harness) -> dict[str, Any]:
    """The player's sheet with Deber crossed out (defied on a roll)."""
    await h.slash("ficha importar", user=PLAYER, archivo=Upload("f.json", DUNE_SHEET))
    await h.slash("dune tirada", user=PLAYER, habilidad="combate", motivacion="deber", desafiar=True)
    return {"ficha": "Irulan Vex"}


async def created_assets(h: Harness) -> None:
    """Everyone's own sheet, an asset each created this scene, and Impulso to keep it."""
    await own_sheets(h)
    await some_pools(h)
    await add(h, *(Change("recurso:Cuerda", owner_id=u.id, set_to=1, cap=1) for u in ROLES.values()))


async def table_roll(h: Harness) -> None:
    """A roll the GM saved for the whole table (kept once: later calls find it there)."""
    assert h.bot is not None
    saved = SavedRoll(0, CHANNEL_ID, 0, GM.id, "iniciativa", "tirar", {"expresion": "1d20", "valores": {}})
    await h.bot.store.save_named_roll(saved, 100)


async def improved_rolls(h: Harness) -> None:
    """Everyone has a fresh Jugador Mejorado roll (all threes) to move a point on."""
    for user in (GM, PLAYER, OTHER):
        h.script(*([3] * 18))
        await h.slash("donjon atributos", user=user, metodo="jugador_mejorado")


async def dnd_tracker(h: Harness) -> dict[str, Any]:
    """A tracker with two monsters tied on initiative; the option names the second."""
    await h.slash("dnd iniciativa panel", user=GM)
    for name in ("Orco", "Trasgo"):
        h.script(10)
        await h.slash("dnd iniciativa monstruos", user=GM, nombre=name, modificador=1)
    assert h.bot is not None
    h.bot.rng = random.Random(1)
    tracker = (await h.bot.store.records(CHANNEL_ID, "dnd_combate", 1))[0]
    return {"combatiente": tracker.data["entries"][-1]["combatant"]["key"]}


async def dnd_tracker_open(h: Harness) -> None:
    await h.slash("dnd iniciativa panel", user=GM)


async def dnd_target(h: Harness) -> dict[str, Any]:
    """The tied monsters' tracker; the option names the second as a target."""
    return {"objetivo": (await dnd_tracker(h))["combatiente"]}


async def dnd_stunned(h: Harness) -> dict[str, Any]:
    """The tracker's second monster is stunned (the GM set it), for clearing."""
    target = await dnd_target(h)
    await h.slash("dnd condicion poner", user=GM, condicion="aturdido", **target)
    return target


async def dnd_dying(h: Harness) -> dict[str, Any]:
    """The player's character (the example sheet) at 0 hit points on the tracker, with no
    death saving throw made yet: joined again each time, dropped by a GM's hit once."""
    assert h.bot is not None
    key = f"u{PLAYER.id}"
    await h.slash("dnd iniciativa panel", user=GM)
    if await h.bot.store.active_sheet(CHANNEL_ID, PLAYER.id) is None:
        await h.slash("ficha importar", archivo=Upload("dnd5e.json", DND_SHEET))
    else:
        await h.slash("dnd iniciativa quitar", user=GM, combatiente=key)
    h.script(10)
    await h.slash("dnd iniciativa unirme")
    if "PG 38/38" in (await h.slash("ficha ver")).text:
        h.script(10)
        attack = await h.slash("dnd ataque", user=GM, objetivo=key, bonificador=30, dano="40")
        button = next(c for c in attack.message.custom_ids if c.startswith("dnd:dano:"))
        await h.click(attack.message, button, user=GM)
    h.bot.rng = random.Random(1)
    return {"combatiente": key}


CASES = [
    # /mesa
    Case("mesa estado", changes=False),
    Case("mesa sistema", options={"sistema": "dune"}, allowed=GM_ONLY, changes=None),
    Case("mesa dj", allowed=GM_ONLY, changes=None),
    Case("mesa canal-dj", options={"canal": "gm"}, allowed=GM_ONLY, changes=None, in_gm_channel=False),
    Case("mesa ajustes", changes=False),
    Case("mesa ajustes", options={"secretas_jugadores": False}, allowed=GM_ONLY, changes=None),
    Case("mesa escena-fin", allowed=GM_ONLY, setup=some_pools),
    Case("mesa historial", changes=False, setup=some_pools),
    Case("mesa deshacer", allowed=GM_ONLY, setup=some_pools),
    Case("mesa reiniciar", allowed=GM_ONLY, changes=False),
    Case("mesa tablero", allowed=GM_ONLY, changes=False),  # the board's place is in meta
    # Refused to everyone here, where no web server runs (the GM's link: tests/web).
    Case("mesa overlay", allowed=frozenset(), changes=False),
    Case("tirar", options={"expresion": "1d20"}),
    # /dune
    Case("dune impulso ver", changes=False),
    Case("dune impulso añadir", options={"cantidad": 1}, allowed=GM_ONLY),
    Case("dune impulso gastar", options={"cantidad": 1}, setup=some_pools),
    Case("dune amenaza ver", changes=False),
    Case("dune amenaza añadir", options={"cantidad": 1}),
    Case("dune amenaza gastar", options={"cantidad": 1}, allowed=GM_ONLY, setup=some_pools),
    Case("dune determinacion ver", changes=False),
    Case("dune determinacion dar", options={"jugador": PLAYER}, allowed=GM_ONLY, setup=some_pools),
    Case("dune determinacion quitar", options={"jugador": PLAYER}, allowed=GM_ONLY, setup=some_pools),
    Case("dune determinacion gastar", setup=some_pools),
    Case("dune tarea crear", options={"nombre": "Huir", "requisito": 3}, allowed=GM_ONLY),
    Case("dune rasgo", setup=fresh_trait),
    Case("dune rasgo", options={"pago": "amenaza"}, allowed=GM_ONLY, setup=fresh_trait),
    Case("dune recuperar", options={"motivacion": "deber"}, allowed=GM_ONLY, setup=crossed_drive),
    Case("dune recurso", options={"recurso": "Cuerda"}, setup=created_assets),
    Case("dune tarea ver", changes=False),
    Case("dune tirada", options={"habilidad": 6, "motivacion": 6}),
    Case("dune tirada", options={"habilidad": 6, "motivacion": 6, "pnj": True}, allowed=GM_ONLY),
    Case("dune enfrentada", options={"habilidad": 6, "motivacion": 6, "rival_objetivo": 10}),
    Case("dune ayuda", options={"habilidad": 6, "motivacion": 6}),
    Case(
        "dune aventura",
        options={"jugadores": f"<@{PLAYER.id}> <@{OTHER.id}>"},
        allowed=GM_ONLY,
        changes=None,
        setup=some_pools,
    ),
    # /donjon
    *(
        Case(f"donjon gastos {kind}", "donjon", options)
        for kind, options in (
            ("comprar", {"riqueza": 2, "sociabilidad": 2, "valor": 2}),
            ("provisiones", {"riqueza": 2, "sociabilidad": 2, "provisiones": 2}),
            ("influencia", {"riqueza": 2, "sociabilidad": 2, "riqueza_pnj": 1, "discernimiento_pnj": 1}),
            ("objeto", {"provisiones": 2, "cerebralidad": 2}),
            ("vender", {"valor": 2, "sociabilidad": 2, "riqueza": 1}),
        )
    ),
    Case("donjon banco ver", "donjon", changes=False),
    Case("donjon banco ajustar", "donjon", {"cantidad": 1, "jugador": PLAYER}, allowed=GM_ONLY),
    Case("donjon prueba", "donjon", {"dados": 2}),
    Case("donjon enfrentada", "donjon", {"rival": ADMIN, "dados": 2, "rival_dados": 2}),
    Case("donjon daño", "donjon", {"aguante": 2}),
    Case("donjon daño", "donjon", {"aguante": 2, "bonificacion_dj": 1}, allowed=GM_ONLY, setup=some_pools),
    Case("donjon hechos", "donjon", changes=False),
    Case("donjon ajustes", "donjon", changes=False),
    Case("donjon ajustes", "donjon", {"nivel": 2}, allowed=GM_ONLY, changes=None),
    Case("donjon iniciativa", "donjon", changes=None),
    Case("donjon atributos", "donjon"),
    Case("donjon cambiar", "donjon", {"sube": "virilidad", "baja": "aguante"}, setup=improved_rolls),
    Case(
        "donjon puntos",
        "donjon",
        {
            "virilidad": 4,
            "cerebralidad": 4,
            "discernimiento": 4,
            "celeridad": 3,
            "aguante": 3,
            "sociabilidad": 3,
        },
        changes=False,
    ),
    # /dnd
    Case("dnd inspiracion ver", "dnd5e", changes=False),
    Case("dnd inspiracion dar", "dnd5e", {"jugador": PLAYER}, allowed=GM_ONLY),
    Case("dnd iniciativa panel", "dnd5e", changes=None),
    Case("dnd iniciativa unirme", "dnd5e", {"modificador": 2}, setup=dnd_tracker_open),
    Case(
        "dnd iniciativa monstruos",
        "dnd5e",
        {"nombre": "Orco", "modificador": 1},
        GM_ONLY,
        setup=dnd_tracker_open,
    ),
    Case("dnd iniciativa subir", "dnd5e", allowed=GM_ONLY, setup=dnd_tracker),
    Case("dnd iniciativa quitar", "dnd5e", allowed=GM_ONLY, setup=dnd_tracker),
    Case("dnd prueba", "dnd5e", {"modificador": 2}),
    Case("dnd salvacion", "dnd5e", {"caracteristica": "fuerza", "modificador": 2}),
    Case("dnd ataque", "dnd5e", {"bonificador": 5, "ca": 12}),
    Case("dnd tirar", "dnd5e", {"expresion": "1d20"}),
    Case("dnd muerte", "dnd5e", allowed=OWN, setup=dnd_dying),
    Case("dnd condicion poner", "dnd5e", {"condicion": "aturdido"}, allowed=GM_ONLY, setup=dnd_target),
    Case("dnd condicion quitar", "dnd5e", {"condicion": "aturdido"}, allowed=GM_ONLY, setup=dnd_stunned),
    # /mediana
    Case("mediana pv fijar", "mediana", {"fisico": 5, "maximo": 20, "jugador": PLAYER}, allowed=OWN),
    Case("mediana pv ver", "mediana", {"jugador": PLAYER}, changes=False, setup=sheets),
    Case("mediana pv daño", "mediana", {"cantidad": 1, "jugador": PLAYER}, allowed=OWN, setup=sheets),
    Case("mediana pv curar", "mediana", {"cantidad": 1, "jugador": PLAYER}, allowed=OWN, setup=sheets),
    Case("mediana tirada", "mediana", {"atributo": 5, "dificultad": 10}),
    Case("mediana atributo", "mediana", {"atributo": 5, "dificultad": 10}),
    Case(
        "mediana enfrentada",
        "mediana",
        {"atributo": 5, "habilidad": 2, "rival_atributo": 5, "rival_habilidad": 2},
    ),
    Case("mediana daño", "mediana", {"dados": "2d6"}),
    Case("mediana competicion", "mediana"),
    Case("mediana iniciativa", "mediana", changes=None),
    Case("mediana descanso", "mediana", setup=sheets),
    # /ficha: everyone acts on their own sheet; NPCs and the table's setting are the GM's.
    Case("ficha crear", options={"nombre": "Nueva"}),
    Case("ficha crear", options={"nombre": "Nueva", "pnj": True}, allowed=GM_ONLY),
    Case("ficha importar", options={"archivo": Upload("f.json", DUNE_SHEET)}),
    Case("ficha ver", changes=False, setup=own_sheets),
    Case("ficha exportar", changes=False, setup=own_sheets),
    Case("ficha editar", options={"campo": "habilidades.combate", "valor": "5"}, setup=own_sheets),
    Case("ficha elegir", options={"ficha": "Ana"}, changes=None, setup=own_sheets),
    Case("ficha borrar", options={"ficha": "Ana"}, setup=own_sheets),
    Case("ficha publicas", options={"publicas": True}, allowed=GM_ONLY, changes=None),
    # /probabilidad
    Case("probabilidad donjon", "donjon", {"dados": 3}, changes=False),
    Case("probabilidad dune", options={"habilidad": 6, "motivacion": 6}, changes=False),
    Case("probabilidad dnd", "dnd5e", {"modificador": 3}, changes=False),
    Case("probabilidad mediana", "mediana", {"atributo": 5, "dificultad": 10}, changes=False),
    Case("mesa cronica", allowed=GM_ONLY, changes=False),
    Case("estadisticas", options={"de": "mesa"}, changes=False),
    # /guardada
    Case("guardada crear", options={"nombre": "ataque", "expresion": "1d20+{b}", "valores": "b=2"}),
    Case("guardada tirar", options={"nombre": "iniciativa"}, setup=table_roll),
    Case("guardada ver", changes=False, setup=table_roll),
    Case("guardada borrar", options={"nombre": "iniciativa"}, allowed=GM_ONLY, setup=table_roll),
]


def snapshot(h: Harness) -> tuple[Any, ...]:
    """Everything the store holds, read by another connection as an outsider would."""
    with sqlite3.connect(h.db_path) as db:
        return tuple(
            db.execute(sql).fetchall()
            for sql in (
                "SELECT * FROM tables ORDER BY channel_id",
                "SELECT channel_id, pool, owner_id, value FROM pools ORDER BY 1, 2, 3",
                "SELECT count(*) FROM ledger",
                "SELECT id, version, retired, data FROM records ORDER BY id",
                "SELECT * FROM reveals",
                "SELECT id, owner_id, npc, name, data, active, version FROM sheets ORDER BY id",
                "SELECT * FROM saved_rolls ORDER BY id",
            )
        )


def refused(reply: Reply) -> bool:
    answer = reply.callback.payload
    data = answer.get("data") or {}
    colours = [e.get("color") for e in data.get("embeds", [])]
    return answer.get("type") == 4 and bool(data.get("flags", 0) & 64) and embeds.REFUSAL.value in colours


@pytest.fixture
async def linked(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Harness:
    """A table run by GM with its GM channel linked; charts stubbed (drawn in their own tests)."""

    async def no_chart(*args: object) -> bytes:
        return b"\x89PNG"

    monkeypatch.setattr(charts, "bar_chart", no_chart)
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    gm_channel = next(c for c in harness.channels if int(c["id"]) == GM_CHANNEL_ID)
    await harness.slash("mesa canal-dj", user=GM, canal=gm_channel)
    return harness


def with_channels(h: Harness, options: dict[str, Any]) -> dict[str, Any]:
    if options.get("canal") == "gm":
        return {**options, "canal": next(c for c in h.channels if int(c["id"]) == GM_CHANNEL_ID)}
    return options


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c.command}{'+' if c.options else ''}{i}" for i, c in enumerate(CASES)]
)
@pytest.mark.parametrize("where", ["table", "gm-channel"])
async def test_command(linked: Harness, case: Case, where: str) -> None:
    await linked.slash("mesa sistema", user=GM, sistema=case.system)
    channel_id = CHANNEL_ID if where == "table" else GM_CHANNEL_ID
    allowed = case.allowed if where == "table" or case.in_gm_channel else frozenset()
    for role in ("other", "player", "gm"):
        extra = (await case.setup(linked) or {}) if case.setup else {}
        before = snapshot(linked)
        user: User = ROLES[role]
        reply = await linked.slash(
            case.command, user=user, channel_id=channel_id, **with_channels(linked, case.options | extra)
        )
        after = snapshot(linked)
        if role in allowed:
            assert not refused(reply), f"{role} was refused /{case.command} in {where}: {reply.text}"
            if case.changes is not None:
                assert (before != after) == case.changes, f"/{case.command} by {role} in {where}"
        else:
            assert refused(reply), f"{role} was allowed /{case.command} in {where}: {reply.text}"
            assert before == after, f"a refused /{case.command} by {role} changed the database"


def test_every_command_is_in_the_matrix(harness: Harness) -> None:
    assert harness.bot is not None

    def walk(command: Any) -> list[str]:
        if isinstance(command, app_commands.Group):
            return [name for sub in command.commands for name in walk(sub)]
        return [command.qualified_name]

    # qualified names are the Spanish ones: the command tree is declared in Spanish.
    declared = {
        name
        for command in harness.bot.tree.get_commands(type=AppCommandType.chat_input)
        for name in walk(command)
    }
    assert declared == {c.command for c in CASES}


# -- buttons ------------------------------------------------------------------------------------

Press = Callable[[Harness], Awaitable[Message]]


@dataclass(frozen=True)
class ButtonCase:
    """A message posted by ``post`` (by the player, in the table's channel unless secret),
    and for each of its buttons who may press it."""

    name: str
    system: str
    post: Press
    allowed: dict[str, frozenset[str]]
    # For a select menu: what is picked, and the component type (3 strings, 5 users).
    values: list[str] | None = None
    component_type: int = 2


async def dune_roll(h: Harness) -> Message:
    await add(h, Change("impulso", 6, cap=6, clamp=True))  # enough to spend on anything
    await add(h, Change("determinacion", 3, owner_id=PLAYER.id, cap=3, clamp=True))
    h.script(1, 20, 5, 6)  # a critical and a complication: passed with one Momentum; a reroll
    return (await h.slash("dune tirada", habilidad=6, motivacion=6, rango_complicacion=5)).message


async def dune_failed(h: Harness) -> Message:
    h.script(20, 19)
    return (await h.slash("dune tirada", habilidad=6, motivacion=6)).message


async def dune_assist(h: Harness) -> Message:
    return (await h.slash("dune ayuda", habilidad=6, motivacion=6)).message


async def donjon_won(h: Harness) -> Message:
    h.script(3, 11, 12, 13, 15, 5, 8, 10, 13, 15)
    return (await h.slash("donjon prueba", dados=5, contra=5)).message


async def donjon_told(h: Harness) -> Message:
    """Every success told as a fact: the narration the GM (the loser) marks as narrated."""
    panel = await donjon_won(h)
    record_id = panel.custom_ids[0].rsplit(":", 1)[1]
    last = None
    for n in range(4):
        opened = await h.click(h.current(panel), f"donjon:ley:hecho:{record_id}")
        last = await h.submit(opened.modal_id, {"hecho": f"Hecho {n}"}, message=h.current(panel))
    assert last is not None
    return last.messages[-1]


async def donjon_friend_menu(h: Harness) -> Message:
    h.script(10, 1)
    panel = (await h.slash("donjon prueba", dados=1, contra=1)).message
    record_id = panel.custom_ids[0].rsplit(":", 1)[1]
    return (await h.click(panel, f"donjon:ley:amigo:{record_id}")).message


async def donjon_started(h: Harness) -> Message:
    """A Ráfaga with one player's group acting first (the player rolls 20s, the NPC 1s)."""
    panel = await donjon_combat(h)
    combat_id = panel.custom_ids[0].split(":")[3]
    h.script(20, 20)
    opened = await h.click(h.current(panel), f"donjon:ini:unirme:{combat_id}:0")
    await h.submit(opened.modal_id, {"dados": ["2"]}, message=h.current(panel))
    h.script(1)
    form = await h.click(h.current(panel), f"donjon:ini:pnj:{combat_id}:0", user=GM)
    await h.submit(form.modal_id, {"nombre": "Trasgo", "dados": ["1"]}, user=GM, message=h.current(panel))
    return h.current(panel)


async def dune_opposed_menu(h: Harness) -> Message:
    h.script(2, 3, 5, 6)  # the opposition's dice, then the actor's
    return (await h.slash("dune enfrentada", habilidad=6, motivacion=6, rival_objetivo=10)).message


async def dnd_pass_menu(h: Harness) -> Message:
    await h.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    return (await h.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)).message


async def dnd_started(h: Harness) -> Message:
    """A new combat, started, with the player acting first."""
    old = (await h.slash("dnd iniciativa panel", user=GM)).message
    ending = next(
        (c for c in old.custom_ids if "terminar" in c and "empezar" not in str(old.custom_ids)), None
    )
    if ending is not None:
        await h.click(old, ending, user=GM)
        await h.slash("dnd iniciativa panel", user=GM)
    h.script(20)
    await h.slash("dnd iniciativa unirme", modificador=5)
    assert h.bot is not None
    tracker = (await h.bot.store.records(CHANNEL_ID, "dnd_combate", 1))[0]
    panel = h.discord.messages[tracker.message_id or 0]
    await h.click(panel, next(c for c in panel.custom_ids if "empezar" in c), user=GM)
    return h.current(panel)


async def donjon_combat(h: Harness) -> Message:
    return (await h.slash("donjon iniciativa", user=GM)).message


async def donjon_remove_menu(h: Harness) -> Message:
    """The GM's menu of who to take out of a started Ráfaga."""
    panel = await donjon_started(h)
    combat_id = panel.custom_ids[0].split(":")[3]
    return (await h.click(panel, f"donjon:ini:quitar:{combat_id}:0", user=GM)).message


async def dnd_panel(h: Harness) -> Message:
    """A panel with a monster in (so it can start) and every player still free to join."""
    await h.slash("dnd iniciativa panel", user=GM)
    await h.slash("dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=1)
    assert h.bot is not None
    tracker = (await h.bot.store.records(CHANNEL_ID, "dnd_combate", 1))[0]
    return h.discord.messages[tracker.message_id or 0]


async def dnd_inspired(h: Harness) -> Message:
    await h.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    return (await h.slash("dnd prueba", modificador=1)).message


async def mediana_hit(h: Harness) -> Message:
    h.script(9, 9, 9)
    return (await h.slash("mediana tirada", atributo=5, dificultad=5, ataque=True)).message


async def mediana_tie(h: Harness) -> Message:
    h.script(5, 5, 5, 5, 5, 5)
    return (
        await h.slash("mediana enfrentada", atributo=5, habilidad=2, rival_atributo=5, rival_habilidad=2)
    ).message


async def mediana_combat(h: Harness) -> Message:
    return (await h.slash("mediana iniciativa", user=GM)).message


async def tirar_roll(h: Harness) -> Message:
    return (await h.slash("tirar", expresion="1d6")).message


async def secret_by_player(h: Harness) -> Message:
    reply = await h.slash("tirar", expresion="1d6", secreta=True)
    return next(m for m in reply.messages if m.channel_id == GM_CHANNEL_ID)


async def history(h: Harness) -> Message:
    for _ in range(11):
        await h.slash("dune amenaza añadir", cantidad=1)
    return (await h.slash("mesa historial")).message


async def reset_question(h: Harness) -> Message:
    return (await h.slash("mesa reiniciar", user=GM)).message


BUTTON_CASES = [
    ButtonCase(
        "dune roll",
        "dune",
        dune_roll,
        {
            "dune:info": OWN,
            "dune:rasgo": OWN,
            "dune:recurso": OWN,
            "dune:guardar": OWN,
            "dune:ignorar": OWN,
            "dune:repetir": OWN,
        },
    ),
    ButtonCase("dune failed", "dune", dune_failed, {"dune:precio": GM_ONLY}),
    ButtonCase(
        "dune assist",
        "dune",
        dune_assist,
        {"dune:ayuda:unirme": frozenset({"gm", "other"}), "dune:ayuda:tirar": frozenset({"player"})},
    ),
    ButtonCase(
        "donjon law",
        "donjon",
        donjon_won,
        # Only the winner allocates ("el ganador"), not even the GM.
        {p: frozenset({"player"}) for p in ("donjon:ley:hecho", "donjon:ley:dado", "donjon:ley:amigo")},
    ),
    ButtonCase("donjon narrated", "donjon", donjon_told, {"donjon:narrado": GM_ONLY}),
    ButtonCase(
        "donjon friend menu",
        "donjon",
        donjon_friend_menu,
        {"donjon:amigo": frozenset({"player"})},
        values=[str(OTHER.id)],
        component_type=5,
    ),
    ButtonCase("donjon turn", "donjon", donjon_started, {"donjon:ini:siguiente": OWN}),
    ButtonCase("donjon remove", "donjon", donjon_started, {"donjon:ini:quitar": GM_ONLY}),
    ButtonCase(
        "donjon remove menu",
        "donjon",
        donjon_remove_menu,
        {"donjon:quitar": GM_ONLY},
        values=[f"u{PLAYER.id}"],
        component_type=3,
    ),
    ButtonCase(
        "dune opposed answer", "dune", dune_opposed_menu, {"dune:contra-responder": frozenset({"player"})}
    ),
    ButtonCase(
        "dnd pass menu", "dnd5e", dnd_pass_menu, {"dnd:pasar": frozenset({"player"})}, [str(OTHER.id)], 5
    ),
    ButtonCase("dnd turn", "dnd5e", dnd_started, {"dnd:ini:siguiente": OWN}),
    ButtonCase(
        "donjon combat",
        "donjon",
        donjon_combat,
        {
            "donjon:ini:unirme": ANYONE,
            "donjon:ini:pnj": GM_ONLY,
            "donjon:ini:rafaga": GM_ONLY,
            "donjon:ini:terminar": GM_ONLY,
        },
    ),
    ButtonCase(
        "dnd tracker",
        "dnd5e",
        dnd_panel,
        {"dnd:ini:unirme": ANYONE, "dnd:ini:empezar": GM_ONLY, "dnd:ini:terminar": GM_ONLY},
    ),
    ButtonCase("dnd inspiration", "dnd5e", dnd_inspired, {"dnd:insp0": frozenset({"player"})}),
    ButtonCase("mediana hit", "mediana", mediana_hit, {"mediana:dano": OWN}),
    ButtonCase(
        "mediana tie", "mediana", mediana_tie, {"mediana:aceptar": GM_ONLY, "mediana:repetir": GM_ONLY}
    ),
    ButtonCase(
        "mediana combat",
        "mediana",
        mediana_combat,
        {
            "mediana:ini:unirme": ANYONE,
            "mediana:ini:pnj": GM_ONLY,
            "mediana:ini:ronda": GM_ONLY,
            "mediana:ini:terminar": GM_ONLY,
        },
    ),
    ButtonCase("tirar", "dune", tirar_roll, {"rep:repetir": ANYONE}),
    ButtonCase("secret roll", "dune", secret_by_player, {"secreta:revelar": GM_ONLY}),
    ButtonCase("history", "dune", history, {"mesa:historial": ANYONE}),
    ButtonCase("reset", "dune", reset_question, {"mesa:reiniciar:si": GM_ONLY, "mesa:reiniciar:no": GM_ONLY}),
]


async def post(h: Harness, case: ButtonCase) -> Message:
    """Post the case's message; dice rolled afterwards (by the buttons) are seeded."""
    message = await case.post(h)
    assert h.bot is not None
    h.bot.rng = random.Random(7)
    return message


@pytest.mark.parametrize("case", BUTTON_CASES, ids=[c.name for c in BUTTON_CASES])
async def test_buttons(linked: Harness, case: ButtonCase) -> None:
    """Each button pressed by the outsider, the player and the GM: refused presses change
    nothing; an allowed press (each on a fresh message, as it may change it) is answered
    without a refusal (an update, a form or a new message)."""
    await linked.slash("mesa sistema", user=GM, sistema=case.system)
    for prefix, allowed in case.allowed.items():
        refused_message = await post(linked, case)
        for role in ("other", "player", "gm"):
            message = refused_message if role not in allowed else await post(linked, case)
            custom_id = next((c for c in message.custom_ids if c.startswith(prefix)), None)
            assert custom_id is not None, f"{case.name}: no {prefix} in {message.custom_ids}"
            before = snapshot(linked)
            reply = await linked.click(
                linked.current(message),
                custom_id,
                user=ROLES[role],
                values=case.values,
                component_type=case.component_type,
            )
            if role in allowed:
                assert not refused(reply), f"{role} refused {custom_id}: {reply.text}"
            else:
                assert refused(reply), f"{role} allowed {custom_id}: {reply.calls}"
                assert snapshot(linked) == before, f"a refused {custom_id} by {role} changed the database"


ELSEWHERE = {
    "another table's channel": {"channel_id": OTHER_CHANNEL_ID},
    "another server": {"guild_id": OTHER_GUILD_ID},
    "another server's channel": {"channel_id": OTHER_CHANNEL_ID, "guild_id": OTHER_GUILD_ID},
}


@pytest.mark.parametrize("case", BUTTON_CASES, ids=[c.name for c in BUTTON_CASES])
async def test_buttons_from_elsewhere(linked: Harness, case: ButtonCase) -> None:
    """Every button, pressed by whoever may press it at its table (and an administrator),
    with its ``custom_id`` arriving from a channel that is neither its table's nor that
    table's GM channel, or from another server: refused, nothing changed."""
    await linked.slash("mesa sistema", user=GM, sistema=case.system)
    message = await post(linked, case)
    for prefix, allowed in case.allowed.items():
        custom_id = next(c for c in message.custom_ids if c.startswith(prefix))
        for where, origin in ELSEWHERE.items():
            for user in [ROLES[role] for role in sorted(allowed)] + [ADMIN]:
                before = snapshot(linked)
                reply = await linked.click(
                    linked.current(message),
                    custom_id,
                    user=user,
                    values=case.values,
                    component_type=case.component_type,
                    **origin,
                )
                assert refused(reply), f"{custom_id} pressed from {where} was accepted: {reply.calls}"
                assert snapshot(linked) == before, f"{custom_id} from {where} changed the database"


async def test_a_gmless_tables_stand_in_needs_manage_channels_in_the_table(harness: Harness) -> None:
    """Without a GM, whoever may manage the table's channel acts as GM; from its GM channel
    the permissions that count are the table channel's, not the GM channel's."""
    gm_channel = next(c for c in harness.channels if int(c["id"]) == GM_CHANNEL_ID)
    await harness.slash("mesa canal-dj", user=ADMIN, canal=gm_channel)
    await harness.slash("mesa sistema", user=ADMIN, sistema="dune")
    message = (await harness.slash("mesa reiniciar", user=ADMIN, channel_id=GM_CHANNEL_ID)).message
    # GM has Manage Channels in the interaction (its permissions field), not in the table's
    # channel (the server gives @everyone no such permission).
    reply = await harness.click(message, message.custom_ids[0], user=GM)
    assert refused(reply), reply.calls
    reply = await harness.click(message, message.custom_ids[0], user=ADMIN)
    assert not refused(reply), reply.text


def test_every_button_is_in_the_matrix() -> None:
    """Every persistent button family the cogs register is pressed above."""
    import re

    from bot.repeat import RepeatButton
    from bot.reveal import RevealButton
    from cogs import mesa
    from cogs.dnd5e import combat as dnd5e_combat
    from cogs.dnd5e import components as dnd5e
    from cogs.donjon import combat as donjon_combat
    from cogs.donjon import components as donjon
    from cogs.dune import components as dune
    from cogs.dune import flow as dune_flow
    from cogs.mediana import combat as mediana_combat
    from cogs.mediana import components as mediana

    families = {
        dune.DuneButton,
        dune_flow.AssistButton,
        dune_flow.OpposedAnswerButton,
        donjon.LawButton,
        donjon.FriendSelect,
        donjon.NarratedButton,
        donjon.FactNarratedButton,
        dnd5e.PassSelect,
        donjon_combat.CombatButton,
        donjon_combat.RemoveSelect,
        dnd5e_combat.TrackerButton,
        dnd5e.InspirationButton,
        mediana.TestButton,
        mediana_combat.CombatButton,
        RepeatButton,
        RevealButton,
        mesa.HistoryButton,
        mesa.ResetButton,
    }
    pressed = [p for c in BUTTON_CASES for p in c.allowed]
    for family in families:
        pattern: re.Pattern[str] = family.__discord_ui_compiled_template__  # type: ignore[attr-defined]
        literal = pattern.pattern.split("(", 1)[0]
        assert any(f"{p}:".startswith(literal) for p in pressed), (
            f"no button of {family.__name__} in the matrix"
        )
