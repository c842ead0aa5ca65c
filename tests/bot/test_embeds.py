"""``bot.embeds.field``: a field within Discord's limits is added as it is, without a call to
clip it; one past them is clipped to the limit."""

from __future__ import annotations

import discord
import pytest

from bot import embeds


def test_a_field_within_the_limits_is_not_clipped(monkeypatch: pytest.MonkeyPatch) -> None:
    clipped: list[str] = []
    monkeypatch.setattr(embeds, "clip", lambda text, limit: clipped.append(text) or text)
    embed = embeds.field(discord.Embed(), "Dados", "**4** ~~2~~")
    assert clipped == []
    assert [(f.name, f.value) for f in embed.fields] == [("Dados", "**4** ~~2~~")]


def test_a_field_past_the_limits_is_clipped_to_them() -> None:
    embed = embeds.field(discord.Embed(), "n" * 300, "v" * 2000)
    (added,) = embed.fields
    assert added.name == "n" * (embeds.TITLE_LIMIT - 1) + "…"
    assert added.value == "v" * (embeds.FIELD_LIMIT - 1) + "…"
