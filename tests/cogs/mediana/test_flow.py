"""/mediana at the table (issues 15 and 17): PV in the ledger, the tracker's turns and
rounds, opposed tests with both sides' state, motivo and *Repetir*."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.models import Record
from cogs.mediana.components import accept_tie
from cogs.mediana.render import contest_embed
from tests.cogs.test_mesa import channel
from tests.support.harness import Harness
from tests.support.payloads import CHANNEL_ID, GM, GM_CHANNEL_ID, OTHER, PLAYER, User

PANEL = "mediana:ini:{action}:1:{step}"


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


# -- the initiative tracker -------------------------------------------------------------------------


async def join(table: Harness, panel_id: int, user: User, bonus: str, *faces: int, npc: str = "") -> None:
    panel = table.discord.messages[panel_id]
    action = "pnj" if npc else "unirme"
    form = await table.click(panel, PANEL.format(action=action, step=0), user=user)
    table.script(*faces)
    await table.submit(
        form.modal_id,
        {"nombre": npc, "bono": bonus, "estorbo": ""},
        user=user,
        message=table.current(panel),
    )


async def test_joining_again_in_a_round_is_refused(table: Harness) -> None:
    """Issue 15: a second *Unirme* in the round would be a second initiative roll: refused
    before the form opens, and a form opened earlier is refused on submit."""
    panel = (await table.slash("mediana iniciativa")).message
    second_form = await table.click(panel, PANEL.format(action="unirme", step=0))
    await join(table, panel.id, PLAYER, "5", 2, 7, 9)
    early = await table.click(table.current(panel), PANEL.format(action="unirme", step=0))
    assert early.ephemeral
    assert "la iniciativa se tira una vez por ronda" in early.text
    table.script(10, 10, 10, 9, 9, 9)
    again = await table.submit(
        second_form.modal_id, {"nombre": "", "bono": "5", "estorbo": ""}, message=table.current(panel)
    )
    assert again.ephemeral
    assert "la iniciativa se tira una vez por ronda" in again.text
    assert "**12** · Jugadora · 1 acción" in str(table.current(panel).data)


async def test_a_new_round_rolls_at_the_rank_the_pv_sheet_gives_now(table: Harness) -> None:
    """Issue 15: joined at medio, then malherido: the next round rolls at bajo."""
    panel = (await table.slash("mediana iniciativa")).message
    await join(table, panel.id, PLAYER, "0", 2, 7, 9)
    await table.slash("mediana pv fijar", fisico=4, maximo=20, actual=3)
    table.script(2, 7, 9)
    await table.click(table.current(panel), PANEL.format(action="ronda", step=1), user=GM)
    shown = str(table.current(panel).data)
    assert "Combate · ronda 2" in shown
    assert "**2** · Jugadora" in shown


async def test_the_panel_shows_the_dice_the_turn_and_next(table: Harness) -> None:
    """Issue 17: whose turn, the dice, and *Siguiente* for the turn's holder or the GM;
    a double press moves once; after the last, everyone rolls again."""
    panel = (await table.slash("mediana iniciativa")).message
    await join(table, panel.id, PLAYER, "10", 10, 10, 1, 2, 3, 4)
    await join(table, panel.id, GM, "2", 3, 3, 3, npc="Orco")
    now = table.current(panel)
    shown = str(now.data)
    assert "▶️ Turno de Jugadora." in shown
    assert "▶️ **23** · Jugadora · 2 acciones · ~~1~~ **10**💥 ~~10~~ → ~~2~~ **3** ~~4~~" in shown
    assert "**5** · Orco · 1 acción · ~~3~~ **3** ~~3~~" in shown
    assert PANEL.format(action="siguiente", step=0) in now.custom_ids
    stranger = await table.click(now, PANEL.format(action="siguiente", step=0), user=OTHER)
    assert "Solo quien tiene el turno" in stranger.text
    one, two = await asyncio.gather(
        table.click(now, PANEL.format(action="siguiente", step=0)),
        table.click(now, PANEL.format(action="siguiente", step=0)),
    )
    assert sorted([one.ephemeral, two.ephemeral]) == [False, True]
    assert "▶️ Turno de Orco." in str(table.current(panel).data)
    assert "▶️ Turno de Orco (ronda 1)." in str(one.calls + two.calls)
    player_refused = await table.click(table.current(panel), PANEL.format(action="siguiente", step=1))
    assert player_refused.ephemeral
    table.script(1, 2, 3, 9, 9, 9)
    new_round = await table.click(table.current(panel), PANEL.format(action="siguiente", step=1), user=GM)
    shown = str(table.current(panel).data)
    assert "Combate · ronda 2" in shown
    assert "▶️ Turno de Jugadora." in shown
    pinged = str(new_round.calls)
    assert f"'content': '<@{PLAYER.id}>'" in pinged and "▶️ Turno de Jugadora (ronda 2)." in pinged
    assert "▶️ **12** · Jugadora · 1 acción · ~~1~~ **2** ~~3~~" in shown


# -- opposed tests ------------------------------------------------------------------------------------


async def test_both_sides_follow_their_own_state(table: Harness) -> None:
    """Issue 15: the rival's PV sheet makes it malherido; each side has rank and encumbrance."""
    await table.slash("mediana pv fijar", user=OTHER, fisico=4, maximo=20, actual=2)
    table.script(2, 5, 9, 2, 5, 9)
    reply = await table.slash(
        "mediana enfrentada",
        atributo=3,
        habilidad=2,
        rango="alto",
        estorbo=1,
        rival_atributo=6,
        rival_habilidad=2,
        rival_estorbo=2,
        rival=OTHER,
    )
    assert "~~2~~ ~~5~~ **9**\nRango Alto (el mayor)\nTotal: **13**" in reply.text
    assert "**2** ~~5~~ ~~9~~\nRango Bajo (el menor)\nTotal: **8**" in reply.text
    assert f"✅ Gana <@{PLAYER.id}>." in reply.text


async def test_a_natural_one_loses_an_opposed_test_and_says_so(table: Harness) -> None:
    """The bookworm against the martial artist: a natural 1 loses whatever the total."""
    table.script(1, 1, 8, 2, 4, 6)
    reply = await table.slash(
        "mediana enfrentada", atributo=25, habilidad=5, rival_atributo=3, rival_habilidad=2
    )
    assert "❌ 1 natural: pierde sea cual sea el total." in reply.text
    assert "✅ Gana Rival." in reply.text
    table.script(1, 1, 1, 1, 1, 3)
    both = await table.slash(
        "mediana enfrentada", atributo=5, habilidad=5, rival_atributo=3, rival_habilidad=2
    )
    assert "☠️ Pifia: pierde, y algo sale mal." in both.text
    assert "❌ Nadie gana" in both.text


# -- motivo and Repetir ---------------------------------------------------------------------------


async def test_motivo_heads_the_roll_and_repeat_keeps_it(table: Harness) -> None:
    table.script(9, 2, 5)
    reply = await table.slash(
        "mediana tirada", atributo=4, habilidad=3, dificultad=10, motivo="Forzar la puerta"
    )
    assert reply.text.startswith("Forzar la puerta — Tirada de habilidad (1o3d10)")
    table.script(1, 2, 3)
    again = await table.click(reply.message, "rep:repetir:1", user=OTHER)
    assert again.text.startswith("Forzar la puerta — Tirada de habilidad")
    assert f"Tira <@{OTHER.id}>." in again.text
    assert "Atributo 4 + Habilidad 3 + 1o3d10 2 = **9**" in again.text


@pytest.mark.parametrize(
    ("command", "options", "faces", "words"),
    [
        ("mediana atributo", {"atributo": 3, "dificultad": 10}, (5, 5, 5), "Atributo 3 + 1o3d10 5 = **8**"),
        (
            "mediana enfrentada",
            {"atributo": 3, "habilidad": 2, "rival_atributo": 1, "rival_habilidad": 1},
            (5, 5, 5, 2, 2, 2),
            "Total: **10**",
        ),
        ("mediana daño", {"dados": "1d6+1"}, (3,), "**3** +1 = 4"),
    ],
)
async def test_every_roll_repeats_with_its_motivo(
    table: Harness, command: str, options: dict[str, object], faces: tuple[int, ...], words: str
) -> None:
    table.script(*faces)
    reply = await table.slash(command, motivo="Otra vez", **options)
    assert "rep:repetir:1" in reply.message.custom_ids
    table.script(*faces)
    again = await table.click(reply.message, "rep:repetir:1")
    assert again.text.startswith("Otra vez — ")
    assert words in again.text


async def test_a_combat_critical_doubles_its_degrees_too(table: Harness) -> None:
    """docs/decisiones.md: "2d6+2d6" are the dice, "se multiplica el daño infligido por 2"
    doubles them."""
    table.script(1, 2, 3, 4)
    reply = await table.slash("mediana daño", dados="2d6", grados=2, critico=True)
    assert "**1** **2** **3** **4** = 10 · crítico ×2 = 20 · total **20**" in reply.text
    table.script(1, 2)
    alone = await table.slash("mediana daño", dados="2d6", critico=True)
    assert "crítico ×2 = 6" in alone.text


# -- contests of three or more ------------------------------------------------------------------------


async def enter(
    table: Harness, message_id: int, user: User, fields: dict[str, str], npc: bool = False
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
    await enter(table, contest.id, PLAYER, {"atributo": "3", "habilidad": "2", "estorbo": "", "rango": ""})
    await enter(table, contest.id, OTHER, {"atributo": "4", "habilidad": "0", "estorbo": "", "rango": "alto"})
    refused = await table.click(table.current(contest), "mediana:concurso:pnj:1")
    assert refused.ephemeral
    listed = await enter(
        table,
        contest.id,
        GM,
        {"nombre": "Orco", "atributo": "4", "habilidad": "1", "estorbo": "", "rango": ""},
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
        fields = {"nombre": name, "atributo": "4", "habilidad": "1", "estorbo": "", "rango": ""}
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
    await enter(table, contest.id, PLAYER, {"atributo": "3", "habilidad": "", "estorbo": "", "rango": ""})
    await enter(table, contest.id, OTHER, {"atributo": "4", "habilidad": "", "estorbo": "", "rango": ""})
    table.script(2, 5, 9, 3, 6, 8)
    resolved = await table.click(table.current(contest), "mediana:concurso:resolver:1")
    assert resolved.text.count("Rango Medio (la mediana)") == 2
    assert "Total: **8**" in resolved.text and "Total: **10**" in resolved.text


async def test_a_resolved_contest_repeats_with_the_same_sides(table: Harness) -> None:
    contest = (await table.slash("mediana competicion")).message
    await enter(table, contest.id, PLAYER, {"atributo": "3", "habilidad": "2", "estorbo": "", "rango": ""})
    await enter(table, contest.id, OTHER, {"atributo": "1", "habilidad": "1", "estorbo": "", "rango": ""})
    early = await table.click(table.current(contest), "mediana:concurso:participar:1", user=GM)
    assert early.callback.payload["type"] == 9
    table.script(5, 5, 5, 5, 5, 5)
    await table.click(table.current(contest), "mediana:concurso:resolver:1")
    assert "mediana:concurso:participar:1" not in table.current(contest).custom_ids
    table.script(1, 2, 3, 9, 9, 9)
    again = await table.click(table.current(contest), "rep:repetir:1", user=OTHER)
    assert f"Tira <@{OTHER.id}>." in again.text
    assert f"✅ Gana <@{OTHER.id}>." in again.text


def test_an_opposed_test_stored_before_still_reads_and_settles() -> None:
    """A tie stored with the old ``a``/``b`` shape keeps reading, and the GM can settle it."""
    throw = {"throws": [[[5, 5, 5], "medio"]], "score": 5, "difficulty": None, "skill_test": True}
    old = Record(1, 2, PLAYER.id, "mediana", {"kind": "enfrentada", "a": throw, "b": throw, "rival": None})
    assert "⚖️ Empate: el DJ decide" in str(contest_embed("es", old).to_dict())
    settled = Record(1, 2, PLAYER.id, "mediana", accept_tie(old).data)
    assert "⚖️ Empate aceptado por el DJ." in str(contest_embed("es", settled).to_dict())


async def test_repeat_cleans_the_motivo_once(table: Harness) -> None:
    table.script(5, 5, 5)
    reply = await table.slash("mediana atributo", atributo=1, dificultad=5, motivo="*Empujar*")
    table.script(5, 5, 5)
    again = await table.click(reply.message, "rep:repetir:1")
    table.script(5, 5, 5)
    third = await table.click(again.message, "rep:repetir:2")
    assert third.text.startswith("\\*Empujar\\* — Tirada de atributo")
