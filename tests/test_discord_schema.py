"""The offline Discord refuses what Discord refuses (tests/support/discord_schema.py).

Each case is one limit from Discord's documentation, just past it; the harness uses the
same ``check``, so these pin that a body past a limit is refused with Discord's shape.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import discord
import pytest

from tests.support import spec_check
from tests.support.discord_schema import Refused, check, flatten
from tests.support.harness import Discord

CALLBACK = "/interactions/1/token/callback"
FOLLOWUP = "/webhooks/1/token"
COMMANDS = "/applications/1/commands"


def refused(method: str, path: str, body: Any) -> list[str]:
    """``path: CODE`` for every problem Discord would report (empty when accepted)."""
    try:
        check(method, path, body)
    except Refused as error:
        assert error.status == 400 and error.body["code"] == 50035
        assert error.body["message"] == "Invalid Form Body"
        return [f"{where}: {message.split(':')[0]}" for where, message in flatten(error.body["errors"])]
    return []


def modal(label: str) -> dict[str, Any]:
    row = {"type": 1, "components": [{"type": 4, "custom_id": "hecho", "style": 1, "label": label}]}
    return {"type": 9, "data": {"custom_id": "f", "title": "Narrar", "components": [row]}}


def buttons(*custom_ids: str) -> dict[str, Any]:
    row = [{"type": 2, "style": 1, "label": "ok", "custom_id": c} for c in custom_ids]
    return {"content": "x", "components": [{"type": 1, "components": row}]}


def command(**extra: Any) -> dict[str, Any]:
    return {"name": "tirar", "description": "Tira dados", "type": 1, **extra}


def test_a_text_input_label_of_45_passes_and_46_is_refused_at_its_path() -> None:
    assert refused("POST", CALLBACK, modal("x" * 45)) == []
    assert refused("POST", CALLBACK, modal("x" * 46)) == [
        "data.components.0.components.0.label: BASE_TYPE_BAD_LENGTH"
    ]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"content": "x" * 2001}, "content"),
        ({"embeds": [{"title": "t"}] * 11}, "embeds"),
        ({"embeds": [{"title": "x" * 257}]}, "embeds.0.title"),
        ({"embeds": [{"description": "x" * 4097}]}, "embeds.0.description"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds.0.fields"),
        ({"embeds": [{"fields": [{"name": "x" * 257, "value": "v"}]}]}, "embeds.0.fields.0.name"),
        ({"embeds": [{"fields": [{"name": "n", "value": "x" * 1025}]}]}, "embeds.0.fields.0.value"),
        ({"embeds": [{"fields": [{"name": "n", "value": ""}]}]}, "embeds.0.fields.0.value"),
        ({"embeds": [{"footer": {"text": "x" * 2049}}]}, "embeds.0.footer.text"),
        ({"embeds": [{"author": {"name": "x" * 257}}]}, "embeds.0.author.name"),
        ({"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]}, "embeds"),
        ({"components": [buttons(c)["components"][0] for c in "abcdef"]}, "components"),
        (buttons(*"abcdef"), "components.0.components"),
        (buttons("a", "a"), "components.0.components.1.custom_id"),
        (buttons("x" * 101), "components.0.components.0.custom_id"),
        (
            {
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "label": "x" * 81, "custom_id": "a"}]}
                ]
            },
            "components.0.components.0.label",
        ),
    ],
)
def test_messages_past_a_limit_are_refused(body: dict[str, Any], where: str) -> None:
    problems = refused("POST", FOLLOWUP, body)
    assert [p.split(":")[0] for p in problems] == [where], problems


def select(**extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": str(i)} for i in range(3)]
    return {"type": 3, "custom_id": "s", "options": options, **extra}


@pytest.mark.parametrize(
    ("component", "where"),
    [
        (select(placeholder="x" * 151), "placeholder"),
        (select(options=[]), "options"),
        (select(options=[{"label": "x", "value": str(i)} for i in range(26)]), "options"),
        (select(options=[{"label": "x" * 101, "value": "1"}]), "options.0.label"),
        (select(options=[{"label": "x", "value": "1", "description": "x" * 101}]), "options.0.description"),
        (select(min_values=3, max_values=2), "max_values"),
        (select(max_values=4), "max_values"),
    ],
)
def test_selects_past_a_limit_are_refused(component: dict[str, Any], where: str) -> None:
    body = {"type": 4, "data": {"components": [{"type": 1, "components": [component]}]}}
    problems = refused("POST", CALLBACK, body)
    assert [p.split(":")[0] for p in problems] == [f"data.components.0.components.0.{where}"], problems


def test_a_select_takes_its_row_alone() -> None:
    row = [select(), {"type": 2, "style": 1, "label": "ok", "custom_id": "b"}]
    body = {"content": "x", "components": [{"type": 1, "components": row}]}
    assert refused("POST", FOLLOWUP, body) == ["components.0.components: COMPONENT_LAYOUT_WIDTH_EXCEEDED"]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(title="x" * 46), "data.title"),
        (lambda d: d.update(components=[]), "data.components"),
        (lambda d: d.update(components=d["components"] * 6), "data.components"),
        (lambda d: d["components"][0]["components"][0].update(placeholder="x" * 101), "placeholder"),
        (lambda d: d["components"][0]["components"][0].update(value="x" * 4001), "value"),
        (lambda d: d["components"][0]["components"][0].update(max_length=4001), "max_length"),
        (lambda d: d["components"][0]["components"][0].update(min_length=5, max_length=2), "min_length"),
    ],
)
def test_forms_past_a_limit_are_refused(change: Any, where: str) -> None:
    body = modal("Hecho")
    change(body["data"])
    problems = {p.split(":")[0] for p in refused("POST", CALLBACK, body)}
    full = where if where.startswith("data.") else f"data.components.0.components.0.{where}"
    assert full in problems, problems


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (command(name="Tirar"), "APPLICATION_COMMAND_INVALID_NAME"),
        (command(name="x" * 33), "BASE_TYPE_BAD_LENGTH"),
        (command(description=""), "BASE_TYPE_BAD_LENGTH"),
        (command(description="x" * 101), "BASE_TYPE_BAD_LENGTH"),
        (command(name_localizations={"en": "roll"}), "LOCALE_INVALID"),
        (
            command(options=[{"type": 4, "name": f"o{i}", "description": "d"} for i in range(26)]),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            command(
                options=[
                    {
                        "type": 3,
                        "name": "o",
                        "description": "d",
                        "choices": [{"name": "c", "value": "v"}] * 26,
                    }
                ]
            ),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            command(
                options=[
                    {"type": 4, "name": "a", "description": "d"},
                    {"type": 4, "name": "b", "description": "d", "required": True},
                ]
            ),
            "APPLICATION_COMMAND_OPTIONS_ORDER_INVALID",
        ),
    ],
)
def test_commands_past_a_limit_are_refused(body: dict[str, Any], code: str) -> None:
    problems = refused("PUT", COMMANDS, [body])
    assert any(p.endswith(code) for p in problems), problems


def test_a_command_is_measured_by_each_fields_longest_localization() -> None:
    options = [
        {
            "type": 3,
            "name": f"o{i}",
            "description": "d" * 90,
            "description_localizations": {"en-US": "e" * 100},
        }
        for i in range(25)
    ]
    base = command(options=options[:24])
    assert refused("PUT", COMMANDS, [base]) == []  # 24 x (2 + 100) + 15 < 8,000 only if counted by 100
    heavy = command(
        options=[
            {
                **o,
                "choices": [
                    {"name": "c" * 100, "value": "v" * 100, "name_localizations": {"en-US": "C" * 100}}
                ]
                * 1,
            }
            for o in options
        ]
    )
    assert refused("PUT", COMMANDS, [heavy]) == []
    too_big = copy.deepcopy(heavy)
    for option in too_big["options"]:
        option["choices"] = option["choices"] * 2
    assert refused("PUT", COMMANDS, [too_big]) == ["0: APPLICATION_COMMAND_TOO_LARGE"]


def test_an_interaction_answered_twice_is_refused_with_40060() -> None:
    fake = Discord()
    fake.register("t", 1, 2, None)
    route = discord.http.Route(
        "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=1, webhook_token="t"
    )
    answer = {"type": 4, "data": {"content": "hola"}}

    async def twice() -> None:
        await fake.webhook(route, payload=answer)
        with pytest.raises(discord.HTTPException) as second:
            await fake.webhook(route, payload=answer)
        assert second.value.code == 40060
        assert fake.violations  # delivered once, answered twice: a bot bug

    asyncio.run(twice())


def test_an_answer_after_three_seconds_without_deferral_is_refused_with_10062() -> None:
    fake = Discord()
    fake.register("t", 1, 2, None)
    fake.age("t", 3.5)
    route = discord.http.Route(
        "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=1, webhook_token="t"
    )

    async def late() -> None:
        with pytest.raises(discord.NotFound) as error:
            await fake.webhook(route, payload={"type": 5})
        assert error.value.code == 10062

    asyncio.run(late())


def test_the_spec_check_flags_a_limit_that_differs_from_the_spec() -> None:
    ours = {
        "x-spec": "TextInputComponentForModalRequest/properties/label",
        "type": ["string", "null"],
        "maxLength": 46,
    }
    theirs = {"type": ["string", "null"], "minLength": 1, "maxLength": 45}
    assert len(spec_check.compare(ours, theirs)) == 2
    assert spec_check.compare({**ours, "maxLength": 45, "minLength": 1}, theirs) == []
    assert spec_check.compare({**ours, "maxLength": 44, "minLength": 1, "x-stricter": "why"}, theirs) == []
