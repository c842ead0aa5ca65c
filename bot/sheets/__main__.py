"""``python -m bot.sheets``: write the JSON Schema of the sheet format to docs/fichas/."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from bot import systems
from bot.client import system_extensions
from bot.sheets import io

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "fichas" / "esquema.json"


def declare_systems() -> None:
    """Register every system's declaration, as loading the bot's extensions does: the sheet
    models are the systems' (bot/systems.py)."""
    for extension in system_extensions():
        systems.register(importlib.import_module(f"{extension}.system").SYSTEM, by=extension)


def schema_text() -> str:
    return json.dumps(io.schema(), ensure_ascii=False, indent=2) + "\n"


if __name__ == "__main__":
    declare_systems()
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
