"""Records as the rules wrote them before ``rules.codec``: each file is the output of that
day's ``to_data`` (commit 07b58e5), so a test can load what databases hold today."""

import json
from pathlib import Path
from typing import Any


def stored(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((Path(__file__).parent / f"{name}.json").read_text(encoding="utf-8"))
    return data
