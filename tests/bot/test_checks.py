"""Who may act where (bot/checks.py), as the tree's check asks it of every interaction."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from tests.support.harness import Harness


async def test_a_command_from_a_server_with_tirada_is_looked_up_only_by_the_tree(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where Tirada is installed every command is usable: the check answers without finding
    the command, which the tree then finds once to run it."""
    looked_up: list[str] = []
    original = app_commands.CommandTree._get_app_command_options

    def counting(tree: app_commands.CommandTree, data: Any) -> Any:
        looked_up.append(data["name"])
        return original(tree, data)

    monkeypatch.setattr(app_commands.CommandTree, "_get_app_command_options", counting)
    reply = await harness.slash("tirar", expresion="1d20")
    assert "1d20" in reply.text
    assert looked_up == ["tirar"]
