"""The overlay's secret links: one a table, a long random token stored only as its hash.

Kept in the store's ``meta`` (no schema change): ``overlay:{channel}`` holds the table's
current hash and the language its overlay speaks, and ``overlay-hash:{hash}`` points back
to the channel so a request finds its table with one key read, in any process sharing the
database. The table's own key is the truth: a hash key it no longer names (replaced,
revoked, or left by a crash between the two writes) finds nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

from bot.i18n import Lang
from bot.store import Store

TABLE_PREFIX = "overlay:"
HASH_PREFIX = "overlay-hash:"
# 32 random bytes: 43 base64url characters, beyond guessing however fast one asks.
TOKEN_BYTES = 32
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")


@dataclass(frozen=True)
class Overlay:
    """A table's overlay: its channel and the language it is drawn in (the GM's)."""

    channel_id: int
    lang: Lang


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def issue(store: Store, channel_id: int, lang: Lang) -> str:
    """A new token for the table, replacing (and so revoking) the one it had."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    hashed = digest(token)
    await store.set_meta(HASH_PREFIX + hashed, str(channel_id))
    old = await _current(store, channel_id)
    await store.set_meta(TABLE_PREFIX + str(channel_id), json.dumps({"hash": hashed, "lang": lang}))
    if old is not None:
        await store.delete_meta(HASH_PREFIX + old["hash"])
    return token


async def revoke(store: Store, channel_id: int) -> bool:
    """Forget the table's token; whether it had one."""
    old = await _current(store, channel_id)
    if old is None:
        return False
    await store.delete_meta(TABLE_PREFIX + str(channel_id))
    await store.delete_meta(HASH_PREFIX + old["hash"])
    return True


async def find(store: Store, token: str) -> Overlay | None:
    """The overlay a token opens, or None (malformed, wrong, replaced or revoked): a
    malformed token costs no read at all."""
    if not TOKEN_SHAPE.fullmatch(token):
        return None
    hashed = digest(token)
    channel = await store.get_meta(HASH_PREFIX + hashed)
    if channel is None or not channel.isdigit():
        return None
    current = await _current(store, int(channel))
    if current is None or not hmac.compare_digest(current["hash"], hashed):
        return None
    lang: Lang = "en" if current.get("lang") == "en" else "es"
    return Overlay(int(channel), lang)


async def current(store: Store, channel_id: int) -> str | None:
    """The hash of the table's link now (None: it has none), in one read: an open page's
    link is checked against it, a table at a time (``bot.web.overlay``'s heartbeat)."""
    data = await _current(store, channel_id)
    return None if data is None else data["hash"]


async def _current(store: Store, channel_id: int) -> dict[str, str] | None:
    text = await store.get_meta(TABLE_PREFIX + str(channel_id))
    if text is None:
        return None
    data: dict[str, str] = json.loads(text)
    return data
