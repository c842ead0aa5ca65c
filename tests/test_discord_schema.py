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
from tests.support.harness import Discord, Harness, Upload
from tests.support.payloads import CHANNEL_ID

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


# -- Components V2 (docs: developers/components/reference.mdx) ---------------------------

V2 = 1 << 15


def text(content: str = "t") -> dict[str, Any]:
    return {"type": 10, "content": content}


def v2(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **extra}


def section(*texts: dict[str, Any], accessory: dict[str, Any] | None = None) -> dict[str, Any]:
    button = {"type": 2, "style": 1, "label": "ok", "custom_id": "b"}
    return {"type": 9, "components": list(texts), "accessory": accessory or button}


def container(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": 17, "components": list(components), **extra}


def gallery(count: int) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": f"https://x.test/{i}.png"}} for i in range(count)]}


def thumbnail(**extra: Any) -> dict[str, Any]:
    return {"type": 11, "media": {"url": "https://x.test/a.png"}, **extra}


def where(body: dict[str, Any], **v2_edit: bool) -> list[str]:
    """The paths of the problems a follow-up (or an edit, with ``components_v2``) has."""
    try:
        check("POST", FOLLOWUP, body, **v2_edit)
    except Refused as error:
        return sorted({path for path, _ in flatten(error.body["errors"])})
    return []


async def _layout_payload() -> dict[str, Any]:
    """What discord.py 2.7 sends for a LayoutView using every V2 component."""

    class Panel(discord.ui.LayoutView):
        box = discord.ui.Container(
            discord.ui.TextDisplay("# Lía Brezo"),
            discord.ui.Section(
                discord.ui.TextDisplay("Sigilo +7"),
                discord.ui.TextDisplay("Percepción +4"),
                accessory=discord.ui.Button(label="Tirar", custom_id="tirar:sigilo"),
            ),
            discord.ui.Separator(spacing=discord.SeparatorSpacing.large),
            discord.ui.ActionRow(discord.ui.Button(label="PG", custom_id="pg")),
            discord.ui.MediaGallery(discord.MediaGalleryItem("https://x.test/mapa.png")),
            discord.ui.File("attachment://ficha.json"),
            accent_colour=0x2F6B3A,
        )
        portrait = discord.ui.Section(
            discord.ui.TextDisplay("Nivel 5"), accessory=discord.ui.Thumbnail("https://x.test/a.png")
        )

    params = discord.webhook.async_.interaction_message_response_params(
        type=4, view=Panel(), flags=discord.MessageFlags(ephemeral=True)
    )
    return dict(params.payload)


async def _modal_payloads() -> list[dict[str, Any]]:
    """What discord.py 2.7 sends for forms using every modal component."""

    class Roll(discord.ui.Modal, title="Tirada"):
        intro = discord.ui.TextDisplay("Elige habilidad y dificultad")
        skill = discord.ui.Label(
            text="Habilidad",
            description="La de tu ficha",
            component=discord.ui.Select(
                options=[discord.SelectOption(label=s) for s in ("Combate", "Mover")]
            ),
        )
        difficulty = discord.ui.Label(
            text="Dificultad",
            component=discord.ui.RadioGroup(
                options=[discord.RadioGroupOption(label=str(d)) for d in range(6)]
            ),
        )
        extras = discord.ui.Label(
            text="Extras",
            component=discord.ui.CheckboxGroup(
                options=[discord.CheckboxGroupOption(label=s) for s in ("Enfoque", "Ayuda")], required=False
            ),
        )
        determination = discord.ui.Label(text="Determinación", component=discord.ui.Checkbox())

    class Upload(discord.ui.Modal, title="Importar"):
        sheet = discord.ui.Label(text="Archivo", component=discord.ui.FileUpload(max_values=2))
        who = discord.ui.Label(text="Jugador", component=discord.ui.UserSelect())
        note = discord.ui.Label(text="Nota", component=discord.ui.TextInput(required=False))

    return [{"type": 9, "data": modal.to_dict()} for modal in (Roll(), Upload())]


def test_what_discord_py_sends_for_a_layout_view_and_the_new_forms_is_accepted() -> None:
    layout = asyncio.run(_layout_payload())
    assert layout["data"]["flags"] & V2
    assert refused("POST", CALLBACK, layout) == []
    for form in asyncio.run(_modal_payloads()):
        assert refused("POST", CALLBACK, form) == []


@pytest.mark.parametrize(
    ("fits", "past", "path"),
    [
        # 40 components counting nested ones: a container and 39 texts, then 40.
        (v2(container(*[text()] * 39)), v2(container(*[text()] * 40)), "components"),
        (v2(*[text()] * 40), v2(*[text()] * 41), "components"),
        # 4,000 characters across the texts.
        (v2(text("x" * 2000), text("x" * 2000)), v2(text("x" * 2000), text("x" * 2001)), "components"),
        (v2(text("x" * 4000)), v2(text("x" * 4001)), "components.0.content"),
        (v2(section(*[text()] * 3)), v2(section(*[text()] * 4)), "components.0.components"),
        (v2(section(text())), v2(section()), "components.0.components"),
        (v2(gallery(10)), v2(gallery(11)), "components.0.items"),
        (v2(gallery(1)), v2(gallery(0)), "components.0.items"),
        (
            v2(section(text(), accessory=thumbnail(description="x" * 1024))),
            v2(section(text(), accessory=thumbnail(description="x" * 1025))),
            "components.0.accessory.description",
        ),
        (
            v2(section(text(), accessory={"type": 2, "style": 1, "label": "x" * 80, "custom_id": "a"})),
            v2(section(text(), accessory={"type": 2, "style": 1, "label": "x" * 81, "custom_id": "a"})),
            "components.0.accessory.label",
        ),
        (
            v2(section(text(), accessory={"type": 2, "style": 1, "custom_id": "x" * 100})),
            v2(section(text(), accessory={"type": 2, "style": 1, "custom_id": "x" * 101})),
            "components.0.accessory.custom_id",
        ),
        (
            v2(section(text(), accessory=thumbnail())),
            v2(
                section(
                    text(), accessory={"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
                )
            ),
            "components.0.accessory.type",
        ),
        (
            v2(container(text(), accent_color=0xFFFFFF)),
            v2(container(text(), accent_color=0x1000000)),
            "components.0.accent_color",
        ),
        (v2(container(text())), v2(container()), "components.0.components"),
        (v2(container(text())), v2(container(container(text()))), "components.0.components.0.type"),
        ({"type": 14, "spacing": 2}, {"type": 14, "spacing": 3}, "components.0.spacing"),
        (
            {"type": 13, "file": {"url": "attachment://ficha.json"}},
            {"type": 13, "file": {"url": "https://x.test/ficha.json"}},
            "components.0.file.url",
        ),
        # custom_ids unique in the whole message, a section's accessory and a row's alike.
        (
            v2(
                container(
                    section(text()),
                    {"type": 1, "components": [buttons("c")["components"][0]["components"][0]]},
                )
            ),
            v2(
                container(
                    section(text()),
                    {"type": 1, "components": [buttons("b")["components"][0]["components"][0]]},
                )
            ),
            "components.0.components.1.components.0.custom_id",
        ),
        (
            v2({**text(), "id": 1}, {**text(), "id": 2}),
            v2({**text(), "id": 1}, {**text(), "id": 1}),
            "components.1.id",
        ),
        # The flag forbids content and embeds; the layout components need the flag.
        (v2(text(), content=""), v2(text(), content="hola"), "content"),
        (v2(text(), embeds=[]), v2(text(), embeds=[{"title": "t"}]), "embeds"),
        ({"content": "x", "components": []}, {"content": "x", "components": [text()]}, "components.0.type"),
    ],
)
def test_v2_messages_past_a_limit_are_refused(fits: dict[str, Any], past: dict[str, Any], path: str) -> None:
    if "flags" not in fits and "content" not in fits:
        fits, past = v2(fits), v2(past)
    assert where(fits) == []
    assert path in where(past), where(past)


def test_the_v2_flag_stays_with_the_message_an_edit_cannot_remove_it() -> None:
    layout = v2(text("hola"))
    assert where({**layout, "flags": 0}, components_v2=True) == ["flags"]
    assert where({"components": [text("otra")]}, components_v2=True) == []
    assert where({"content": "hola"}, components_v2=True) == ["content"]
    assert where({"components": [text("otra")]}) == ["components.0.type"]  # a classic message


def label(component: dict[str, Any], text_: str = "Campo", **extra: Any) -> dict[str, Any]:
    return {"type": 18, "label": text_, "component": component, **extra}


def form(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 9, "data": {"custom_id": "f", "title": "Tirada", "components": list(components)}}


def choices(count: int) -> list[dict[str, Any]]:
    return [{"label": f"o{i}", "value": str(i)} for i in range(count)]


def radio(count: int, **extra: Any) -> dict[str, Any]:
    return {"type": 21, "custom_id": "r", "options": choices(count), **extra}


def group(count: int, **extra: Any) -> dict[str, Any]:
    return {"type": 22, "custom_id": "g", "options": choices(count), **extra}


def checkbox() -> dict[str, Any]:
    return {"type": 23, "custom_id": "c"}


def upload(**extra: Any) -> dict[str, Any]:
    return {"type": 19, "custom_id": "u", **extra}


def form_problems(body: dict[str, Any]) -> list[str]:
    return sorted({p.split(":")[0] for p in refused("POST", CALLBACK, body)})


@pytest.mark.parametrize(
    ("fits", "past", "path"),
    [
        (
            form(*[label({**checkbox(), "custom_id": f"c{i}"}) for i in range(5)]),
            form(*[label({**checkbox(), "custom_id": f"c{i}"}) for i in range(6)]),
            "data.components",
        ),
        (form(label(checkbox(), "x" * 45)), form(label(checkbox(), "x" * 46)), "data.components.0.label"),
        (
            form(label(checkbox(), description="x" * 100)),
            form(label(checkbox(), description="x" * 101)),
            "data.components.0.description",
        ),
        (form(label(radio(2))), form(label(radio(1))), "data.components.0.component.options"),
        (form(label(radio(10))), form(label(radio(11))), "data.components.0.component.options"),
        (form(label(group(10))), form(label(group(11))), "data.components.0.component.options"),
        (form(label(group(1))), form(label(group(0))), "data.components.0.component.options"),
        (
            form(label(group(10, max_values=10))),
            form(label(group(10, max_values=11))),
            "data.components.0.component.max_values",
        ),
        (
            form(label(group(3, max_values=3))),
            form(label(group(3, max_values=4))),
            "data.components.0.component.max_values",
        ),
        (
            form(label(group(3, min_values=0, required=False))),
            form(label(group(3, min_values=0))),
            "data.components.0.component.min_values",
        ),
        (
            form(label(upload(max_values=10))),
            form(label(upload(max_values=11))),
            "data.components.0.component.max_values",
        ),
        (
            form(label(upload(min_values=2, max_values=2))),
            form(label(upload(min_values=3, max_values=2))),
            "data.components.0.component.max_values",
        ),
        (
            form(label(select())),
            form(label(select(options=choices(26)))),
            "data.components.0.component.options",
        ),
        (form(label(select())), form(label(select(disabled=True))), "data.components.0.component.disabled"),
        (
            form(label(radio(2, custom_id="x" * 100))),
            form(label(radio(2, custom_id="x" * 101))),
            "data.components.0.component.custom_id",
        ),
        (
            form(label(radio(2)), label(checkbox())),
            form(label(radio(2)), label({**checkbox(), "custom_id": "r"})),
            "data.components.1.component.custom_id",
        ),
        (
            form(text("x" * 4000), label(checkbox())),
            form(text("x" * 4001), label(checkbox())),
            "data.components.0.content",
        ),
        (
            form(label(checkbox())),
            form(label({"type": 2, "style": 1, "custom_id": "b", "label": "x"})),
            "data.components.0.component.type",
        ),
    ],
)
def test_forms_with_the_new_components_past_a_limit_are_refused(
    fits: dict[str, Any], past: dict[str, Any], path: str
) -> None:
    assert form_problems(fits) == []
    assert path in form_problems(past), form_problems(past)


def test_the_harness_holds_an_edit_of_a_v2_message_to_v2s_rules() -> None:
    fake = Discord()
    sent = fake.earlier(CHANNEL_ID, v2(text("Heridas: 2")))
    fake.register("t", 1, CHANNEL_ID, sent.id)
    update = discord.http.Route(
        "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=1, webhook_token="t"
    )
    edit = discord.http.Route(
        "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=CHANNEL_ID, message_id=sent.id
    )

    async def edits() -> None:
        with fake.expect_refusals() as caught:
            with pytest.raises(discord.HTTPException):
                await fake.webhook(update, payload={"type": 7, "data": {"content": "Heridas: 3"}})
            with pytest.raises(discord.HTTPException):
                await fake.rest(edit, json={"flags": 0})
        assert [flatten(r.body["errors"])[0][0] for r in caught] == ["data.content", "flags"]
        await fake.rest(edit, json={"components": [text("Heridas: 3")]})
        assert fake.messages[sent.id].data["flags"] & V2

    asyncio.run(edits())


class _Roll(discord.ui.Modal, title="Tirada"):
    """A form with every new modal component, as the panel's forms will hold them (five:
    a sixth, even a Text Display, is refused)."""

    skill = discord.ui.Label(
        text="Habilidad",
        component=discord.ui.Select(
            custom_id="skill", options=[discord.SelectOption(label=s) for s in ("Combate", "Mover")]
        ),
    )
    difficulty = discord.ui.Label(
        text="Dificultad",
        component=discord.ui.RadioGroup(
            custom_id="difficulty",
            options=[discord.RadioGroupOption(label=str(d), default=d == 2) for d in range(6)],
        ),
    )
    extras = discord.ui.Label(
        text="Extras",
        component=discord.ui.CheckboxGroup(
            custom_id="extras",
            options=[discord.CheckboxGroupOption(label=s) for s in ("Enfoque", "Ayuda")],
            required=False,
        ),
    )
    determination = discord.ui.Label(text="Determinación", component=discord.ui.Checkbox(custom_id="det"))
    sheet = discord.ui.Label(text="Ficha", component=discord.ui.FileUpload(custom_id="sheet", required=False))

    def __init__(self, seen: dict[str, Any]) -> None:
        super().__init__(custom_id="roll-form")
        self.seen = seen

    async def on_submit(self, interaction: discord.Interaction) -> None:
        self.seen.update(
            skill=self.skill.component.values,  # type: ignore[attr-defined]
            difficulty=self.difficulty.component.value,  # type: ignore[attr-defined]
            extras=self.extras.component.values,  # type: ignore[attr-defined]
            det=self.determination.component.value,  # type: ignore[attr-defined]
            sheet=[a.filename for a in self.sheet.component.values],  # type: ignore[attr-defined]
        )
        layout = discord.ui.LayoutView()
        layout.add_item(discord.ui.TextDisplay(f"Dificultad {self.seen['difficulty']}"))
        await interaction.response.send_message(view=layout)


async def _opened(harness: Harness, seen: dict[str, Any]) -> str:
    """Open the form through a command added for the test; the form's custom_id."""
    assert harness.bot is not None

    async def formulario(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(_Roll(seen))

    # The module's bot is shared by its tests: each one's command replaces the last one's.
    harness.bot.tree.add_command(
        discord.app_commands.Command(name="formulario", description="d", callback=formulario), override=True
    )
    opened = await harness.slash("formulario")
    assert [c["type"] for c in opened.form["components"]] == [18] * 5
    return opened.modal_id


async def test_the_harness_submits_a_form_of_new_components_as_discord_does(harness: Harness) -> None:
    seen: dict[str, Any] = {}
    form_id = await _opened(harness, seen)
    fields = {"skill": ["Mover"], "det": True, "sheet": [Upload("lia.json", b"{}")]}
    reply = await harness.submit(form_id, fields)
    # Left out: the radio group answers its default, the optional checkbox group nothing.
    assert seen == {"skill": ["Mover"], "difficulty": "2", "extras": [], "det": True, "sheet": ["lia.json"]}
    assert reply.data["flags"] & V2 and reply.text == "Dificultad 2"


@pytest.mark.parametrize(
    "fields",
    [
        {"skill": ["Saltar"]},
        {"skill": []},
        {"skill": ["Mover", "Combate"]},
        {"difficulty": "9"},
        {"extras": ["Otro"]},
    ],
)
async def test_the_harness_refuses_a_submission_the_form_could_not_send(
    harness: Harness, fields: dict[str, Any]
) -> None:
    form_id = await _opened(harness, {})
    with pytest.raises(AssertionError, match=r"not among|chosen, allowed"):
        await harness.submit(form_id, {"skill": ["Mover"], **fields})


class _Beside(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"prueba:(?P<n>\d+)"):
    """A persistent button beside a section's text, as the panel's rolls will be."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Tirar", custom_id=f"prueba:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> _Beside:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        layout = discord.ui.LayoutView()
        layout.add_item(
            discord.ui.Section(discord.ui.TextDisplay(f"Pulsado {self.n}"), accessory=_Beside(self.n + 1))
        )
        await interaction.response.edit_message(view=layout)


async def test_the_harness_presses_a_button_beside_a_sections_text(harness: Harness) -> None:
    assert harness.bot is not None
    harness.bot.add_dynamic_items(_Beside)
    panel = harness.discord.earlier(
        CHANNEL_ID,
        v2(
            section(
                text("Sigilo +7"),
                accessory={"type": 2, "style": 2, "label": "Tirar", "custom_id": "prueba:1"},
            )
        ),
    )
    assert panel.custom_ids == ["prueba:1"]
    await harness.click(panel, "prueba:1")
    now = harness.current(panel)
    assert now.data["flags"] & V2 and now.custom_ids == ["prueba:2"]
    assert now.data["components"][0]["components"][0]["content"] == "Pulsado 1"
