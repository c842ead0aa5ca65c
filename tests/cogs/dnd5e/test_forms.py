"""The D&D form's number questions as selects (issue #31: "without typing a number"): an
attack's target from the open tracker (its AC, hidden where the table hides it) or an AC to
pick, and a check's or a save's DC from the SRD's typical classes, each rolling what the
typed ``/dnd ataque``, ``prueba`` or ``salvacion`` rolls."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.dnd5e.state import KIND as DND_KIND
from tests.cogs.ficha.test_cog import imported
from tests.cogs.ficha.test_panel import (
    LOCALES,
    form,
    next_page,
    page_with,
    panel,
    roll_button,
    same_card,
    sections,
    submit,
)
from tests.support.harness import Harness, Reply
from tests.support.payloads import CHANNEL_ID, GM, PLAYER, Message


async def goblins(h: Harness) -> None:
    """The player's Lía Brezo (AC 15) joins the tracker after two goblins (AC 13) and an orc
    the GM gave no AC."""
    await h.slash("dnd iniciativa panel")
    h.script(10)
    await h.slash(
        "dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=2, cantidad=2, pg=7, ca=13
    )
    h.script(8)
    await h.slash("dnd iniciativa monstruos", user=GM, nombre="Orco", modificador=1, pg=15)
    h.script(5)
    await h.slash("dnd iniciativa unirme")


async def sword_form(h: Harness, locale: str = "es-ES", *, gm: bool = False) -> tuple[Message, Reply]:
    """The attack form of the sheet's *Espada larga*, opened from its panel (the GM's: of
    the NPC *Lía Brezo*), turning its pages as whoever reads it."""
    user = GM if gm else PLAYER
    shown = await panel(h, user=user, locale=locale, **({"ficha": "Lía Brezo"} if gm else {}))
    message, data = shown.message, shown.data
    while not any(text.startswith("**Espada larga") for text, _ in sections(data)):
        forward = next_page(data)
        assert forward is not None
        data = (await h.click(message, forward, user=user, locale=locale)).data
        message = h.current(message)
    return message, await h.click(message, roll_button(data, "**Espada larga"), user=user, locale=locale)


def target_options(opened: Reply) -> list[dict[str, Any]]:
    question = form(opened)["components"][1]
    assert question["component"]["custom_id"] == "objetivo"
    return list(question["component"]["options"])


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_attack_form_offers_the_trackers_creatures_then_armour_classes(
    harness: Harness, locale: str
) -> None:
    """The goblins by name only (their AC is the GM's), no orc (no AC to roll against),
    the player's own character with its AC, then 22 ACs around 15; a goblin picked is
    ``objetivo:`` typed: its hidden AC, its name on the card."""
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    await goblins(harness)
    message, opened = await sword_form(harness, locale)
    options = target_options(opened)
    assert len(options) == 25
    ac = "CA" if locale == "es-ES" else "AC"
    assert [(o["label"], o.get("description")) for o in options[:3]] == [
        ("Goblin 1", None),
        ("Goblin 2", None),
        ("Lía Brezo", f"{ac} 15"),
    ]
    assert [o["label"] for o in options[3:]] == [f"{ac} {n}" for n in range(5, 27)]
    assert all(len(q["label"]) <= 45 for q in form(opened)["components"])
    goblin = options[1]["value"]
    harness.script(9, 4)
    pressed = await submit(harness, opened, message, locale=locale, radio_modo="normal", objetivo=[goblin])
    harness.script(9, 4)
    typed = await harness.slash("dnd ataque", locale=locale, arma="Espada larga", objetivo=goblin)
    same_card(pressed, typed)
    assert "Goblin 2" in pressed.text and "13" not in pressed.text
    await harness.assert_ledger_matches()


async def test_an_armour_class_picked_is_the_typed_ca(harness: Harness) -> None:
    """Without a tracker the 25 options are the ACs 5 to 29."""
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    message, opened = await sword_form(harness)
    assert [o["value"] for o in target_options(opened)] == [f"ca:{n}" for n in range(5, 30)]
    harness.script(14, 6)
    pressed = await submit(harness, opened, message, radio_modo="normal", objetivo=["ca:29"])
    harness.script(14, 6)
    typed = await harness.slash("dnd ataque", arma="Espada larga", ca=29)
    same_card(pressed, typed)
    assert "contra CA 29" in pressed.text


async def test_the_gm_sees_each_creatures_ac_beside_its_name(harness: Harness) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e", user=GM, pnj=True)
    await harness.slash("dnd iniciativa panel")
    harness.script(10)
    await harness.slash("dnd iniciativa monstruos", user=GM, nombre="Goblin", modificador=2, pg=7, ca=13)
    _, opened = await sword_form(harness, gm=True)
    first = target_options(opened)[0]
    assert (first["label"], first.get("description")) == ("Goblin", "CA 13")


@pytest.mark.parametrize("value", ["ca:30", "ca:x", "m999", "u1"])
async def test_a_target_the_form_did_not_offer_rolls_nothing(harness: Harness, value: str) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    await goblins(harness)
    message, opened = await sword_form(harness)
    refused = await submit(harness, opened, message, radio_modo="normal", objetivo=[value])
    assert refused.ephemeral and "no estaba en el formulario" in refused.text, refused.text
    assert harness.bot is not None and await harness.bot.store.records(CHANNEL_ID, DND_KIND) == []


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_checks_dc_is_one_of_the_srds_typical_classes_or_none(harness: Harness, locale: str) -> None:
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness, locale=locale)
    skill = "**Acrobacias" if locale == "es-ES" else "**Acrobatics"
    opened = await harness.click(shown.message, roll_button(shown.data, skill), locale=locale)
    question = form(opened)["components"][1]["component"]
    assert [o["value"] for o in question["options"]] == ["-", "5", "10", "15", "20", "25", "30"]
    assert question["options"][0]["default"] is True
    assert question["options"][3]["label"] == ("Media (CD 15)" if locale == "es-ES" else "Medium (DC 15)")
    harness.script(4, 17)
    pressed = await submit(
        harness, opened, shown.message, locale=locale, radio_modo="ventaja", objetivo=["30"]
    )
    harness.script(4, 17)
    typed = await harness.slash("dnd prueba", locale=locale, habilidad="acrobacias", ventaja=True, cd=30)
    same_card(pressed, typed)


async def test_a_saves_dc_is_any_from_8_to_30_or_none(harness: Harness) -> None:
    """A save's DC comes from the effect ("determinada por el efecto que la causa"), so
    every DC a stat block writes, not only the typical table's."""
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    shown = await panel(harness)
    message, page = await page_with(harness, shown, "**Salvación de Sabiduría")
    opened = await harness.click(message, roll_button(page, "**Salvación de Sabiduría"))
    options = form(opened)["components"][1]["component"]["options"]
    assert [o["value"] for o in options] == ["-", *(str(n) for n in range(8, 31))]
    assert [o["label"] for o in options[5:9]] == ["CD 12", "CD 13", "CD 14", "Media (CD 15)"]
    harness.script(12, 5)
    pressed = await submit(harness, opened, message, radio_modo="desventaja", objetivo=["13"])
    harness.script(12, 5)
    typed = await harness.slash("dnd salvacion", caracteristica="sabiduria", desventaja=True, cd=13)
    same_card(pressed, typed)
    again = await harness.click(message, roll_button(page, "**Salvación de Sabiduría"))
    harness.script(12, 5)
    none = await submit(harness, again, message, radio_modo="desventaja", objetivo=["-"])
    harness.script(12, 5)
    same_card(none, await harness.slash("dnd salvacion", caracteristica="sabiduria", desventaja=True))


async def test_a_creature_gone_since_the_form_opened_is_named_as_gone(harness: Harness) -> None:
    """The goblins leave the combat between the form's opening and its answer: the attack
    says the creature is no longer there (not «No encuentro a "m….1"») and rolls nothing."""
    await harness.table_for("dnd5e")
    await imported(harness, "dnd5e")
    await goblins(harness)
    message, opened = await sword_form(harness)
    goblin = next(o["value"] for o in target_options(opened) if o["label"] == "Goblin 1")
    await harness.slash("dnd iniciativa quitar", user=GM, combatiente=goblin.split(".")[0])
    refused = await submit(harness, opened, message, radio_modo="normal", objetivo=[goblin])
    assert refused.ephemeral and refused.text.startswith("Esa criatura ya no está en el combate abierto")
    assert harness.bot is not None and await harness.bot.store.records(CHANNEL_ID, DND_KIND) == []
