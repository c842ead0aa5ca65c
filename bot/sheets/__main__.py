"""``python -m bot.sheets``: write the JSON Schema of the sheet format to docs/fichas/."""

from __future__ import annotations

import json
from pathlib import Path

from bot.sheets import io

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "fichas" / "esquema.json"


def schema_text() -> str:
    return json.dumps(io.schema(), ensure_ascii=False, indent=2) + "\n"


if __name__ == "__main__":
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
