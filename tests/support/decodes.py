"""The rolls' codecs' decodings counted (pydantic's ``validate_python``): the cost a card or a
roll's statistics should pay once at most (issue 29). Shared by the readers' tests and the
cogs' that count a button's decodings."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dnd5e import checks as dnd_checks
from rules.donjon import posted
from rules.dune import skill_test
from rules.mediana import checks, effects


class Decodes:
    """From its making on, each decoding of a roll's data, by the codec's system."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        codecs = {
            "dnd5e": dnd_checks.D20_TESTS,
            "donjon": posted.ROLLS,
            "dune": skill_test.ROLLS,
            "mediana": checks.TESTS,
            "mediana_efecto": effects.EFFECTS,
        }
        for name, codec in codecs.items():
            monkeypatch.setattr(codec, "adapter", self.counting(name, codec.adapter))

    def counting(self, name: str, adapter: Any) -> Any:
        calls = self.calls

        class Counting:
            def validate_python(self, data: Any) -> Any:
                calls.append(name)
                return adapter.validate_python(data)

            def dump_python(self, value: Any, **options: Any) -> Any:
                return adapter.dump_python(value, **options)

        return Counting()
