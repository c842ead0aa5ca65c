"""Mediana's opposed test by name: each side's skill brings its points and attribute from
its sheet (the roller's active one, the GM's NPC for the rival), numbers as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.mediana.state import WOUNDS as MEDIANA_WOUNDS
from tests.cogs.ficha.test_cog import example, exported, imported
from tests.support.harness import Harness, Upload
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER, interaction_payload

# Maese Tobías (docs/fichas/mediana.json): Espadas 3 with Destreza 4, armour estorbo 1
# (on Destreza tests out of combat).
TOBIAS = "como **Maese Tobías**"


async def bandit(harness: Harness) -> None:
    """The GM's NPC: Hachas 4 with Físico 3."""
    data = json.loads(example("mediana"))
    data["nombre"] = "Bandido"
    data["habilidades"] = [{"nombre": "Hachas", "atributo": "Físico", "valor": 4}]
    raw = json.dumps(data).encode()
    reply = await harness.slash("ficha importar", user=GM, archivo=Upload("bandido.json", raw), pnj=True)
    assert "importada" in reply.text


async def sheets(harness: Harness) -> Harness:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    await bandit(harness)
    return harness


async def rolls(harness: Harness, kind: str = "mediana") -> int:
    assert harness.bot is not None
    return len(await harness.bot.store.records(CHANNEL_ID, kind, 50))


async def test_opposed_by_skill_name_shows_each_sides_terms(harness: Harness) -> None:
    await sheets(harness)
    harness.script(5, 6, 7, 2, 3, 4)
    reply = await harness.slash(
        "mediana enfrentada", habilidad="espadas", rival_atributo=3, rival_habilidad=2
    )
    assert TOBIAS in reply.text and "Destreza 4 + Espadas 3 − Estorbo 1 + 1o3d10 6 = **12**" in reply.text
    assert "Total: **8**" in reply.text
    harness.script(5, 6, 7, 2, 3, 4)
    english = await harness.slash(
        "mediana enfrentada", habilidad="Espadas", rival_atributo=3, rival_habilidad=2, locale="en-US"
    )
    assert (
        "as **Maese Tobías**" in english.text
        and "Destreza 4 + Espadas 3 − Encumbrance 1 + 1o3d10 6 = **12**" in english.text
    )


async def test_the_gm_sets_an_npc_against_a_player_and_repeat_keeps_the_names(harness: Harness) -> None:
    await sheets(harness)
    harness.script(5, 6, 7, 2, 3, 4)
    reply = await harness.slash(
        "mediana enfrentada",
        user=GM,
        atributo=4,
        habilidad="3",
        rival_pnj="bandido",
        rival_habilidad="hachas",
    )
    assert "2.\nBandido\n" in reply.text and "Físico 3 + Hachas 4 + 1o3d10 3 = **10**" in reply.text
    assert "Atributo 4" not in reply.text  # a side given as numbers shows its total as before
    harness.script(5, 6, 7, 2, 3, 4)
    again = await harness.click(reply.message, reply.message.custom_ids[0])
    assert "2.\nBandido\n" in again.text and "Físico 3 + Hachas 4 + 1o3d10 3 = **10**" in again.text


async def test_opposed_refusals_are_ephemeral_and_store_nothing(harness: Harness) -> None:
    await sheets(harness)
    before = await rolls(harness)
    player_npc = await harness.slash(
        "mediana enfrentada", atributo=4, habilidad="3", rival_pnj="bandido", rival_habilidad="hachas"
    )
    assert player_npc.ephemeral and "DJ" in player_npc.text
    no_npc = await harness.slash(
        "mediana enfrentada", habilidad="espadas", rival_atributo=3, rival_habilidad="hachas"
    )
    assert no_npc.ephemeral and "elige antes su ficha de PNJ" in no_npc.text
    unknown = await harness.slash(
        "mediana enfrentada", user=GM, atributo=4, habilidad="3", rival_pnj="bandido", rival_habilidad="volar"
    )
    assert unknown.ephemeral and "no tiene la habilidad «volar»" in unknown.text
    both = await harness.slash(
        "mediana enfrentada", user=GM, atributo=4, habilidad="3", rival=OTHER, rival_pnj="bandido"
    )
    assert both.ephemeral and "no los dos" in both.text
    no_sheet = await harness.slash(
        "mediana enfrentada", user=OTHER, habilidad="espadas", rival_atributo=3, rival_habilidad=2
    )
    assert no_sheet.ephemeral and "No tienes ficha activa" in no_sheet.text
    assert await rolls(harness) == before


async def test_opposed_names_are_autocompleted_from_each_sheet(harness: Harness) -> None:
    await sheets(harness)
    mine = await harness.autocomplete("mediana enfrentada", "habilidad", "esp")
    assert mine == [{"name": "Espadas (Destreza + 3)", "value": "Espadas"}]
    assert await harness.autocomplete("mediana enfrentada", "rival_habilidad", "hach", user=GM) == []
    npc = await harness.autocomplete(
        "mediana enfrentada", "rival_habilidad", "hach", user=GM, rival_pnj="bandido"
    )
    assert npc == [{"name": "Hachas (Físico + 4)", "value": "Hachas"}]


async def test_opposed_numbers_keep_working_without_sheets(harness: Harness) -> None:
    await harness.table_for("mediana")
    harness.script(5, 6, 7, 2, 3, 4)
    reply = await harness.slash(
        "mediana enfrentada", atributo=4, habilidad=3, rival_atributo=3, rival_habilidad=2
    )
    assert "Total: **13**" in reply.text and "Total: **8**" in reply.text and "como" not in reply.text
    missing = await harness.slash("mediana enfrentada", habilidad=3, rival_atributo=3, rival_habilidad=2)
    assert missing.ephemeral and "Indica el atributo" in missing.text


async def test_damage_is_absorbed_by_the_targets_armour(harness: Harness) -> None:
    """ "La absorción se resta a la tirada de daño del enemigo": the target's sheet's armour."""
    await sheets(harness)
    harness.script(4)
    reply = await harness.slash("mediana daño", user=GM, dados="1d6+1", objetivo="maese tobias")
    assert "absorción −2 (armadura de Maese Tobías) · total **3**" in reply.text
    harness.script(4)
    again = await harness.click(reply.message, reply.message.custom_ids[0])
    assert "absorción −2 (armadura de Maese Tobías) · total **3**" in again.text
    harness.script(4)
    typed = await harness.slash("mediana daño", user=GM, dados="1d6+1", objetivo="maese tobias", absorcion=0)
    assert "absorción" not in typed.text and "total **5**" in typed.text
    choices = await harness.autocomplete("mediana daño", "objetivo", "mae")
    assert [c["name"] for c in choices] == ["Maese Tobías (mediana)"]
    harness.script(4)
    english = await harness.slash("mediana daño", dados="1d6", objetivo=choices[0]["value"], locale="en-US")
    assert "absorption −2 (Maese Tobías's armour) · total **2**" in english.text
    before = await rolls(harness, "mediana_efecto")
    assert before == 4
    hidden = await harness.slash("mediana daño", dados="1d6", objetivo="bandido")
    assert hidden.ephemeral and "No encuentro ninguna ficha «bandido»" in hidden.text
    assert await rolls(harness, "mediana_efecto") == before


async def test_contest_entrants_name_a_skill_of_their_sheet(harness: Harness) -> None:
    await sheets(harness)
    contest = (await harness.slash("mediana competicion")).message
    join, npc, resolve = contest.custom_ids
    form = await harness.click(contest, join)
    fields = {"habilidad": "espadas"}
    await harness.submit(form.modal_id, fields, message=harness.current(contest))
    form = await harness.click(harness.current(contest), npc, user=GM)
    fields = {"nombre": "bandido", "habilidad": "hachas"}
    listed = await harness.submit(form.modal_id, fields, user=GM, message=harness.current(contest))
    assert f"<@{PLAYER.id}> como **Maese Tobías**\nBandido" in listed.text
    form = await harness.click(harness.current(contest), join, user=OTHER)
    fields = {"habilidad": "espadas"}
    refused = await harness.submit(form.modal_id, fields, user=OTHER, message=harness.current(contest))
    assert refused.ephemeral and "No tienes ficha activa" in refused.text
    harness.script(5, 6, 7, 2, 3, 4)
    resolved = await harness.click(harness.current(contest), resolve)
    assert "Destreza 4 + Espadas 3 − Estorbo 1 + 1o3d10 6 = **12**" in resolved.text
    assert "Físico 3 + Hachas 4 + 1o3d10 3 = **10**" in resolved.text


async def test_armour_encumbers_dexterity_out_of_combat_and_initiative(harness: Harness) -> None:
    """ "El estorbo hay que restarlo a la iniciativa y a todas nuestras tiradas de destreza
    cuando no se está en combate": the sheet's, unless a number is typed."""
    await sheets(harness)
    harness.script(5, 6, 7)
    typed = await harness.slash("mediana tirada", habilidad="espadas", dificultad=10, estorbo=0)
    assert "Destreza 4 + Espadas 3 + 1o3d10 6 = **13**" in typed.text
    harness.script(5, 6, 7)
    mind = await harness.slash("mediana tirada", habilidad="mecanismos", dificultad=10)
    assert "Inteligencia 2 + Mecanismos 2 + 1o3d10 6 = **10**" in mind.text
    panel = (await harness.slash("mediana iniciativa")).message
    form = await harness.click(panel, panel.custom_ids[0])
    harness.script(5, 5, 5)
    fields = {"nombre": "", "bono": ["4"]}
    joined = await harness.submit(form.modal_id, fields, message=harness.current(panel))
    assert "**8** ·" in joined.text  # 5 + 4 − estorbo 1
    harness.script(5, 6, 7)
    fighting = await harness.slash("mediana tirada", habilidad="espadas", dificultad=10)
    assert "Destreza 4 + Espadas 3 + 1o3d10 6 = **13**" in fighting.text


async def test_the_damage_form_takes_the_targets_sheet(harness: Harness) -> None:
    await sheets(harness)
    harness.script(5, 5, 5)
    attack = await harness.slash(
        "mediana tirada", user=GM, atributo=1, habilidad="1", dificultad=5, ataque=True
    )
    form = await harness.click(attack.message, attack.message.custom_ids[1], user=GM)
    harness.script(4)
    fields = {"arma": "1d6+1", "objetivo": "maese tobias"}
    done = await harness.submit(form.modal_id, fields, user=GM, message=attack.message)
    assert "absorción −2 (armadura de Maese Tobías) · total **3**" in done.text


async def test_a_damage_target_at_another_systems_table_is_refused(harness: Harness) -> None:
    """/mediana daño objetivo: at a Dune table finds a Dune sheet: the refusal every roll
    by name gives for another system's sheet, not a crash."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    refused = await harness.slash("mediana daño", dados="1d6", objetivo="irulan vex")
    assert refused.ephemeral and "no es del sistema que juega esta mesa" in refused.text, refused.text


async def test_repeat_as_a_character_is_for_its_player_and_the_gm(harness: Harness) -> None:
    """Another player's *Repetir* would roll "como **Maese Tobías**" with his sheet: refused,
    storing nothing; Tobías's player repeats. The GM's NPC rival stays on a repeat by anyone."""
    await sheets(harness)
    harness.script(5, 6, 7, 2, 3, 4)
    reply = await harness.slash(
        "mediana enfrentada", habilidad="espadas", rival_atributo=3, rival_habilidad=2
    )
    before = await rolls(harness)
    other = await harness.click(reply.message, reply.message.custom_ids[0], user=OTHER)
    assert other.ephemeral and "ficha de otra persona" in other.text and await rolls(harness) == before
    harness.script(5, 6, 7, 2, 3, 4)
    again = await harness.click(reply.message, reply.message.custom_ids[0])
    assert TOBIAS in again.text


async def test_a_players_como_is_refused_even_with_numbers(harness: Harness) -> None:
    """``como`` names the GM's NPC: a player giving it with typed numbers is refused, not
    silently ignored; the GM's typed numbers roll as the NPC, named on the card."""
    await harness.table_for("mediana")
    await imported(harness, "mediana", user=GM, pnj=True)
    refused = await harness.slash(
        "mediana tirada", dificultad=8, atributo=3, habilidad="2", como="maese tobias"
    )
    assert "DJ" in refused.text and refused.ephemeral
    harness.script(5, 5, 5)
    rolled = await harness.slash(
        "mediana tirada", user=GM, dificultad=8, atributo=3, habilidad="2", como="maese tobias"
    )
    assert TOBIAS in rolled.text, rolled.text


async def test_an_attribute_test_reads_the_sheet_and_its_armour(harness: Harness) -> None:
    """The estorbo comes off "todas nuestras tiradas de destreza cuando no se está en combate,
    incluyendo habilidades, tiradas de atributo": ``/mediana atributo`` names the attribute
    on the sheet as ``/mediana tirada`` names the skill; a typed number and estorbo win."""
    await sheets(harness)
    harness.script(5, 6, 7)
    dexterity = await harness.slash("mediana atributo", atributo="destreza", dificultad=8)
    assert TOBIAS in dexterity.text and "Destreza 4 − Estorbo 1 + 1o3d10 6 = **9**" in dexterity.text
    harness.script(5, 6, 7)
    mind = await harness.slash("mediana atributo", atributo="Inteligencia", dificultad=8)
    assert "Inteligencia 2 + 1o3d10 6 = **8**" in mind.text
    harness.script(5, 6, 7)
    typed = await harness.slash("mediana atributo", atributo="4", dificultad=8)
    assert "Atributo 4 + 1o3d10 6 = **10**" in typed.text and "como" not in typed.text
    harness.script(5, 6, 7)
    npc = await harness.slash("mediana atributo", user=GM, atributo="físico", dificultad=8, como="bandido")
    assert "como **Bandido**" in npc.text and "Físico 3 + 1o3d10 6 = **9**" in npc.text
    unknown = await harness.slash("mediana atributo", atributo="suerte", dificultad=8)
    assert unknown.ephemeral and "suerte" in unknown.text
    choices = await harness.autocomplete("mediana atributo", "atributo", "des")
    assert [c["value"] for c in choices] == ["Destreza"]
    harness.script(5, 6, 7)
    again = await harness.click(dexterity.message, dexterity.message.custom_ids[0])
    assert "Destreza 4 − Estorbo 1 + 1o3d10 6 = **9**" in again.text


async def test_damage_to_a_target_takes_its_pv_through_the_ledger(harness: Harness) -> None:
    """``/mediana daño objetivo:`` takes the damage left after the armour off the target's
    PV, in the same operation as the card, once: the card's numbers are the books'."""
    await sheets(harness)
    harness.script(6, 3)  # 6💥 + 3 + 1 = 10, −2 armour: 8
    data = harness._command_data(["mediana", "daño"], {"dados": "1d6+1", "objetivo": "maese tobias"})
    payload = interaction_payload(
        2, data, user=GM, locale="es-ES", channel_id=CHANNEL_ID, channels=harness.channels
    )
    reply = await harness.feed(payload)
    assert "Maese Tobías: 18 → **10**/18 PV · en pie" in reply.text
    assert await harness.pool(MEDIANA_WOUNDS, PLAYER.id) == 8
    harness.script(1)
    await harness.feed(dict(payload))
    assert await harness.pool(MEDIANA_WOUNDS, PLAYER.id) == 8
    await harness.assert_ledger_matches()
    seen = await harness.slash("ficha ver")
    assert "PV 10/18" in seen.text
    harness.script(6, 6, 6, 6, 5)  # 29 + 1 − 2 = 28: down to −18, past death at −18 it stays
    dead = await harness.slash("mediana daño", user=GM, dados="1d6+1", objetivo="maese tobias")
    assert "Maese Tobías: 10 → **-18**/18 PV · muerto" in dead.text
    assert await harness.pool(MEDIANA_WOUNDS, PLAYER.id) == 36
    await harness.assert_ledger_matches()


async def test_damage_to_a_target_without_pv_in_play_says_so(harness: Harness) -> None:
    """An NPC's PV stay in its file (no pool to write): the card says they did not change;
    so does a secret roll (its PV would show the hidden result), absorbed damage, and a
    player's roll at another player's public sheet."""
    await sheets(harness)
    harness.script(4)
    npc = await harness.slash("mediana daño", user=GM, dados="1d6", objetivo="bandido")
    assert "Bandido: sus PV no están en juego en la mesa; la tirada no los cambia." in npc.text
    harness.script(4)
    secret = await harness.slash("mediana daño", user=GM, dados="1d6", objetivo="maese tobias", secreta=True)
    assert "tirada secreta" in secret.text
    harness.script(1)
    absorbed = await harness.slash("mediana daño", user=GM, dados="1d6", objetivo="maese tobias")
    assert "Maese Tobías: **18**/18 PV · en pie" in absorbed.text
    assert await harness.pool(MEDIANA_WOUNDS, PLAYER.id) == 0
    await harness.slash("ficha publicas", user=GM, publicas=True)
    harness.script(6, 4)
    other = await harness.slash("mediana daño", user=OTHER, dados="1d6", objetivo="maese tobias")
    assert "sus PV los cambian su jugador o el DJ" in other.text
    assert await harness.pool(MEDIANA_WOUNDS, PLAYER.id) == 0


def with_physique(attribute: int, old_pv_field: int | None = None) -> bytes:
    """Maese Tobías with his Físico attribute at ``attribute`` (and, as files were written
    before the sheet kept it once, ``pv.fisico`` at ``old_pv_field``)."""
    data = json.loads(example("mediana"))
    data["atributos"][0]["valor"] = attribute
    if old_pv_field is not None:
        data["pv"]["fisico"] = old_pv_field
    return json.dumps(data).encode()


async def test_the_sheet_keeps_one_fisico_and_malherido_follows_it(harness: Harness) -> None:
    """Malherido is "puntos de vida ... iguales o menores a su Físico": the attribute. A
    file written with ``pv.fisico`` too is read, the attribute winning, and written once."""
    await harness.table_for("mediana")
    upload = Upload("tobias.json", with_physique(5, old_pv_field=3))
    assert "importada" in (await harness.slash("ficha importar", archivo=upload)).text
    written = json.loads(await exported(harness))
    assert "fisico" not in written["pv"] and written["atributos"][0] == {"nombre": "Físico", "valor": 5}
    hurt = await harness.slash("mediana pv daño", cantidad=13)
    assert "**5**/18 PV (Físico 5) · malherido" in hurt.text
    harness.script(9, 2, 5)
    rolled = await harness.slash("mediana tirada", atributo=4, habilidad="3", dificultad=5)
    assert "malherido (−1 rango)" in rolled.text
    data = json.loads(example("mediana"))
    data["nombre"], data["atributos"] = "Sin cuerpo", [{"nombre": "Destreza", "valor": 4}]
    data["habilidades"] = []
    refused = await harness.slash("ficha importar", archivo=Upload("x.json", json.dumps(data).encode()))
    assert refused.ephemeral and "necesita el atributo Físico, entre 1..50" in refused.text, refused.text


async def test_a_sheet_stored_with_two_fisicos_still_loads_and_reads_the_attribute(harness: Harness) -> None:
    """A sheet stored before (``pv.fisico`` beside the attribute, its PV record carrying
    the old one) is read as it is, with the attribute's Físico everywhere."""
    await harness.table_for("mediana")
    await harness.slash("ficha importar", archivo=Upload("tobias.json", with_physique(5)))
    assert harness.bot is not None
    store = harness.bot.store
    row = await store.active_sheet(CHANNEL_ID, PLAYER.id)
    assert row is not None
    old = {**row.data, "pv": {**row.data["pv"], "fisico": 3}}
    assert await store.update_sheet(row.id, row.version, old)
    await store.save_record(CHANNEL_ID, 1, PLAYER.id, "mediana_ficha", {"physique": 3, "maximum": 18})
    seen = await harness.slash("ficha ver")
    assert "Físico **5**" in seen.text and "(Físico 5)" in seen.text
    hurt = await harness.slash("mediana pv daño", cantidad=13)
    assert "**5**/18 PV (Físico 5) · malherido" in hurt.text
    harness.script(6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1)  # 67 + 0: down to death at −30
    dead = await harness.slash("mediana daño", user=GM, dados="1d6", objetivo="maese tobias", absorcion=0)
    assert "5 → **-30**/18 PV · muerto" in dead.text


async def test_a_replayed_damage_roll_shows_the_damage_its_record_took(harness: Harness) -> None:
    """The first delivery wrote the roll and took its PV, then its answer never reached
    Discord; the replay answers, with the damage the books hold, not dice thrown again."""
    await sheets(harness)
    harness.script(6, 3)  # 6💥 + 3 + 1 = 10, −2 armour: 8
    data = harness._command_data(["mediana", "daño"], {"dados": "1d6+1", "objetivo": "maese tobias"})
    payload = interaction_payload(
        2, data, user=GM, locale="es-ES", channel_id=CHANNEL_ID, channels=harness.channels
    )
    harness.discord.fail_next = [500] * 5
    await harness.feed(payload)
    harness.discord.fail_next = []
    assert await harness.pool(MEDIANA_WOUNDS, PLAYER.id) == 8
    harness.script(1)
    replay = await harness.feed(dict(payload))
    first = "**6**💥 **3** +1 = 10 · absorción −2 (armadura de Maese Tobías) · total **8**"
    assert first in replay.text, replay.text
    assert "Maese Tobías: 18 → **10**/18 PV · en pie" in replay.text
    assert await harness.pool(MEDIANA_WOUNDS, PLAYER.id) == 8


async def test_a_damage_roll_finds_its_target_once(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command finds the target for its armour and the roll then uses it: the table's
    sheets are read once, not again by id."""
    await sheets(harness)
    assert harness.bot is not None
    store = harness.bot.store
    reads = []
    for name in ("sheets", "named_sheets"):
        original = getattr(store, name)

        async def counted(channel_id: int, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            reads.append(channel_id)
            return await _original(channel_id, *args, **kwargs)

        monkeypatch.setattr(store, name, counted)
    harness.script(6, 3)
    reply = await harness.slash("mediana daño", user=GM, dados="1d6+1", objetivo="maese tobias")
    assert "Maese Tobías: 18 → **10**/18 PV · en pie" in reply.text
    assert reads == [CHANNEL_ID]
    harness.script(4)
    again = await harness.click(reply.message, "rep:repetir:" + reply.message.custom_ids[0].rsplit(":", 1)[1])
    assert "Maese Tobías: 10 → **7**/18 PV · en pie" in again.text


async def test_the_damage_form_picks_the_absorption_which_wins_over_the_target(harness: Harness) -> None:
    """Issue #31: the absorption is picked, the target's armour's first (chosen) then 0 to 23;
    a number picked wins over the target's sheet, as ``absorcion:`` over ``objetivo:``."""
    await sheets(harness)
    harness.script(5, 5, 5)
    attack = await harness.slash(
        "mediana tirada", user=GM, atributo=1, habilidad="1", dificultad=5, ataque=True
    )
    form = await harness.click(attack.message, attack.message.custom_ids[1], user=GM)
    asked = [c.get("component") or c["components"][0] for c in form.form["components"]]
    assert [c["custom_id"] for c in asked] == ["arma", "objetivo", "absorcion"]
    assert [o["value"] for o in asked[2]["options"]] == ["-", *(str(n) for n in range(24))]
    harness.script(4)
    fields = {"arma": "1d6+1", "objetivo": "maese tobias", "absorcion": ["3"]}
    done = await harness.submit(form.modal_id, fields, user=GM, message=attack.message)
    assert "absorción −3 · total **2**" in done.text and "Maese Tobías" not in done.text, done.text


async def test_the_damage_form_refuses_an_absorption_it_did_not_offer(harness: Harness) -> None:
    await sheets(harness)
    harness.script(5, 5, 5)
    attack = await harness.slash(
        "mediana tirada", user=GM, atributo=1, habilidad="1", dificultad=5, ataque=True
    )
    form = await harness.click(attack.message, attack.message.custom_ids[1], user=GM)
    components = [
        {"type": 1, "components": [{"type": 4, "custom_id": "arma", "value": "1d6"}]},
        {"type": 18, "component": {"type": 3, "custom_id": "absorcion", "values": ["24"]}},
    ]
    data = {"custom_id": form.modal_id, "components": components}
    refused = await harness.dispatch(
        5, data, user=GM, locale="es-ES", channel_id=attack.message.channel_id, message=attack.message
    )
    assert refused.ephemeral and "no estaba en el formulario" in refused.text, refused.text
    assert any(c.startswith("mediana:dano:") for c in harness.current(attack.message).custom_ids)
