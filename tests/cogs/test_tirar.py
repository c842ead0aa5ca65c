import random
import re
from datetime import UTC, datetime

from tests.support.harness import Harness
from tests.support.payloads import GM, PLAYER


def faces(seed: int, sides: int, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, sides) for _ in range(count)]


async def test_a_roll_shows_each_die_the_total_and_the_expression(harness: Harness) -> None:
    reply = await harness.slash("tirar", expresion="4d6kh3+2")
    values = faces(harness.seed, 6, 4)
    assert reply.callback.payload["type"] == 4 and not reply.ephemeral
    embed = reply.embed
    assert embed["title"] == "🎲 4d6kh3 + 2"
    assert embed["author"]["name"] == PLAYER.name
    dice = embed["fields"][0]["value"]
    low = min(values)
    assert f"~~{low}~~" in dice
    assert dice.count("**") == 6
    assert embed["fields"][1]["value"] == f"**{sum(values) - low + 2}**"


async def test_explosions_are_marked(harness: Harness) -> None:
    for _ in range(30):
        reply = await harness.slash("tirar", expresion="6d6!")
        if "💥" in reply.embed["fields"][0]["value"]:
            assert "**6**💥" in reply.embed["fields"][0]["value"]
            return
    raise AssertionError("no explosion in 30 rolls of 6d6!")


async def test_a_private_roll_is_ephemeral(harness: Harness) -> None:
    reply = await harness.slash("tirar", expresion="1d20", privada=True)
    assert reply.ephemeral


async def test_english_players_read_english(harness: Harness) -> None:
    reply = await harness.slash("tirar", expresion="1d20", locale="en-US")
    assert [f["name"] for f in reply.embed["fields"]] == ["Dice", "Total"]
    assert reply.data["components"][0]["components"][0]["label"] == "Roll again"


async def test_bad_expressions_get_a_clear_ephemeral_answer(harness: Harness) -> None:
    reply = await harness.slash("tirar", expresion="1000000d1000000")
    assert reply.ephemeral
    assert "Son demasiados dados: 1000000. El máximo en una reserva es 100." in reply.text
    english = await harness.slash("tirar", expresion="hola", locale="en-GB")
    assert english.ephemeral and "I can't read “hola”" in english.text
    assert not english.messages[0].custom_ids


async def test_an_overlong_expression_is_refused_although_discord_py_lets_it_through(
    harness: Harness,
) -> None:
    reply = await harness.slash("tirar", expresion="1+" * 150 + "1")
    assert reply.ephemeral and "el máximo es 200" in reply.text


async def test_roll_again_works_for_anyone_and_after_a_restart(harness: Harness) -> None:
    first = await harness.slash("tirar", expresion="2d10+1")
    button = first.message.custom_ids[0]
    assert re.fullmatch(r"rep:repetir:\d+", button)
    again = await harness.click(first.message, button, user=GM)
    assert again.embed["title"] == "🎲 2d10 + 1" and again.embed["author"]["name"] == GM.name
    await harness.restart(seed=99)
    after = await harness.click(first.message, button, locale="en-US")
    assert after.embed["title"] == "🎲 2d10 + 1"
    total = sum(faces(99, 10, 2)) + 1
    assert after.embed["fields"][1]["value"] == f"**{total}**"


async def test_a_private_roll_repeats_privately(harness: Harness) -> None:
    first = await harness.slash("tirar", expresion="1d4", privada=True)
    again = await harness.click(first.message, first.message.custom_ids[0])
    assert again.ephemeral


async def test_a_button_for_a_roll_that_does_not_exist_says_so(harness: Harness) -> None:
    first = await harness.slash("tirar", expresion="1d4")
    message = first.message
    message.data["components"][0]["components"][0]["custom_id"] = "rep:repetir:424242"
    reply = await harness.click(message, "rep:repetir:424242")
    assert reply.ephemeral and "Esa tirada ya no existe" in reply.text


async def test_a_reason_heads_the_title_never_pings_and_is_kept_by_roll_again(harness: Harness) -> None:
    first = await harness.slash("tirar", expresion="1d20+5", motivo="  Persuadir  a @everyone ")
    title = first.embed["title"]
    assert title.startswith("Persuadir a @\u200beveryone — ") and title.endswith("1d20 + 5")
    again = await harness.click(first.message, first.message.custom_ids[0])
    assert again.embed["title"] == title


async def test_roll_again_does_not_escape_the_reason_twice(harness: Harness) -> None:
    first = await harness.slash("tirar", expresion="1d6", motivo="golpe_bajo *fuerte*")
    title = first.embed["title"]
    assert title.startswith(r"golpe\_bajo \*fuerte\* — ")
    again = await harness.click(first.message, first.message.custom_ids[0])
    twice = await harness.click(again.message, again.message.custom_ids[0])
    assert again.embed["title"] == title and twice.embed["title"] == title


async def test_an_overlong_reason_is_refused_and_nothing_is_rolled(harness: Harness) -> None:
    reply = await harness.slash("tirar", expresion="1d20", motivo="x" * 101, locale="en-US")
    assert reply.ephemeral and "The reason is over the limit of 100 characters (it has 101)" in reply.text
    assert not reply.messages[0].custom_ids


async def test_a_roll_again_button_posted_before_every_system_had_one_still_works(harness: Harness) -> None:
    first = await harness.slash("tirar", expresion="2d10+1")
    record_id = first.message.custom_ids[0].rsplit(":", 1)[1]
    first.message.data["components"][0]["components"][0]["custom_id"] = f"tirar:repetir:{record_id}"
    again = await harness.click(first.message, f"tirar:repetir:{record_id}")
    assert again.embed["title"] == "🎲 2d10 + 1"


async def test_a_forced_value_is_shown_pinned_and_counted_as_the_face_rolled(harness: Harness) -> None:
    """``mi`` puts the 1 at 3: the card shows both, and the statistics count the 1."""
    harness.script(1, 5)
    reply = await harness.slash("tirar", expresion="2d6mi3")
    assert reply.embed["fields"][0]["value"] == "2d6mi3 (~~1~~, **3**📌, **5**)"
    assert reply.embed["fields"][1]["value"] == "**8**"
    assert harness.bot is not None
    today = datetime.now(UTC).date().isoformat()
    assert await harness.bot.store.dice_counts(today, user_id=PLAYER.id) == {("tirar", 6): {1: 1, 5: 1}}
