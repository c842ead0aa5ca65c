"""Contests of three or more in Mediana (cogs/mediana/contest.py): the tied ones reroll, the GM
channel keeps a contest until revealed, ranks kept, *Repetir* with the same sides."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cogs.test_mesa import channel
from tests.support.harness import Harness
from tests.support.payloads import CHANNEL_ID, GM, GM_CHANNEL_ID, OTHER, PLAYER, User, offered


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.table_for("mediana")
    return harness


# -- contests of three or more ------------------------------------------------------------------------


async def enter(
    table: Harness, message_id: int, user: User, fields: dict[str, Any], npc: bool = False
) -> str:
    contest = table.discord.messages[message_id]
    action = "pnj" if npc else "participar"
    form = await table.click(contest, f"mediana:concurso:{action}:1", user=user)
    done = await table.submit(form.modal_id, fields, user=user, message=table.current(contest))
    return done.text


async def test_three_characters_compete_and_the_tied_ones_reroll(table: Harness) -> None:
    """ "Las tiradas enfrentadas se usan cuando dos o más personajes compiten"."""
    opened = await table.slash("mediana competicion", motivo="Carrera")
    contest = opened.message
    assert contest.custom_ids == [
        "mediana:concurso:participar:1",
        "mediana:concurso:pnj:1",
        "mediana:concurso:resolver:1",
    ]
    too_few = await table.click(contest, "mediana:concurso:resolver:1")
    assert "al menos dos personajes" in too_few.text
    await enter(table, contest.id, PLAYER, {"atributo": ["3"], "habilidad": "2"})
    await enter(table, contest.id, OTHER, {"atributo": ["4"], "habilidad": "0", "rango": "alto"})
    refused = await table.click(table.current(contest), "mediana:concurso:pnj:1")
    assert refused.ephemeral
    listed = await enter(
        table,
        contest.id,
        GM,
        {"nombre": "Orco", "atributo": ["4"], "habilidad": "1"},
        npc=True,
    )
    assert f"<@{PLAYER.id}>\n<@{OTHER.id}>\nOrco" in listed
    stranger = await table.click(table.current(contest), "mediana:concurso:resolver:1", user=OTHER)
    assert "Solo quien abrió la competición" in stranger.text
    table.script(5, 5, 5, 2, 5, 9, 5, 5, 5)
    resolved = await table.click(table.current(contest), "mediana:concurso:resolver:1")
    # 3+2+5 = 10; no skill points drop alto to medio: 4+0+5 = 9; the orc 4+1+5 = 10.
    assert resolved.text.startswith("Carrera — Competición (1o3d10)")
    assert "Total: **10**" in resolved.text and "Total: **9**" in resolved.text
    assert "⚖️ Empate" in resolved.text
    table.script(9, 9, 9, 1, 2, 3)
    rerolled = await table.click(table.current(contest), "mediana:repetir:1", user=GM)
    assert f"✅ Gana <@{PLAYER.id}>." in rerolled.text
    assert "Total: **9**" in rerolled.text  # the side that lost keeps its roll
    assert table.current(contest).custom_ids == ["rep:repetir:1"]


async def test_a_contest_in_the_gm_channel_stays_there_until_revealed(table: Harness) -> None:
    """Everything rolled in the GM channel is secret: a contest the GM runs there between
    NPCs reaches neither the table's statistics nor its chronicle until it is revealed."""
    await table.slash("mesa canal-dj", user=GM, canal=channel(GM_CHANNEL_ID))
    opened = await table.slash("mediana competicion", user=GM, channel_id=GM_CHANNEL_ID)
    contest = opened.message
    assert "secreta:revelar:1" in contest.custom_ids
    for name in ("Orco", "Trasgo"):
        fields = {"nombre": name, "atributo": ["4"], "habilidad": "1"}
        await enter(table, contest.id, GM, fields, npc=True)
    table.script(5, 5, 5, 2, 3, 4)
    resolved = await table.click(table.current(contest), "mediana:concurso:resolver:1", user=GM)
    assert "Total: **10**" in resolved.text
    stats = await table.slash("estadisticas", de="mesa")
    assert "Aún no hay dados registrados" in stats.text, stats.text
    chronicle = await table.slash("mesa cronica", user=GM)
    assert "Orco" not in chronicle.text and "1 suceso" not in chronicle.text
    files = [data.decode() for call in chronicle.calls for _, data in call.attachments]
    assert not any("10 / 7" in text for text in files), files
    table.script(5, 5, 5, 2, 3, 4)
    again = await table.click(table.current(contest), "rep:repetir:1", user=GM)
    assert any(c.startswith("secreta:revelar:") for c in again.message.custom_ids)
    assert "Aún no hay dados registrados" in (await table.slash("estadisticas", de="mesa")).text
    revealed = await table.click(table.current(contest), "secreta:revelar:1", user=GM)
    assert [m.channel_id for m in revealed.messages] == [CHANNEL_ID]
    stats = await table.slash("estadisticas", de="mesa", dado=10)
    assert "n = 6" in stats.text, stats.text


async def test_contestants_with_no_skill_given_keep_their_rank(table: Harness) -> None:
    """An attribute against attribute contest (the skill left empty) has no skill to lack."""
    contest = (await table.slash("mediana competicion")).message
    await enter(table, contest.id, PLAYER, {"atributo": ["3"], "habilidad": ""})
    await enter(table, contest.id, OTHER, {"atributo": ["4"], "habilidad": ""})
    table.script(2, 5, 9, 3, 6, 8)
    resolved = await table.click(table.current(contest), "mediana:concurso:resolver:1")
    assert resolved.text.count("Rango Medio (la mediana)") == 2
    assert "Total: **8**" in resolved.text and "Total: **10**" in resolved.text


async def test_a_resolved_contest_repeats_with_the_same_sides(table: Harness) -> None:
    contest = (await table.slash("mediana competicion")).message
    await enter(table, contest.id, PLAYER, {"atributo": ["3"], "habilidad": "2"})
    await enter(table, contest.id, OTHER, {"atributo": ["1"], "habilidad": "1"})
    early = await table.click(table.current(contest), "mediana:concurso:participar:1", user=GM)
    assert early.callback.payload["type"] == 9
    table.script(5, 5, 5, 5, 5, 5)
    await table.click(table.current(contest), "mediana:concurso:resolver:1")
    assert "mediana:concurso:participar:1" not in table.current(contest).custom_ids
    table.script(1, 2, 3, 9, 9, 9)
    again = await table.click(table.current(contest), "rep:repetir:1", user=OTHER)
    assert f"Tira <@{OTHER.id}>." in again.text
    assert f"✅ Gana <@{OTHER.id}>." in again.text


# -- the entry form (issue #31) -----------------------------------------------------------------------


async def test_the_entry_form_picks_the_attribute_the_estorbo_and_the_rank(table: Harness) -> None:
    """The attribute the sheet skill's (first) or -4 to 19, the estorbo the sheet's (first) or
    0 to 23, the rank of the three (medio first): each side rolls as its numbers say."""
    contest = (await table.slash("mediana competicion")).message
    form = await table.click(contest, "mediana:concurso:participar:1")
    assert offered(form.form, "atributo") == ["-", *(str(n) for n in range(-4, 20))]
    assert offered(form.form, "estorbo") == ["-", *(str(n) for n in range(24))]
    assert offered(form.form, "rango") == ["bajo", "medio", "alto"]
    fields = {"atributo": ["19"], "habilidad": "2", "estorbo": ["23"], "rango": "alto"}
    await table.submit(form.modal_id, fields, message=table.current(contest))
    fields = {"atributo": ["-4"], "habilidad": "1", "estorbo": ["0"], "rango": "bajo"}
    await enter(table, contest.id, OTHER, fields)
    table.script(1, 5, 9, 2, 5, 9)
    resolved = await table.click(table.current(contest), "mediana:concurso:resolver:1")
    # 19 + 2 − 23 + 9 (alto of 1, 5, 9) = 7; −4 + 1 − 0 + 2 (bajo of 2, 5, 9) = −1.
    assert "Total: **7**" in resolved.text and "Total: **-1**" in resolved.text, resolved.text


@pytest.mark.parametrize("fields", [{"atributo": ["20"]}, {"estorbo": ["24"]}, {"rango": "maximo"}])
async def test_the_entry_form_refuses_what_it_did_not_offer(table: Harness, fields: dict[str, Any]) -> None:
    contest = (await table.slash("mediana competicion")).message
    form = await table.click(contest, "mediana:concurso:participar:1")
    sent: dict[str, Any] = {"atributo": ["3"], "estorbo": ["0"], "rango": "medio", **fields}
    components: list[dict[str, Any]] = [
        {"type": 18, "component": {"type": 3, "custom_id": key, "values": sent[key]}}
        for key in ("atributo", "estorbo")
    ]
    components += [
        {"type": 18, "component": {"type": 21, "custom_id": "rango", "value": sent["rango"]}},
        {"type": 1, "components": [{"type": 4, "custom_id": "habilidad", "value": "2"}]},
    ]
    message = table.current(contest)
    data = {"custom_id": form.modal_id, "components": components}
    refused = await table.dispatch(
        5, data, user=PLAYER, locale="es-ES", channel_id=message.channel_id, message=message
    )
    assert refused.ephemeral and "no estaba en el formulario" in refused.text, refused.text
    assert f"<@{PLAYER.id}>" not in str(table.current(contest).data)
