"""Hit points on the live board (issue 19): D&D's and Mediana's initiative shows them as the
table's setting says (``/mesa ajustes vida_tablero``), from the players' active sheets, and
every change of them (a sheet edit, damage, undo, the setting itself) redraws the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.board import hp as board_hp
from bot.board import render
from bot.i18n import t
from bot.models import BoardHitPoints, Change, Operation, SheetRow, TableSettings
from bot.store import Store
from cogs.dnd5e import board as dnd_board
from cogs.mediana import board as mediana_board
from rules.dnd5e import initiative, tracker
from rules.mediana import combat
from tests.bot.board.test_updater import play, shown
from tests.support.harness import Harness, Upload
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER

DOCS = Path(__file__).resolve().parents[3] / "docs" / "fichas"


async def sheet_of(h: Harness, system: str) -> None:
    """The example sheet of ``system`` (D&D: Lía Brezo, 38 PG; Mediana: Físico 3, 18 PV)."""
    upload = Upload(f"{system}.json", (DOCS / f"{system}.json").read_bytes())
    reply = await h.slash("ficha importar", archivo=upload)
    assert "importada" in reply.text, reply.text


async def dnd_table(h: Harness) -> Harness:
    """A D&D table with its board and an open combat (nobody in it yet)."""
    await play(h, "dnd5e")
    await h.slash("mesa tablero", user=GM)
    await h.slash("dnd iniciativa panel", user=GM)
    return h


async def dnd_fight(h: Harness) -> None:
    """The player at 17 and three goblins at 6."""
    h.script(15)
    await h.slash("dnd iniciativa unirme", modificador=2)
    h.script(5)
    await h.slash("dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=1, cantidad=3)


async def settings(h: Harness, value: str, locale: str = "es-ES") -> str:
    reply = await h.slash("mesa ajustes", user=GM, vida_tablero=value, locale=locale)
    assert reply.ephemeral
    return reply.text


# -- the setting -----------------------------------------------------------------------------


def test_the_board_shows_players_numbers_and_npcs_words_unless_the_gm_says_otherwise() -> None:
    """docs/decisiones.md: the default is ``estado``, what Avrae's combat summary shows."""
    assert TableSettings().board_hit_points is BoardHitPoints.STATE
    assert [v.value for v in BoardHitPoints] == ["ocultos", "estado", "exactos"]


async def test_only_the_gm_changes_it_and_the_settings_say_it(harness: Harness) -> None:
    await play(harness, "dnd5e")
    refused = await harness.slash("mesa ajustes", user=PLAYER, vida_tablero="exactos")
    assert refused.ephemeral and "DJ" in refused.text
    shown_now = (await harness.slash("mesa ajustes")).text
    assert "los puntos de vida de los personajes jugadores; de los demás, solo su estado" in shown_now
    assert "El tablero muestra los puntos de vida de todos" in await settings(harness, "exactos")
    assert "The board shows no hit points." in await settings(harness, "ocultos", "en-US")
    await harness.slash("mesa sistema", user=GM, sistema="dune")
    assert "puntos de vida" not in (await harness.slash("mesa ajustes")).text, "Dune's board has none"
    assert harness.bot is not None
    table = await harness.bot.store.table(CHANNEL_ID)
    assert table is not None and table.settings.board_hit_points is BoardHitPoints.HIDDEN


# -- D&D ---------------------------------------------------------------------------------------


async def test_dnd_player_numbers_from_the_active_sheet_and_no_sheet_no_hp(harness: Harness) -> None:
    h = await dnd_table(harness)
    await sheet_of(h, "dnd5e")
    await dnd_fight(h)
    h.script(12)
    await h.slash("dnd iniciativa unirme", user=OTHER, modificador=0)
    now = await shown(h)
    assert "17 · Jugadora · 38/38 PG\n12 · Otro\n6 · Goblin ×3" in now, now


async def test_dnd_hp_changes_redraw_the_board(harness: Harness) -> None:
    h = await dnd_table(harness)
    await sheet_of(h, "dnd5e")
    await dnd_fight(h)
    await h.slash("ficha editar", campo="pg.actuales", valor="30")
    assert "17 · Jugadora · 30/38 PG" in await shown(h)
    await h.slash("ficha editar", campo="pg.temporales", valor="1")
    assert "17 · Jugadora · 30/38 PG (+1 temporal)" in await shown(h)
    await h.slash("ficha editar", campo="pg.temporales", valor="5")
    assert "30/38 PG (+5 temporales)" in await shown(h)
    await h.slash("mesa deshacer", user=GM)
    await h.slash("mesa deshacer", user=GM)
    assert "17 · Jugadora · 30/38 PG\n" in await shown(h)
    await h.slash("ficha editar", campo="pg.maximos", valor="40")
    assert "17 · Jugadora · 30/40 PG" in await shown(h), "a sheet's file changed: the board too"


async def test_dnd_choosing_or_deleting_a_sheet_redraws_the_board(harness: Harness) -> None:
    """The combatant is the character who joined (the tracker keeps its sheet): another
    sheet made active changes nothing; that sheet deleted takes its numbers away."""
    h = await dnd_table(harness)
    await sheet_of(h, "dnd5e")
    await dnd_fight(h)
    await h.slash("ficha crear", nombre="Otra")
    assert "17 · Jugadora · 38/38 PG" in await shown(h), "the character who joined, not the new one"
    await h.slash("ficha elegir", ficha="Lía Brezo")
    assert "17 · Jugadora · 38/38 PG" in await shown(h)
    await h.slash("ficha borrar", ficha="Lía Brezo")
    now = await shown(h)
    assert "17 · Jugadora\n6 · Goblin ×3\n" in now and "/38 PG" not in now
    assert "a PG de la ficha n.º 1 (ahora 38)" in now, "a sheet's id is no user to mention"


async def test_dnd_setting_hidden_and_exact_redraw_the_board(harness: Harness) -> None:
    h = await dnd_table(harness)
    await sheet_of(h, "dnd5e")
    await dnd_fight(h)
    assert "38/38 PG" in await shown(h)
    await settings(h, "ocultos")
    hidden = await shown(h)
    assert "17 · Jugadora\n6 · Goblin ×3" in hidden and "PG" not in hidden
    await settings(h, "exactos")
    assert "17 · Jugadora · 38/38 PG" in await shown(h)


async def test_the_ledger_lines_keep_the_hit_points_the_setting_hides(harness: Harness) -> None:
    """The board's last ledger lines would tell the numbers: an NPC sheet's PG are left
    out under ``estado``, every hit point under ``ocultos``."""
    h = await dnd_table(harness)
    await sheet_of(h, "dnd5e")
    await h.slash("ficha crear", user=GM, nombre="Orco", pnj=True)
    await h.slash("ficha editar", user=GM, ficha="Orco", campo="pg.maximos", valor="15")
    await h.slash("ficha editar", user=GM, ficha="Orco", campo="pg.actuales", valor="15")
    await h.slash("ficha editar", campo="pg.actuales", valor="30")
    state = await shown(h)
    assert "gastó 8 de PG de la ficha n.º 1 (quedan 30)" in state
    assert "(ahora 15)" not in state and "ficha n.º 2" not in state
    await settings(h, "exactos")
    assert "sumó 14 a PG de la ficha n.º 2 (ahora 15)" in await shown(h)
    await settings(h, "ocultos")
    hidden = await shown(h)
    assert "Últimos cambios: Nada todavía." in hidden and "PG" not in hidden


@pytest.mark.parametrize(
    ("setting", "goblins"),
    [
        ("estado", "6 · Goblin ×3 · Ileso ×2, Ensangrentado"),
        ("exactos", "6 · Goblin ×3 · 15/15 PG, 15/15 PG, 7/15 PG"),
        ("ocultos", None),
    ],
)
async def test_dnd_monsters_show_a_word_unless_exact(
    harness: Harness, setting: str, goblins: str | None
) -> None:
    """A monster's hit points are the tracker's, one per member of a group: words for
    everyone under ``estado`` (alike ones counted), numbers under ``exactos``. Damage the GM
    applies reaches the board."""
    h = await dnd_table(harness)
    await sheet_of(h, "dnd5e")
    h.script(15)
    await h.slash("dnd iniciativa unirme", modificador=2)
    h.script(5)
    await h.slash("dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=1, cantidad=3, pg=15)
    await hurt(h, "Goblin 3", 8)
    await settings(h, setting)
    now = await shown(h)
    if goblins is None:
        assert "6 · Goblin ×3\n" in now and "PG" not in now
    else:
        assert goblins in now and "17 · Jugadora · 38/38 PG" in now


async def hurt(h: Harness, name: str, damage: int) -> None:
    """The GM's form on the tracker's "PG y CA" view: ``damage`` to the creature ``name``."""
    panel = await h.slash("dnd iniciativa panel", user=GM)
    button = next(c for c in panel.message.custom_ids if c.startswith("dnd:pg:"))
    view = await h.click(panel.message, button, user=GM)
    target = next(
        c["value"] for c in await h.autocomplete("dnd ataque", "objetivo", name) if c["name"].startswith(name)
    )
    opened = await h.click(
        view.message, view.message.custom_ids[0], user=GM, values=[target], component_type=3
    )
    done = await h.submit(
        opened.modal_id, {"dano": str(damage), "curacion": "", "temporales": "", "maximos": ""}, user=GM
    )
    assert name in done.text, done.text


async def test_an_npc_sheet_on_the_tracker_reads_its_hit_points(harness: Harness) -> None:
    """An NPC the GM adds from its sheet: the sheet's PG (a word under ``estado``)."""
    h = await dnd_table(harness)
    await h.slash("ficha crear", user=GM, nombre="Capitana", pnj=True)
    npc = (await h.autocomplete("dnd iniciativa monstruos", "como", "Capi", user=GM))[0]["value"]
    h.script(12)
    await h.slash("dnd iniciativa monstruos", user=GM, como=npc)
    assert "12 · Capitana · Ileso" in await shown(h)
    await settings(h, "exactos")
    assert "Capitana · 1/1 PG" in await shown(h)


@pytest.mark.parametrize(
    ("current", "maximum", "word"),
    [(38, 38, "Ileso"), (37, 38, "Herido"), (20, 38, "Herido"), (19, 38, "Ensangrentado"),
     (19, 37, "Herido"), (18, 37, "Ensangrentado"), (1, 38, "Ensangrentado")],
)  # fmt: skip
def test_dnd_words(current: int, maximum: int, word: str) -> None:
    """SRD 5.2: "Si tienes la mitad de tus puntos de golpe o menos, estás Ensangrentado"."""
    points = dnd_board.points(current, maximum)
    assert board_hp.hp_text("es", BoardHitPoints.STATE, points, player=False) == word
    numbers = board_hp.hp_text("es", BoardHitPoints.STATE, points, player=True)
    assert numbers == f"{current}/{maximum} PG"


# -- Mediana -----------------------------------------------------------------------------------


async def mediana_fight(h: Harness, *, npc: bool = False, locale: str = "es-ES") -> str:
    """The player (and, with ``npc``, an Orco) in a Mediana combat, the board drawn in the
    GM's ``locale``; the panel's record id."""
    await h.slash("mesa tablero", user=GM, locale=locale)
    panel = (await h.slash("mediana iniciativa")).message
    record = panel.custom_ids[0].rsplit(":", 2)[1]
    opened = await h.click(panel, f"mediana:ini:unirme:{record}:0")
    h.script(10, 10, 2, 5, 5, 5)
    await h.submit(
        opened.modal_id, {"nombre": "", "bono": ["12"], "estorbo": ["2"]}, message=h.current(panel)
    )
    if npc:
        opened = await h.click(h.current(panel), f"mediana:ini:pnj:{record}:0", user=GM)
        h.script(5, 5, 2, 5, 5, 5)
        await h.submit(opened.modal_id, {"nombre": "Orco", "bono": ["1"]}, message=h.current(panel), user=GM)
    return record


async def test_mediana_pv_from_the_active_sheet_and_the_rules_states(harness: Harness) -> None:
    h = await play(harness, "mediana")
    await sheet_of(h, "mediana")
    await mediana_fight(h, npc=True)
    now = await shown(h)
    assert "▶ **25 · Jugadora** · 18/18 PV (su turno)\n6 · Orco\n" in now
    await h.slash("mediana pv daño", user=GM, cantidad=15, jugador=PLAYER)
    assert "3/18 PV, Malherido (su turno)" in await shown(h)
    await h.slash("mediana pv daño", user=GM, cantidad=3, jugador=PLAYER)
    assert "0/18 PV, Inconsciente (su turno)" in await shown(h)
    await h.slash("mediana pv daño", user=GM, cantidad=18, jugador=PLAYER)
    assert "-18/18 PV, Muerto (su turno)" in await shown(h)
    await h.slash("mesa deshacer", user=GM)
    assert "0/18 PV, Inconsciente (su turno)" in await shown(h)
    await h.slash("ficha editar", campo="pv.maximos", valor="20")
    assert "2/20 PV, Malherido (su turno)" in await shown(h)


async def test_mediana_setting_hidden_and_exact(harness: Harness) -> None:
    h = await play(harness, "mediana")
    await sheet_of(h, "mediana")
    await mediana_fight(h, locale="en-US")
    await settings(h, "ocultos")
    assert "HP" not in await shown(h)
    await settings(h, "exactos", "en-US")
    assert "▶ **25 · Jugadora** · 18/18 HP (their turn)" in await shown(h)


async def test_mediana_pv_sheet_without_a_character_sheet(harness: Harness) -> None:
    """``/mediana pv fijar`` is a PV sheet too: the board reads it when there is no other."""
    h = await play(harness, "mediana")
    await mediana_fight(h)
    assert "PV" not in await shown(h), "no sheet, no PV"
    await h.slash("mediana pv fijar", fisico=2, maximo=10, actual=2)
    assert "▶ **25 · Jugadora** · 2/10 PV, Malherido (su turno)" in await shown(h)


async def test_a_pool_past_the_sheets_bounds_still_draws(harness: Harness) -> None:
    """A wounds pool past what the sheet's file allows (``/mediana pv fijar`` could set one
    before it refused players with a sheet, so old tables may hold one): the board draws
    what it finds (unvalidated) instead of failing its redraw."""
    h = await play(harness, "mediana")
    await sheet_of(h, "mediana")
    await mediana_fight(h)
    past = Change("mediana_heridas", owner_id=PLAYER.id, cap=500, set_to=150)
    await h.bot.store.apply(Operation(CHANNEL_ID, 99, GM.id, "test", (past,)))
    assert "▶ **25 · Jugadora** · -132/18 PV, Muerto (su turno)" in await shown(h)


@pytest.mark.parametrize(
    ("current", "word"),
    [(18, "Ileso"), (17, "Herido"), (4, "Herido"), (3, "Malherido"), (1, "Malherido"),
     (0, "Inconsciente"), (-17, "Inconsciente"), (-18, "Muerto")],
)  # fmt: skip
def test_mediana_words(current: int, word: str) -> None:
    """ "iguales o menores a su Físico, se le considera malherido", "Al llegar a 0 puntos de
    vida un personaje está inconsciente. Para matarlo hay que llegar a Físico x6 PV"."""
    points = mediana_board.points(3, 18, current)
    assert board_hp.hp_text("es", BoardHitPoints.STATE, points, player=False) == word
    assert board_hp.hp_text("en", BoardHitPoints.HIDDEN, points, player=True) is None


# -- the store tells the board -----------------------------------------------------------------


async def test_every_sheet_write_reaches_the_boards(db_target: Path | str) -> None:
    """A sheet's creation, choice, edit and deletion change what the board shows: the
    store's listeners hear each as a sheet's, on both backends; a refused write is not heard."""
    store = await Store.open(db_target)
    try:
        heard: list[int] = []
        store.listeners.append(lambda channel, touched: touched.sheets and heard.append(channel))
        channel = 5
        row = SheetRow(0, channel, 7, False, "Ana", "ana", "dnd5e", {"nombre": "Ana"})
        sheet_id, _ = await store.create_sheet(Operation(channel, 1, 7, "x"), row, lambda i: ())
        other, _ = await store.create_sheet(Operation(channel, 2, 7, "x"), row, lambda i: ())
        assert heard == [channel]
        assert await store.choose_sheet(channel, 7, sheet_id)
        stored = await store.sheet(channel, sheet_id)
        assert stored is not None and await store.update_sheet(sheet_id, stored.version, {"nombre": "A"})
        assert not await store.update_sheet(sheet_id, stored.version, {"nombre": "B"})
        assert await store.delete_sheet(channel, sheet_id)
        assert not await store.delete_sheet(channel, sheet_id)
        assert heard == [channel] * 4 and other == 0
    finally:
        await store.close()


# -- limits ------------------------------------------------------------------------------------


def test_a_long_order_fits_its_field_and_says_how_many_more() -> None:
    name = "x" * 40
    points = board_hp.hp_text("es", BoardHitPoints.EXACT, dnd_board.points(999, 999, 999), True)
    assert points is not None
    lines = [render.order_line("es", name, 30, 1, False, points) for _ in range(tracker.MAX_COMBATANTS)]
    assert len("\n".join(lines)) > 1024
    kept = render.fit_more("es", lines).splitlines()
    assert len("\n".join(kept)) <= 1024
    assert kept[:-1] == lines[: len(kept) - 1]
    assert kept[-1] == t("es", "board.more", n=tracker.MAX_COMBATANTS - len(kept) + 1)
    assert render.fit_more("es", lines[:3]) == "\n".join(lines[:3])


def test_names_are_escaped() -> None:
    line = render.order_line("es", "*Lía*_", 10, 1, True, "3/18 PV")
    assert line == "▶ **10 · \\*Lía\\*\\_** · 3/18 PV (su turno)"


def test_mediana_numbers_are_said_with_the_fighter_keys() -> None:
    assert mediana_board.player(combat.Fighter("u42", "Ana", 0, 0, "medio", 3)) == 42
    assert mediana_board.player(combat.Fighter("n42", "Orco", 0, 0, "medio", 3)) is None
    assert dnd_board.player(initiative.Combatant("m1", "Goblin", True, 3)) is False
    assert dnd_board.player(initiative.Combatant("u1", "Ana", False, 3, user_id=1)) is True


async def test_a_player_without_a_sheet_shows_the_hit_points_the_gm_notes(harness: Harness) -> None:
    """A player who joined without a D&D sheet keeps their hit points in the tracker (the GM
    gives them in the form): the board shows those, and they see their own."""
    h = await dnd_table(harness)
    h.script(15)
    await h.slash("dnd iniciativa unirme", modificador=2)
    panel = await h.slash("dnd iniciativa panel", user=GM)
    button = next(c for c in panel.message.custom_ids if c.startswith("dnd:pg:"))
    view = await h.click(panel.message, button, user=GM)
    opened = await h.click(
        view.message, view.message.custom_ids[0], user=GM, values=[f"u{PLAYER.id}"], component_type=3
    )
    await h.submit(opened.modal_id, {"dano": "", "curacion": "", "temporales": "", "maximos": "20"}, user=GM)
    await hurt(h, "Jugadora", 5)
    assert "17 · Jugadora · 15/20 PG" in await shown(h)
    mine = await h.click(panel.message, button)
    assert mine.ephemeral and "PG 15/20" in mine.text
