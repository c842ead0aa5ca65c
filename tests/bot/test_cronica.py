"""The session's chronicle: /mesa cronica through the harness, and its files."""

import csv
import io
from datetime import datetime, timedelta

import pytest

from bot import cronica
from bot.store import Retention
from bot.store.session import scene_key
from tests.support.harness import Harness, Reply
from tests.support.payloads import CHANNEL_ID, GM, GM_CHANNEL_ID, PLAYER


@pytest.fixture
async def linked(harness: Harness) -> Harness:
    await harness.table_for("dune")
    channel = next(c for c in harness.channels if int(c["id"]) == GM_CHANNEL_ID)
    await harness.slash("mesa canal-dj", user=GM, canal=channel)
    return harness


def files(reply: Reply) -> list[tuple[str, str]]:
    return [(name, data.decode()) for call in reply.calls for name, data in call.attachments]


async def session(h: Harness) -> None:
    """A scene: a roll, a Dune test with Impulso, a private roll, two GM secrets (one revealed)."""
    h.script(7)
    await h.slash("tirar", expresion="1d20+2", motivo="Abrir la puerta")
    await h.slash("dune impulso añadir", user=GM, cantidad=2)
    h.script(1, 20)
    await h.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    h.script(19)
    await h.slash("tirar", expresion="1d20", privada=True, motivo="Solo mío")
    h.script(5)
    await h.slash("tirar", expresion="1d20", secreta=True, user=GM, motivo="Emboscada oculta")
    h.script(6)
    shown = await h.slash("tirar", expresion="1d20", secreta=True, user=GM, motivo="Trampa")
    secret = next(m for m in shown.messages if m.channel_id == GM_CHANNEL_ID)
    reveal = next(c for c in secret.custom_ids if c.startswith("secreta:revelar:"))
    await h.click(secret, reveal, user=GM)


async def test_the_gm_gets_the_session_as_markdown_without_unrevealed_secrets(linked: Harness) -> None:
    await linked.slash("mesa escena-fin", user=GM)
    await session(linked)
    reply = await linked.slash("mesa cronica", user=GM)
    assert reply.ephemeral and "4 sucesos" in reply.text
    [(name, text)] = files(reply)
    assert name.endswith("_1.md")
    assert "# Crónica de #mesa" in text
    assert "tirada · **930000000000000002** · tirar: 1d20+2 = 9 — Abrir la puerta" in text
    assert "dune: 2 éxitos contra dificultad 1 — superada" in text
    assert "reserva · **930000000000000001** · Impulso +2 (queda en 2)" in text
    assert "Trampa" in text
    assert "Emboscada oculta" not in text and "Solo mío" not in text


async def test_csv_in_english_quotes_formula_like_cells(linked: Harness) -> None:
    await linked.slash("mesa escena-fin", user=GM)
    linked.script(3)
    await linked.slash("tirar", expresion="1d4", motivo="=HYPERLINK(x)")
    reply = await linked.slash("mesa cronica", user=GM, formato="csv", locale="en-US")
    [(name, text)] = files(reply)
    rows = list(csv.reader(io.StringIO(text)))
    assert name.endswith(".csv") and rows[0] == ["time_utc", "type", "who", "what", "detail"]
    assert rows[1][1:] == ["roll", str(PLAYER.id), "tirar: 1d4 = 3", "'=HYPERLINK(x)"]


async def test_only_the_gm_and_bad_times_are_refused(linked: Harness) -> None:
    refused = await linked.slash("mesa cronica", user=PLAYER)
    assert refused.ephemeral and "DJ" in refused.text and not files(refused)
    bad = await linked.slash("mesa cronica", user=GM, desde="ayer por la tarde")
    assert bad.ephemeral and "No entiendo la hora «ayer por la tarde»" in bad.text
    backwards = await linked.slash(
        "mesa cronica", user=GM, desde="2026-11-30 18:00", hasta="2026-11-30 17:00"
    )
    assert "El periodo termina antes de empezar" in backwards.text


async def test_in_the_gm_channel_it_answers_in_place(linked: Harness) -> None:
    reply = await linked.slash("mesa cronica", user=GM, channel_id=GM_CHANNEL_ID)
    assert not reply.ephemeral and "No pasó nada" in files(reply)[0][1]


async def test_a_long_session_is_split_into_at_most_ten_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cronica, "PART_BYTES", 100)
    parts, whole = cronica.markdown_parts([f"linea {i} " + "x" * 30 for i in range(12)])
    assert len(parts) == 6 and whole and all(len(p) <= 100 for p in parts)
    parts, whole = cronica.markdown_parts([f"linea {i} " + "x" * 30 for i in range(100)])
    assert len(parts) == cronica.MAX_FILES and not whole
    csv_parts, _ = cronica.csv_parts([["h1", "h2"]] + [["a" * 20, "b" * 20]] * 10)
    assert all(part.startswith(b"h1,h2") for part in csv_parts) and len(csv_parts) > 1


async def test_the_chronicle_starts_at_the_last_scene_end(linked: Harness) -> None:
    linked.script(2)
    await linked.slash("tirar", expresion="1d6", motivo="Antes")
    assert linked.bot is not None
    await linked.bot.store.set_meta(scene_key(CHANNEL_ID), "2999-01-01T00:00:00+00:00")
    reply = await linked.slash("mesa cronica", user=GM, hasta="3000-01-01 00:00")
    assert "Antes" not in files(reply)[0][1]


async def test_a_players_html_and_markdown_images_reach_the_markdown_chronicle_as_text(
    linked: Harness,
) -> None:
    """A viewer would load ``<img src=…>`` or ``![](…)`` and tell its author the GM's
    address: in the Markdown file they are escaped, shown as typed, never rendered."""
    await linked.slash("mesa escena-fin", user=GM)
    linked.script(5, 6)
    await linked.slash("tirar", expresion="1d20 [<img src=http://x.test/a.png>]")
    await linked.slash("tirar", expresion="1d20", motivo="![a](http://x.test/b.png) \\[c](http://x.test/d)")
    [(_, text)] = files(await linked.slash("mesa cronica", user=GM))
    assert "1d20 [\\<img src=http://x.test/a.png\\>] = 5" not in text
    assert "1d20 \\[\\<img src=http://x.test/a.png\\>\\] = 5" in text
    assert "<img" not in text.replace("\\<img", "")
    assert "![a]" not in text and "!\\[a\\](http://x.test/b.png)" in text
    assert "](http://x.test/d)" not in text.replace("\\](http://x.test/d)", "")


def test_markdown_text_escapes_what_would_render_as_html_and_nothing_twice() -> None:
    assert cronica.markdown_text("a <b> [c](d) & \\[e] \\") == "a \\<b\\> \\[c\\](d) & \\[e\\] \\\\"
    assert (
        cronica.markdown_text("1d20+2 = 9 — Impulso +2 (queda en 2)")
        == "1d20+2 = 9 — Impulso +2 (queda en 2)"
    )


async def test_rolls_retention_forgot_are_named_not_silently_missing(linked: Harness) -> None:
    """The ledger is kept whole but old rolls are not: a chronicle reaching back past what
    retention forgot says until when rolls are gone, in its answer and in its file."""
    assert linked.bot is not None
    linked.script(5)
    await linked.slash("tirar", expresion="1d20", motivo="Olvidada")
    await linked.slash("dune impulso añadir", user=GM, cantidad=2)
    store = linked.bot.store
    [(made, _)] = await store.session_rolls(CHANNEL_ID, "2000-01-01", "9999-01-01", 10)
    await store.prune(Retention(records=timedelta(seconds=-60), kinds=("tirar",)))
    reply = await linked.slash("mesa cronica", user=GM, desde="2000-01-01 00:00")
    gone = f"Algunas tiradas hechas hasta el {made[:10]} {made[11:16]} (UTC) ya se olvidaron"
    assert gone in reply.text
    [(_, text)] = files(reply)
    assert gone in text and "Olvidada" not in text and "Impulso +2" in text
    after = (datetime.fromisoformat(made) + timedelta(minutes=1)).strftime(cronica.TIME_FORMAT)
    later = await linked.slash("mesa cronica", user=GM, desde=after, hasta="9999-01-01 00:00")
    assert "sucesos" in later.text and "olvidaron" not in later.text
