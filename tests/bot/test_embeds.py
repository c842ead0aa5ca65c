"""``bot.embeds.field``: a field within Discord's limits is added as it is, without a call to
clip it; one past them is clipped to the limit."""

from __future__ import annotations

import discord
import pytest

from bot import embeds


def test_a_field_within_the_limits_is_not_clipped(monkeypatch: pytest.MonkeyPatch) -> None:
    clipped: list[str] = []

    def clip(text: str, limit: int) -> str:
        clipped.append(text)
        return text

    monkeypatch.setattr(embeds, "clip", clip)
    embed = embeds.field(discord.Embed(), "Dados", "**4** ~~2~~")
    assert clipped == []
    assert [(f.name, f.value) for f in embed.fields] == [("Dados", "**4** ~~2~~")]


def test_a_field_past_the_limits_is_clipped_to_them() -> None:
    embed = embeds.field(discord.Embed(), "n" * 300, "v" * 2000)
    (added,) = embed.fields
    assert added.name == "n" * (embeds.TITLE_LIMIT - 1) + "…"
    assert added.value == "v" * (embeds.FIELD_LIMIT - 1) + "…"


def test_a_field_at_the_limits_is_kept_whole_and_one_past_them_clipped() -> None:
    at = embeds.field(discord.Embed(), "n" * embeds.TITLE_LIMIT, "v" * embeds.FIELD_LIMIT)
    past = embeds.field(discord.Embed(), "n" * (embeds.TITLE_LIMIT + 1), "v" * (embeds.FIELD_LIMIT + 1))
    assert (at.fields[0].name, at.fields[0].value) == ("n" * embeds.TITLE_LIMIT, "v" * embeds.FIELD_LIMIT)
    assert (len(past.fields[0].name or ""), len(past.fields[0].value or "")) == (
        embeds.TITLE_LIMIT,
        embeds.FIELD_LIMIT,
    )
    assert (past.fields[0].name or "").endswith("…") and (past.fields[0].value or "").endswith("…")
