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

Components V2 (the message flag ``IS_COMPONENTS_V2``) and the modal components (Label,
radio groups, checkboxes, file uploads) follow the same spec, and Discord's component
reference where the spec says less: ``discord/discord-api-docs``
``developers/components/reference.mdx`` at commit c98d64bc (2026-08-06), cited as
"reference, <section>". A message's flag is known only to the offline Discord that keeps
it: :func:`check` takes ``components_v2=True`` for an edit of a message sent with it.
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
# reference, "Component Reference" intro: the flag 1 << 15; "Messages allow up to 40 total
# components" (nested ones count: rows, their buttons, a section's texts and accessory).
COMPONENTS_V2 = 1 << 15
V2_COMPONENTS_TOTAL = 40
# The sum of a V2 message's Text Display contents. Discord's reference gives no figure;
# discord.py 2.7's ``LayoutView.content_length`` says "a maximum of 4000 display characters
# across all its items", as JDA's TextDisplay docs do ("the 4000 total characters, as
# imposed by components V2", docs.jda.wiki .../textdisplay/TextDisplay.html).
V2_TEXT_TOTAL = 4000
CLASSIC_ROWS = 5  # reference, Legacy Message Component Behavior; docs: 5 action rows
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
        "StringSelectComponentForModalRequest/properties/custom_id",
        "StringSelectComponentForModalRequest/properties/options",
        "UserSelectComponentForModalRequest/properties/custom_id",
        "RadioGroupComponentForModalRequest/properties/custom_id",
        "RadioGroupComponentForModalRequest/properties/options",
        "RadioGroupOptionForRequest/properties/label",
        "RadioGroupOptionForRequest/properties/value",
        "CheckboxGroupComponentForModalRequest/properties/custom_id",
        "CheckboxGroupComponentForModalRequest/properties/options",
        "CheckboxGroupOptionForRequest/properties/label",
        "CheckboxGroupOptionForRequest/properties/value",
        "CheckboxComponentForModalRequest/properties/custom_id",
        "FileUploadComponentForModalRequest/properties/custom_id",
        "SectionComponentForMessageRequest/properties/components",
        "TextDisplayComponentForMessageRequest/properties/content",
        "TextDisplayComponentForModalRequest/properties/content",
        "MediaGalleryComponentForMessageRequest/properties/items",
        "ContainerComponentForMessageRequest/properties/components",
        "UnfurledMediaRequest/properties/url",
        "UnfurledMediaRequestWithAttachmentReferenceRequired/properties/url",
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
_STRICTER_MODAL_ROWS = "docs, Interaction Response Object, Modal: between 1 and 5 components"
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


def _count(spec: str, low: int, high: int) -> dict[str, Any]:
    """An optional integer of ``low``..``high`` (``min_values``, ``max_values``)."""
    return {"type": ["integer", "null"], "minimum": low, "maximum": high, "x-spec": spec}


def _options(spec: str, option: str, high: int, low: int = 1) -> dict[str, Any]:
    """A list of choices (a string select's, a radio or checkbox group's): label and value
    of 1-100 characters, a description of up to 100."""
    item = {
        "type": "object",
        "required": ["label", "value"],
        "properties": {
            "label": _text(f"{option}/properties/label", 100, 1),
            "value": _text(f"{option}/properties/value", 100, 1),
            "description": _text(f"{option}/properties/description", 100),
        },
    }
    return _array(spec, item, high, low)


def _string_select(where: str) -> dict[str, Any]:
    """A string select in a message or (``where`` = "Modal") in a form: the same limits."""
    spec = f"StringSelectComponentFor{where}Request/properties"
    return {
        "type": "object",
        "required": ["custom_id", "options"],
        "properties": {
            "custom_id": _text(f"{spec}/custom_id", 100, 1),
            "placeholder": _text(f"{spec}/placeholder", 150),
            "min_values": _count(f"{spec}/min_values", 0, 25),
            "max_values": _count(f"{spec}/max_values", 1, 25),
            "options": _options(f"{spec}/options", "StringSelectOptionForRequest", 25),
        },
    }


def _entity_select(where: str) -> dict[str, Any]:
    """A user, role, mentionable or channel select (the spec gives them the same limits)."""
    spec = f"UserSelectComponentFor{where}Request/properties"
    return {
        "type": "object",
        "required": ["custom_id"],
        "properties": {
            "custom_id": _text(f"{spec}/custom_id", 100, 1),
            "placeholder": _text(f"{spec}/placeholder", 150),
            "min_values": _count(f"{spec}/min_values", 0, 25),
            "max_values": _count(f"{spec}/max_values", 1, 25),
        },
    }


STRING_SELECT = _string_select("Message")
ENTITY_SELECT = _entity_select("Message")

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

# -- Components V2 (reference: Section, Text Display, Thumbnail, Media Gallery, File,
# Separator, Container). Only messages with the flag may hold them (extra_errors).


def _media(spec: str) -> dict[str, Any]:
    """An unfurled media item: only its ``url`` is the bot's to set (reference)."""
    return {
        "type": "object",
        "required": ["url"],
        "properties": {"url": _text(f"{spec}/properties/url", 2048)},
    }


def _text_display(where: str) -> dict[str, Any]:
    spec = f"TextDisplayComponentFor{where}Request/properties"
    return {
        "type": "object",
        "required": ["content"],
        "properties": {"content": _text(f"{spec}/content", 4000, 1)},
    }


TEXT_DISPLAY = _text_display("Message")

THUMBNAIL = {
    "type": "object",
    "required": ["media"],
    "properties": {
        "media": _media("UnfurledMediaRequest"),
        "description": _text("ThumbnailComponentForMessageRequest/properties/description", 1024, 1),
        "spoiler": {"type": ["boolean", "null"]},
    },
}

_SECTION = "SectionComponentForMessageRequest/properties"
SECTION = {
    "type": "object",
    "required": ["components", "accessory"],
    "properties": {
        "components": _array(
            f"{_SECTION}/components",
            {**TEXT_DISPLAY, "properties": {**TEXT_DISPLAY["properties"], "type": {"const": 10}}},
            3,
            1,
        ),
        # reference, Section Accessory Components: a button or a thumbnail.
        "accessory": {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"enum": [2, 11]}},
            "allOf": [_when(2, BUTTON), _when(11, THUMBNAIL)],
        },
    },
}

MEDIA_GALLERY = {
    "type": "object",
    "required": ["items"],
    "properties": {
        "items": _array(
            "MediaGalleryComponentForMessageRequest/properties/items",
            {
                "type": "object",
                "required": ["media"],
                "properties": {
                    "media": _media("UnfurledMediaRequest"),
                    "description": _text("MediaGalleryItemRequest/properties/description", 1024, 1),
                    "spoiler": {"type": ["boolean", "null"]},
                },
            },
            10,
            1,
        )
    },
}

# reference, File: "only supports attachment references using the attachment://<filename>".
FILE = {
    "type": "object",
    "required": ["file"],
    "properties": {
        "file": {
            **_media("UnfurledMediaRequestWithAttachmentReferenceRequired"),
            "properties": {
                "url": _text(
                    "UnfurledMediaRequestWithAttachmentReferenceRequired/properties/url",
                    2048,
                    pattern="^attachment://.+",
                )
            },
        },
        "spoiler": {"type": ["boolean", "null"]},
    },
}

SEPARATOR = {
    "type": "object",
    "properties": {
        "divider": {"type": ["boolean", "null"]},
        "spacing": {"enum": [1, 2, None]},  # reference, Separator: 1 small, 2 large
    },
}


def _v2(kinds: list[int], container: dict[str, Any] | None = None) -> dict[str, Any]:
    """A message's component of one of ``kinds``, each checked by its own schema."""
    shapes = {1: MESSAGE_ROW, 9: SECTION, 10: TEXT_DISPLAY, 12: MEDIA_GALLERY, 13: FILE, 14: SEPARATOR}
    if container is not None:
        shapes[17] = container
    return {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": kinds}, "id": {"type": ["integer", "null"], "minimum": 0}},
        "allOf": [_when(kind, shapes[kind]) for kind in kinds if kind in shapes],
    }


# reference, Container Child Components: no container inside a container.
CONTAINER = {
    "type": "object",
    "required": ["components"],
    "properties": {
        "components": _array(
            "ContainerComponentForMessageRequest/properties/components", _v2([1, 9, 10, 12, 13, 14]), 40, 1
        ),
        "accent_color": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 16777215,
            "x-spec": "ContainerComponentForMessageRequest/properties/accent_color",
        },
        "spoiler": {"type": ["boolean", "null"]},
    },
}

# The top level of a message (spec: MessageCreateRequest components' oneOf).
MESSAGE_COMPONENT = _v2([1, 9, 10, 12, 13, 14, 17], CONTAINER)


def _message(spec: str) -> dict[str, Any]:
    """A message body: posts, follow-ups, edits and type-4/7 callbacks share these limits.
    The classic five rows and what needs the V2 flag depend on the flag (extra_errors)."""
    stricter = {"x-stricter": _STRICTER_CONTENT} if spec.startswith("Message") else {}
    return {
        "type": "object",
        "properties": {
            "content": _text(f"{spec}/properties/content", 2000, **stricter),
            "embeds": _array(f"{spec}/properties/embeds", EMBED, 10),
            "components": _array(f"{spec}/properties/components", MESSAGE_COMPONENT, V2_COMPONENTS_TOTAL),
            "flags": {"type": ["integer", "null"]},
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

_RADIO = "RadioGroupComponentForModalRequest/properties"
RADIO_GROUP = {
    "type": "object",
    "required": ["custom_id", "options"],
    "properties": {
        "custom_id": _text(f"{_RADIO}/custom_id", 100, 1),
        # reference, Radio Group: "List of options to show; min 2, max 10".
        "options": _options(f"{_RADIO}/options", "RadioGroupOptionForRequest", 10, 2),
        "required": {"type": ["boolean", "null"]},
    },
}

_CHECKBOXES = "CheckboxGroupComponentForModalRequest/properties"
CHECKBOX_GROUP = {
    "type": "object",
    "required": ["custom_id", "options"],
    "properties": {
        "custom_id": _text(f"{_CHECKBOXES}/custom_id", 100, 1),
        # reference, Checkbox Group: options 1-10, min_values 0-10, max_values 1-10.
        "options": _options(f"{_CHECKBOXES}/options", "CheckboxGroupOptionForRequest", 10),
        "min_values": _count(f"{_CHECKBOXES}/min_values", 0, 10),
        "max_values": _count(f"{_CHECKBOXES}/max_values", 1, 10),
        "required": {"type": ["boolean", "null"]},
    },
}

CHECKBOX = {
    "type": "object",
    "required": ["custom_id"],
    "properties": {
        "custom_id": _text("CheckboxComponentForModalRequest/properties/custom_id", 100, 1),
        "default": {"type": ["boolean", "null"]},
    },
}

_UPLOAD = "FileUploadComponentForModalRequest/properties"
FILE_UPLOAD = {
    "type": "object",
    "required": ["custom_id"],
    "properties": {
        "custom_id": _text(f"{_UPLOAD}/custom_id", 100, 1),
        # reference, File Upload: "between 0 and 10" files.
        "min_values": _count(f"{_UPLOAD}/min_values", 0, 10),
        "max_values": _count(f"{_UPLOAD}/max_values", 1, 10),
        "required": {"type": ["boolean", "null"]},
    },
}

# reference, Label Child Components: a text input, any select, a file upload, a radio group,
# a checkbox group or a checkbox; a label holds exactly one.
LABEL = {
    "type": "object",
    "required": ["label", "component"],
    "properties": {
        "label": _text("LabelComponentForModalRequest/properties/label", 45, 1),
        "description": _text("LabelComponentForModalRequest/properties/description", 100, 1),
        "component": {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"enum": [3, 4, 5, 6, 7, 8, 19, 21, 22, 23]}},
            "allOf": [
                _when(3, _string_select("Modal")),
                _when(4, TEXT_INPUT),
                _when([5, 6, 7, 8], _entity_select("Modal")),
                _when(19, FILE_UPLOAD),
                _when(21, RADIO_GROUP),
                _when(22, CHECKBOX_GROUP),
                _when(23, CHECKBOX),
            ],
        },
    },
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
                # spec: an action row (deprecated), a label or a text display.
                "properties": {"type": {"enum": [1, 10, 18]}},
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
                    _when(10, _text_display("Modal")),
                    _when(18, LABEL),
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


def check(method: str, path: str, body: Any, *, components_v2: bool = False) -> None:
    """Raise :class:`Refused` with Discord's 50035 answer if Discord would refuse ``body``;
    ``components_v2``: the request edits a message that was sent with that flag."""
    kind = kind_of(method, path)
    if kind is None or body is None:
        return
    problems = _problems(kind, json.dumps(body), components_v2)
    if problems:
        raise Refused(400, invalid_form_body(list(problems)))


@functools.cache
def _problems(kind: str, body: str, components_v2: bool = False) -> tuple[Problem, ...]:
    """Every problem Discord would find in ``body``, as the JSON text Discord receives.

    Checked once per distinct text: every bot a test starts syncs the same command tree
    (validating it was a third of a bot's start) and many answers repeat word for word.
    Unbounded: with 256 entries, one locale of the sweep (1,640 distinct bodies) pushed the
    command tree out, and each later bot's start checked it again (0.17 s of CPU).
    """
    parsed = json.loads(body)
    return (
        *[_problem(e) for e in _VALIDATORS[kind].iter_errors(parsed)],
        *extra_errors(kind, parsed, components_v2=components_v2),
    )


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


def extra_errors(kind: str, body: Any, *, components_v2: bool = False) -> list[Problem]:
    """What a schema cannot say; ``components_v2``: the body edits a message sent with the
    flag (it stays a V2 message whatever the body says)."""
    if kind == "commands":
        return [p for i, command in enumerate(body) for p in _command_problems(command, (i,))]
    if kind == "callback":
        data = body.get("data") or {}
        if body.get("type") in (4, 7):
            return _message_problems(data, ("data",), components_v2=components_v2 and body.get("type") == 7)
        if body.get("type") == 9:
            return _modal_problems(data, ("data",))
        return []
    return _message_problems(body, (), components_v2=components_v2)


def embed_size(embed: dict[str, Any]) -> int:
    """Characters Discord counts toward the 6,000 of a message's embeds."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size + sum(len(f.get("name", "")) + len(f.get("value", "")) for f in embed.get("fields") or [])


# A place in a request body, as the keys of Discord's ``errors`` tree name it.
Where = tuple[str | int, ...]


def walk(components: list[Any], at: Where) -> Iterator[tuple[Where, dict[str, Any]]]:
    """Every component and the path to it, nested ones included: a row's items, a
    section's texts and its ``accessory``, a container's children, a label's ``component``."""
    for i, item in enumerate(components):
        if not isinstance(item, dict):
            continue
        where = (*at, i)
        yield where, item
        yield from walk(item.get("components") or [], (*where, "components"))
        for key in ("accessory", "component"):
            if isinstance(item.get(key), dict):
                yield (*where, key), item[key]
                yield from walk(item[key].get("components") or [], (*where, key, "components"))


def _message_problems(message: dict[str, Any], at: Where, *, components_v2: bool = False) -> list[Problem]:
    problems: list[Problem] = []
    total = sum(embed_size(e) for e in message.get("embeds") or [])
    if total > EMBEDS_TOTAL:
        message_ = f"Embed size exceeds maximum size of {EMBEDS_TOTAL} ({total})"
        problems.append(Problem((*at, "embeds"), "BASE_TYPE_MAX_LENGTH", message_))
    components = message.get("components") or []
    flags = message.get("flags")
    if components_v2 and flags is not None and not flags & COMPONENTS_V2:
        # reference, intro: "Once a message has been sent with this flag, it can't be removed".
        text = "The IS_COMPONENTS_V2 flag cannot be removed from a message"
        problems.append(Problem((*at, "flags"), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", text))
    if components_v2 or (flags or 0) & COMPONENTS_V2:
        problems += _v2_problems(message, components, at)
    else:
        problems += _classic_problems(components, at)
    found = list(walk(components, (*at, "components")))
    problems += _duplicate_ids([(path, item) for path, item in found if "custom_id" in item])
    for path, item in found:
        if item.get("type") == 1:
            problems += _row_problems(item, (*path, "components"))
        problems += _select_problems(item, path)
    return problems


def _classic_problems(components: list[dict[str, Any]], at: Where) -> list[Problem]:
    """Without the flag: at most five action rows and nothing but rows (reference, Legacy
    Message Component Behavior; the layout components need the flag)."""
    if len(components) > CLASSIC_ROWS:
        text = f"Must be between 0 and {CLASSIC_ROWS} in length."
        return [Problem((*at, "components"), "BASE_TYPE_BAD_LENGTH", text)]
    return [
        Problem(
            (*at, "components", i, "type"), "COMPONENT_TYPE_INVALID", "This component needs IS_COMPONENTS_V2"
        )
        for i, item in enumerate(components)
        if item.get("type") != 1
    ]


def _v2_problems(message: dict[str, Any], components: list[dict[str, Any]], at: Where) -> list[Problem]:
    """With the flag: no content, embeds, poll or stickers (reference, intro), at most 40
    components counting nested ones, 4,000 characters of Text Display, unique ``id``s
    (reference, Anatomy of a Component: "The id must be unique within the message")."""
    problems = [
        Problem(
            (*at, field),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
        )
        for field in ("content", "embeds", "poll", "sticker_ids")
        if message.get(field)
    ]
    found = list(walk(components, (*at, "components")))
    if len(found) > V2_COMPONENTS_TOTAL:
        text = f"Must be {V2_COMPONENTS_TOTAL} or fewer components in total ({len(found)})"
        problems.append(Problem((*at, "components"), "BASE_TYPE_MAX_LENGTH", text))
    text_size = sum(len(item.get("content") or "") for _, item in found if item.get("type") == 10)
    if text_size > V2_TEXT_TOTAL:
        text = f"Text display content exceeds maximum size of {V2_TEXT_TOTAL} ({text_size})"
        problems.append(Problem((*at, "components"), "BASE_TYPE_MAX_LENGTH", text))
    seen: set[int] = set()
    for path, item in found:
        number = item.get("id")
        if number:  # 0 "will be treated as empty" (reference)
            if number in seen:
                problems.append(
                    Problem((*path, "id"), "COMPONENT_ID_DUPLICATED", "Component id must be unique")
                )
            seen.add(number)
    return problems


def _row_problems(row: dict[str, Any], at: Where) -> list[Problem]:
    """An action row holds up to five buttons or one select (reference, Action Row)."""
    items = row.get("components") or []
    if any(c.get("type") != 2 for c in items) and len(items) > 1:
        return [Problem(at, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select takes its row alone")]
    return []


def _select_problems(item: dict[str, Any], at: Where) -> list[Problem]:
    """min_values ≤ max_values ≤ the choices there are: a select's options (25 users,
    roles or channels at most), a checkbox group's or a file upload's (at most 10)."""
    kind = item.get("type")
    if kind not in (3, 5, 6, 7, 8, 19, 22):
        return []
    defaults = {19: (1, 1), 22: (1, len(item.get("options") or []))}.get(kind, (1, 1))
    low = item.get("min_values") if item.get("min_values") is not None else defaults[0]
    high = item.get("max_values") if item.get("max_values") is not None else defaults[1]
    options = len(item.get("options") or []) if kind in (3, 22) else 10 if kind == 19 else 25
    if not options:
        return []  # the schema already says it needs options
    if low > high or high > options:
        text = f"min_values ({low}) ≤ max_values ({high}) ≤ options ({options}) does not hold"
        return [Problem((*at, "max_values"), "SELECT_COMPONENT_VALUES_INVALID", text)]
    return []


def _modal_problems(modal: dict[str, Any], at: Where) -> list[Problem]:
    found = list(walk(modal.get("components") or [], (*at, "components")))
    problems = _duplicate_ids([(path, item) for path, item in found if "custom_id" in item])
    for where, item in found:
        problems += _select_problems(item, where)
        problems += _modal_item_problems(item, where)
    return problems


def _modal_item_problems(item: dict[str, Any], where: Where) -> list[Problem]:
    """A form's own rules (reference): nothing disabled; ``min_values`` of 0 only when not
    required; a text input's lengths in order."""
    problems = []
    if item.get("disabled"):
        text = "Modals can not currently have disabled components in them"
        problems.append(Problem((*where, "disabled"), "COMPONENT_DISABLED_IN_MODAL", text))
    if (
        item.get("type") in (3, 5, 6, 7, 8, 19, 22)
        and item.get("min_values") == 0
        and item.get("required", True)
    ):
        text = "min_values must be at least 1 when the component is required"
        problems.append(Problem((*where, "min_values"), "NUMBER_TYPE_MIN", text))
    if item.get("type") == 4:
        low, high = item.get("min_length") or 0, item.get("max_length") or 4000
        if low > high:
            problems.append(
                Problem((*where, "min_length"), "BASE_TYPE_BAD_LENGTH", "min_length exceeds max_length")
            )
        if len(item.get("value") or "") > high:
            problems.append(
                Problem((*where, "value"), "BASE_TYPE_BAD_LENGTH", f"Must be between 0 and {high} in length.")
            )
    return problems


def _duplicate_ids(found: list[tuple[Where, dict[str, Any]]]) -> list[Problem]:
    """reference, Custom ID: "Multiple components on the same message must not share the
    same custom_id" (a form's likewise)."""
    seen: set[str] = set()
    problems = []
    for path, item in found:
        custom_id = item["custom_id"]
        if custom_id in seen:
            problems.append(
                Problem(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
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
