import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.harness import Harness, Reply, Upload
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, OTHER, PLAYER

SHEET = Path(__file__).resolve().parents[2] / "docs" / "fichas" / "dnd5e.json"


async def create(h: Harness, user=PLAYER, **options: Any) -> Reply:
    return await h.slash("guardada crear", user=user, **options)


async def autocomplete(h: Harness, command: str, typed: str, user=PLAYER, guild: bool = True) -> list[dict]:
    data = h._command_data(["guardada", command], {"nombre": typed})
    data["options"][0]["options"][0]["focused"] = True
    reply = await h.dispatch(4, data, user=user, locale="es-ES", channel_id=CHANNEL_ID, guild=guild)
    return reply.calls[0].payload["data"]["choices"]


async def test_a_saved_expression_rolls_with_its_default_and_with_an_override(harness: Harness) -> None:
    saved = await create(harness, nombre="Ataque", expresion="1d20+{bono}", valores="bono=5")
    assert saved.ephemeral and "**ataque**: `1d20+{bono}` (bono=5) · tuya" in saved.text
    harness.script(10)
    reply = await harness.slash("guardada tirar", nombre="ataque")
    assert not reply.ephemeral
    assert reply.embed["title"] == "ataque — 🎲 1d20 + 5"
    assert reply.embed["fields"][1]["value"] == "**15**"
    harness.script(10)
    again = await harness.slash("guardada tirar", nombre="ataque", valores="bono=-2")
    assert again.embed["title"] == "ataque — 🎲 1d20 + (-2)" and again.embed["fields"][1]["value"] == "**8**"


async def test_the_name_is_autocompleted_mine_first_then_the_tables(harness: Harness) -> None:
    await create(harness, nombre="ataque", expresion="1d20+3")
    await create(harness, user=GM, nombre="iniciativa", expresion="1d20", compartida=True)
    await create(harness, user=OTHER, nombre="ajena", expresion="1d6")
    choices = await autocomplete(harness, "tirar", "")
    assert [c["name"] for c in choices] == ["ataque (tuya)", "iniciativa (de la mesa)"]
    harness.script(4)
    reply = await harness.slash("guardada tirar", nombre=choices[1]["value"])
    assert reply.embed["title"] == "iniciativa — 🎲 1d20" and reply.embed["author"]["name"] == PLAYER.name
    assert [c["name"] for c in await autocomplete(harness, "tirar", "ata")] == ["ataque (tuya)"]


async def test_someone_elses_own_roll_cannot_be_rolled_even_by_id(harness: Harness) -> None:
    await create(harness, user=OTHER, nombre="ajena", expresion="1d6")
    choice = (await autocomplete(harness, "tirar", "", user=OTHER))[0]["value"]
    reply = await harness.slash("guardada tirar", nombre=choice)
    assert reply.ephemeral and "No encuentro ninguna tirada guardada" in reply.text


async def test_a_missing_parameter_says_which(harness: Harness) -> None:
    await create(harness, nombre="daño", expresion="{dados}d6+{bono}", valores="bono=2")
    reply = await harness.slash("guardada tirar", nombre="daño")
    assert reply.ephemeral and "Falta el valor de dados" in reply.text
    english = await harness.slash("guardada tirar", nombre="daño", valores="dados=500", locale="en-US")
    assert english.ephemeral and "That is too many dice: 500." in english.text


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"nombre": "x" * 33, "expresion": "1d6"}, "límite de 32 caracteres"),
        ({"nombre": "<@1>", "expresion": "1d6"}, "Un nombre solo puede tener letras"),
        ({"nombre": "a"}, "Da una expresión o elige «ultima»"),
        ({"nombre": "a", "expresion": "1d6", "ultima": True}, "Da una expresión o elige «ultima»"),
        ({"nombre": "a", "expresion": "1000d6"}, "Son demasiados dados"),
        ({"nombre": "a", "expresion": "1d20+{bono"}, "llave sin cerrar"),
        ({"nombre": "a", "expresion": "1d20", "valores": "bono=1"}, "no tiene ningún parámetro bono"),
        ({"nombre": "a", "expresion": "{n}d6", "valores": "n=1d6"}, "No entiendo «n=1d6»"),
        ({"nombre": "a", "ultima": True}, "No tienes ninguna tirada reciente"),
    ],
)
async def test_bad_input_is_refused_clearly_and_nothing_is_saved(
    harness: Harness, options: dict[str, Any], says: str
) -> None:
    reply = await create(harness, **options)
    assert reply.ephemeral and says in reply.text
    assert harness.bot is not None
    assert await harness.bot.store.named_rolls(PLAYER.id, CHANNEL_ID) == []


async def test_a_name_is_unique_per_owner_and_there_are_bounds(harness: Harness, monkeypatch) -> None:
    await create(harness, nombre="ataque", expresion="1d20")
    again = await create(harness, nombre="ATAQUE", expresion="1d6")
    assert again.ephemeral and "Ya hay una tirada llamada «ataque»" in again.text
    monkeypatch.setattr(sys.modules["cogs.guardada"], "OWN_LIMIT", 3)
    for name in ("b", "c"):
        await create(harness, nombre=name, expresion="1d6")
    full = await create(harness, nombre="d", expresion="1d6", locale="en-US")
    assert "There are already 3 saved rolls here" in full.text


async def test_a_table_roll_is_deleted_by_its_creator_or_the_gm_only(harness: Harness) -> None:
    await harness.slash("mesa dj", user=ADMIN, miembro=GM)
    await create(harness, nombre="iniciativa", expresion="1d20", compartida=True)
    refused = await harness.slash("guardada borrar", user=OTHER, nombre="iniciativa")
    assert "Solo quien creó esta tirada" in refused.text
    deleted = await harness.slash("guardada borrar", user=GM, nombre="iniciativa")
    assert "Tirada «iniciativa» borrada." in deleted.text
    listed = await harness.slash("guardada ver")
    assert "No hay tiradas guardadas" in listed.text


async def test_a_saved_system_roll_plays_through_its_system_with_its_buttons(harness: Harness) -> None:
    await harness.table_for("dune")
    harness.script(1, 20)
    await harness.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    saved = await create(harness, nombre="Espadas", ultima=True)
    assert "**espadas**: tirada de dune · tuya" in saved.text
    harness.script(1, 20)
    reply = await harness.slash("guardada tirar", nombre="espadas")
    assert "dificultad 1" in reply.text and "Impulso generado: 1" in reply.text
    assert any(c.startswith("dune:guardar:") for c in reply.message.custom_ids)
    refused = await harness.slash("guardada tirar", nombre="espadas", valores="x=1")
    assert "solo valen para expresiones" in refused.text


async def test_a_saved_roll_whose_data_no_longer_fits_its_system_says_so(harness: Harness) -> None:
    from bot.models import SavedRoll

    assert harness.bot is not None
    broken = SavedRoll(0, 0, PLAYER.id, PLAYER.id, "vieja", "dune", {"extra": {"spec": {"nope": 1}}})
    await harness.bot.store.save_named_roll(broken, 50)
    gone = SavedRoll(0, 0, PLAYER.id, PLAYER.id, "olvidada", "sistema_retirado", {})
    await harness.bot.store.save_named_roll(gone, 50)
    for name in ("vieja", "olvidada"):
        reply = await harness.slash("guardada tirar", nombre=name)
        assert reply.ephemeral and f"La tirada guardada «{name}» ya no se puede tirar" in reply.text


async def test_a_saved_roll_as_a_character_is_for_its_player_and_the_gm(harness: Harness) -> None:
    """A table's saved roll made as a character follows *Repetir*'s rule: another player
    does not roll as Lía Brezo, and a former GM does not roll as the NPC any more."""
    sheet = SHEET.read_bytes()
    await harness.table_for("dnd5e")
    await harness.slash("ficha importar", archivo=Upload("dnd5e.json", sheet))
    harness.script(12, 4)
    await harness.slash("dnd ataque", arma="arco corto", ca=13)
    await create(harness, nombre="arco", ultima=True, compartida=True)
    harness.script(12, 4)
    refused = await harness.slash("guardada tirar", user=OTHER, nombre="arco")
    assert refused.ephemeral and "ficha de otra persona" in refused.text, refused.text
    harness.script(12, 4)
    assert "Lía Brezo" in (await harness.slash("guardada tirar", nombre="arco")).text
    harness.script(12, 4)
    assert "Lía Brezo" in (await harness.slash("guardada tirar", user=GM, nombre="arco")).text
    await harness.slash("ficha crear", user=GM, nombre="Orco", pnj=True)
    harness.script(12)
    await harness.slash("dnd prueba", user=GM, como="Orco", caracteristica="fuerza")
    await create(harness, user=GM, nombre="orco", ultima=True, compartida=True)
    await harness.slash("mesa dj", user=ADMIN, miembro=OTHER)
    harness.script(12)
    former = await harness.slash("guardada tirar", user=GM, nombre="orco")
    assert former.ephemeral and "ficha de otra persona" in former.text, former.text
    harness.script(12)
    assert "Orco" in (await harness.slash("guardada tirar", user=OTHER, nombre="orco")).text
