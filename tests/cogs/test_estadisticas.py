"""/estadisticas through the harness: dice are counted as rolled, once, and judged."""

import random
from datetime import UTC, datetime

import pytest

from bot import charts
from tests.rules.test_stats import Loaded
from tests.support.harness import Harness
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, OTHER, PLAYER, interaction_payload


@pytest.fixture(autouse=True)
def no_chart(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """The chart is drawn in tests/bot/test_charts.py; here only what it is given is kept."""
    drawn: list[tuple] = []

    async def record(*args: object) -> bytes:
        drawn.append(args)
        return b"\x89PNG"

    monkeypatch.setattr(charts, "against_chart", record)
    return drawn


async def many(h: Harness, expression: str, times: int, user=PLAYER) -> None:
    for _ in range(times):
        await h.slash("tirar", expresion=expression, user=user)


async def test_every_die_is_counted_once_by_system_and_size(harness: Harness) -> None:
    harness.script(3, 3, 5, 1, 1, 1)
    data = harness._command_data(["tirar"], {"expresion": "2d6+1d8"})
    payload = interaction_payload(
        2, data, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID, channels=harness.channels
    )
    await harness.feed(payload)
    assert harness.bot is not None
    today = datetime.now(UTC).date().isoformat()
    assert await harness.bot.store.dice_counts(today, user_id=PLAYER.id) == {
        ("tirar", 6): {3: 2},
        ("tirar", 8): {5: 1},
    }
    # Discord delivering the same interaction again records nothing twice.
    await harness.feed(payload)
    assert (await harness.bot.store.dice_counts(today, user_id=PLAYER.id))[("tirar", 6)] == {3: 2}


async def test_a_dune_roll_counts_its_d20s(harness: Harness) -> None:
    await harness.table_for("dune")
    harness.script(1, 20)
    await harness.slash("dune tirada", habilidad=6, motivacion=6)
    assert harness.bot is not None
    today = datetime.now(UTC).date().isoformat()
    assert await harness.bot.store.dice_counts(today, channel_id=CHANNEL_ID) == {("dune", 20): {1: 1, 20: 1}}


async def test_fair_dice_read_as_expected(harness: Harness, no_chart: list[tuple]) -> None:
    harness.bot.rng = random.Random(5)  # type: ignore[union-attr]
    await many(harness, "100d6", 6)
    reply = await harness.slash("estadisticas")
    assert not reply.ephemeral
    assert "Tus d6 (tirar, n = 600) están dentro de lo esperado: p = " in reply.text
    assert reply.embed["title"] == "Tus dados, últimos 30 días"
    [(_, chart, expected, label)] = no_chart
    assert chart.title == "d6 (tirar), n = 600" and label == "un dado justo"
    assert [b.label for b in chart.bars] == ["1", "2", "3", "4", "5", "6"] and expected == [1 / 6] * 6
    assert sum(b.p for b in chart.bars) == pytest.approx(1)


async def test_a_loaded_generator_is_flagged_in_plain_words(harness: Harness) -> None:
    harness.bot.rng = Loaded(5)  # type: ignore[union-attr]
    await many(harness, "100d20", 40)
    reply = await harness.slash("estadisticas", locale="en-US")
    assert "Your d20 (tirar, n = 4000) stray from what is expected: p = < 0.001." in reply.text


async def test_scopes_mine_the_table_and_the_bot(harness: Harness) -> None:
    harness.script(*([2] * 12))
    await harness.slash("tirar", expresion="2d4")
    await harness.slash("tirar", expresion="10d4", user=OTHER)
    mine = await harness.slash("estadisticas")
    assert "n = 2)" in mine.text and "aún son pocos para juzgar" in mine.text
    table = await harness.slash("estadisticas", de="mesa", dias=1)
    assert "Los d4 de la mesa (tirar, n = 12)" in table.text
    assert table.embed["title"] == "Los dados de la mesa, hoy"
    bot = await harness.slash("estadisticas", de="bot")
    assert "Los d4 del bot (tirar, n = 12)" in bot.text


async def test_the_table_shows_impulso_and_amenaza_over_the_session(harness: Harness) -> None:
    await harness.table_for("dune")
    await harness.slash("dune impulso añadir", user=GM, cantidad=3)
    await harness.slash("dune impulso gastar", cantidad=1)
    await harness.slash("dune amenaza añadir", user=GM, cantidad=2)
    reply = await harness.slash("estadisticas", de="mesa")
    assert "Impulso en la sesión: +3, −1; ahora 2." in reply.text
    assert "Amenaza en la sesión: +2, −0; ahora 2." in reply.text


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"dias": 0}, "Los días van de 1 a 365."),
        ({"dias": 9999}, "Los días van de 1 a 365."),
        ({"dado": 7}, "No hay ningún d7 registrado"),
        ({"de": "todo"}, "no es una opción"),
    ],
)
async def test_bad_input_is_refused(harness: Harness, options: dict, says: str) -> None:
    reply = await harness.slash("estadisticas", **options)
    assert reply.ephemeral and says in reply.text, reply.text


async def test_nothing_rolled_yet_says_so_without_a_chart(harness: Harness, no_chart: list[tuple]) -> None:
    reply = await harness.slash("estadisticas")
    assert "Aún no hay dados registrados" in reply.text and not no_chart


async def test_a_secret_roll_counts_only_once_revealed(harness: Harness) -> None:
    """The GM's secret 1d20 (17): a player's table statistics, asked before and after,
    would isolate it; its die counts from the reveal on, once."""
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    harness.script(17)
    secret = await harness.slash("tirar", user=GM, expresion="1d20", secreta=True)
    asked = await harness.slash("estadisticas", de="mesa", dado=20)
    assert asked.ephemeral and "No hay ningún d20" in asked.text
    reveal = next(c for c in secret.message.custom_ids if c.startswith("secreta:revelar:"))
    await harness.click(secret.message, reveal, user=GM)
    await harness.click(secret.message, reveal, user=GM)
    shown = await harness.slash("estadisticas", de="mesa", dado=20)
    assert "Los d20 de la mesa (tirar, n = 1)" in shown.text


async def test_a_private_roll_counts_only_for_its_roller(harness: Harness) -> None:
    harness.script(17)
    await harness.slash("tirar", user=OTHER, expresion="1d20", privada=True)
    for scope in ("mesa", "bot"):
        asked = await harness.slash("estadisticas", de=scope, dado=20)
        assert asked.ephemeral and "No hay ningún d20" in asked.text, scope
    assert "Tus d20 (tirar, n = 1)" in (await harness.slash("estadisticas", user=OTHER)).text
    assert "No hay ningún d20" in (await harness.slash("estadisticas", dado=20)).text
