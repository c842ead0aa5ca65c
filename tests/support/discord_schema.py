"""Discord's limits, as JSON Schemas we wrote, for every request body the bot sends.

The offline Discords (``harness.py`` and ``fake_discord.py``) pass every request through
:func:`check`; a body Discord would refuse gets Discord's own answer: 400, code 50035,
"Invalid Form Body" and an ``errors`` tree keyed by the offending path
(``data.components.0.components.0.label``).

Every limit below is taken from Discord's published OpenAPI description,
``discord/discord-api-spec`` ``specs/openapi.json`` at commit
74fda0fad044407ea280043a03ffc9bc64c4e49e (2026-07-18). Each limited node names the spec
schema it copies in ``x-spec`` (``Schema/properties/field``), so
``python -m tests.support.spec_check`` can compare them against a copy of the spec
(``DISCORD_OPENAPI=/path/openapi.json``). A node marked ``x-stricter`` is tighter than the
spec on purpose, and says why: the spec describes components v2 and Nitro-sized
messages, the bot sends classic action rows and bot messages, whose limits Discord
documents in its developer docs.

What a schema cannot say (sums across fields, uniqueness, order, the 3-second answer
window) is checked in :func:`extra_errors` and in the offline Discord itself.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

SPEC = "discord/discord-api-spec specs/openapi.json @ 74fda0f (2026-07-18)"

# Discord's locales (spec: AvailableLocalesEnum); a localization keyed by anything else
# is refused.
LOCALES = (
    "ar", "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr",
    "he", "hi", "hr", "hu", "id", "it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro",
    "ru", "sv-SE", "th", "tr", "uk", "vi", "zh-CN", "zh-TW",
)  # fmt: skip
EMBEDS_TOTAL = 6000  # docs, Embed Limits: the sum over every embed of a message
COMMAND_TOTAL = 8000  # docs, Application Command: names, descriptions and choices together
ANSWER_SECONDS = 3.0  # docs, Receiving an Interaction: the first answer, or a deferral
_NAME = re.compile(r"^[-_'\w]{1,32}$")  # docs' \p{L}\p{N} pattern; \w adds only "_"


# The limited fields the spec types without ``null`` (it allows null everywhere else).
_NOT_NULL = frozenset(
    {
        "ApplicationCommandCreateRequest/properties/name",
        "ApplicationCommandStringOption/properties/name",
        "ApplicationCommandStringOption/properties/description",
        "ApplicationCommandOptionStringChoice/properties/name",
        "ApplicationCommandOptionStringChoice/properties/value",
        "RichEmbedField/properties/name",
        "RichEmbedField/properties/value",
        "ActionRowComponentForMessageRequest/properties/components",
        "StringSelectComponentForMessageRequest/properties/custom_id",
        "StringSelectComponentForMessageRequest/properties/options",
        "StringSelectOptionForRequest/properties/label",
        "StringSelectOptionForRequest/properties/value",
        "UserSelectComponentForMessageRequest/properties/custom_id",
        "ModalInteractionCallbackRequestData/properties/custom_id",
        "ModalInteractionCallbackRequestData/properties/title",
        "ModalInteractionCallbackRequestData/properties/components",
        "ActionRowComponentForModalRequest/properties/components",
        "TextInputComponentForModalRequest/properties/custom_id",
        "LabelComponentForModalRequest/properties/label",
    }
)


def _text(spec: str, high: int, low: int = 0, **extra: Any) -> dict[str, Any]:
    """A string of ``low``..``high`` characters (or null, where the spec allows it)."""
    kind = "string" if spec in _NOT_NULL or spec.endswith("additionalProperties") else ["string", "null"]
    node: dict[str, Any] = {"type": kind, "maxLength": high, "x-spec": spec, **extra}
    if low:
        node["minLength"] = low
    return node


def _array(spec: str, items: dict[str, Any], high: int, low: int = 0, **extra: Any) -> dict[str, Any]:
    kind = "array" if spec in _NOT_NULL else ["array", "null"]
    node: dict[str, Any] = {"type": kind, "items": items, "maxItems": high, "x-spec": spec, **extra}
    if low:
        node["minItems"] = low
    return node


def _when(kind: int | list[int], then: dict[str, Any]) -> dict[str, Any]:
    """Apply ``then`` to a component of that ``type``: a discriminator whose errors keep
    their exact path (a ``oneOf`` would report the whole component)."""
    test = {"const": kind} if isinstance(kind, int) else {"enum": kind}
    return {"if": {"properties": {"type": test}, "required": ["type"]}, "then": then}


def _localized(spec: str, high: int) -> dict[str, Any]:
    return {
        "type": ["object", "null"],
        "propertyNames": {"enum": list(LOCALES)},
        "additionalProperties": _text(f"{spec}/additionalProperties", high, 1),
        "maxProperties": 34,
        "x-spec": spec,
    }


_STRICTER_DESCRIPTION = "a chat-input command needs a description (docs); 0 is for context-menu ones"
_STRICTER_CONTENT = "a bot message's content is at most 2,000 (docs); 4,000 is Nitro users'"
_STRICTER_ROWS = "classic messages: at most 5 action rows (docs); 40 needs the components v2 flag"
_STRICTER_MODAL_ROWS = "a form of action rows holds at most 5 text inputs (docs); 40 is for labels"
_STRICTER_MODAL_ROW = "a form's action row holds one text input (docs)"
_STRICTER_FIELD = "Discord refuses an empty field name or value (docs, Embed Object)"
_STRICTER_CHOICE = "a string choice's value is at most 100 characters (docs, Option Choice)"

EMBED = {
    "type": "object",
    "properties": {
        "title": _text("RichEmbed/properties/title", 256),
        "description": _text("RichEmbed/properties/description", 4096),
        "url": _text("RichEmbed/properties/url", 2048),
        "color": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 16777215,
            "x-spec": "RichEmbed/properties/color",
        },
        "fields": _array(
            "RichEmbed/properties/fields",
            {
                "type": "object",
                "required": ["name", "value"],
                "properties": {
                    "name": _text(
                        "RichEmbedField/properties/name", 256, 1, **{"x-stricter": _STRICTER_FIELD}
                    ),
                    "value": _text(
                        "RichEmbedField/properties/value", 1024, 1, **{"x-stricter": _STRICTER_FIELD}
                    ),
                    "inline": {"type": "boolean"},
                },
            },
            25,
        ),
        "footer": {
            "type": "object",
            "required": ["text"],
            "properties": {"text": _text("RichEmbedFooter/properties/text", 2048)},
        },
        "author": {
            "type": "object",
            "required": ["name"],
            "properties": {"name": _text("RichEmbedAuthor/properties/name", 256)},
        },
    },
}

BUTTON = {
    "type": "object",
    "required": ["style"],
    "properties": {
        "style": {"enum": [1, 2, 3, 4, 5, 6]},
        "custom_id": _text("ButtonComponentForMessageRequest/properties/custom_id", 100, 1),
        "label": _text("ButtonComponentForMessageRequest/properties/label", 80),
        "url": _text("ButtonComponentForMessageRequest/properties/url", 512),
        "disabled": {"type": "boolean"},
    },
    "if": {"properties": {"style": {"const": 5}}},
    "then": {"required": ["url"]},
    "else": {"required": ["custom_id"]},
}

_SELECT = "StringSelectComponentForMessageRequest/properties"
STRING_SELECT = {
    "type": "object",
    "required": ["custom_id", "options"],
    "properties": {
        "custom_id": _text(f"{_SELECT}/custom_id", 100, 1),
        "placeholder": _text(f"{_SELECT}/placeholder", 150),
        "min_values": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 25,
            "x-spec": f"{_SELECT}/min_values",
        },
        "max_values": {
            "type": ["integer", "null"],
            "minimum": 1,
            "maximum": 25,
            "x-spec": f"{_SELECT}/max_values",
        },
        "options": _array(
            f"{_SELECT}/options",
            {
                "type": "object",
                "required": ["label", "value"],
                "properties": {
                    "label": _text("StringSelectOptionForRequest/properties/label", 100, 1),
                    "value": _text("StringSelectOptionForRequest/properties/value", 100, 1),
                    "description": _text("StringSelectOptionForRequest/properties/description", 100),
                },
            },
            25,
            1,
        ),
    },
}

_ENTITY_SELECT = "UserSelectComponentForMessageRequest/properties"
ENTITY_SELECT = {
    "type": "object",
    "required": ["custom_id"],
    "properties": {
        "custom_id": _text(f"{_ENTITY_SELECT}/custom_id", 100, 1),
        "placeholder": _text(f"{_ENTITY_SELECT}/placeholder", 150),
        "min_values": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 25,
            "x-spec": f"{_ENTITY_SELECT}/min_values",
        },
        "max_values": {
            "type": ["integer", "null"],
            "minimum": 1,
            "maximum": 25,
            "x-spec": f"{_ENTITY_SELECT}/max_values",
        },
    },
}

MESSAGE_ROW = {
    "type": "object",
    "required": ["type", "components"],
    "properties": {
        "type": {"const": 1},
        "components": _array(
            "ActionRowComponentForMessageRequest/properties/components",
            {
                "type": "object",
                "required": ["type"],
                "properties": {"type": {"enum": [2, 3, 5, 6, 7, 8]}},
                "allOf": [_when(2, BUTTON), _when(3, STRING_SELECT), _when([5, 6, 7, 8], ENTITY_SELECT)],
            },
            5,
            1,
        ),
    },
}


def _message(spec: str) -> dict[str, Any]:
    """A message body: posts, follow-ups, edits and type-4/7 callbacks share these limits."""
    stricter = {"x-stricter": _STRICTER_CONTENT} if spec.startswith("Message") else {}
    return {
        "type": "object",
        "properties": {
            "content": _text(f"{spec}/properties/content", 2000, **stricter),
            "embeds": _array(f"{spec}/properties/embeds", EMBED, 10),
            "components": _array(
                f"{spec}/properties/components", MESSAGE_ROW, 5, **{"x-stricter": _STRICTER_ROWS}
            ),
            "flags": {"type": "integer"},
            "allowed_mentions": {"type": "object"},
            "attachments": _array(f"{spec}/properties/attachments", {"type": "object"}, 10),
        },
    }


_INPUT = "TextInputComponentForModalRequest/properties"
TEXT_INPUT = {
    "type": "object",
    "required": ["type", "custom_id", "style"],
    "properties": {
        "type": {"const": 4},
        "custom_id": _text(f"{_INPUT}/custom_id", 100, 1),
        "style": {"enum": [1, 2]},
        "label": _text(f"{_INPUT}/label", 45, 1),
        "value": _text(f"{_INPUT}/value", 4000),
        "placeholder": _text(f"{_INPUT}/placeholder", 100),
        "required": {"type": "boolean"},
        "min_length": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 4000,
            "x-spec": f"{_INPUT}/min_length",
        },
        "max_length": {
            "type": ["integer", "null"],
            "minimum": 1,
            "maximum": 4000,
            "x-spec": f"{_INPUT}/max_length",
        },
    },
}

# What a modal's Label may hold: a text input, a select, a file upload, a radio group, a
# checkbox group or a checkbox (discord.py 2.7; radio groups offer 2 to 10 options).
RADIO_GROUP = {
    "properties": {
        "custom_id": _text("RadioGroupComponentForModalRequest/properties/custom_id", 100, 1),
        "options": _array(
            "RadioGroupComponentForModalRequest/properties/options",
            {
                "type": "object",
                "required": ["label", "value"],
                "properties": {
                    "label": _text("RadioGroupOption/properties/label", 100, 1),
                    "value": _text("RadioGroupOption/properties/value", 100, 1),
                    "description": _text("RadioGroupOption/properties/description", 100),
                },
            },
            10,
            2,
        ),
    },
}
LABELLED = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"enum": [3, 4, 5, 6, 7, 8, 19, 21, 22, 23]}},
    "allOf": [_when(4, TEXT_INPUT), _when(3, STRING_SELECT), _when(21, RADIO_GROUP)],
}

MODAL = {
    "type": "object",
    "required": ["custom_id", "title", "components"],
    "properties": {
        "custom_id": _text("ModalInteractionCallbackRequestData/properties/custom_id", 100, 1),
        "title": _text("ModalInteractionCallbackRequestData/properties/title", 45, 1),
        "components": _array(
            "ModalInteractionCallbackRequestData/properties/components",
            {
                "type": "object",
                "required": ["type"],
                "properties": {"type": {"enum": [1, 18]}},
                "allOf": [
                    _when(
                        1,
                        {
                            "required": ["components"],
                            "properties": {
                                "components": _array(
                                    "ActionRowComponentForModalRequest/properties/components",
                                    {**TEXT_INPUT, "required": ["type", "custom_id", "style", "label"]},
                                    1,
                                    1,
                                    **{"x-stricter": _STRICTER_MODAL_ROW},
                                )
                            },
                        },
                    ),
                    _when(
                        18,
                        {
                            "required": ["label", "component"],
                            "properties": {
                                "label": _text("LabelComponentForModalRequest/properties/label", 45, 1),
                                "description": _text(
                                    "LabelComponentForModalRequest/properties/description", 100, 1
                                ),
                                "component": LABELLED,
                            },
                        },
                    ),
                ],
            },
            5,
            1,
            **{"x-stricter": _STRICTER_MODAL_ROWS},
        ),
    },
}

_AUTOCOMPLETE = "InteractionApplicationCommandAutocompleteCallbackStringData/properties"
AUTOCOMPLETE = {
    "type": "object",
    "required": ["choices"],
    "properties": {
        "choices": _array(
            f"{_AUTOCOMPLETE}/choices",
            {
                "type": "object",
                "required": ["name", "value"],
                "properties": {
                    "name": _text("ApplicationCommandOptionStringChoice/properties/name", 100, 1),
                    "value": {
                        "anyOf": [
                            _text(
                                "ApplicationCommandOptionStringChoice/properties/value",
                                100,
                                **{"x-stricter": _STRICTER_CHOICE},
                            ),
                            {"type": "number"},
                        ]
                    },
                },
            },
            25,
        )
    },
}

_OPTION = "ApplicationCommandStringOption/properties"
_CHOICE = "ApplicationCommandOptionStringChoice/properties"
OPTION = {
    "type": "object",
    "required": ["type", "name", "description"],
    "properties": {
        "type": {"enum": list(range(1, 12))},
        "name": _text(f"{_OPTION}/name", 32, 1),
        "name_localizations": _localized(f"{_OPTION}/name_localizations", 32),
        "description": _text(f"{_OPTION}/description", 100, 1),
        "description_localizations": _localized(f"{_OPTION}/description_localizations", 100),
        "required": {"type": "boolean"},
        "min_length": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 6000,
            "x-spec": f"{_OPTION}/min_length",
        },
        "max_length": {
            "type": ["integer", "null"],
            "minimum": 1,
            "maximum": 6000,
            "x-spec": f"{_OPTION}/max_length",
        },
        "choices": _array(
            f"{_OPTION}/choices",
            {
                "type": "object",
                "required": ["name", "value"],
                "properties": {
                    "name": _text(f"{_CHOICE}/name", 100, 1),
                    "name_localizations": _localized(f"{_CHOICE}/name_localizations", 100),
                    "value": {
                        "anyOf": [
                            _text(f"{_CHOICE}/value", 100, **{"x-stricter": _STRICTER_CHOICE}),
                            {"type": "number"},
                        ]
                    },
                },
            },
            25,
        ),
        "options": _array(
            "ApplicationCommandSubcommandOption/properties/options", {"$ref": "#/$defs/option"}, 25
        ),
    },
}

_COMMAND = "ApplicationCommandCreateRequest/properties"
COMMAND = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": _text(f"{_COMMAND}/name", 32, 1),
        "name_localizations": _localized(f"{_COMMAND}/name_localizations", 32),
        "description": _text(f"{_COMMAND}/description", 100, 1, **{"x-stricter": _STRICTER_DESCRIPTION}),
        "description_localizations": _localized(f"{_COMMAND}/description_localizations", 100),
        "options": _array(f"{_COMMAND}/options", {"$ref": "#/$defs/option"}, 25),
        "contexts": {
            "type": ["array", "null"],
            "items": {"enum": [0, 1, 2]},
            "minItems": 1,
            "uniqueItems": True,
            "x-spec": f"{_COMMAND}/contexts",
        },
        "integration_types": {
            "type": ["array", "null"],
            "items": {"enum": [0, 1]},
            "minItems": 1,
            "uniqueItems": True,
            "x-spec": f"{_COMMAND}/integration_types",
        },
    },
}

CALLBACK = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"enum": [1, 4, 5, 6, 7, 8, 9]}},
    "allOf": [
        {
            "if": {"properties": {"type": {"const": 4}}},
            "then": {"properties": {"data": _message("IncomingWebhookInteractionRequest")}},
        },
        {
            "if": {"properties": {"type": {"const": 7}}},
            "then": {
                "properties": {"data": _message("IncomingWebhookUpdateForInteractionCallbackRequestPartial")}
            },
        },
        {"if": {"properties": {"type": {"const": 8}}}, "then": {"properties": {"data": AUTOCOMPLETE}}},
        {
            "if": {"properties": {"type": {"const": 9}}},
            "then": {"required": ["data"], "properties": {"data": MODAL}},
        },
    ],
}

SCHEMAS: dict[str, dict[str, Any]] = {
    "commands": {"type": "array", "items": COMMAND, "maxItems": 100, "$defs": {"option": OPTION}},
    "callback": CALLBACK,
    "followup": _message("IncomingWebhookRequestPartial"),
    "webhook_edit": _message("IncomingWebhookUpdateRequestPartial"),
    "channel_post": _message("MessageCreateRequest"),
    "channel_edit": _message("MessageEditRequestPartial"),
}
_VALIDATORS = {name: Draft202012Validator(schema) for name, schema in SCHEMAS.items()}

_ROUTES = (
    ("PUT", re.compile(r"^/applications/\d+(/guilds/\d+)?/commands$"), "commands"),
    ("POST", re.compile(r"^/interactions/\d+/[^/]+/callback$"), "callback"),
    ("POST", re.compile(r"^/webhooks/\d+/[^/]+$"), "followup"),
    ("PATCH", re.compile(r"^/webhooks/\d+/[^/]+/messages/(@original|\d+)$"), "webhook_edit"),
    ("POST", re.compile(r"^/channels/\d+/messages$"), "channel_post"),
    ("PATCH", re.compile(r"^/channels/\d+/messages/\d+$"), "channel_edit"),
)


@dataclass(frozen=True)
class Problem:
    """One refused field: its path and Discord's error code and message."""

    path: tuple[str | int, ...]
    code: str
    message: str

    @property
    def where(self) -> str:
        return ".".join(str(p) for p in self.path) or "(body)"


@dataclass
class Refused(Exception):
    """What Discord answers a request it refuses: an HTTP status and a JSON body."""

    status: int
    body: dict[str, Any]

    def __str__(self) -> str:
        lines = [f"{path}: {message}" for path, message in flatten(self.body.get("errors") or {})]
        head = f"{self.status} {self.body.get('code')} {self.body.get('message')}"
        return "\n  ".join([head, *lines])


def flatten(tree: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """Discord's ``errors`` tree as (``data.components.0.label``, message) pairs."""
    found = []
    for key, value in tree.items():
        if key == "_errors":
            found += [(prefix or "(body)", f"{e['code']}: {e['message']}") for e in value]
        else:
            found += flatten(value, f"{prefix}.{key}" if prefix else key)
    return found


def kind_of(method: str, path: str) -> str | None:
    """Which of our schemas a request is checked against (None: a body-less request)."""
    return next((name for m, regex, name in _ROUTES if m == method and regex.match(path)), None)


def check(method: str, path: str, body: Any) -> None:
    """Raise :class:`Refused` with Discord's 50035 answer if Discord would refuse ``body``."""
    kind = kind_of(method, path)
    if kind is None or body is None:
        return
    problems = _problems(kind, json.dumps(body))
    if problems:
        raise Refused(400, invalid_form_body(list(problems)))


@functools.lru_cache(maxsize=256)
def _problems(kind: str, body: str) -> tuple[Problem, ...]:
    """Every problem Discord would find in ``body``, as the JSON text Discord receives.

    Checked once per distinct text: every bot a test starts syncs the same command tree
    (validating it was a third of a bot's start) and many answers repeat word for word.
    """
    parsed = json.loads(body)
    layout = _layout_problems(kind, parsed)
    return (
        *layout,
        *[_problem(e) for e in _VALIDATORS[kind].iter_errors(parsed)],
        *extra_errors(kind, parsed),
    )


# -- Components V2 messages (``ui.LayoutView``) -----------------------------------------------

COMPONENTS_V2 = 1 << 15
LAYOUT_TYPES = frozenset({1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17})
LAYOUT_COMPONENTS = 40
LAYOUT_TEXT = 4000


def _layout_problems(kind: str, parsed: Any) -> list[Problem]:
    """Check a V2 message's components (and take them out of ``parsed``, which the classic
    schema would read as action rows): at most 40 counting nested ones, 4,000 characters of
    text displays, known types, sections of 1–3 texts and an accessory, no content or embeds."""
    callback = kind == "callback"
    message = parsed.get("data") if callback and isinstance(parsed, dict) else parsed
    if not isinstance(message, dict) or (callback and parsed.get("type") not in (4, 7)):
        return []
    components = message.get("components") or []
    if not (int(message.get("flags") or 0) & COMPONENTS_V2 or any(c.get("type") != 1 for c in components)):
        return []
    at: tuple[str | int, ...] = ("data", "components") if callback else ("components",)
    del message["components"]
    nodes = list(_layout_nodes(components))
    problems = []
    if message.get("content") or message.get("embeds"):
        problems.append(
            Problem(at, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "content or embeds")
        )
    if len(nodes) > LAYOUT_COMPONENTS:
        problems.append(
            Problem(at, "BASE_TYPE_MAX_LENGTH", f"Must be {LAYOUT_COMPONENTS} or fewer in length.")
        )
    if sum(len(n.get("content") or "") for n in nodes if n.get("type") == 10) > LAYOUT_TEXT:
        problems.append(
            Problem(at, "BASE_TYPE_MAX_LENGTH", f"Text displays exceed {LAYOUT_TEXT} characters.")
        )
    for node in nodes:
        problems += _layout_node_problems(node, at)
    ids = [((*at, "custom_id"), n["custom_id"]) for n in nodes if "custom_id" in n]
    return problems + _duplicate_ids(ids)


def _layout_nodes(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _layout_nodes(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]


def _layout_node_problems(node: dict[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    kind = node.get("type")
    if kind not in LAYOUT_TYPES:
        return [Problem(at, "BASE_TYPE_INVALID", f"Unknown component type {kind!r}")]
    if kind == 9 and not (
        1 <= len(node.get("components") or []) <= 3
        and all(c.get("type") == 10 for c in node["components"])
        and isinstance(node.get("accessory"), dict)
    ):
        return [Problem(at, "BASE_TYPE_INVALID", "A section holds 1 to 3 text displays and an accessory")]
    if kind == 2 and not 1 <= len(node.get("label") or "x") <= 80:
        return [Problem(at, "BASE_TYPE_BAD_LENGTH", "A button label is 1 to 80 characters")]
    if "custom_id" in node and not 1 <= len(node["custom_id"]) <= 100:
        return [Problem(at, "BASE_TYPE_BAD_LENGTH", "A custom_id is 1 to 100 characters")]
    return []


def invalid_form_body(problems: list[Problem]) -> dict[str, Any]:
    """Discord's shape: ``{"code": 50035, "errors": {"data": {"title": {"_errors": [...]}}}}``."""
    tree: dict[str, Any] = {}
    for problem in problems:
        node = tree
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": tree}


def _problem(error: ValidationError) -> Problem:
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator in ("maxLength", "minLength", "maxItems", "minItems"):
        low = schema.get("minLength", schema.get("minItems", 0))
        high = schema.get("maxLength", schema.get("maxItems"))
        return Problem(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
    if error.validator == "maximum":
        return Problem(
            path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {error.validator_value}."
        )
    if error.validator == "minimum":
        return Problem(
            path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {error.validator_value}."
        )
    if error.validator == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        return Problem((*path, *missing[:1]), "BASE_TYPE_REQUIRED", "This field is required")
    if "propertyNames" in error.schema_path:
        return Problem(path, "LOCALE_INVALID", f"Invalid locale: {error.instance!r}")
    return Problem(path, "BASE_TYPE_INVALID", error.message)


# -- what a schema cannot say -----------------------------------------------------------


def extra_errors(kind: str, body: Any) -> list[Problem]:
    if kind == "commands":
        return [p for i, command in enumerate(body) for p in _command_problems(command, (i,))]
    if kind == "callback":
        data = body.get("data") or {}
        if body.get("type") in (4, 7):
            return _message_problems(data, ("data",))
        if body.get("type") == 9:
            return _modal_problems(data, ("data",))
        return []
    return _message_problems(body, ())


def embed_size(embed: dict[str, Any]) -> int:
    """Characters Discord counts toward the 6,000 of a message's embeds."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size + sum(len(f.get("name", "")) + len(f.get("value", "")) for f in embed.get("fields") or [])


def _message_problems(message: dict[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    problems: list[Problem] = []
    total = sum(embed_size(e) for e in message.get("embeds") or [])
    if total > EMBEDS_TOTAL:
        message_ = f"Embed size exceeds maximum size of {EMBEDS_TOTAL} ({total})"
        problems.append(Problem((*at, "embeds"), "BASE_TYPE_MAX_LENGTH", message_))
    rows = message.get("components") or []
    problems += _duplicate_ids(_custom_ids(rows, (*at, "components")))
    for r, row in enumerate(rows):
        items = row.get("components") or []
        where = (*at, "components", r, "components")
        if any(c.get("type") != 2 for c in items) and len(items) > 1:
            problems.append(Problem(where, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select takes its row alone"))
        for c, item in enumerate(items):
            problems += _select_problems(item, (*where, c))
    return problems


def _select_problems(item: dict[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    if item.get("type") not in (3, 5, 6, 7, 8):
        return []
    low, high = item.get("min_values", 1), item.get("max_values", 1)
    options = len(item.get("options") or []) if item.get("type") == 3 else 25
    if not options:
        return []  # the schema already says a select needs options
    if low > high or high > options:
        text = f"min_values ({low}) ≤ max_values ({high}) ≤ options ({options}) does not hold"
        return [Problem((*at, "max_values"), "SELECT_COMPONENT_VALUES_INVALID", text)]
    return []


def _modal_problems(modal: dict[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    problems = _duplicate_ids(_custom_ids(modal.get("components") or [], (*at, "components")))
    for where, item in _text_inputs(modal.get("components") or [], (*at, "components")):
        low, high = item.get("min_length", 0), item.get("max_length", 4000)
        if low > high:
            problems.append(
                Problem((*where, "min_length"), "BASE_TYPE_BAD_LENGTH", "min_length exceeds max_length")
            )
        if len(item.get("value") or "") > high:
            problems.append(
                Problem((*where, "value"), "BASE_TYPE_BAD_LENGTH", f"Must be between 0 and {high} in length.")
            )
    return problems


def _text_inputs(
    rows: list[dict[str, Any]], at: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    for r, row in enumerate(rows):
        if row.get("type") == 18:
            yield (*at, r, "component"), row.get("component") or {}
        for c, item in enumerate(row.get("components") or []):
            yield (*at, r, "components", c), item


def _custom_ids(
    rows: list[dict[str, Any]], at: tuple[str | int, ...]
) -> list[tuple[tuple[str | int, ...], str]]:
    found = []
    for r, row in enumerate(rows):
        children = [("component", row["component"])] if "component" in row else []
        children += list(enumerate(row.get("components") or []))
        for key, item in children:
            if isinstance(item, dict) and "custom_id" in item:
                path = (*at, r, "component") if key == "component" else (*at, r, "components", key)
                found.append(((*path, "custom_id"), item["custom_id"]))
    return found


def _duplicate_ids(found: list[tuple[tuple[str | int, ...], str]]) -> list[Problem]:
    seen: set[str] = set()
    problems = []
    for path, custom_id in found:
        if custom_id in seen:
            problems.append(
                Problem(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
            )
        seen.add(custom_id)
    return problems


def _longest(node: dict[str, Any], field: str) -> int:
    """A field's size for the 8,000: its longest text among the default and localizations."""
    texts = [str(node.get(field) or ""), *(node.get(f"{field}_localizations") or {}).values()]
    return max(len(t) for t in texts)


def command_size(command: dict[str, Any]) -> int:
    """Characters of a command's names, descriptions and choices, as Discord counts them."""
    size = _longest(command, "name") + _longest(command, "description")
    for option in command.get("options") or []:
        size += command_size(option)
    for choice in command.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size


def _command_problems(command: dict[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    problems = []
    size = command_size(command)
    if size > COMMAND_TOTAL:
        problems.append(
            Problem(
                at, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_TOTAL}): {size}"
            )
        )
    if command.get("type", 1) in (2, 3):  # a user or message menu: any 1–32 characters, "Ver ficha"
        names = [command.get("name", ""), *(command.get("name_localizations") or {}).values()]
        invalid = [n for n in names if not 1 <= len(n) <= 32]
        return problems + [
            Problem((*at, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {n!r}")
            for n in invalid
        ]
    return problems + _name_problems(command, at)


def _name_problems(node: dict[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    problems = []
    names = [("name", node.get("name", ""))]
    names += [(f"name_localizations.{k}", v) for k, v in (node.get("name_localizations") or {}).items()]
    for where, name in names:
        if not _NAME.match(name) or name != name.lower():
            problems.append(
                Problem(
                    (*at, *where.split(".")),
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Command name is invalid: {name!r}",
                )
            )
    options = node.get("options") or []
    required = [bool(o.get("required")) for o in options if o.get("type") not in (1, 2)]
    if required != sorted(required, reverse=True):
        problems.append(
            Problem(
                (*at, "options"),
                "APPLICATION_COMMAND_OPTIONS_ORDER_INVALID",
                "Required options must be placed before non-required options",
            )
        )
    for i, option in enumerate(options):
        problems += _name_problems(option, (*at, "options", i))
    return problems
