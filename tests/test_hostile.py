"""Hostile input through discord.py: whatever the options hold, one clear answer, never a
crash, never a ping. discord.py does not enforce option ranges, so these values really
reach the commands."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import charts
from tests.support.harness import Harness, Reply, Upload
from tests.support.payloads import ADMIN, CHANNEL_ID, GM, GM_CHANNEL_ID, PLAYER, User

NASTY = [
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<@&1>",
    "**",
    "`",
    "||x||",
    "\u200b",
    "🎲" * 50,
    "x" * 4000,
]
texts = st.one_of(st.text(max_size=300), st.sampled_from(NASTY), st.text(min_size=3000, max_size=4000))
numbers = st.one_of(st.integers(-(10**12), 10**12), st.sampled_from([0, -1, 1, 2**63, -(2**63)]))
# Sheet files (/ficha importar): the examples, and one a byte over the limit.
SHEET_FILES = st.sampled_from(
    [path.read_bytes() for path in sorted((Path(__file__).parent.parent / "docs" / "fichas").glob("*.json"))]
    + [b" " * (64 * 1024 + 1)]
)
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def runner() -> Iterator[asyncio.Runner]:
    with asyncio.Runner() as r:
        yield r


@pytest.fixture(scope="module")
def bot(runner: asyncio.Runner, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    h = Harness(Path(tmp_path_factory.mktemp("hostile")) / "h.db")
    runner.run(h.start())
    runner.run(h.slash("mesa dj", user=ADMIN, miembro=GM))
    runner.run(h.slash("mesa canal-dj", user=GM, canal=h.channels[1]))
    yield h
    runner.run(h.close())


@pytest.fixture(autouse=True, scope="module")
def no_charts() -> Iterator[None]:
    """Charts are drawn in their own tests; here they would only cost time."""

    async def stub(*args: object) -> bytes:
        return b"\x89PNG"

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(charts, "bar_chart", stub)
        yield


def check(reply: Reply) -> None:
    assert len(reply.callbacks) == 1, reply.calls
    for call in reply.calls:
        payload = call.payload if isinstance(call.payload, dict) else {}
        body = payload.get("data", payload) if call.path.endswith("/callback") else payload
        # Mentions are parsed from content only (never from embeds), and an edit that
        # leaves the content alone does not parse it again.
        if isinstance(body, dict) and body.get("content"):
            mentions = body.get("allowed_mentions", {})
            assert mentions.get("parse") == [], body  # never @everyone, roles or parsed user text
            assert set(mentions) <= {"parse", "users", "replied_user"}, body
    assert "Algo ha fallado" not in str(reply.calls) and "Something failed" not in str(reply.calls)


@QUICK
@given(expression=texts)
def test_any_expression(runner: asyncio.Runner, bot: Harness, expression: str) -> None:
    check(runner.run(bot.slash("tirar", expresion=expression)))


@QUICK
@given(skill=numbers, drive=numbers, difficulty=numbers, extra=numbers, bonus=numbers)
def test_any_dune_numbers(
    runner: asyncio.Runner, bot: Harness, skill: int, drive: int, difficulty: int, extra: int, bonus: int
) -> None:
    options = {
        "habilidad": skill,
        "motivacion": drive,
        "dificultad": difficulty,
        "dados_extra": extra,
        "bonificacion_impulso": bonus,
    }
    check(runner.run(bot.slash("dune tirada", **options)))


@QUICK
@given(dice=numbers, against=st.none() | numbers, bank=numbers)
def test_any_donjon_numbers(
    runner: asyncio.Runner, bot: Harness, dice: int, against: int | None, bank: int
) -> None:
    options = {"dados": dice, "banco": bank} | ({} if against is None else {"contra": against})
    check(runner.run(bot.slash("donjon prueba", **options)))


@QUICK
@given(bonus=numbers, armour=numbers, damage=texts)
def test_any_attack(runner: asyncio.Runner, bot: Harness, bonus: int, armour: int, damage: str) -> None:
    check(runner.run(bot.slash("dnd ataque", bonificador=bonus, ca=armour, **{"daño": damage})))


@QUICK
@given(skill=texts, ability=texts, modifier=numbers)
def test_any_dnd_names(runner: asyncio.Runner, bot: Harness, skill: str, ability: str, modifier: int) -> None:
    check(runner.run(bot.slash("dnd prueba", modificador=modifier, habilidad=skill, caracteristica=ability)))


@QUICK
@given(attribute=numbers, skill=numbers, difficulty=numbers, encumbrance=numbers)
def test_any_mediana_numbers(
    runner: asyncio.Runner, bot: Harness, attribute: int, skill: int, difficulty: int, encumbrance: int
) -> None:
    options = {"atributo": attribute, "habilidad": skill, "dificultad": difficulty, "estorbo": encumbrance}
    check(runner.run(bot.slash("mediana tirada", **options)))


@QUICK
@given(name=texts, requirement=numbers)
def test_any_task_name(runner: asyncio.Runner, bot: Harness, name: str, requirement: int) -> None:
    check(runner.run(bot.slash("dune tarea crear", user=GM, nombre=name, requisito=requirement)))


@QUICK
@given(effect=texts, absorption=numbers)
def test_any_effect_roll(runner: asyncio.Runner, bot: Harness, effect: str, absorption: int) -> None:
    check(runner.run(bot.slash("mediana daño", dados=effect, absorcion=absorption)))


@QUICK
@given(fact=texts)
def test_any_fact(runner: asyncio.Runner, bot: Harness, fact: str) -> None:
    bot.script(20, 1)
    panel = runner.run(bot.slash("donjon prueba", dados=1, contra=1, user=PLAYER)).message
    form = runner.run(bot.click(panel, panel.custom_ids[0]))
    check(runner.run(bot.submit(form.modal_id, {"hecho": fact}, message=bot.current(panel))))


# -- every command of the tree, every option by its type -------------------------------------

ROBOT = User(940000000000000009, "OtroBot", bot=True)


def leaves(command: app_commands.Command | app_commands.Group) -> list[app_commands.Command]:
    if isinstance(command, app_commands.Group):
        return [leaf for sub in command.commands for leaf in leaves(sub)]
    return [command]


def option_values(param: app_commands.Parameter, channels: list[dict]) -> st.SearchStrategy:
    """Anything Discord's client could send for this option, and worse: discord.py checks
    no range, no length and no choice on an incoming payload."""
    kind = param.type
    if param.choices:
        return st.one_of(
            st.sampled_from([c.value for c in param.choices]), texts if kind.name == "string" else numbers
        )
    if kind is discord.AppCommandOptionType.integer:
        return numbers
    if kind is discord.AppCommandOptionType.boolean:
        return st.booleans()
    if kind is discord.AppCommandOptionType.user:
        return st.sampled_from([GM, PLAYER, ADMIN, ROBOT])
    if kind is discord.AppCommandOptionType.channel:
        return st.sampled_from(channels)
    if kind is discord.AppCommandOptionType.attachment:
        contents = st.one_of(st.binary(max_size=2000), texts.map(str.encode), SHEET_FILES)
        return st.builds(Upload, texts, contents)
    return texts


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_command_with_any_options(runner: asyncio.Runner, bot: Harness, data: st.DataObject) -> None:
    """Every command, with any subset of its options holding anything, by anyone, in the
    table or the GM channel: exactly one answer, never "something failed", never a ping."""
    assert bot.bot is not None
    bot.bot.rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    commands = sorted(
        (
            leaf
            for c in bot.bot.tree.get_commands(type=discord.AppCommandType.chat_input)
            for leaf in leaves(c)
        ),
        key=lambda c: c.qualified_name,
    )
    command = data.draw(st.sampled_from(commands), label="command")
    options = {}
    for param in command.parameters:
        if param.required or data.draw(st.booleans(), label=f"give {param.display_name}"):
            options[param.display_name] = data.draw(
                option_values(param, bot.channels), label=param.display_name
            )
    user = data.draw(st.sampled_from([GM, PLAYER, ADMIN]), label="user")
    channel_id = data.draw(st.sampled_from([CHANNEL_ID, GM_CHANNEL_ID]), label="channel")
    locale = data.draw(st.sampled_from(["es-ES", "en-US", "fr"]), label="locale")
    reply = runner.run(
        bot.slash(command.qualified_name, user=user, channel_id=channel_id, locale=locale, **options)
    )
    check(reply)


async def test_connections_cut_mid_burst_get_the_database_sentence(postgres_url: str) -> None:
    """Every connection of the bot's pool killed while 30 interactions run (a restart, a
    failover): each one is answered, applied or "I can't reach the table's database",
    never "something failed" (asyncpg says InternalClientError of a connection it lost)."""
    import asyncpg

    h = Harness(postgres_url)
    await h.start()
    try:
        await h.table_for("dune")
        admin = await asyncpg.connect(postgres_url)

        async def cut() -> None:
            for _ in range(6):
                await asyncio.sleep(0.01)
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )

        burst = [h.slash("dune impulso añadir", user=GM, cantidad=1) for _ in range(30)]
        *replies, _ = await asyncio.gather(*burst, cut())
        await admin.close()
        generic = [r.text for r in replies if "Algo ha fallado" in r.text]
        assert not generic, generic
        assert all(r.callbacks for r in replies)
    finally:
        await h.close()
