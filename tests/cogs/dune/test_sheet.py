"""/dune enfrentada and /dune ayuda by name from the sheets (#18), through discord.py: the
target numbers each side's sheet gives, where each number came from on every card, the
restart-surviving menu and Repetir, autocomplete, and every refusal."""

from __future__ import annotations

import json

from tests.cogs.dune.test_cog import answer, button, ledger_delta
from tests.cogs.ficha.test_cog import example, imported
from tests.cogs.ficha.test_panel import submit
from tests.support.harness import Harness, Message, Upload
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER

OPPOSED = "dune_enfrentada"
ASSIST = "dune_ayuda"


def sheet_json(name: str, **skills: int) -> bytes:
    """The example Dune sheet (docs/fichas/dune.json) under another name and skills."""
    data = json.loads(example("dune"))
    data["nombre"] = name
    data["habilidades"].update(skills)
    return json.dumps(data).encode()


async def npc(harness: Harness, name: str = "Guardia", **skills: int) -> None:
    """An NPC of the GM's with the example's drives (Deber 6, Fe 4, Justicia 5, Poder 4,
    Verdad 7): the Guardia has Combate 7."""
    raw = sheet_json(name, **(skills or {"combate": 7}))
    reply = await harness.slash("ficha importar", user=GM, archivo=Upload(f"{name}.json", raw), pnj=True)
    assert "importada" in reply.text, reply.text


def repeat_button(message: Message) -> str:
    return next(c for c in message.custom_ids if c.startswith("rep:repetir"))


async def stored(harness: Harness, kind: str) -> list[dict[str, object]]:
    assert harness.bot is not None
    return [r.data for r in await harness.bot.store.records(CHANNEL_ID, kind)]


async def test_an_opposed_test_by_name_keeps_where_its_target_came_from(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    harness.script(2, 3)  # the opposition (target 10): two successes, difficulty 2
    prompt = await harness.slash(
        "dune enfrentada", habilidad="Comunicación", motivacion="verdad", rival_objetivo=10
    )
    # Comunicación 6 + Verdad 7 = 13 (docs/fichas/dune.json).
    assert "Tu objetivo, como **Irulan Vex**: Comunicación 6 + Verdad 7 = 13." in prompt.text
    assert "Tirada enfrentada · dificultad 2" in prompt.text
    await harness.restart()
    harness.script(13, 13)  # two successes only against a target of 13 or more
    rolled = await answer(harness, prompt.message)
    assert "Chequeo · objetivo 13 · dificultad 2" in rolled.text
    assert "como **Irulan Vex**" in rolled.text and "Comunicación 6 + Verdad 7 = 13" in rolled.text
    assert "✅ Superado: 2 éxitos contra dificultad 2." in rolled.text
    await harness.restart()
    harness.script(2, 3)
    again = await harness.click(rolled.message, repeat_button(rolled.message))
    assert "Tu objetivo, como **Irulan Vex**: Comunicación 6 + Verdad 7 = 13." in again.text
    harness.script(3, 15)
    english = await harness.slash(
        "dune enfrentada", locale="en-US", habilidad="communicate", motivacion="truth", rival_objetivo=10
    )
    assert "Your target, as **Irulan Vex**: Communicate 6 + Truth 7 = 13." in english.text


async def test_the_gms_npcs_act_and_oppose_by_their_sheets(harness: Harness) -> None:
    await harness.table_for("dune")
    await npc(harness)
    await npc(harness, "Sardaukar", disciplina=8)
    harness.script(15, 16)  # the Sardaukar's Disciplina 8 + Verdad 7 = 15: one success
    prompt = await harness.slash(
        "dune enfrentada",
        user=GM,
        habilidad="combate",
        motivacion="poder",
        como="guardia",
        pnj=True,
        rival_pnj="Sardaukar",
        rival_habilidad="disciplina",
        rival_motivacion="Truth",
    )
    assert "Tu objetivo, como **Guardia**: Combate 7 + Poder 4 = 11." in prompt.text
    assert "Se opone **Sardaukar**: Disciplina 8 + Verdad 7 = 15." in prompt.text
    assert "1 éxito, menos 0 por obstáculos = dificultad 1." in prompt.text
    await harness.restart()
    harness.script(11, 12)
    rolled = await answer(harness, prompt.message, user=GM)
    assert "Chequeo de PNJ · objetivo 11 · dificultad 1" in rolled.text
    assert "Se opone **Sardaukar**: Disciplina 8 + Verdad 7 = 15." in rolled.text
    harness.script(2, 3)
    again = await harness.click(rolled.message, repeat_button(rolled.message), user=GM)
    assert "Se opone **Sardaukar**: Disciplina 8 + Verdad 7 = 15." in again.text


async def test_the_opponents_scores_as_numbers_need_no_sheet(harness: Harness) -> None:
    await harness.table_for("dune")
    harness.script(2, 3)
    prompt = await harness.slash(
        "dune enfrentada", habilidad=6, motivacion=6, rival_habilidad=6, rival_motivacion=5
    )
    assert "Objetivo del rival: Habilidad 6 + Motivación 5 = 11." in prompt.text
    assert "Tu objetivo: Habilidad 6 + Motivación 6 = 12." in prompt.text


async def test_an_assisted_test_by_name_for_the_leader_and_each_helper(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    raw = sheet_json("Lía Brezo")
    await harness.slash("ficha importar", user=OTHER, archivo=Upload("lia.json", raw))
    prep = await harness.slash("dune ayuda", habilidad="comunicacion", motivacion="verdad", dificultad=2)
    assert "Chequeo con ayuda · objetivo 13 · dificultad 2" in prep.text
    join, go = prep.message.custom_ids
    form = await harness.click(prep.message, join, user=OTHER)
    # The form picks from the helper's own sheet: a skill with a focus of it (#26, #31).
    skills = form.callback.payload["data"]["components"][0]["component"]["options"]
    focus = next(o["value"] for o in skills if o["label"].endswith("Historia imperial"))
    fields = {"habilidad": [focus], "motivacion": ["deber"]}
    joined = await harness.submit(form.modal_id, fields, user=OTHER, message=prep.message)
    # Lía: Comprensión 8 + Deber 6 = 14, her focus Historia imperial at Comprensión 8.
    assert f"<@{OTHER.id}> como **Lía Brezo** (Comprensión 8 + Deber 6 = 14)" in joined.text
    await harness.restart()
    harness.script(13, 15, 7)  # the leader's 13 passes; the helper's 7 is a critical
    rolled = await harness.click(prep.message, go)
    assert f"Ayuda de <@{OTHER.id}> como **Lía Brezo** (Comprensión 8 + Deber 6 = 14): **7**✨" in rolled.text
    assert "Comunicación 6 + Verdad 7 = 13" in rolled.text
    assert "✅ Superado: 3 éxitos contra dificultad 2." in rolled.text


async def test_a_helper_without_a_sheet_gives_numbers(harness: Harness) -> None:
    await harness.table_for("dune")
    prep = await harness.slash("dune ayuda", habilidad=5, motivacion=5)
    join = prep.message.custom_ids[0]
    form = await harness.click(prep.message, join, user=OTHER, locale="en-US")
    fields = {"habilidad": ["5"], "motivacion": ["4"], "enfoque": True}
    joined = await harness.submit(form.modal_id, fields, user=OTHER, message=prep.message, locale="en-US")
    assert f"<@{OTHER.id}> (Skill 5 + Drive 4 = 9)" in joined.text
    helpers = (await stored(harness, ASSIST))[0]["helpers"]
    assert helpers == [
        {
            "user": OTHER.id,
            "target": 9,
            "skill": 5,
            "drive": 4,
            "skill_key": None,
            "drive_key": None,
            "character": None,
            "drive_statement": None,
            "sheet_id": None,
            "focus": 5,
            "drive_challenged": False,
        }
    ]


async def test_names_are_autocompleted_on_both_commands(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    await npc(harness)
    skills = await harness.autocomplete("dune enfrentada", "habilidad", "comu")
    assert skills == [{"name": "Comunicación (6)", "value": "comunicacion"}]
    drives = await harness.autocomplete("dune ayuda", "motivacion", "truth", locale="en-US")
    assert drives == [{"name": "Truth (7)", "value": "verdad"}]
    npc_skills = await harness.autocomplete("dune ayuda", "habilidad", "comb", user=GM, como="Guardia")
    assert npc_skills == [{"name": "Combate (7)", "value": "combate"}]
    npcs = await harness.autocomplete("dune enfrentada", "rival_pnj", "", user=GM)
    assert [s["name"] for s in npcs] == ["Guardia (dune)"]
    assert await harness.autocomplete("dune enfrentada", "rival_pnj", "gu") == []  # the GM's
    rival = npcs[0]["value"]
    rival_skills = await harness.autocomplete(
        "dune enfrentada", "rival_habilidad", "comb", user=GM, rival_pnj=rival
    )
    assert rival_skills == [{"name": "Combate (7)", "value": "combate"}]
    rival_drives = await harness.autocomplete(
        "dune enfrentada", "rival_motivacion", "ver", user=GM, rival_pnj=rival
    )
    assert rival_drives == [{"name": "Verdad (7)", "value": "verdad"}]
    # Without the NPC, never the roller's own sheet.
    assert await harness.autocomplete("dune enfrentada", "rival_habilidad", "comb") == []


async def test_refusals_by_name_are_private_and_store_nothing(harness: Harness) -> None:
    await harness.table_for("dune")
    await npc(harness)
    no_sheet = await harness.slash("dune enfrentada", habilidad="combate", motivacion=6, rival_objetivo=10)
    assert "No tienes ficha activa" in no_sheet.text and no_sheet.ephemeral
    no_sheet = await harness.slash("dune ayuda", habilidad=6, motivacion="deber")
    assert "No tienes ficha activa" in no_sheet.text and no_sheet.ephemeral
    not_gm = await harness.slash(
        "dune enfrentada",
        habilidad=6,
        motivacion=6,
        rival_pnj="Guardia",
        rival_habilidad="combate",
        rival_motivacion=5,
    )
    assert "DJ" in not_gm.text and not_gm.ephemeral
    no_rival_sheet = await harness.slash(
        "dune enfrentada", habilidad=6, motivacion=6, rival_habilidad="combate", rival_motivacion=5
    )
    assert "elige antes su ficha de PNJ en rival_pnj" in no_rival_sheet.text and no_rival_sheet.ephemeral
    no_rival = await harness.slash(
        "dune enfrentada", locale="en-US", habilidad=6, motivacion=6, rival_habilidad=6
    )
    assert "The opponent is missing" in no_rival.text and no_rival.ephemeral
    await imported(harness, "dune")
    unknown = await harness.slash("dune ayuda", habilidad="Baile", motivacion="verdad")
    assert "«Baile» no es una habilidad de Dune" in unknown.text and unknown.ephemeral
    unknown = await harness.slash("dune enfrentada", habilidad="combate", motivacion="ira", rival_objetivo=10)
    assert "«ira» no es una motivación de Dune" in unknown.text and unknown.ephemeral
    assert await stored(harness, OPPOSED) == [] and await stored(harness, ASSIST) == []


async def test_a_helpers_refusals_leave_the_preparation_as_it_was(harness: Harness) -> None:
    await harness.table_for("dune")
    prep = await harness.slash("dune ayuda", habilidad=5, motivacion=5)
    join = prep.message.custom_ids[0]
    # Without a sheet the form offers scores: a name, none, or a score out of 4 to 8 is
    # nothing it offered (#31).
    cases: list[dict[str, object]] = [
        {"habilidad": ["combate"], "motivacion": ["deber"]},
        {"habilidad": [], "motivacion": []},
        {"habilidad": ["5"], "motivacion": ["9"]},
    ]
    for fields in cases:
        form = await harness.click(prep.message, join, user=OTHER)
        reply = await submit(harness, form, prep.message, user=OTHER, **fields)
        assert "Esa opción no estaba en el formulario" in reply.text and reply.ephemeral, (fields, reply.text)
    assert (await stored(harness, ASSIST))[0]["helpers"] == []


async def test_a_sheet_of_another_system_is_refused(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    # A Dune command at a D&D table: the active sheet is the table's, but not a Dune one.
    for command, more in (
        ("dune tirada", {}),
        ("dune enfrentada", {"rival_objetivo": 10}),
        ("dune ayuda", {}),
    ):
        refused = await harness.slash(command, habilidad="combate", motivacion="deber", **more)
        assert "no es del sistema que juega esta mesa" in refused.text and refused.ephemeral, refused.text
    assert await harness.autocomplete("dune ayuda", "habilidad", "comb") == []
    await harness.slash("mesa sistema", user=GM, sistema="dune")
    refused = await harness.slash(
        "dune enfrentada", habilidad="combate", motivacion="deber", rival_objetivo=10
    )
    assert "no es del sistema que juega esta mesa" in refused.text and refused.ephemeral
    prep = await harness.slash("dune ayuda", habilidad=5, motivacion=5, user=OTHER)
    # The helper's form asks from their sheet: one of another system is refused when pressed.
    helper = await harness.click(prep.message, prep.message.custom_ids[0])
    assert "no es del sistema que juega esta mesa" in helper.text and helper.ephemeral
    assert await stored(harness, OPPOSED) == []
    assert (await stored(harness, ASSIST))[0]["helpers"] == []


async def test_repeat_as_a_character_is_for_its_player_and_the_gm(harness: Harness) -> None:
    """*Repetir* "for whoever presses" rolled another player's press "como **Irulan Vex**" (or
    as the GM's NPC of ``como:``, the GM's only): refused, storing nothing; the player and the
    GM repeat."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    await npc(harness)
    harness.script(2, 3)
    prompt = await harness.slash(
        "dune enfrentada", habilidad="Comunicación", motivacion="verdad", rival_objetivo=10
    )
    harness.script(13, 13)
    rolled = await answer(harness, prompt.message)
    harness.script(2, 3)
    guard = await harness.slash(
        "dune tirada", user=GM, habilidad="combate", motivacion="poder", como="guardia"
    )
    before = len(await stored(harness, OPPOSED)), len(await stored(harness, "dune"))
    as_irulan = await harness.click(rolled.message, repeat_button(rolled.message), user=OTHER)
    as_guard = await harness.click(guard.message, repeat_button(guard.message), user=OTHER)
    assert as_irulan.ephemeral and "ficha de otra persona" in as_irulan.text
    assert as_guard.ephemeral and "ficha de otra persona" in as_guard.text
    assert (len(await stored(harness, OPPOSED)), len(await stored(harness, "dune"))) == before
    harness.script(2, 3)
    again = await harness.click(rolled.message, repeat_button(rolled.message))
    harness.script(2, 3)
    gm_again = await harness.click(guard.message, repeat_button(guard.message), user=GM)
    assert "Comunicación 6 + Verdad 7 = 13" in again.text and "como **Guardia**" in gm_again.text


async def test_a_players_rival_pnj_is_refused_even_beside_a_typed_target(harness: Harness) -> None:
    """``rival_pnj`` names the GM's NPC: a player's is refused, not silently dropped because
    a typed ``rival_objetivo`` wins over the sheet's numbers; the GM's goes through."""
    await harness.table_for("dune")
    await npc(harness)
    refused = await harness.slash(
        "dune enfrentada", habilidad=6, motivacion=6, rival_pnj="Guardia", rival_objetivo=12
    )
    assert "DJ" in refused.text and refused.ephemeral
    assert await stored(harness, OPPOSED) == []
    allowed = await harness.slash(
        "dune enfrentada", user=GM, habilidad=6, motivacion=6, rival_pnj="Guardia", rival_objetivo=12
    )
    assert not allowed.ephemeral, allowed.text
    assert len(await stored(harness, OPPOSED)) == 1


async def test_a_drive_of_six_or_more_has_a_statement_at_import_and_edit(harness: Harness) -> None:
    """ "cualquier motivación incrementada hasta 6 gana una frase" (#26)."""
    await harness.table_for("dune")
    data = json.loads(example("dune"))
    data["motivaciones"]["fe"] = {"valor": 6, "declaracion": ""}
    refused = await harness.slash("ficha importar", archivo=Upload("x.json", json.dumps(data).encode()))
    assert "«motivaciones.fe»: una motivación de 6 o más tiene declaración" in refused.text
    await imported(harness, "dune")
    raised = await harness.slash("ficha editar", campo="motivaciones.fe.valor", valor="6")
    assert "una motivación de 6 o más tiene declaración" in raised.text
    await harness.slash("ficha editar", campo="motivaciones.fe.declaracion", valor="Creo en la Casa.")
    done = await harness.slash("ficha editar", campo="motivaciones.fe.valor", valor="6")
    assert "Creo en la Casa." in done.text


async def test_no_determination_on_a_drive_without_a_statement(harness: Harness) -> None:
    """ "No puedes gastar Determinación si la motivación que empleas no tiene declaración"
    (#26): neither the automatic 1 nor the reroll, and nothing is paid or rolled."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    await harness.slash("dune determinacion dar", user=GM, jugador=PLAYER, cantidad=2)
    harness.script(3, 4)
    # Fe 4 and Justicia 5 have no statement (docs/fichas/dune.json); Verdad 7 has one.
    for drive in ("fe", "justicia"):
        refused = await harness.slash(
            "dune tirada", habilidad="combate", motivacion=drive, determinacion=True
        )
        assert refused.ephemeral
        assert "la motivación que empleas no tiene declaración" in refused.text
    assert await stored(harness, "dune") == []
    assert await harness.pool("determinacion", PLAYER.id) == 2
    plain = await harness.slash("dune tirada", habilidad="combate", motivacion="fe")
    assert not any(c.startswith("dune:repetir") for c in plain.message.custom_ids)
    harness.script(15, 16)
    stated = await harness.slash("dune tirada", habilidad="combate", motivacion="verdad")
    assert any(c.startswith("dune:repetir") for c in stated.message.custom_ids)
    harness.script(2, 3)
    prompt = await harness.slash("dune enfrentada", habilidad="combate", motivacion="fe", rival_objetivo=10)
    opened = await harness.click(prompt.message, button(prompt.message, "dune:contra-responder:"))
    questions = [q["component"]["custom_id"] for q in opened.callback.payload["data"]["components"]]
    assert questions == ["dados", "pago"]  # no Determinación on a drive without a statement
    harness.script(15, 16)
    forged = await answer(harness, prompt.message, determinacion=True)
    assert "**15** **16**" in forged.text  # no die set to 1 by Determinación
    assert await harness.pool("determinacion", PLAYER.id) == 2
    await harness.assert_ledger_matches()


async def test_a_focus_by_name_is_one_of_that_skills_on_the_sheet(harness: Harness) -> None:
    """ "comprueba si alguno de tus especializaciones se aplica" (#26): with a sheet, the
    focus is one the sheet lists for that skill, autocompleted, not a free yes/no."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    choices = await harness.autocomplete("dune tirada", "enfoque", "", habilidad="comunicacion")
    assert choices == [{"name": "Diplomacia (Comunicación)", "value": "Diplomacia"}]
    every = await harness.autocomplete("dune tirada", "enfoque", "")
    assert [c["value"] for c in every] == ["Diplomacia", "Historia imperial"]
    wrong = await harness.slash(
        "dune tirada", habilidad="combate", motivacion="verdad", especializacion="Diplomacia"
    )
    assert wrong.ephemeral
    assert "«Diplomacia» no es una especialización de esa habilidad en la ficha. Tiene: —." in wrong.text
    assert await stored(harness, "dune") == []
    harness.script(6, 12)
    rolled = await harness.slash(
        "dune tirada",
        habilidad="comunicacion",
        motivacion="verdad",
        especializacion="diplomacia",
        dificultad=3,
    )
    assert "Con la especialización «Diplomacia»: cada dado igual o menor que 6 es crítico." in rolled.text
    assert "**6**✨ **12**✓" in rolled.text
    control = await harness.slash("dune tirada", habilidad=6, motivacion=6, especializacion="Es\x00pada")
    assert "carácter de control" in control.text and control.ephemeral


async def test_a_defied_drive_is_crossed_out_until_recovered(harness: Harness) -> None:
    """ "Si desafías la motivación, puedes usarla en el chequeo de habilidad, pero la
    declaración es inmediatamente tachada tras resolver el chequeo, y no puedes volver a
    usar esa motivación hasta que la recuperes" (#26): written with the roll, in the ledger."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    no_sheet = await harness.slash("dune tirada", habilidad=6, motivacion=6, desafiar=True)
    assert "nómbrala desde tu ficha" in no_sheet.text and no_sheet.ephemeral
    no_statement = await harness.slash("dune tirada", habilidad="combate", motivacion="fe", desafiar=True)
    assert "esa no tiene" in no_statement.text and no_statement.ephemeral
    harness.script(3, 15)
    defied = await harness.slash("dune tirada", habilidad="combate", motivacion="deber", desafiar=True)
    assert not defied.ephemeral
    assert "Desafía su motivación Deber: gana 1 de Determinación y la declaración queda" in defied.text
    assert not any(c.startswith("dune:repetir") for c in defied.message.custom_ids)
    assert await harness.pool("determinacion", PLAYER.id) == 1
    written = await ledger_delta(harness, defied)
    assert {pool: delta for (pool, _), delta in written.items()} == {
        "determinacion": 1,
        "ficha_tachada_deber": 1,
        "ficha_desafiada_deber": 1,
    }
    shown = await harness.slash("ficha ver")
    assert "~~Serviré a la Casa aunque me cueste la vida.~~ (tachada" in shown.text
    crossed = await harness.slash("dune tirada", habilidad="combate", motivacion="deber")
    assert "Esa motivación está tachada (Deber tachada)" in crossed.text and crossed.ephemeral
    again = await harness.click(defied.message, repeat_button(defied.message))
    assert "Esa motivación está tachada" in again.text and again.ephemeral
    history = await harness.slash("mesa historial", user=GM)
    assert "desafía la motivación y la tacha" in history.text
    not_gm = await harness.slash("dune recuperar", ficha="Irulan Vex", motivacion="deber")
    assert not_gm.ephemeral
    recovered = await harness.slash("dune recuperar", user=GM, ficha="Irulan Vex", motivacion="deber")
    assert "**Irulan Vex** recupera su motivación Deber" in recovered.text
    assert [(pool, delta) for (pool, _), delta in (await ledger_delta(harness, recovered)).items()] == [
        ("ficha_tachada_deber", -1)
    ]
    twice = await harness.slash("dune recuperar", user=GM, ficha="Irulan Vex", motivacion="deber")
    assert "no está tachada" in twice.text and twice.ephemeral
    harness.script(3, 15)
    usable = await harness.slash("dune tirada", habilidad="combate", motivacion="deber")
    assert not usable.ephemeral
    await harness.assert_ledger_matches()


async def test_a_drive_defied_and_recovered_is_not_defied_again_this_adventure(harness: Harness) -> None:
    """ "no puedes desafiar una motivación que ya ha sido desafiada y recuperada durante la
    misma aventura": the sheet remembers it, and a new adventure (/dune aventura) forgets it."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    harness.script(3, 15)
    defied = await harness.slash("dune tirada", habilidad="combate", motivacion="deber", desafiar=True)
    written = await ledger_delta(harness, defied)
    assert {pool: delta for (pool, _), delta in written.items()} == {
        "determinacion": 1,
        "ficha_tachada_deber": 1,
        "ficha_desafiada_deber": 1,
    }
    await harness.slash("dune recuperar", user=GM, ficha="Irulan Vex", motivacion="deber")
    again = await harness.slash("dune tirada", habilidad="combate", motivacion="deber", desafiar=True)
    assert "ya ha sido desafiada y recuperada durante la misma aventura" in again.text and again.ephemeral
    assert await harness.pool("ficha_tachada_deber", 1) == 0
    started = await harness.slash("dune aventura", user=GM, jugadores=f"<@{PLAYER.id}>")
    assert "pueden volver a desafiarse" in started.text
    assert await harness.pool("ficha_desafiada_deber", 1) == 0
    harness.script(3, 15)
    anew = await harness.slash("dune tirada", habilidad="combate", motivacion="deber", desafiar=True)
    assert not anew.ephemeral
    mine = await harness.slash("ficha editar", campo="motivaciones.deber.desafiada", valor="no")
    assert "Solo el DJ" in mine.text and mine.ephemeral
    await harness.assert_ledger_matches()


async def test_only_the_gm_uncrosses_a_drive_by_editing_the_sheet(harness: Harness) -> None:
    """Recovering a drive is the GM's ("puedes solicitar al Director que permita a tu personaje
    recuperar una motivación"): the player may not edit the crossed-out mark away."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    harness.script(3, 15)
    await harness.slash("dune tirada", habilidad="combate", motivacion="deber", desafiar=True)
    mine = await harness.slash("ficha editar", campo="motivaciones.deber.tachada", valor="no")
    assert "Solo el DJ puede cambiar «motivaciones.deber.tachada»" in mine.text and mine.ephemeral
    assert await harness.pool("ficha_tachada_deber", 1) == 1
    gm = await harness.slash(
        "ficha editar", user=GM, campo="motivaciones.deber.tachada", valor="no", ficha="Irulan Vex"
    )
    assert "Ficha **Irulan Vex** cambiada." in gm.text
    assert await harness.pool("ficha_tachada_deber", 1) == 0
    await harness.assert_ledger_matches()


async def test_a_permanent_asset_joins_the_sheet_with_its_impulso(harness: Harness) -> None:
    """ "Debes gastar 2 puntos de Impulso para hacer permanente un recurso creado durante una
    escena ... en cuyo caso se añade a la lista de recursos de tu ficha" (#26)."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    await harness.slash("dune impulso añadir", user=GM, cantidad=3)
    unknown = await harness.slash("dune recurso", recurso="Cuerda")
    assert "No tienes el recurso «Cuerda» en esta escena" in unknown.text and unknown.ephemeral
    harness.script(1, 1)
    rolled = await harness.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    create = next(c for c in rolled.message.custom_ids if c.startswith("dune:recurso"))
    form = await harness.click(rolled.message, create)
    await harness.submit(form.modal_id, {"recurso": "Cuerda"}, message=rolled.message)
    assert await harness.autocomplete("dune recurso", "recurso", "cu") == [
        {"name": "Cuerda", "value": "Cuerda"}
    ]
    made = await harness.slash("dune recurso", recurso="Cuerda")
    assert (
        "El recurso «Cuerda» es permanente (2 de Impulso): ya está en la ficha de **Irulan Vex**."
        in made.text
    )
    written = await ledger_delta(harness, made)
    assert {pool: delta for (pool, _), delta in written.items()} == {"impulso": -2, "recurso:Cuerda": -1}
    shown = await harness.slash("ficha ver")
    assert "Cuerda" in shown.text
    again = await harness.slash("dune recurso", recurso="Cuerda")
    assert again.ephemeral
    ended = await harness.slash("mesa escena-fin", user=GM)
    assert "Cuerda" not in ended.text
    await harness.assert_ledger_matches()


async def test_undoing_a_permanent_asset_is_refused_and_says_how(harness: Harness) -> None:
    """The asset's place on the sheet is the file's, not the ledger's: an undo that gave the
    Impulso back would leave the sheet holding it, so it is refused with the way by hand."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    await harness.slash("dune impulso añadir", user=GM, cantidad=3)
    harness.script(1, 1)
    rolled = await harness.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    create = next(c for c in rolled.message.custom_ids if c.startswith("dune:recurso"))
    form = await harness.click(rolled.message, create)
    await harness.submit(form.modal_id, {"recurso": "Cuerda"}, message=rolled.message)
    await harness.slash("dune recurso", recurso="Cuerda")
    before = await harness.pool("impulso")
    undone = await harness.slash("mesa deshacer", user=GM)
    assert undone.ephemeral
    assert "también escribió en la ficha" in undone.text and "/ficha importar" in undone.text
    assert await harness.pool("impulso") == before
    assert await harness.pool("recurso:Cuerda", PLAYER.id) == 0
    assert "Cuerda" in (await harness.slash("ficha ver")).text
    await harness.assert_ledger_matches()


async def test_a_permanent_asset_changes_nothing_if_the_impulso_is_short(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    harness.script(1, 15)  # 2 successes: 1 Impulso of its own, the asset's 2 from it and the group
    await harness.slash("dune impulso añadir", user=GM, cantidad=1)
    rolled = await harness.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    create = next(c for c in rolled.message.custom_ids if c.startswith("dune:recurso"))
    form = await harness.click(rolled.message, create)
    await harness.submit(form.modal_id, {"recurso": "Cuerda"}, message=rolled.message)
    assert await harness.pool("impulso") == 0
    short = await harness.slash("dune recurso", recurso="Cuerda")
    assert "No alcanza la reserva de Impulso" in short.text and short.ephemeral
    shown = await harness.slash("ficha ver")
    assert "Cuerda" not in shown.text
    assert await harness.pool("recurso:Cuerda", PLAYER.id) == 1
