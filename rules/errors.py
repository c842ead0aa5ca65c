"""The one error type rules raise.

A rule refusal carries a catalog key and its parameters, never a formatted sentence:
the bot renders it in the player's language, and tests assert on the key.
"""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """A refusal a player can read about: bad input or a rule that forbids the action."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"RuleError({self.key!r}, {self.params!r})"


def check_range(name: str, value: int, low: int, high: int) -> None:
    """The one bound check, for the rules and for the bot's options alike: ``value`` from
    ``low`` to ``high``, or a refusal naming the option and its bounds."""
    if not low <= value <= high:
        raise RuleError("error.out_of_range", name=name, value=value, min=low, max=high)
