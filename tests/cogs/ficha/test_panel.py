"""The character panel and its forms (issue #31): /ficha ver as a Components V2 panel, a
button beside each rollable, a form for each roll; a press rolls what the typed command
rolls (the same card, pools and ledger), for the sheet's owner and the GM only, and keeps
working after a restart. The offline Discord checks every panel and form against
Discord's limits (40 components, 4,000 characters, 45-character labels, 5 questions)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.models import Change, Operation, Outcome
from cogs.dnd5e.state import KIND as DND_KIND
from tests.cogs.ficha.test_cog import imported
from tests.support.harness import Harness, Reply, resolve_user
from tests.support.payloads import (
    CHANNEL_ID,
    GM,
    OTHER,
    OTHER_CHANNEL_ID,
    PLAYER,
    Message,
    User,
    snowflake,
)

V2 = 1 << 15
LOCALES = ("es-ES", "en-US")


def buttons(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every button of a V2 message by custom_id: in rows, and as sections' accessories."""
    found: dict[str, dict[str, Any]] = {}

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if component.get("type") == 2:
                found[component["custom_id"]] = component
            accessory = component.get("accessory")
            if isinstance(accessory, dict) and accessory.get("type") == 2:
                found[accessory["custom_id"]] = accessory
            walk(component.get("components") or [])

    walk(data.get("components") or [])
    return found


def roll_ids(data: dict[str, Any]) -> list[str]:
    return [custom_id for custom_id in buttons(data) if custom_id.startswith("ficha:tirar:")]


def change_ids(data: dict[str, Any]) -> list[str]:
    """The *Cambiar* buttons of a panel's page, beside its live numbers."""
    return [custom_id for custom_id in buttons(data) if custom_id.startswith("ficha:cambiar:")]


def sections(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Each section's line and the custom_id of the button beside it, in order."""
    found: list[tuple[str, str]] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if component.get("type") == 9:
                found.append((component["components"][0]["content"], component["accessory"]["custom_id"]))
            walk(component.get("components") or [])

    walk(data.get("components") or [])
    return found


def section_texts(data: dict[str, Any]) -> list[str]:
    """The line beside each roll button, in order (not the numbers' *Cambiar*)."""
    return [text for text, custom_id in sections(data) if custom_id.startswith("ficha:tirar:")]


def roll_button(data: dict[str, Any], line: str) -> str:
    """The button beside the line that starts with ``line``."""
    matches = [custom_id for text, custom_id in sections(data) if text.startswith(line)]
    assert len(matches) == 1, (line, sections(data))
    return matches[0]


async def page_with(
    h: Harness, reply: Reply, line: str, locale: str = "es-ES"
) -> tuple[Message, dict[str, Any]]:
    """The panel turned to the page showing ``line``: the message as it is then, its data."""
    message, data = reply.message, reply.data
    while not any(text.startswith(line) for text, _ in sections(data)):
        forward = next_page(data)
        assert forward is not None, f"no page shows {line}"
        data = (await h.click(message, forward, locale=locale)).data
        message = h.current(message)
    return message, data


def next_page(data: dict[str, Any]) -> str | None:
    """The panel's *Siguiente* button, unless this is its last page (or its only one)."""
    turns = [(i, b) for i, b in buttons(data).items() if i.startswith("ficha:pagina:")]
    return turns[-1][0] if turns and not turns[-1][1].get("disabled") else None


def form(reply: Reply) -> dict[str, Any]:
    payload = reply.callback.payload
    assert isinstance(payload, dict) and payload["type"] == 9, payload
    return dict(payload["data"])


def questions(data: dict[str, Any]) -> dict[str, int]:
    """Each question of a form by custom_id, and its component type (4 a text input): in a
    Label, or in an action row as the forms before labels put them."""
    found: dict[str, int] = {}
    for item in data.get("components") or []:
        inner = [item["component"]] if item.get("type") == 18 else item.get("components") or []
        found |= {c["custom_id"]: c["type"] for c in inner if "custom_id" in c}
    return found


def typed(data: dict[str, Any]) -> list[str]:
    """The questions of a form answered by typing (Discord's text input, type 4): issue #31
    plays a scene "without typing a number", and a text input is how a number gets typed."""
    return [custom_id for custom_id, kind in questions(data).items() if kind == 4]


def answers(**values: Any) -> list[dict[str, Any]]:
    """A form's submitted components: a list is a select's values, a bool a checkbox, text
    a text input; ``radio_<id>`` a radio group's value."""
    components = []
    for custom_id, value in values.items():
        if custom_id.startswith("radio_"):
            component = {"type": 21, "custom_id": custom_id[6:], "value": value}
        elif isinstance(value, bool):
            component = {"type": 23, "custom_id": custom_id, "value": value}
        elif isinstance(value, list):
            component = {"type": 3, "custom_id": custom_id, "values": value}
        else:
            component = {"type": 4, "custom_id": custom_id, "value": value}
        components.append({"type": 18, "component": component})
    return components


async def submit(
    h: Harness,
    opened: Reply,
    message: Message | None,
    *,
    user: User = PLAYER,
    locale: str = "es-ES",
    **values: Any,
) -> Reply:
    """Send the form ``opened`` opened, from ``message`` (None: a slash command opened it),
    raw: unchecked against what the form offers, to forge what a client may send anyway
    (:func:`pick` answers as Discord's client would)."""
    data = {"custom_id": opened.modal_id, "components": answers(**values)}
    channel_id = CHANNEL_ID if message is None else message.channel_id
    return await h.dispatch(5, data, user=user, locale=locale, channel_id=channel_id, message=message)


async def pick(
    h: Harness,
    opened: Reply,
    message: Message | None,
    *,
    user: User = PLAYER,
    locale: str = "es-ES",
    **fields: Any,
) -> Reply:
    """Answer the form ``opened`` opened as Discord's client would, through
    :meth:`Harness.submit` (fields keyed by custom_id, in its shapes): a value the form does
    not offer fails the test, and so does a field that is no question of it (the harness
    would send it as a text input, which discord.py matches by custom_id alone), or a form
    that asks anything typed; the questions left out send their defaults. ``message``:
    where the form was opened from (None: a slash command)."""
    asked = form(opened)
    assert typed(asked) == [], f"the form asks typed text: {typed(asked)}"
    strange = sorted(set(fields) - set(questions(asked)))
    assert not strange, f"not in the form: {strange}"
    return await h.submit(opened.modal_id, fields, user=user, locale=locale, message=message)


async def panel(h: Harness, *, user: User = PLAYER, locale: str = "es-ES", **options: Any) -> Reply:
    reply = await h.slash("ficha ver", user=user, locale=locale, **options)
    assert reply.ephemeral and reply.data["flags"] & V2, reply.data
    return reply


def same_card(a: Reply, b: Reply) -> None:
    """Two roll cards alike but for their own ids (the record, the buttons' custom ids)."""
    first, second = a.embed, b.embed
    assert first.get("title") == second.get("title")
    assert first.get("description") == second.get("description")
    assert first.get("fields") == second.get("fields")


async def ledger(h: Harness) -> list[tuple[str, int, int]]:
    assert h.bot is not None
    return sorted((p.pool, p.owner_id, p.value) for p in await h.bot.store.pools(CHANNEL_ID))


# -- the panel ------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_dnd_panel_has_a_button_for_every_skill_save_and_attack_in_pages(
    harness: Harness, locale: str
) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    first = await panel(harness, locale=locale)
    assert ("Destreza **16** (+3)" if locale == "es-ES" else "Dexterity **16** (+3)") in first.text
    texts = section_texts(first.data)
    assert len(texts) == 8 and texts[0] == ("**Acrobacias** +6" if locale == "es-ES" else "**Acrobatics** +6")
    live = ["**Puntos de golpe** 38", "**Puntos de golpe temporales** 0"]
    if locale == "en-US":
        live = ["**Hit points** 38", "**Temporary hit points** 0"]
    assert [text for text, _ in sections(first.data)][:2] == live
    assert ("Página 1 de 4" if locale == "es-ES" else "Page 1 of 4") in first.text
    seen, page, message = list(texts), first, first.message
    for _ in range(3):
        forward = next_page(page.data)
        assert forward is not None
        page = await harness.click(message, forward, locale=locale)
        message = harness.current(message)
        seen += section_texts(page.data)
    assert len(seen) == 18 + 6 + 2
    assert ("**Sigilo** +9 ★" if locale == "es-ES" else "**Stealth** +9 ★") in seen
    save = "**Salvación de Destreza** +6" if locale == "es-ES" else "**Dexterity saving throw** +6"
    assert save in seen and "**Espada larga** +3 · 1d8" in seen and "**Arco corto** +6 · 1d6+3" in seen
    assert next_page(page.data) is None


async def test_a_player_sees_another_players_public_sheet_without_roll_buttons(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    await harness.slash("ficha publicas", user=GM, publicas=True)
    sheet_id = harness_sheet_id(await panel(harness))
    other = await panel(harness, user=OTHER, ficha=str(sheet_id))
    assert "Irulan Vex" in other.text and roll_ids(other.data) == []
    gm = await panel(harness, user=GM, ficha=str(sheet_id))
    assert len(roll_ids(gm.data)) == 5


def harness_sheet_id(reply: Reply) -> int:
    return int(roll_ids(reply.data)[0].split(":")[2])


# -- D&D: check, save, attack ------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_dnd_check_from_the_panel_is_the_typed_command(harness: Harness, locale: str) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness, locale=locale)
    opened = await harness.click(
        shown.message,
        roll_button(shown.data, "**Acrobacias" if locale == "es-ES" else "**Acrobatics"),
        locale=locale,
    )
    modal = form(opened)
    assert len(modal["components"]) == 2 and len(modal["title"]) <= 45
    assert [o["value"] for o in modal["components"][0]["component"]["options"]] == [
        "normal",
        "ventaja",
        "desventaja",
    ]
    harness.script(4, 17)
    pressed = await submit(
        harness, opened, shown.message, locale=locale, radio_modo="ventaja", objetivo=["15"]
    )
    harness.script(4, 17)
    typed = await harness.slash("dnd prueba", locale=locale, habilidad="acrobacias", ventaja=True, cd=15)
    same_card(pressed, typed)
    assert "23" in pressed.text and any(i.startswith("rep:repetir:") for i in pressed.message.custom_ids)
    await harness.assert_ledger_matches()


async def test_a_dnd_save_and_an_attack_from_the_panel_are_the_typed_commands(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness)
    message, third = await page_with(harness, shown, "**Salvación de Sabiduría")
    opened = await harness.click(message, roll_button(third, "**Salvación de Sabiduría"))
    harness.script(12, 5)
    pressed = await submit(harness, opened, message, radio_modo="desventaja", objetivo=["-"])
    harness.script(12, 5)
    typed = await harness.slash("dnd salvacion", caracteristica="sabiduria", desventaja=True)
    same_card(pressed, typed)
    message, fourth = await page_with(harness, shown, "**Espada larga")
    opened = await harness.click(message, roll_button(fourth, "**Espada larga"))
    assert form(opened)["components"][1]["component"]["required"] is True
    harness.script(14, 6)
    pressed = await submit(harness, opened, message, radio_modo="normal", objetivo=["ca:13"])
    harness.script(14, 6)
    typed = await harness.slash("dnd ataque", arma="Espada larga", ca=13)
    same_card(pressed, typed)
    await harness.assert_ledger_matches()


@pytest.mark.parametrize("typed", ["0", "51", "x", "12"])
async def test_a_dnd_form_refuses_a_target_out_of_bounds_and_rolls_nothing(
    harness: Harness, typed: str
) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Atletismo"))
    refused = await submit(harness, opened, shown.message, radio_modo="normal", objetivo=[typed])
    assert refused.ephemeral and "no estaba en el formulario" in refused.text, refused.text
    assert harness.bot is not None and await harness.bot.store.records(CHANNEL_ID, DND_KIND) == []


async def test_a_form_value_it_did_not_offer_is_refused(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Atletismo"))
    refused = await submit(harness, opened, shown.message, radio_modo="ventaja_doble", objetivo=["10"])
    assert "no estaba en el formulario" in refused.text


# -- Dune ---------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_dune_test_from_its_form_is_the_typed_command(harness: Harness, locale: str) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    await harness.slash("dune aventura", user=GM, jugadores=f"<@{PLAYER.id}>")
    shown = await panel(harness, locale=locale)
    skill = "**Comunicación** 6" if locale == "es-ES" else "**Communicate** 6"
    opened = await harness.click(shown.message, roll_button(shown.data, skill), locale=locale)
    modal = form(opened)
    assert len(modal["components"]) == 5 and all(len(c["label"]) <= 45 for c in modal["components"])
    drive, focus, difficulty, bought, determination = (c["component"] for c in modal["components"])
    assert [o["value"] for o in drive["options"]] == ["deber", "fe", "justicia", "poder", "verdad"]
    assert [o["label"] for o in focus["options"]][1:] == ["Diplomacia"]
    assert [o["value"] for o in difficulty["options"]] == ["0", "1", "2", "3", "4", "5"]
    assert len(bought["options"]) == 10 and bought["options"][-1]["value"] == "3:mixto"
    assert determination["type"] == 23
    before = await ledger(harness)
    harness.script(3, 12, 18)
    pressed = await submit(
        harness,
        opened,
        shown.message,
        locale=locale,
        motivacion=["verdad"],
        enfoque=["0"],
        radio_dificultad="2",
        radio_dados="1:amenaza",
        determinacion=True,
    )
    after_press = await ledger(harness)
    await harness.slash("mesa deshacer", user=GM)
    assert await ledger(harness) == before
    harness.script(3, 12, 18)
    typed = await harness.slash(
        "dune tirada",
        locale=locale,
        habilidad="comunicacion",
        motivacion="verdad",
        enfoque="Diplomacia",
        dificultad=2,
        dados_extra=1,
        pago="amenaza",
        determinacion=True,
    )
    same_card(pressed, typed)
    assert await ledger(harness) == after_press
    await harness.assert_ledger_matches()


async def test_a_dune_skill_without_focuses_asks_four_questions(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Combate"))
    assert [c["component"]["custom_id"] for c in form(opened)["components"]] == [
        "motivacion",
        "dificultad",
        "dados",
        "determinacion",
    ]
    harness.script(5, 15)
    pressed = await submit(
        harness,
        opened,
        shown.message,
        motivacion=["deber"],
        radio_dificultad="0",
        radio_dados="0",
        determinacion=False,
    )
    harness.script(5, 15)
    typed = await harness.slash("dune tirada", habilidad="combate", motivacion="deber", dificultad=0)
    same_card(pressed, typed)


async def test_a_dune_npc_sheet_rolls_an_npcs_test(harness: Harness) -> None:
    """The GM's NPC buys its dice with Amenaza, as ``pnj:true como:`` would."""
    await harness.table_for("dune")
    await imported(harness, "dune", user=GM, pnj=True)
    await harness.slash("dune amenaza añadir", user=GM, cantidad=4)
    shown = await panel(harness, user=GM, ficha="Irulan Vex")
    opened = await harness.click(shown.message, roll_button(shown.data, "**Combate"), user=GM)
    harness.script(5, 15, 2)
    pressed = await submit(
        harness,
        opened,
        shown.message,
        user=GM,
        motivacion=["deber"],
        radio_dificultad="1",
        radio_dados="1:impulso",
        determinacion=False,
    )
    spent = await ledger(harness)
    await harness.slash("mesa deshacer", user=GM)
    harness.script(5, 15, 2)
    typed = await harness.slash(
        "dune tirada",
        user=GM,
        habilidad="combate",
        motivacion="deber",
        dados_extra=1,
        pnj=True,
        como="Irulan Vex",
    )
    same_card(pressed, typed)
    assert await ledger(harness) == spent
    assert await harness.pool("amenaza") == 3


# -- Donjon and Mediana ---------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_donjon_prueba_from_its_form_is_the_typed_command(harness: Harness, locale: str) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    shown = await panel(harness, locale=locale)
    assert len(sections(shown.data)) == 10 and len(section_texts(shown.data)) == 7
    opened = await harness.click(
        shown.message,
        roll_button(shown.data, "**Discernimiento" if locale == "es-ES" else "**Insight"),
        locale=locale,
    )
    modal = form(opened)
    attribute = modal["components"][0]["component"]
    assert [o["value"] for o in attribute["options"] if o.get("default")] == ["discernimiento"]
    harness.script(*([10] * 8), *([5] * 9))
    pressed = await submit(
        harness,
        opened,
        shown.message,
        locale=locale,
        radio_atributo="discernimiento",
        habilidad=["h:0"],
        radio_dificultad="dificil",
        banco=["0"],
    )
    harness.script(*([10] * 8), *([5] * 9))
    typed = await harness.slash(
        "donjon prueba",
        locale=locale,
        atributo="discernimiento",
        habilidad="Rastrear Cualquier Cosa",
        dificultad="dificil",
    )
    same_card(pressed, typed)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_mediana_skill_from_its_form_is_the_typed_command(harness: Harness, locale: str) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    shown = await panel(harness, locale=locale)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Espadas**"), locale=locale)
    harness.script(4, 7, 9)
    difficulty = form(opened)["components"][0]["component"]
    assert [o["value"] for o in difficulty["options"]] == [str(n) for n in range(0, 101, 5)]
    pressed = await submit(
        harness, opened, shown.message, locale=locale, dificultad=["15"], radio_rango="alto"
    )
    harness.script(4, 7, 9)
    typed = await harness.slash(
        "mediana tirada", locale=locale, dificultad=15, habilidad="Espadas", rango="alto"
    )
    same_card(pressed, typed)
    for unoffered in ("12", "101"):
        opened = await harness.click(shown.message, roll_button(shown.data, "**Espadas**"))
        refused = await submit(harness, opened, shown.message, dificultad=[unoffered], radio_rango="alto")
        assert "no estaba en el formulario" in refused.text and refused.ephemeral


# -- who may press, restarts, stale buttons --------------------------------------------------


async def test_a_stranger_cannot_roll_from_a_players_panel(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness)
    refused = await harness.click(shown.message, roll_ids(shown.data)[0], user=OTHER)
    assert refused.ephemeral and "Solo quien lleva esta ficha, o el DJ" in refused.text
    english = await harness.click(shown.message, roll_ids(shown.data)[0], user=OTHER, locale="en-US")
    assert "Only the sheet's player, or the GM" in english.text


async def test_the_gms_npc_panel_is_private_and_rolls_as_the_npc(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e", user=GM, pnj=True)
    shown = await panel(harness, user=GM, ficha="Lía Brezo")
    assert shown.ephemeral and "PNJ" in shown.text
    refused = await harness.click(shown.message, roll_ids(shown.data)[0], user=PLAYER)
    assert "Solo quien lleva esta ficha, o el DJ" in refused.text
    opened = await harness.click(shown.message, roll_ids(shown.data)[0], user=GM)
    harness.script(11)
    pressed = await submit(harness, opened, shown.message, user=GM, radio_modo="normal", objetivo=["-"])
    assert "Lía Brezo" in pressed.text


async def test_a_panel_button_still_rolls_after_a_restart(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness)
    await harness.restart()
    opened = await harness.click(shown.message, roll_button(shown.data, "**Acrobacias"))
    harness.script(9)
    pressed = await submit(harness, opened, shown.message, radio_modo="normal", objetivo=["-"])
    assert "15" in pressed.text
    forward = next_page(shown.data)
    assert forward is not None
    turned = await harness.click(shown.message, forward)
    assert len(sections(turned.data)) == 10


async def test_a_button_drawn_before_the_sheet_changed_rolls_nothing(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    shown = await panel(harness)
    assert harness.bot is not None
    store = harness.bot.store
    row = await store.active_sheet(CHANNEL_ID, PLAYER.id)
    assert row is not None
    skills = [{**row.data["habilidades"][0], "nombre": "Hachas"}, *row.data["habilidades"][1:]]
    assert await store.update_sheet(row.id, row.version, {**row.data, "habilidades": skills})
    stale = await harness.click(shown.message, roll_button(shown.data, "**Espadas**"))
    assert "La ficha ha cambiado" in stale.text


async def test_a_players_other_sheet_must_be_chosen_before_rolling_from_it(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    first = await panel(harness)
    await harness.restart()  # the panel no longer open: not redrawn without its buttons
    await harness.slash("ficha crear", nombre="Otra")
    refused = await harness.click(first.message, roll_ids(first.data)[0])
    assert "no es tu ficha activa" in refused.text
    assert roll_ids((await panel(harness, ficha="Maese Tobías")).data) == []


async def test_the_view_sheet_menu_shows_a_members_active_sheet(harness: Harness) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    resolved: dict[str, dict[str, Any]] = {}
    target = resolve_user(PLAYER, resolved)
    data = {"id": str(snowflake()), "name": "Ver ficha", "type": 2, "target_id": target, "resolved": resolved}
    mine = await harness.dispatch(2, data, user=PLAYER, locale="es-ES", channel_id=CHANNEL_ID)
    assert mine.ephemeral and "Irulan Vex" in mine.text and len(roll_ids(mine.data)) == 5
    refused = await harness.dispatch(2, data, user=OTHER, locale="es-ES", channel_id=CHANNEL_ID)
    assert "no tiene ficha activa" in refused.text


# -- every button and form of every system, both languages ---------------------------------


@pytest.mark.parametrize("system", ["dune", "dnd5e", "donjon", "mediana"])
async def test_every_roll_button_opens_a_form_discord_accepts_in_both_languages(
    harness: Harness, system: str
) -> None:
    """The offline Discord refuses a form past its limits (title and labels of 45, five
    questions, 25 select options, 2–10 radio options): every rollable of each example
    sheet, and each *Cambiar* of its numbers, in Spanish and English. None asks anything
    typed (issue #31: "without typing a number"): each answer is picked."""
    await harness.table_for(system)
    await imported(harness, system)
    for locale in LOCALES:
        page = await panel(harness, locale=locale)
        message = page.message
        while True:
            for custom_id in roll_ids(page.data) + change_ids(page.data):
                opened = await harness.click(message, custom_id, locale=locale)
                assert 1 <= len(form(opened)["components"]) <= 5
                assert typed(form(opened)) == [], (custom_id, form(opened))
            forward = next_page(page.data)
            if forward is None:
                break
            page = await harness.click(message, forward, locale=locale)
            message = harness.current(message)


# -- the numbers play changes -------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_number_changes_from_the_panel_through_the_ledger(harness: Harness, locale: str) -> None:
    """*Cambiar* asks the new value and goes through ``/ficha editar``: the same answer,
    the same ledger row, and ``/mesa deshacer`` reverts it."""
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    shown = await panel(harness, locale=locale)
    wealth = "**Riqueza** 3" if locale == "es-ES" else "**Wealth** 3"
    opened = await harness.click(shown.message, roll_button(shown.data, wealth), locale=locale)
    offered = form(opened)["components"][0]["component"]["options"]
    now = "3 (el valor de ahora)" if locale == "es-ES" else "3 (the value now)"
    assert [(o["label"], o.get("default", False)) for o in offered[:4]] == [
        ("0 (−3)", False),
        ("1 (−2)", False),
        ("2 (−1)", False),
        (now, True),
    ]
    assert [o["value"] for o in offered] == [
        str(v) for v in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 15, 18, 23, 100)
    ]
    changed = await submit(harness, opened, shown.message, locale=locale, valor=["1"])
    assert ("Riqueza 1" if locale == "es-ES" else "Wealth 1") in changed.text
    history = await harness.slash("mesa historial", user=GM)
    assert "ficha editada" in history.text
    redrawn = await panel(harness, locale=locale)
    assert wealth.replace("3", "1") in [text for text, _ in sections(redrawn.data)]
    await harness.slash("mesa deshacer", user=GM)
    await harness.assert_ledger_matches()


async def test_a_number_past_its_bounds_is_not_offered_and_refused_if_sent(harness: Harness) -> None:
    """Full hit points (38) is the highest value offered; a client sending 39 anyway gets the
    form's refusal and nothing changes."""
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Puntos de golpe** 38"))
    values = [int(o["value"]) for o in form(opened)["components"][0]["component"]["options"]]
    assert values[0] == 0 and values[-1] == 38 and len(values) <= 25
    refused = await submit(harness, opened, shown.message, valor=["39"])
    assert refused.ephemeral and "Esa opción no estaba en el formulario" in refused.text
    assert "PG 38/38" in (await panel(harness)).text


async def test_a_stranger_cannot_change_a_players_numbers(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    shown = await panel(harness)
    refused = await harness.click(shown.message, roll_button(shown.data, "**PV** 18"), user=OTHER)
    assert "Solo quien lleva esta ficha, o el DJ" in refused.text
    opened = await harness.click(shown.message, roll_button(shown.data, "**PV** 18"), user=GM)
    changed = await submit(harness, opened, shown.message, user=GM, valor=["12"])
    assert "12" in changed.text


# -- the command with no options opens the form ---------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_dnd_prueba_with_no_options_asks_the_skill_in_a_form(harness: Harness, locale: str) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    opened = await harness.slash("dnd prueba", locale=locale)
    skill, _mode, _target = (c["component"] for c in form(opened)["components"])
    assert len(skill["options"]) == 18 and skill["options"][15]["value"] == "sigilo"
    assert skill["options"][15]["label"] == ("Sigilo +9 ★" if locale == "es-ES" else "Stealth +9 ★")
    harness.script(3, 16)
    pressed = await submit(
        harness, opened, None, locale=locale, habilidad=["sigilo"], radio_modo="ventaja", objetivo=["-"]
    )
    harness.script(3, 16)
    typed = await harness.slash("dnd prueba", locale=locale, habilidad="sigilo", ventaja=True)
    same_card(pressed, typed)
    refused = await submit(
        harness,
        await harness.slash("dnd prueba"),
        None,
        habilidad=["bailar"],
        radio_modo="normal",
        objetivo=["-"],
    )
    assert "no estaba en el formulario" in refused.text


async def test_donjon_prueba_with_no_options_opens_its_form(harness: Harness) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    opened = await harness.slash("donjon prueba")
    attribute, skill = (c["component"] for c in form(opened)["components"][:2])
    assert [o["value"] for o in attribute["options"] if o.get("default")] == ["-"]
    assert [o["value"] for o in skill["options"] if o.get("default")] == ["-"]
    harness.script(*([8] * 5), *([4] * 6))
    pressed = await submit(
        harness,
        opened,
        None,
        radio_atributo="celeridad",
        habilidad=["-"],
        radio_dificultad="media",
        banco=["0"],
    )
    harness.script(*([8] * 5), *([4] * 6))
    typed = await harness.slash("donjon prueba", atributo="celeridad", dificultad="media")
    same_card(pressed, typed)
    nothing = await submit(
        harness,
        await harness.slash("donjon prueba"),
        None,
        radio_atributo="-",
        habilidad=["-"],
        radio_dificultad="media",
        banco=["0"],
    )
    assert nothing.ephemeral and "Algo ha fallado" not in nothing.text


async def test_the_dune_panel_shows_the_players_determination(harness: Harness) -> None:
    """Determinación is the player's pool, not the sheet's: the panel reads it there."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    assert f"Determinación de <@{PLAYER.id}>: **0**/3" in (await panel(harness)).text
    await harness.slash("dune aventura", user=GM, jugadores=f"<@{PLAYER.id}>")
    english = await panel(harness, locale="en-US")
    assert f"<@{PLAYER.id}>'s Determination: **1**/3" in english.text


# -- the board's *Fichas* -------------------------------------------------------------------


async def board_message(h: Harness) -> Message:
    """The live board the GM posts (``/mesa tablero``), with its *Fichas* button."""
    await h.slash("mesa tablero", user=GM)
    assert h.bot is not None
    message = h.discord.messages[h.bot.boards.spots[CHANNEL_ID].message_id]
    assert "ficha:tablero" in message.custom_ids
    return message


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_boards_sheets_button_opens_the_players_own_panel_privately(
    harness: Harness, locale: str
) -> None:
    await harness.table_for("dune")
    await imported(harness, "dune")
    board = await board_message(harness)
    assert buttons(board.data)["ficha:tablero"]["label"] == "Fichas"
    opened = await harness.click(board, "ficha:tablero", locale=locale)
    assert opened.ephemeral and opened.data["flags"] & V2
    assert "Irulan Vex" in opened.text and len(roll_ids(opened.data)) == 5


async def test_the_gm_chooses_among_every_sheet_and_an_npcs_panel_is_theirs_only(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    await imported(harness, "dnd5e", user=GM, pnj=True)
    board = await board_message(harness)
    menu = await harness.click(board, "ficha:tablero", user=GM)
    assert menu.ephemeral and "¿Qué ficha quieres ver?" in menu.text
    options = menu.data["components"][0]["components"][0]["options"]
    assert [o["label"] for o in options] == ["Lía Brezo", "Lía Brezo (PNJ)"]
    npc = options[1]["value"]
    chosen = await harness.click(menu.message, "ficha:panel", user=GM, values=[npc], component_type=3)
    assert chosen.ephemeral and "PNJ" in chosen.text and roll_ids(chosen.data)
    mine = await harness.click(board, "ficha:tablero")
    assert "PNJ" not in mine.text and roll_ids(mine.data)
    forged = await harness.click(menu.message, "ficha:panel", values=[npc], component_type=3)
    assert forged.ephemeral and "Solo quien lleva esta ficha, o el DJ" in forged.text
    for strange in ("²", "x", "1" * 21):
        odd = await harness.click(menu.message, "ficha:panel", user=GM, values=[strange], component_type=3)
        assert odd.ephemeral and "no estaba en el formulario" in odd.text


async def test_another_players_sheet_shows_only_where_the_table_shares_sheets(harness: Harness) -> None:
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    board = await board_message(harness)
    refused = await harness.click(board, "ficha:tablero", user=OTHER)
    assert refused.ephemeral and "No hay ninguna ficha en esta mesa que puedas ver" in refused.text
    english = await harness.click(board, "ficha:tablero", user=OTHER, locale="en-US")
    assert "There is no sheet at this table you may see" in english.text
    await harness.slash("ficha publicas", user=GM, publicas=True)
    shared = await harness.click(board, "ficha:tablero", user=OTHER)
    assert "Maese Tobías" in shared.text and roll_ids(shared.data) == []


async def test_a_panel_opened_from_the_board_redraws_too(harness: Harness) -> None:
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    board = await board_message(harness)
    opened = await harness.click(board, "ficha:tablero")
    await harness.slash("ficha editar", campo="riqueza", valor="1")
    assert "**Riqueza** 1" in [text for text, _ in sections(harness.current(opened.message).data)]


# -- a scene of each system without typing a number: panel → form → card --------------------


async def rows(
    h: Harness, interaction: Reply, channel_id: int = CHANNEL_ID
) -> list[tuple[str, int, int, int, str]]:
    """The ledger rows one interaction wrote at the table of ``channel_id``: pool, owner,
    change, value after, reason."""
    assert h.bot is not None
    written = await h.bot.store.ledger(channel_id, limit=50)
    ids = {int(c.path.split("/")[2]) for c in interaction.callbacks}
    return [
        (row.pool, row.owner_id, row.delta, row.value_after, row.reason)
        for row in written
        if row.interaction_id in ids
    ]


def field(reply: Reply, name: str) -> str:
    return next(f["value"] for f in reply.embed["fields"] if f["name"].startswith(name))


async def test_a_dune_scene_from_the_panel(harness: Harness) -> None:
    """Comunicación 6 + Verdad 7 against difficulty 2, Diplomacia's criticals, one die bought
    with Amenaza: 3 (critical, two successes), 12 (one), 18 (none) make 3 successes and 1
    Momentum; the GM's Amenaza grows by the die bought."""
    await harness.table_for("dune")
    await imported(harness, "dune")
    await harness.slash("dune aventura", user=GM, jugadores=f"<@{PLAYER.id}>")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Comunicación** 6"))
    harness.script(3, 12, 18)
    card = await pick(
        harness,
        opened,
        shown.message,
        motivacion=["verdad"],
        enfoque=["0"],
        dificultad="2",
        dados="1:amenaza",
        determinacion=False,
    )
    assert card.embed["title"] == "Chequeo · objetivo 13 · dificultad 2"
    assert field(card, "Dados") == "**3**✨ **12**✓ **18**"
    assert field(card, "Resultado") == "✅ Superado: 3 éxitos contra dificultad 2. Impulso generado: 1."
    assert "Amenaza: **3**" in field(card, "Reservas")
    assert await rows(harness, card) == [("amenaza", 0, 1, 3, "dune.roll.amenaza")]
    await harness.assert_ledger_matches()


async def test_a_dnd_scene_from_the_panel(harness: Harness) -> None:
    """Espada larga (+3, 1d8) at the second of two goblins the GM put on the tracker (AC 13,
    picked by name, its AC unseen): 14 + 3 = 17 hits for 1d8 = 6, which *Aplicar daño* takes
    from that goblin's 7 hit points, once."""
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    await harness.slash("dnd iniciativa panel")
    harness.script(10)
    await harness.slash(
        "dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=2, cantidad=2, pg=7, ca=13
    )
    shown = await panel(harness)
    message, page = await page_with(harness, shown, "**Espada larga")
    opened = await harness.click(message, roll_button(page, "**Espada larga"))
    creatures = form(opened)["components"][1]["component"]["options"][:2]
    assert [(o["label"], o.get("description")) for o in creatures] == [("Goblin 1", None), ("Goblin 2", None)]
    harness.script(14, 6)
    card = await pick(harness, opened, message, modo="normal", objetivo=[creatures[1]["value"]])
    assert card.embed["title"] == "Ataque con Espada larga"
    assert field(card, "d20") == "**14** +3 = **17**"
    assert field(card, "Resultado") == "✅ Impacta a Goblin 2: 17."
    assert field(card, "Daño") == "1d8 (**6**) = **6** Cortante"
    assert "13" not in card.text and await rows(harness, card) == []
    damage = next(i for i in card.message.custom_ids if i.startswith("dnd:dano:"))
    applied = await harness.click(card.message, damage)
    assert "🩸 Goblin 2 recibe 6 de daño." in applied.text and "1/7" not in applied.text
    assert "ya se aplicó" in (await harness.click(card.message, damage)).text
    vitals = await harness.slash("dnd iniciativa panel", user=GM)
    hit_points = next(i for i in vitals.message.custom_ids if i.startswith("dnd:pg:"))
    seen = await harness.click(vitals.message, hit_points, user=GM)
    assert "**Goblin 2** · PG 1/7 (+0 temporales) · CA 13" in seen.text
    await harness.assert_ledger_matches()


async def test_a_donjon_scene_from_the_panel(harness: Harness) -> None:
    """Discernimiento 6 + Rastrear Cualquier Cosa 4 = 10 dice against Difícil 6 + Nivel 1 = 7:
    eight 10s against none win with 8 successes to spend; then a day's Provisiones."""
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Discernimiento"))
    harness.script(*([10] * 8), *([5] * 9))
    card = await pick(
        harness,
        opened,
        shown.message,
        atributo="discernimiento",
        habilidad=["h:0"],
        dificultad="dificil",
        banco=["0"],
    )
    assert card.embed["description"].splitlines()[2:] == [
        f"↳ <@{PLAYER.id}> como **Roland el Explorador**: "
        "Discernimiento 6 + Rastrear Cualquier Cosa 4 = 10 dados",
        "↳ el DJ: Difícil 6 + Nivel 1 = 7 dados",
    ]
    assert "gana con 8 éxitos" in field(card, "Resultado") and await rows(harness, card) == []
    provisions = roll_button(harness.current(shown.message).data, "**Provisiones** 5")
    changed = await pick(harness, await harness.click(shown.message, provisions), shown.message, valor=["4"])
    assert await rows(harness, changed) == [("ficha_provisiones", 1, -1, 4, "fichas.editar")]
    await harness.assert_ledger_matches()


async def test_a_mediana_scene_from_the_panel(harness: Harness) -> None:
    """Espadas against 15, picked, rank Alto: 4, 7, 9 keep the 9; Destreza 4 + Espadas 3 −
    Estorbo 1 + 9 = 15, a success ("igualar o superar")."""
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Espadas**"))
    harness.script(4, 7, 9)
    card = await pick(harness, opened, shown.message, dificultad=["15"], rango="alto")
    assert field(card, "3d10").startswith("~~4~~ ~~7~~ **9**")
    assert field(card, "Suma") == "Destreza 4 + Espadas 3 − Estorbo 1 + 1o3d10 9 = **15**"
    assert field(card, "Resultado") == "✅ Éxito: 15 contra 15." and await rows(harness, card) == []
    await harness.assert_ledger_matches()


# -- every rollable of a sheet has its button, on some page ----------------------------------


async def every_roll(h: Harness, reply: Reply, locale: str) -> list[tuple[str, str]]:
    """Each roll button of the panel, walking every page: the line beside it and what it
    rolls (its key: a kind letter and a key or list position)."""
    page, message, found = reply.data, reply.message, []
    while True:
        found += [
            (text, ":".join(custom_id.split(":")[3:5]))
            for text, custom_id in sections(page)
            if custom_id.startswith("ficha:tirar:")
        ]
        forward = next_page(page)
        if forward is None:
            return found
        page = (await h.click(message, forward, locale=locale)).data
        message = h.current(message)


DONJON_ROLLS = {
    "es-ES": [
        ("**Virilidad** 2", "t:virilidad"),
        ("**Cerebralidad** 3", "t:cerebralidad"),
        ("**Discernimiento** 6", "t:discernimiento"),
        ("**Celeridad** 5", "t:celeridad"),
        ("**Aguante** 3", "t:aguante"),
        ("**Sociabilidad** 2", "t:sociabilidad"),
        ("**Rastrear Cualquier Cosa**: 4 dados", "h:0"),
        ("**Sigilo en Bosques**: 3 dados", "h:1"),
        ("**Trepar Árboles**: 2 dados", "h:2"),
        ("**Atacar con Machete**: 3 dados", "h:3"),
        ("**Conocimiento de Animales Salvajes**: 2 dados", "h:4"),
        ("**Salvación contra Ilusión y Confusión**: 1 dado", "v:ilusion"),
        ("**Salvación contra Veneno, Parálisis y Transformación**: 2 dados", "v:veneno"),
        ("**Magia: Flotar en el Agua** (Anillo de Flotar): 2 dados", "o:2_0"),
    ],
    "en-US": [
        ("**Virility** 2", "t:virilidad"),
        ("**Brains** 3", "t:cerebralidad"),
        ("**Insight** 6", "t:discernimiento"),
        ("**Speed** 5", "t:celeridad"),
        ("**Endurance** 3", "t:aguante"),
        ("**Sociability** 2", "t:sociabilidad"),
        ("**Rastrear Cualquier Cosa**: 4 dice", "h:0"),
        ("**Sigilo en Bosques**: 3 dice", "h:1"),
        ("**Trepar Árboles**: 2 dice", "h:2"),
        ("**Atacar con Machete**: 3 dice", "h:3"),
        ("**Conocimiento de Animales Salvajes**: 2 dice", "h:4"),
        ("**Save against Illusion and Confusion**: 1 die", "v:ilusion"),
        ("**Save against Poison, Paralysis and Transformation**: 2 dice", "v:veneno"),
        ("**Magia: Flotar en el Agua** (Anillo de Flotar): 2 dice", "o:2_0"),
    ],
}


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_donjon_panel_has_a_button_for_every_atributo_habilidad_and_salvacion(
    harness: Harness, locale: str
) -> None:
    """Roland el Explorador (the book's example): the six Atributos, his five Habilidades,
    "dos Tiradas de Salvación" and his ring's Habilidad ("o una Habilidad de un objeto"),
    over two pages beside the three numbers play changes."""
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    shown = await panel(harness, locale=locale)
    assert ("Página 1 de 2" if locale == "es-ES" else "Page 1 of 2") in shown.text
    assert await every_roll(harness, shown, locale) == DONJON_ROLLS[locale]


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_mediana_panel_has_a_button_for_every_attribute_and_skill(
    harness: Harness, locale: str
) -> None:
    """Maese Tobías: "tiradas de atributo" for his four attributes, then each skill with the
    attribute it is rolled with."""
    await harness.table_for("mediana")
    await imported(harness, "mediana")
    shown = await panel(harness, locale=locale)
    assert await every_roll(harness, shown, locale) == [
        ("**Físico** 3", "t:0"),
        ("**Destreza** 4", "t:1"),
        ("**Inteligencia** 2", "t:2"),
        ("**Percepción** 3", "t:3"),
        ("**Espadas** (Destreza) 3", "h:0"),
        ("**Mecanismos** (Inteligencia) 2", "h:1"),
    ]


# -- *Repetir* on a card rolled from the panel -----------------------------------------------


async def both_ways(
    h: Harness, faces: tuple[int, ...], from_form: Callable[[], Awaitable[Reply]], command: str, **typed: Any
) -> tuple[Reply, Reply]:
    """The same roll twice on the same scripted dice: from the panel's form at this table
    (``from_form``), then ``command`` typed at the other (:func:`two_tables`)."""
    h.script(*faces)
    pressed = await from_form()
    h.script(*faces)
    return pressed, await h.slash(command, channel_id=OTHER_CHANNEL_ID, **typed)


async def two_tables(h: Harness, system: str) -> None:
    """The same sheet at two tables of ``system``: the panel rolls at one, the typed command
    at the other, each from the same pools."""
    for channel_id in (CHANNEL_ID, OTHER_CHANNEL_ID):
        await h.table_for(system, channel_id=channel_id)
        await imported(h, system, channel_id=channel_id)


async def repeated(h: Harness, card: Reply, locale: str, user: User) -> Reply:
    """The card's *Repetir*, pressed by ``user``."""
    message = card.message
    again = [i for i in message.custom_ids if i.startswith("rep:repetir:")]
    assert len(again) == 1, card.text
    return await h.click(message, again[0], user=user, locale=locale)


async def repeat_alike(
    h: Harness, pressed: Reply, typed: Reply, locale: str, *faces: int, user: User = PLAYER
) -> None:
    """*Repetir* on the panel's card rolls what it rolls on the typed command's card, with
    the same ``faces``: the same card, the same ledger rows at each table."""
    h.script(*faces)
    again_pressed = await repeated(h, pressed, locale, user)
    h.script(*faces)
    again_typed = await repeated(h, typed, locale, user)
    card = again_pressed.message
    assert not again_pressed.ephemeral and any(i.startswith("rep:repetir:") for i in card.custom_ids)
    same_card(again_pressed, again_typed)
    assert await rows(h, again_pressed) == await rows(h, again_typed, OTHER_CHANNEL_ID)
    for channel_id in (CHANNEL_ID, OTHER_CHANNEL_ID):
        await h.assert_ledger_matches(channel_id)


@pytest.mark.parametrize("locale", LOCALES)
async def test_repeat_on_a_dnd_check_from_the_panel_is_the_typed_commands_repeat(
    harness: Harness, locale: str
) -> None:
    await two_tables(harness, "dnd5e")
    shown = await panel(harness, locale=locale)
    skill = "**Acrobacias" if locale == "es-ES" else "**Acrobatics"
    opened = await harness.click(shown.message, roll_button(shown.data, skill), locale=locale)
    pressed, typed = await both_ways(
        harness,
        (4, 17),
        lambda: submit(harness, opened, shown.message, locale=locale, radio_modo="ventaja", objetivo=["15"]),
        "dnd prueba",
        locale=locale,
        habilidad="acrobacias",
        ventaja=True,
        cd=15,
    )
    await repeat_alike(harness, pressed, typed, locale, 12, 3)


@pytest.mark.parametrize("locale", LOCALES)
async def test_repeat_on_a_dune_test_from_the_panel_is_the_typed_commands_repeat(
    harness: Harness, locale: str
) -> None:
    """Bought with Amenaza, the die is bought again: the GM's Amenaza grows at each table."""
    await two_tables(harness, "dune")
    shown = await panel(harness, locale=locale)
    skill = "**Comunicación** 6" if locale == "es-ES" else "**Communicate** 6"
    opened = await harness.click(shown.message, roll_button(shown.data, skill), locale=locale)
    pressed, typed = await both_ways(
        harness,
        (3, 12, 18),
        lambda: submit(
            harness,
            opened,
            shown.message,
            locale=locale,
            motivacion=["verdad"],
            enfoque=["0"],
            radio_dificultad="2",
            radio_dados="1:amenaza",
            determinacion=False,
        ),
        "dune tirada",
        locale=locale,
        habilidad="comunicacion",
        motivacion="verdad",
        enfoque="Diplomacia",
        dificultad=2,
        dados_extra=1,
        pago="amenaza",
    )
    await repeat_alike(harness, pressed, typed, locale, 1, 20, 9)
    assert await harness.pool("amenaza") == await harness.pool("amenaza", channel_id=OTHER_CHANNEL_ID) == 2


async def test_repeat_on_a_dune_npcs_test_from_the_gms_panel_is_the_typed_commands_repeat(
    harness: Harness,
) -> None:
    """The GM's panel names the NPC's sheet by its id, the typed command by its name: its
    *Repetir* rolls the same NPC's test, buying its die with Amenaza again."""
    for channel_id in (CHANNEL_ID, OTHER_CHANNEL_ID):
        await harness.table_for("dune", channel_id=channel_id)
        await imported(harness, "dune", user=GM, pnj=True, channel_id=channel_id)
        await harness.slash("dune amenaza añadir", user=GM, cantidad=4, channel_id=channel_id)
    shown = await panel(harness, user=GM, ficha="Irulan Vex")
    opened = await harness.click(shown.message, roll_button(shown.data, "**Combate"), user=GM)
    pressed, typed = await both_ways(
        harness,
        (5, 15, 2),
        lambda: submit(
            harness,
            opened,
            shown.message,
            user=GM,
            motivacion=["deber"],
            radio_dificultad="1",
            radio_dados="1:impulso",
            determinacion=False,
        ),
        "dune tirada",
        user=GM,
        habilidad="combate",
        motivacion="deber",
        dados_extra=1,
        pnj=True,
        como="Irulan Vex",
    )
    await repeat_alike(harness, pressed, typed, "es-ES", 7, 1, 19, user=GM)
    assert await harness.pool("amenaza") == await harness.pool("amenaza", channel_id=OTHER_CHANNEL_ID) == 2


@pytest.mark.parametrize("locale", LOCALES)
async def test_repeat_on_a_donjon_save_from_the_panel_is_the_typed_commands_repeat(
    harness: Harness, locale: str
) -> None:
    """Aguante 3 + Salvación contra Veneno 2 against Difícil 6 + Nivel 1: the panel names
    the Salvación in the reader's language, and *Repetir* reads it again as the typed one."""
    await two_tables(harness, "donjon")
    shown = await panel(harness, locale=locale)
    save = (
        "Salvación contra Veneno, Parálisis y Transformación"
        if locale == "es-ES"
        else "Save against Poison, Paralysis and Transformation"
    )
    message, page = await page_with(harness, shown, f"**{save}", locale)
    opened = await harness.click(message, roll_button(page, f"**{save}"), locale=locale)
    faces = (*([9] * 5), *([4] * 7))
    pressed, typed = await both_ways(
        harness,
        faces,
        lambda: submit(
            harness,
            opened,
            message,
            locale=locale,
            radio_atributo="aguante",
            habilidad=["v:veneno"],
            radio_dificultad="dificil",
            banco=["0"],
        ),
        "donjon prueba",
        locale=locale,
        atributo="aguante",
        habilidad=save,
        dificultad="dificil",
    )
    same_card(pressed, typed)
    await repeat_alike(harness, pressed, typed, locale, *([2] * 5), *([8] * 7))


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_items_habilidad_from_the_panel_is_the_typed_objeto(harness: Harness, locale: str) -> None:
    """Roland's Anillo de Flotar ("Magia: Flotar en el Agua" 2) with Aguante 3: its button
    opens the Prueba's form, and the roll is ``/donjon prueba atributo:aguante objeto:…``
    typed (the same dice, card and ledger; its *Repetir* too)."""
    await two_tables(harness, "donjon")
    shown = await panel(harness, locale=locale)
    line = "**Magia: Flotar en el Agua** (Anillo de Flotar)"
    message, page = await page_with(harness, shown, line, locale)
    opened = await harness.click(message, roll_button(page, line), locale=locale)
    faces = (*([9] * 5), *([4] * 7))
    pressed, typed = await both_ways(
        harness,
        faces,
        lambda: submit(
            harness,
            opened,
            message,
            locale=locale,
            radio_atributo="aguante",
            radio_dificultad="dificil",
            banco=["0"],
        ),
        "donjon prueba",
        locale=locale,
        atributo="aguante",
        objeto="Magia: Flotar en el Agua",
        dificultad="dificil",
    )
    assert "Flotar en el Agua" in pressed.text
    same_card(pressed, typed)
    await repeat_alike(harness, pressed, typed, locale, *([2] * 5), *([8] * 7))


@pytest.mark.parametrize(
    ("line", "command", "named"),
    [
        ("**Espadas**", "mediana tirada", {"habilidad": "Espadas"}),
        ("**Destreza**", "mediana atributo", {"atributo": "Destreza"}),
    ],
)
async def test_repeat_on_a_mediana_roll_from_the_panel_is_the_typed_commands_repeat(
    harness: Harness, line: str, command: str, named: dict[str, str]
) -> None:
    await two_tables(harness, "mediana")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, line))
    pressed, typed = await both_ways(
        harness,
        (4, 7, 9),
        lambda: submit(harness, opened, shown.message, dificultad=["15"], radio_rango="alto"),
        command,
        dificultad=15,
        rango="alto",
        **named,
    )
    same_card(pressed, typed)
    await repeat_alike(harness, pressed, typed, "es-ES", 8, 2, 6)


async def test_a_number_that_moved_since_the_form_opened_is_not_set_back(harness: Harness) -> None:
    """The GM spends a Riqueza while the player's *Cambiar* form is open at 3: its "1 (-2)"
    would set 1 and undo the spend in silence; it is refused and the books keep the spend."""
    await harness.table_for("donjon")
    await imported(harness, "donjon")
    shown = await panel(harness)
    opened = await harness.click(shown.message, roll_button(shown.data, "**Riqueza** 3"))
    await harness.slash("ficha editar", user=GM, ficha="Roland el Explorador", campo="riqueza", valor="2")
    before = await ledger(harness)
    refused = await submit(harness, opened, shown.message, valor=["1"])
    assert refused.ephemeral and refused.text.startswith(
        "Riqueza ha cambiado a 2 desde que abriste el formulario"
    )
    assert await ledger(harness) == before
    await harness.assert_ledger_matches()


@pytest.mark.parametrize(
    ("system", "line", "pick", "pool", "by_player", "delta", "after", "moved"),
    [
        ("donjon", "**Riqueza** 3", "1", "ficha_riqueza", False, -1, 2, "Riqueza ha cambiado a 2"),
        ("mediana", "**PV** 18", "10", "mediana_heridas", True, 3, 3, "PV ha cambiado a 15"),
    ],
)
async def test_a_number_moved_just_before_the_forms_write_is_not_set_back(
    db_target: Path | str,
    monkeypatch: pytest.MonkeyPatch,
    system: str,
    line: str,
    pick: str,
    pool: str,
    by_player: bool,
    delta: int,
    after: int,
    moved: str,
) -> None:
    """A spend (Donjon's Riqueza) or damage (Mediana's PV, a pool of PV lost) written after
    the form's submit read the number and just before its own write: the write itself is
    conditional on the number the form was opened at, so it refuses and the books keep the
    spend, on both backends."""
    h = Harness(db_target)
    await h.start()
    try:
        await h.table_for(system)
        await imported(h, system)
        shown = await panel(h)
        opened = await h.click(shown.message, roll_button(shown.data, line))
        owner = PLAYER.id if by_player else harness_sheet_id(shown)
        spend_first(monkeypatch, h, Change(pool, delta, owner_id=owner))
        refused = await submit(h, opened, shown.message, valor=[pick])
        assert refused.ephemeral and refused.text.startswith(moved), refused.text
        assert await h.pool(pool, owner) == after
        await h.assert_ledger_matches()
    finally:
        await h.close()


def spend_first(monkeypatch: pytest.MonkeyPatch, h: Harness, spend: Change) -> None:
    """Write ``spend`` (the GM's, through the store) just before the player's next
    ``/ficha editar`` write: between every read of that edit and its own statement."""
    assert h.bot is not None
    store = h.bot.store
    apply = store.apply

    async def spent_first(op: Operation) -> Outcome:
        if op.reason == "fichas.editar" and op.actor_id == PLAYER.id:
            monkeypatch.setattr(store, "apply", apply)
            await apply(Operation(CHANNEL_ID, snowflake(), GM.id, "gm", (spend,)))
        return await apply(op)

    monkeypatch.setattr(store, "apply", spent_first)
