"""``bot.repeat``: one stored shape for *Repetir*. Every repeatable roll keeps its command's
options under ``options`` and how it was made under fixed keys; a roll stored in a
system's older shape is repeated exactly as it was (tests/rules/stored/repeat_*.json: a
roll recorded by commit 0e3eeea, and what its *Repetir* posted then)."""

from __future__ import annotations

import re
from typing import Any, cast

import discord
import pytest

from bot.repeat import FIELDS, Asked, RepeatButton, asked, asked_of, kept
from cogs.donjon.combat import CombatButton
from tests.cogs.test_mesa import channel
from tests.rules.stored import stored
from tests.support.harness import Harness, Reply
from tests.support.payloads import CHANNEL_ID, GM, GM_CHANNEL_ID, OTHER, PLAYER, User

USERS: dict[str, User] = {"PLAYER": PLAYER, "GM": GM, "OTHER": OTHER}
# One stored roll of each older shape, by system: how /tirar, /dnd tirar, a D&D test,
# Mediana's tests and effect rolls, Dune's tests (plain, opposed, assisted) and Donjon's
# tests kept what they were asked with before they all kept it the same way.
BEFORE = [
    "tirar_private",
    "tirar_secret",
    "dnd5e_dice",
    "dnd5e_test",
    "mediana_test",
    "mediana_secret",
    "mediana_opposed",
    "mediana_effect",
    "dune_test",
    "dune_opposed",
    "dune_assisted",
    "donjon_test",
    "donjon_damage",
]


def shown(reply: Reply) -> list[dict[str, Any]]:
    """What an answer posted, where and to whom; record ids left out (they follow the
    order rolls were stored in, which the stored examples do not replay)."""
    return [
        {
            "channel_id": m.channel_id,
            "ephemeral": m.ephemeral,
            "content": m.data.get("content") or "",
            "embeds": m.data.get("embeds") or [],
            "custom_ids": [re.sub(r"[0-9]{1,18}", "N", c) for c in m.custom_ids],
        }
        for m in reply.messages
    ]


def repeat_button(record_id: int) -> dict[str, Any]:
    button = {"type": 2, "style": 2, "label": "Repetir", "custom_id": f"rep:repetir:{record_id}"}
    return {"content": "", "components": [{"type": 1, "components": [button]}]}


@pytest.mark.parametrize("name", BEFORE)
async def test_a_roll_stored_in_an_older_shape_repeats_exactly_as_it_did(harness: Harness, name: str) -> None:
    """The same dice give the same card, in the same place, to the same eyes (a secret
    roll's repeat stays secret, a private one's private); the roll it makes is stored in
    today's shape."""
    case = stored(f"repeat_{name}")
    assert harness.bot is not None
    store = harness.bot.store
    if case["system"]:
        await harness.table_for(case["system"])
    if case["gm_channel"]:
        await harness.slash("mesa canal-dj", user=GM, canal=channel(GM_CHANNEL_ID))
    old_id = await store.save_record(CHANNEL_ID, 1, USERS[case["user"]].id, case["kind"], case["data"])
    press = case["press"]
    message = harness.discord.earlier(press["in"], repeat_button(old_id))
    harness.script(*press["script"])
    again = await harness.click(message, f"rep:repetir:{old_id}", user=USERS[press["user"]])
    assert shown(again) == case["repeated"]
    [new] = [r for r in await store.records(CHANNEL_ID, case["kind"]) if r.id > old_id] or [None]
    if new is not None:  # an opposed or assisted test's repeat opens a preparation instead
        assert set(FIELDS) <= set(new.data) and new.data["options"]


def test_every_roll_keeps_how_it_was_asked_under_one_key_and_fixed_keys() -> None:
    data = asked({"expresion": "1d20", "pares": (1, 2)}, secreta=True, motivo="Emboscada")
    assert data == {
        "options": {"expresion": "1d20", "pares": [1, 2]},
        "secreta": True,
        "privada": False,
        "motivo": "Emboscada",
    }
    assert asked_of({**data, "total": 7}) == Asked(
        {"expresion": "1d20", "pares": [1, 2]}, True, False, "Emboscada"
    )


def test_a_roll_that_kept_no_options_has_none_to_repeat() -> None:
    from bot.errors import Refusal

    with pytest.raises(Refusal) as refused:
        asked_of({"test": {}, "motivo": "x"}, gone="mediana.no_repeat")
    assert refused.value.key == "mediana.no_repeat"


def test_what_a_decision_keeps_is_the_asking_only() -> None:
    data = {"options": {"dados": 3}, "secreta": False, "privada": False, "motivo": None, "test": {}}
    assert kept(data) == {"options": {"dados": 3}, "secreta": False, "privada": False, "motivo": None}
    assert kept({"test": {}}) == {}


async def test_a_dune_roll_keeps_its_options_through_its_panels_spends(harness: Harness) -> None:
    """A button's decision writes the roll's rules value anew: the asking stays, so the
    roll still repeats after its Impulso is saved (which closes it)."""
    await harness.table_for("dune")
    harness.script(1, 2)
    rolled = await harness.slash("dune tirada", habilidad=6, motivacion=6, motivo="Abrir la compuerta")
    record_id = int(rolled.message.custom_ids[-1].rsplit(":", 1)[1])
    await harness.click(rolled.message, f"dune:guardar:{record_id}")
    assert harness.bot is not None
    saved = await harness.bot.store.record(record_id)
    assert saved is not None and saved.version == 1 and saved.data["closed"]
    assert saved.data["options"]["mode"] == "tirada" and saved.data["motivo"] == "Abrir la compuerta"
    harness.script(3, 4)
    again = await harness.click(rolled.message, f"rep:repetir:{record_id}", user=OTHER)
    assert again.text.startswith("Abrir la compuerta — ") and f"<@{OTHER.id}>" in again.text


async def test_a_saved_roll_kept_in_an_older_shape_plays_as_it_did(harness: Harness) -> None:
    """``/guardada`` keeps a copy of a roll's data: one saved before every roll kept its
    options the same way is read by the same upgrade, and plays as its *Repetir* did."""
    from bot.models import SavedRoll

    case = stored("repeat_dune_test")
    assert harness.bot is not None
    await harness.table_for(case["system"])
    saved = SavedRoll(0, 0, OTHER.id, OTHER.id, "compuerta", case["kind"], case["data"])
    assert await harness.bot.store.save_named_roll(saved, 50) == "saved"
    harness.script(*case["press"]["script"])
    played = await harness.slash("guardada tirar", user=OTHER, nombre="compuerta")
    assert shown(played) == case["repeated"]


@pytest.mark.parametrize(
    ("system", "command", "options"),
    [
        ("dune", "dune tirada", {"habilidad": 6, "motivacion": 6}),
        ("mediana", "mediana tirada", {"atributo": 5, "habilidad": 4, "dificultad": 12}),
        ("donjon", "donjon prueba", {"dados": 2}),
        ("dnd5e", "dnd prueba", {"modificador": 3}),
    ],
)
async def test_a_roll_the_gm_channel_made_secret_repeats_secret_from_its_revealed_card(
    harness: Harness, system: str, command: str, options: dict[str, Any]
) -> None:
    """Every system repeats a roll as secret as it was rolled: one rolled in the GM channel
    (secret without asking), once revealed to the table, repeats into the GM channel again,
    not at the table (Dune and Mediana kept the secrecy asked for, and repeated it there)."""
    await harness.table_for(system)
    await harness.slash("mesa canal-dj", user=GM, canal=channel(GM_CHANNEL_ID))
    harness.script(*[3] * 12)
    rolled = await harness.slash(command, user=GM, channel_id=GM_CHANNEL_ID, **options)
    [secret] = [m for m in rolled.messages if m.channel_id == GM_CHANNEL_ID and m.custom_ids]
    reveal = next(c for c in secret.custom_ids if c.startswith("secreta:"))
    revealed = await harness.click(secret, reveal, user=GM)
    [card] = [m for m in revealed.messages if m.channel_id == CHANNEL_ID]
    harness.script(*[4] * 12)
    again = await harness.click(card, next(c for c in card.custom_ids if c.startswith("rep:")), user=GM)
    [roll] = [m for m in again.messages if m.custom_ids]
    assert roll.channel_id == GM_CHANNEL_ID and any(c.startswith("secreta:revelar:") for c in roll.custom_ids)
    assert all(m.ephemeral for m in again.messages if m.channel_id == CHANNEL_ID), again.text


@pytest.mark.parametrize(
    ("factory", "custom_id"),
    [(RepeatButton, "rep:repetir:7"), (CombatButton, "donjon:ini:siguiente:7:3")],
)
async def test_a_pressed_button_wraps_the_button_discord_py_read_from_the_message(
    factory: type[RepeatButton | CombatButton], custom_id: str
) -> None:
    """A press is routed by its custom_id (``bot.ui``): the button discord.py rebuilt from the
    message is the one wrapped, not a second one drawn from the id."""
    pressed: discord.ui.Button[Any] = discord.ui.Button(label="Repetir", custom_id=custom_id, emoji="🎲")
    match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    item = await factory.from_custom_id(cast(discord.Interaction, None), pressed, match)
    assert item.item is pressed and item.custom_id == custom_id and item.record_id == 7
