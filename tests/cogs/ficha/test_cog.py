"""/ficha through discord.py: create, read, edit through the ledger, import and export,
and every refusal (bad files, other players' and other tables' sheets)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.models import Operation, Outcome, SheetRow
from bot.names import fold
from bot.sheets.io import blank
from cogs.mediana.state import SHEET_KIND as MEDIANA_SHEET
from tests.support.harness import Harness, Upload
from tests.support.payloads import CHANNEL_ID, GM, OTHER, OTHER_CHANNEL_ID, PLAYER

DOCS = Path(__file__).resolve().parents[3] / "docs" / "fichas"


@pytest.fixture
async def both(db_target: Path | str) -> AsyncIterator[Harness]:
    """A started harness on SQLite, then on PostgreSQL."""
    h = Harness(db_target)
    await h.start()
    yield h
    await h.close()


def example(system: str) -> bytes:
    return (DOCS / f"{system}.json").read_bytes()


async def imported(harness: Harness, system: str, user=PLAYER, **options) -> str:
    reply = await harness.slash(
        "ficha importar", user=user, archivo=Upload(f"{system}.json", example(system)), **options
    )
    assert "importada" in reply.text, reply.text
    return reply.text


async def exported(harness: Harness, user=PLAYER, **options) -> bytes:
    reply = await harness.slash("ficha exportar", user=user, **options)
    sent = [c for c in reply.calls if c.attachments]
    assert sent, reply.calls
    return sent[0].attachments[0][1]


@pytest.mark.parametrize("system", ["dune", "dnd5e", "donjon", "mediana"])
async def test_import_then_export_gives_the_same_bytes(harness: Harness, system: str) -> None:
    await harness.table_for(system)
    await imported(harness, system)
    assert await exported(harness) == example(system)


@pytest.mark.parametrize("system", ["dune", "dnd5e", "donjon", "mediana"])
async def test_create_makes_a_blank_active_sheet(harness: Harness, system: str) -> None:
    await harness.table_for(system)
    reply = await harness.slash("ficha crear", nombre="Nadie")
    assert "Ficha **Nadie** creada" in reply.text and reply.ephemeral
    seen = await harness.slash("ficha ver")
    assert "Nadie" in seen.text


async def test_the_sheet_reads_at_a_glance_in_both_languages(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    text = (await harness.slash("ficha ver")).text
    assert "Destreza **16** (+3)" in text
    assert "PG 38/38 (+0 temporales)" in text and "Sigilo ★" in text and "Espada larga: 1d8 cortante" in text
    english = (await harness.slash("ficha ver", locale="en-US")).text
    assert "Dexterity **16** (+3)" in english and "HP 38/38 (+0 temporary)" in english


async def test_hit_points_change_through_the_ledger_and_undo_reverts(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    reply = await harness.slash("ficha editar", campo="pg.actuales", valor="30")
    assert "PG 30/38" in reply.text
    history = await harness.slash("mesa historial", user=GM)
    assert "ficha editada" in history.text and "PG de la ficha n.º" in history.text
    await harness.slash("mesa deshacer", user=GM)
    assert "PG 38/38" in (await harness.slash("ficha ver")).text
    await harness.assert_ledger_matches()
    over = await harness.slash("ficha editar", campo="pg.actuales", valor="39")
    assert "como mucho" in over.text or "pasan de los máximos" in over.text
    assert "PG 38/38" in (await harness.slash("ficha ver")).text


async def test_donjon_provisions_and_wealth_go_through_the_ledger(harness: Harness) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    await harness.slash("ficha editar", campo="provisiones", valor="4")
    await harness.slash("ficha editar", campo="riqueza", valor="1")
    text = (await harness.slash("ficha ver")).text
    assert "Provisiones 4" in text and "Riqueza 1" in text
    await harness.slash("mesa deshacer", user=GM)
    assert "Riqueza 3" in (await harness.slash("ficha ver")).text
    await harness.assert_ledger_matches()


async def test_a_plain_field_changes_the_sheet_and_bad_values_change_nothing(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    reply = await harness.slash("ficha editar", campo="habilidades.combate", valor="8")
    assert "Combate **8**" in reply.text
    refused = await harness.slash("ficha editar", campo="habilidades.combate", valor="9")
    assert "«habilidades.combate» debe ser como mucho 8." in refused.text and refused.ephemeral
    unknown = await harness.slash("ficha editar", campo="habilidades.baile", valor="5")
    assert "no tiene el campo" in unknown.text
    assert "Combate **8**" in (await harness.slash("ficha ver")).text


async def test_field_names_and_sheets_are_autocompleted(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    choices = await harness.autocomplete("ficha editar", "campo", "pg")
    assert [c["value"] for c in choices] == ["pg.actuales", "pg.maximos", "pg.temporales"]
    sheets = await harness.autocomplete("ficha ver", "ficha", "lia")
    assert [c["name"] for c in sheets] == ["Lía Brezo (dnd5e)"]
    assert await harness.autocomplete("ficha ver", "ficha", "", user=OTHER) == []


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"no soy json", "no es JSON"),
        (b"x" * (64 * 1024 + 1), "pasa de 64 KB"),
        (json.dumps({"version": 9, "sistema": "dune"}).encode(), "Versión del formato desconocida"),
        (json.dumps({"version": 1, "sistema": "gurps"}).encode(), "Sistema desconocido"),
    ],
)
async def test_bad_files_are_refused_and_nothing_is_stored(harness: Harness, raw: bytes, words: str) -> None:
    await harness.table_for("dune")
    reply = await harness.slash("ficha importar", archivo=Upload("f.json", raw))
    assert words in reply.text and reply.ephemeral
    assert "No tienes ficha activa" in (await harness.slash("ficha ver")).text


async def test_out_of_range_values_are_listed_in_the_users_language(harness: Harness) -> None:
    await harness.table_for("dune")
    data = json.loads(example("dune"))
    data["habilidades"]["combate"] = 9
    raw = json.dumps(data).encode()
    reply = await harness.slash("ficha importar", archivo=Upload("f.json", raw))
    assert "«habilidades.combate» debe ser como mucho 8." in reply.text
    english = await harness.slash("ficha importar", archivo=Upload("f.json", raw), locale="en-US")
    assert "“habilidades.combate” must be at most 8." in english.text
    assert "No tienes ficha activa" in (await harness.slash("ficha ver")).text


async def test_a_sheet_of_another_system_or_the_same_name_is_refused(harness: Harness) -> None:
    await harness.table_for("dune")
    other = await harness.slash("ficha importar", archivo=Upload("f.json", example("donjon")))
    assert "no es del sistema" in other.text
    await imported(harness, "dune")
    again = await harness.slash("ficha importar", archivo=Upload("f.json", example("dune")))
    assert "Ya tienes una ficha llamada «Irulan Vex»" in again.text


async def test_names_never_ping(harness: Harness) -> None:
    await harness.table_for("dune")
    reply = await harness.slash("ficha crear", nombre="@everyone <@930000000000000003>")
    data = reply.data
    assert data.get("allowed_mentions", {}).get("parse") == []
    assert "@everyone" not in reply.text.replace("@\u200beveryone", "")


async def test_other_players_sheets_are_private_unless_the_table_says(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    sheet_id = await first_sheet_id(harness)
    for command in ("ficha ver", "ficha exportar"):
        refused = await harness.slash(command, user=OTHER, ficha=str(sheet_id))
        assert "No encuentro ninguna ficha" in refused.text
    changed = await harness.slash("ficha editar", user=OTHER, ficha=str(sheet_id), campo="nombre", valor="X")
    assert "No encuentro ninguna ficha" in changed.text
    gm = await harness.slash("ficha ver", user=GM, ficha=str(sheet_id))
    assert "Irulan Vex" in gm.text
    refused = await harness.slash("ficha publicas", user=OTHER, publicas=True)
    assert "DJ" in refused.text
    await harness.slash("ficha publicas", user=GM, publicas=True)
    assert "Irulan Vex" in (await harness.slash("ficha ver", user=OTHER, ficha=str(sheet_id))).text
    still = await harness.slash("ficha borrar", user=OTHER, ficha=str(sheet_id))
    assert "No encuentro ninguna ficha" in still.text


async def test_a_sheet_of_another_table_cannot_be_read_by_id(harness: Harness) -> None:
    await harness.table_for("dune")
    await harness.table_for("dune", channel_id=OTHER_CHANNEL_ID)
    await imported(harness, "dune")
    sheet_id = await first_sheet_id(harness)
    for user in (PLAYER, GM):
        reply = await harness.slash("ficha ver", user=user, ficha=str(sheet_id), channel_id=OTHER_CHANNEL_ID)
        assert "No encuentro ninguna ficha" in reply.text


async def test_choose_and_delete(harness: Harness) -> None:
    await harness.table_for("dune")
    await harness.slash("ficha crear", nombre="Primera")
    await harness.slash("ficha crear", nombre="Segunda")
    assert "Segunda" in (await harness.slash("ficha ver")).text
    chosen = await harness.slash("ficha elegir", ficha="primera")
    assert "usan ahora la ficha **Primera**" in chosen.text
    assert "Primera" in (await harness.slash("ficha ver")).text
    await harness.slash("ficha borrar", ficha="Primera")
    assert "No tienes ficha activa" in (await harness.slash("ficha ver")).text


async def test_the_gm_keeps_npc_sheets_players_cannot(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    refused = await harness.slash("ficha crear", nombre="Orco", pnj=True)
    assert "DJ" in refused.text
    reply = await harness.slash("ficha crear", user=GM, nombre="Orco", pnj=True)
    assert "Orco" in reply.text
    sheet_id = await first_sheet_id(harness)
    hidden = await harness.slash("ficha ver", ficha=str(sheet_id))
    assert "No encuentro ninguna ficha" in hidden.text


async def first_sheet_id(harness: Harness) -> int:
    assert harness.bot is not None
    from tests.support.payloads import CHANNEL_ID

    rows = await harness.bot.store.sheets(CHANNEL_ID)
    return rows[0].id


async def test_a_table_reset_keeps_the_sheets_hit_points(harness: Harness) -> None:
    from tests.support.payloads import CHANNEL_ID

    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    asked = await harness.slash("mesa reiniciar", user=GM)
    await harness.click(asked.message, f"mesa:reiniciar:si:{CHANNEL_ID}", user=GM)
    assert "PG 38/38" in (await harness.slash("ficha ver")).text


async def test_the_table_status_does_not_take_a_sheet_for_a_player(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    sheet_id = await first_sheet_id(harness)
    status = await harness.slash("mesa estado")
    assert f"<@{sheet_id}>" not in status.text


# -- rolling by name ---------------------------------------------------------------------------


async def test_dnd_check_by_skill_name_shows_where_each_number_comes_from(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    harness.script(10)
    reply = await harness.slash("dnd prueba", habilidad="Sigilo", cd=15)
    # Destreza 16 → +3; nivel 5 → competencia +3, pericia +6.
    assert "Prueba de Destreza (Sigilo)" in reply.text
    assert "**10** +9 = **19**" in reply.text
    assert "+9 = Destreza +3, pericia (competencia ×2) +6" in reply.text
    assert "como **Lía Brezo**" in reply.text
    harness.script(10)
    english = await harness.slash("dnd prueba", habilidad="stealth", locale="en-US")
    assert "+9 = Dexterity +3, expertise (proficiency ×2) +6" in english.text
    harness.script(10)
    unaccented = await harness.slash("dnd prueba", habilidad="percepcion")
    assert "**10** +4 = **14**" in unaccented.text  # Sabiduría 13 → +1, competencia +3


async def test_dnd_save_and_numbers_without_a_sheet(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    harness.script(10)
    plain = await harness.slash("dnd prueba", modificador=2)
    assert "**10** +2 = **12**" in plain.text
    refused = await harness.slash("dnd prueba", habilidad="sigilo")
    assert "No tienes ficha activa" in refused.text and refused.ephemeral
    await imported(harness, "dnd5e")
    harness.script(10)
    save = await harness.slash("dnd salvacion", caracteristica="destreza")
    assert "**10** +6 = **16**" in save.text  # +3 Destreza, competencia +3
    harness.script(10)
    plain = await harness.slash("dnd prueba", modificador=2)
    assert "**10** +2 = **12**" in plain.text and "Lía" not in plain.text


async def test_dnd_attack_by_weapon_name(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    harness.script(12, 4)
    reply = await harness.slash("dnd ataque", arma="arco corto", ca=13)
    # Destreza +3, competencia +3; damage 1d6+3 as on the sheet.
    assert "Ataque con Arco corto" in reply.text
    assert "**12** +6 = **18**" in reply.text and "+6 = Destreza +3, competencia +3" in reply.text
    assert "= **7** Perforante" in reply.text
    unknown = await harness.slash("dnd ataque", arma="hacha", ca=13)
    assert "no tiene el ataque «hacha»" in unknown.text
    bare = await harness.slash("dnd ataque", ca=13)
    assert "indica el bonificador" in bare.text
    choices = await harness.autocomplete("dnd ataque", "arma", "esp")
    assert choices == [{"name": "Espada larga", "value": "Espada larga"}]


async def test_dnd_repeat_as_a_character_is_for_its_player_and_the_gm(harness: Harness) -> None:
    """Another player's *Repetir* of an attack by weapon name rolled as that player's
    character: refused, nothing stored; its player repeats (docs/decisiones.md)."""
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    harness.script(12, 4)
    reply = await harness.slash("dnd ataque", arma="arco corto", ca=13)
    repeat = next(c for c in reply.message.custom_ids if c.startswith("rep:"))
    assert harness.bot is not None
    before = len(await harness.bot.store.records(CHANNEL_ID, "dnd", 50))
    other = await harness.click(reply.message, repeat, user=OTHER)
    assert other.ephemeral and "ficha de otra persona" in other.text
    assert len(await harness.bot.store.records(CHANNEL_ID, "dnd", 50)) == before
    harness.script(12, 4)
    again = await harness.click(reply.message, repeat)
    assert "Ataque con Arco corto" in again.text


async def test_dnd_initiative_uses_the_sheets_dexterity(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    await harness.slash("dnd iniciativa panel", user=GM)
    harness.script(11)
    reply = await harness.slash("dnd iniciativa unirme")
    assert "Lía Brezo" in reply.text and "14" in reply.text


async def test_the_gm_rolls_as_an_npc(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    data = json.loads(example("dnd5e"))
    data["nombre"] = "Orco"
    data["caracteristicas"]["destreza"] = 8
    raw = json.dumps(data).encode()
    reply = await harness.slash("ficha importar", user=GM, archivo=Upload("orco.json", raw), pnj=True)
    assert "importada" in reply.text
    harness.script(10)
    rolled = await harness.slash("dnd prueba", user=GM, habilidad="sigilo", como="orco")
    assert "como **Orco**" in rolled.text and "**10** +5 = **15**" in rolled.text  # −1 + pericia +6
    refused = await harness.slash("dnd prueba", habilidad="sigilo", como="orco")
    assert "DJ" in refused.text
    assert await harness.autocomplete("dnd prueba", "como", "or", user=GM) == [
        {"name": "Orco (dnd5e)", "value": str(await first_sheet_id(harness))}
    ]
    assert await harness.autocomplete("dnd prueba", "como", "or") == []


async def test_dune_test_by_skill_and_drive_name(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    harness.script(3, 15)
    reply = await harness.slash("dune tirada", habilidad="Comunicación", motivacion="Verdad")
    # Comunicación 6 + Verdad 7 = 13 (docs/fichas/dune.json).
    assert "Comunicación 6 + Verdad 7 = 13" in reply.text
    assert "objetivo 13" in reply.text and "como **Irulan Vex**" in reply.text
    harness.script(3, 15)
    english = await harness.slash("dune tirada", habilidad="communicate", motivacion="truth", locale="en-US")
    assert "Communicate 6 + Truth 7 = 13" in english.text
    harness.script(3, 15)
    mixed = await harness.slash("dune tirada", habilidad="comprension", motivacion=5)
    assert "Comprensión 8 + Motivación 5 = 13" in mixed.text
    unknown = await harness.slash("dune tirada", habilidad="Baile", motivacion="verdad")
    assert "no es una habilidad de Dune" in unknown.text and unknown.ephemeral


async def test_dune_numbers_keep_working_without_a_sheet(harness: Harness) -> None:
    await harness.table_for("dune")
    harness.script(3, 15)
    reply = await harness.slash("dune tirada", habilidad=6, motivacion=7)
    assert "Habilidad 6 + Motivación 7 = 13" in reply.text
    refused = await harness.slash("dune tirada", habilidad="combate", motivacion=7)
    assert "No tienes ficha activa" in refused.text
    too_big = await harness.slash("dune tirada", habilidad=25, motivacion=7)
    assert too_big.ephemeral and "habilidad" in too_big.text


async def test_dune_names_are_autocompleted_with_their_values(harness: Harness) -> None:
    await harness.table_for("dune")
    assert await harness.autocomplete("dune tirada", "habilidad", "comu") == []
    await imported(harness, "dune")
    choices = await harness.autocomplete("dune tirada", "habilidad", "comu")
    assert choices == [{"name": "Comunicación (6)", "value": "comunicacion"}]
    drives = await harness.autocomplete("dune tirada", "motivacion", "truth", locale="en-US")
    assert drives == [{"name": "Truth (7)", "value": "verdad"}]


async def test_dune_edit_then_roll_reads_the_new_value_and_repeat_keeps_the_old(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    harness.script(3, 15)
    first = await harness.slash("dune tirada", habilidad="comunicacion", motivacion="verdad")
    await harness.slash("ficha editar", campo="habilidades.comunicacion", valor="8")
    harness.script(3, 15)
    after = await harness.slash("dune tirada", habilidad="comunicacion", motivacion="verdad")
    assert "Comunicación 8 + Verdad 7 = 15" in after.text
    harness.script(3, 15)
    again = await harness.click(first.message, "rep:repetir:1")
    assert "Comunicación 6 + Verdad 7 = 13" in again.text


async def test_the_active_mediana_sheet_is_the_players_pv(harness: Harness) -> None:
    """One PV for a character: /ficha and /mediana pv read and change the same wounds pool."""
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    assert "PV 18/18" in (await harness.slash("ficha ver")).text
    await harness.slash("mediana pv daño", user=GM, cantidad=5, jugador=PLAYER)
    assert "PV 13/18" in (await harness.slash("ficha ver")).text
    await harness.slash("ficha editar", campo="pv.actuales", valor="10")
    assert await harness.pool("mediana_heridas", PLAYER.id) == 8
    assert "10" in (await harness.slash("mediana pv ver", jugador=PLAYER)).text
    await harness.slash("mesa deshacer", user=GM)
    assert "PV 13/18" in (await harness.slash("ficha ver")).text
    await harness.assert_ledger_matches()


async def test_choosing_another_mediana_sheet_moves_the_pv(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    await harness.slash("ficha editar", campo="pv.actuales", valor="12")
    await harness.slash("ficha crear", nombre="Otra")  # PV 1/1, now active
    assert await harness.pool("mediana_heridas", PLAYER.id) == 0
    chosen = await harness.slash("ficha elegir", ficha="Maese Tobías")
    assert "Maese Tobías" in chosen.text, chosen.text
    text = (await harness.slash("ficha ver")).text
    assert "PV 12/18" in text, text
    assert await harness.pool("mediana_heridas", PLAYER.id) == 6
    await harness.assert_ledger_matches()


async def test_donjon_test_by_attribute_and_skill_name(harness: Harness) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    harness.script(*([10] * 10), *([5] * 5))
    reply = await harness.slash(
        "donjon prueba", atributo="discernimiento", habilidad="rastrear cualquier cosa", contra=5
    )
    # Roland: Discernimiento 6 + Rastrear Cualquier Cosa 4 = 10 dice (docs/fichas/donjon.json).
    assert "Discernimiento 6 + Rastrear Cualquier Cosa 4 = 10 dados" in reply.text
    assert "como **Roland el Explorador**" in reply.text
    harness.script(*([10] * 6), *([5] * 5))
    english = await harness.slash("donjon prueba", atributo="insight", contra=5, locale="en-US")
    assert "Insight 6 = 6 dice" in english.text
    unknown = await harness.slash("donjon prueba", habilidad="volar", contra=5)
    assert "no tiene la habilidad «volar»" in unknown.text
    harness.script(*([10] * 3), *([5] * 5))
    plain = await harness.slash("donjon prueba", dados=3, contra=5)
    assert "Roland" not in plain.text
    choices = await harness.autocomplete("donjon prueba", "habilidad", "trep")
    assert choices == [{"name": "Trepar Árboles (2)", "value": "Trepar Árboles"}]


async def test_donjon_without_a_sheet_needs_dice(harness: Harness) -> None:
    await harness.table_for("donjon")
    refused = await harness.slash("donjon prueba", contra=5)
    assert "Indica los dados" in refused.text
    refused = await harness.slash("donjon prueba", atributo="aguante", contra=5)
    assert "No tienes ficha activa" in refused.text


async def test_mediana_test_by_skill_name_brings_its_attribute(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    harness.script(5, 6, 7)
    reply = await harness.slash("mediana tirada", habilidad="espadas", dificultad=10)
    # Maese Tobías: Espadas 3 with Destreza 4 (docs/fichas/mediana.json), and his armour's
    # estorbo 1 on a Destreza test out of combat; the objective die is 6.
    assert "Destreza 4 + Espadas 3 − Estorbo 1 + 1o3d10 6 = **12**" in reply.text
    harness.script(5, 6, 7)
    plain = await harness.slash("mediana tirada", atributo=4, habilidad=3, dificultad=10)
    assert "Atributo 4 + Habilidad 3 + 1o3d10 6 = **13**" in plain.text
    unknown = await harness.slash("mediana tirada", habilidad="volar", dificultad=10)
    assert "no tiene la habilidad «volar»" in unknown.text
    missing = await harness.slash("mediana tirada", dificultad=10)
    assert "Indica el atributo" in missing.text
    choices = await harness.autocomplete("mediana tirada", "habilidad", "meca")
    assert choices == [{"name": "Mecanismos (Inteligencia + 2)", "value": "Mecanismos"}]


async def test_editing_the_mediana_maximum_reaches_mediana_pv(harness: Harness) -> None:
    """/mediana pv reads Físico and the maximum from the active sheet's record: an edit of
    either writes it again, so /mediana pv and the board agree with /ficha."""
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    await harness.slash("ficha editar", campo="pv.maximos", valor="24")
    assert "PV 24/24" in (await harness.slash("ficha ver")).text
    shown = await harness.slash("mediana pv ver", jugador=PLAYER)
    assert "**24**/24 PV" in shown.text, shown.text
    await harness.assert_ledger_matches()


async def test_mediana_pv_fijar_leaves_a_sheets_pv_to_the_sheet(harness: Harness) -> None:
    """With an active Mediana sheet, /mediana pv fijar would make the pool and the sheet
    disagree (and the sheet unreadable): it is refused, naming the sheet, nothing changed."""
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    refused = await harness.slash("mediana pv fijar", fisico=1, maximo=2, actual=-6)
    assert refused.ephemeral and "Maese Tobías" in refused.text, refused.text
    assert await harness.pool("mediana_heridas", PLAYER.id) == 0
    assert "PV 18/18" in (await harness.slash("ficha ver")).text


@pytest.mark.parametrize(
    ("system", "field", "value", "shown"),
    [
        ("dnd5e", "pg.actuales", "30", "PG 30/38"),
        ("donjon", "heridas", "1", "Heridas 1"),
        ("donjon", "provisiones", "1", "Provisiones 1"),
        ("donjon", "riqueza", "0", "Riqueza 0"),
        ("mediana", "pv.actuales", "10", "PV 10/18"),
    ],
)
async def test_simultaneous_edits_of_a_live_number_set_it_once(
    both: Harness, system: str, field: str, value: str, shown: str
) -> None:
    """Three /ficha editar of the same value at once: a set is a set, not three differences
    computed before any was written (38/38 ended at 14/38)."""
    await both.table_for(system)
    await imported(both, system)
    replies = await asyncio.gather(*(both.slash("ficha editar", campo=field, valor=value) for _ in range(3)))
    assert all(shown in reply.text for reply in replies), [r.text for r in replies]
    assert shown in (await both.slash("ficha ver")).text
    await both.assert_ledger_matches()


async def test_an_edit_and_damage_at_once_end_as_one_after_the_other(
    both: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit racing *Aplicar daño*, the damage written between the edit's read and its
    write: the edit still sets 30 (not 38 − 8 less the damage again), and the ledger row
    says what it really moved."""
    await both.table_for("dnd5e")
    await imported(both, "dnd5e")
    assert both.bot is not None
    await both.slash("dnd iniciativa panel")
    both.script(15)
    await both.slash("dnd iniciativa unirme")
    both.script(15, 3, 4)  # 15 + 4 hits AC 10; 2d6 = 7
    attack = await both.slash("dnd ataque", user=GM, ca=10, bonificador=4, dano="2d6")
    button = next(c for c in attack.message.custom_ids if c.startswith("dnd:dano:"))
    menu = await both.click(attack.message, button, user=GM)
    select = menu.message.custom_ids[0]
    damage_first(monkeypatch, both)
    edit, _ = await asyncio.gather(
        both.slash("ficha editar", campo="pg.actuales", valor="30"),
        both.click(menu.message, select, user=GM, values=[f"u{PLAYER.id}"], component_type=3),
    )
    rows = await both.bot.store.ledger(CHANNEL_ID)
    assert [row.delta for row in reversed(rows) if row.pool == "ficha_pg"] == [38, -7, -1]
    assert "PG 30/38" in edit.text and "PG 30/38" in (await both.slash("ficha ver")).text
    await both.assert_ledger_matches()


def damage_first(monkeypatch: pytest.MonkeyPatch, h: Harness) -> None:
    """Hold every /ficha editar's write until another operation (the damage) is written."""
    assert h.bot is not None
    store, damaged = h.bot.store, asyncio.Event()
    apply = store.apply

    async def held(op: Operation) -> Outcome:
        if op.reason == "fichas.editar":
            await damaged.wait()
            return await apply(op)
        outcome = await apply(op)
        damaged.set()
        return outcome

    monkeypatch.setattr(store, "apply", held)


async def test_an_edit_and_mediana_damage_at_once_end_as_one_after_the_other(
    both: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same race on Mediana's PV (a pool of PV lost): damage 3 written between the
    edit's read and its write, the edit still leaves 10/18."""
    await both.table_for("mediana")
    await imported(both, "mediana")
    damage_first(monkeypatch, both)
    edit, _ = await asyncio.gather(
        both.slash("ficha editar", campo="pv.actuales", valor="10"),
        both.slash("mediana pv daño", user=GM, cantidad=3, jugador=PLAYER),
    )
    assert "PV 10/18" in edit.text and "PV 10/18" in (await both.slash("ficha ver")).text
    assert await both.pool("mediana_heridas", PLAYER.id) == 8
    await both.assert_ledger_matches()


async def crowd(h: Harness, system: str, count: int) -> None:
    """``count`` player sheets of other players, written straight to the store (40 each)."""
    assert h.bot is not None
    for n in range(count):
        name = f"Aa {n:03}"
        data = blank(system, name).model_dump(mode="json")
        row = SheetRow(0, CHANNEL_ID, 5000 + n // 40, False, name, fold(name), system, data, True)
        await h.bot.store.create_sheet(
            Operation(CHANNEL_ID, 9_000_000 + n, row.owner_id, "x"), row, lambda i: ()
        )


async def test_npc_and_own_sheets_are_found_past_a_hundred_player_sheets(both: Harness) -> None:
    """Lookups ask for the sheet named, not for the first 100 of the table (players first,
    so the GM's NPCs vanished from ``como:``, ``/ficha ver`` and the autocomplete)."""
    await both.table_for("dnd5e")
    await both.slash("ficha crear", user=GM, nombre="Orco", pnj=True)
    await both.slash("ficha crear", nombre="Zoe")
    await crowd(both, "dnd5e", 101)
    assert "### Orco · PNJ ·" in (await both.slash("ficha ver", user=GM, ficha="Orco")).text
    assert [c["name"] for c in await both.autocomplete("ficha ver", "ficha", "orc", user=GM)] == [
        "Orco (dnd5e)"
    ]
    assert [c["name"] for c in await both.autocomplete("dnd prueba", "como", "or", user=GM)] == [
        "Orco (dnd5e)"
    ]
    both.script(12)
    rolled = await both.slash("dnd prueba", user=GM, como="Orco", caracteristica="fuerza")
    assert "Orco" in rolled.text, rolled.text
    assert "### Zoe ·" in (await both.slash("ficha ver", ficha="zoe")).text
    assert [c["name"] for c in await both.autocomplete("ficha ver", "ficha", "zo")] == ["Zoe (dnd5e)"]
    await both.slash("ficha editar", user=GM, ficha="Orco", campo="pg.maximos", valor="77")
    await both.slash("ficha editar", user=GM, ficha="Orco", campo="pg.actuales", valor="61")
    gm_history = (await both.slash("mesa historial", user=GM)).text
    assert "→ 61" in gm_history, gm_history
    assert "→ 61" not in (await both.slash("mesa historial")).text


async def test_a_players_pv_are_found_past_two_hundred_pv_records(both: Harness) -> None:
    """``/mediana pv ver`` reads the player's newest PV sheet, not the table's newest 200."""
    await both.table_for("mediana")
    await both.slash("mediana pv fijar", fisico=2, maximo=10)
    assert both.bot is not None
    for n in range(201):
        data = {"physique": 1, "maximum": 5}
        await both.bot.store.save_record(CHANNEL_ID, 8_000_000 + n, 6000 + n, MEDIANA_SHEET, data)
    shown = await both.slash("mediana pv ver", jugador=PLAYER)
    assert "**10**/10 PV" in shown.text, shown.text


async def test_a_renamed_sheet_is_found_by_its_new_name_only(both: Harness) -> None:
    """Renaming changes the lookup with the card: the old name finds nothing, and no other
    sheet of the owner can take the new one (nor can a rename take another's)."""
    await both.table_for("dnd5e")
    await imported(both, "dnd5e")
    renamed = await both.slash("ficha editar", campo="nombre", valor="Lía Rosa")
    assert "Ficha **Lía Rosa** cambiada" in renamed.text, renamed.text
    assert "No encuentro ninguna ficha «Lía Brezo»" in (await both.slash("ficha ver", ficha="Lía Brezo")).text
    assert "### Lía Rosa ·" in (await both.slash("ficha ver", ficha="lia rosa")).text
    again = await both.slash("ficha crear", nombre="LÍA ROSA")
    assert "Ya tienes una ficha llamada «LÍA ROSA»" in again.text
    await both.slash("ficha crear", nombre="Otra")
    taken = await both.slash("ficha editar", campo="nombre", valor="lía rosa", ficha="Otra")
    assert taken.ephemeral and "Ya tienes una ficha llamada «lía rosa»" in taken.text, taken.text
    assert "### Otra ·" in (await both.slash("ficha ver", ficha="Otra")).text
    assert [c["name"] for c in await both.autocomplete("ficha ver", "ficha", "lia")] == ["Lía Rosa (dnd5e)"]


def with_name(name: str) -> bytes:
    data = json.loads(example("dnd5e"))
    data["nombre"] = name
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"[" * 60_000, "anida demasiado"),
        (b'{"version": 1, "sistema": "dune", "nivel": ' + b"9" * 4_301 + b"}", "número de demasiadas cifras"),
        (with_name("\x00Lía"), "«nombre» lleva un carácter de control"),
        (with_name("Lía\x00Brezo"), "«nombre» lleva un carácter de control"),
        (with_name("Lía\x1bBrezo"), "«nombre» lleva un carácter de control"),
        (with_name("Lía\ud800"), "«nombre» lleva un carácter de control"),
        (
            json.dumps({"version": 1, "sistema": "dune", "a\x00b": 1}).encode(),
            "«ab» lleva un carácter de control",
        ),
    ],
)
async def test_hostile_sheet_files_get_the_import_refusal(both: Harness, raw: bytes, words: str) -> None:
    """Deep nesting, a number past Python's 4,300 digits, a control character in a text:
    the file is refused with its reason, never "Algo ha fallado", on both backends."""
    await both.table_for("dnd5e")
    reply = await both.slash("ficha importar", archivo=Upload("f.json", raw))
    assert reply.ephemeral and words in reply.text, reply.text
    assert "No tienes ficha activa" in (await both.slash("ficha ver")).text


@pytest.mark.parametrize("text", ["\x00", "Lía\x00", "a\x07b", "a\nb", "\x7f", "\u0085", "\ud800"])
async def test_a_control_character_in_a_typed_text_is_refused_and_names_the_option(
    both: Harness, text: str
) -> None:
    """NUL (which PostgreSQL cannot store) and every other control character, in any text
    option: a translated refusal naming the option, nothing stored."""
    await both.table_for("dune")
    for command, options, option in (
        ("ficha crear", {"nombre": text}, "nombre"),
        ("dune tarea crear", {"user": GM, "nombre": text, "requisito": 3}, "nombre"),
        ("tirar", {"expresion": "1d6", "motivo": text}, "motivo"),
    ):
        reply = await both.slash(command, **options)
        assert reply.ephemeral and f"«{option}» lleva un carácter de control" in reply.text, reply.text
        english = await both.slash(command, locale="en-US", **options)
        assert "control character" in english.text, english.text
    assert "No tienes ficha activa" in (await both.slash("ficha ver")).text
