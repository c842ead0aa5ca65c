"""Raw Discord payloads shared by the interaction harness and the fake Discord server.

Shapes follow Discord's API v10 as discord.py 2.7 parses them; only fields discord.py
reads are filled in.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

APP_ID = 900000000000000001
BOT_USER_ID = APP_ID
GUILD_ID = 910000000000000001
CHANNEL_ID = 920000000000000001
GM_CHANNEL_ID = 920000000000000002
# A second (public) channel: another table, or a GM channel that would keep no secrets.
OTHER_CHANNEL_ID = 920000000000000003
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAx.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"

ALL_PERMISSIONS = (1 << 50) - 1
PLAYER_PERMISSIONS = int(
    discord.Permissions(view_channel=True, send_messages=True, use_application_commands=True).value
)
MANAGE_PERMISSIONS = PLAYER_PERMISSIONS | discord.Permissions(manage_channels=True).value

_ids = itertools.count(1_000_000_000_000_000_000)


def snowflake() -> int:
    return next(_ids)


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


def application_payload() -> dict[str, Any]:
    return {
        "id": str(APP_ID),
        "name": "Tirada",
        "icon": None,
        "description": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": 0,
        "owner": user_payload(930000000000000099, "Owner"),
    }


@dataclass(frozen=True)
class User:
    id: int
    name: str
    permissions: int = PLAYER_PERMISSIONS
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return user_payload(self.id, self.name, bot=self.bot)


GM = User(930000000000000001, "Directora", MANAGE_PERMISSIONS)
PLAYER = User(930000000000000002, "Jugadora")
OTHER = User(930000000000000003, "Otro")
ADMIN = User(930000000000000004, "Admin", ALL_PERMISSIONS)


def guild_payload(
    channels: Iterable[dict[str, Any]], members: Iterable[dict[str, Any]] = (), guild_id: int = GUILD_ID
) -> dict[str, Any]:
    return {
        "id": str(guild_id),
        "name": "Mesa de pruebas",
        "icon": None,
        "owner_id": str(ADMIN.id),
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "permissions": str(PLAYER_PERMISSIONS),
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
            }
        ],
        "channels": list(channels),
        "members": list(members),
        "member_count": 4,
        "large": False,
        "unavailable": False,
        "features": [],
        "emojis": [],
        "stickers": [],
        "threads": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "premium_tier": 0,
        "preferred_locale": "es-ES",
        "system_channel_flags": 0,
        "nsfw_level": 0,
    }


def text_channel(
    channel_id: int, name: str, overwrites: list[dict[str, Any]] | None = None, guild_id: int = GUILD_ID
) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": 0,
        "permission_overwrites": overwrites or [],
        "nsfw": False,
        "parent_id": None,
    }


def member_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A guild member as GUILD_CREATE lists it (with only the @everyone role)."""
    return {
        "user": user_payload(user_id, name, bot=bot),
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
    }


PRIVATE_OVERWRITE = {
    "id": str(GUILD_ID),
    "type": 0,
    "allow": "0",
    "deny": str(discord.Permissions(view_channel=True).value),
}


# A private channel must let the bot in, as on Discord: its member gets what a channel
# needs for the bot to post there.
BOT_ALLOW_OVERWRITE = {
    "id": str(BOT_USER_ID),
    "type": 1,
    "allow": str(discord.Permissions(view_channel=True, send_messages=True, embed_links=True).value),
    "deny": "0",
}


def interaction_payload(
    kind: int,
    data: dict[str, Any],
    *,
    user: User,
    locale: str,
    channel_id: int,
    guild: bool = True,
    message: dict[str, Any] | None = None,
    channels: Iterable[dict[str, Any]] = (),
    guild_id: int = GUILD_ID,
    user_install: bool = False,
) -> dict[str, Any]:
    """A raw INTERACTION_CREATE body as Discord sends it, in a guild channel or a DM.
    ``user_install``: in a guild, from the user's own install of the app (a server without
    Tirada: the guild authorises nothing, the user does)."""
    interaction_id = snowflake()
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(APP_ID),
        "type": kind,
        "token": f"token-{interaction_id}",
        "version": 1,
        "channel_id": str(channel_id),
        "locale": locale,
        "app_permissions": str(ALL_PERMISSIONS),
        "entitlements": [],
        "data": data,
        "attachment_size_limit": 8 * 1024 * 1024,
    }
    if guild:
        channel = next((c for c in channels if int(c["id"]) == channel_id), None)
        payload |= {
            "guild_id": str(guild_id),
            "guild_locale": "es-ES",
            "channel": channel or text_channel(channel_id, "otro", guild_id=guild_id),
            "member": {
                "user": user.payload(),
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(user.permissions),
            },
            "context": 0,
            "authorizing_integration_owners": {"1": str(user.id)} if user_install else {"0": str(guild_id)},
        }
    else:
        payload |= {
            "user": user.payload(),
            "channel": {"id": str(channel_id), "type": 1, "recipients": [user.payload()]},
            "context": 1,
            "authorizing_integration_owners": {"1": str(user.id)},
        }
    if message is not None:
        payload["message"] = message
    return payload


@dataclass
class Message:
    """A message the bot posted, as Discord would store it (for later button clicks)."""

    id: int
    channel_id: int
    data: dict[str, Any]
    ephemeral: bool
    token: str | None = None

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": user_payload(BOT_USER_ID, "Tirada", bot=True),
            "content": self.data.get("content") or "",
            "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": self.data.get("embeds", []),
            "pinned": False,
            "type": 0,
            "components": self.data.get("components", []),
            "flags": self.data.get("flags", 0),
        }

    @property
    def custom_ids(self) -> list[str]:
        return list(_custom_ids(self.data.get("components", [])))


def _custom_ids(components: Iterable[dict[str, Any]]) -> Iterable[str]:
    """Every custom_id in reading order: rows' items, and in a V2 layout a container's
    children and a section's button (its ``accessory``)."""
    for component in components:
        if "custom_id" in component:
            yield component["custom_id"]
        yield from _custom_ids(component.get("components", []))
        if isinstance(component.get("accessory"), dict):
            yield from _custom_ids([component["accessory"]])


def offered(form: dict[str, Any], custom_id: str) -> list[str]:
    """The values a form's select or radio group ``custom_id`` offers, in order (the form as
    the bot sent it, each question in its label)."""
    for label in form["components"]:
        component = label.get("component") or {}
        if component.get("custom_id") == custom_id:
            return [option["value"] for option in component["options"]]
    raise AssertionError(f"no {custom_id} in the form")
