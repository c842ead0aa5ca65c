"""Records as older versions stored them, so a test can load what databases hold today.

The files named after a system are the rules' values before ``rules.codec``: the output of
that day's ``to_data`` (commit 07b58e5). The ``repeat_*`` files are rolls as each command
recorded them before every roll kept its options the same way (commit 0e3eeea), with the
table they were rolled at, who pressed *Repetir* with which dice, and what it posted then
(tests/bot/test_repeat.py)."""

import json
from pathlib import Path
from typing import Any


def stored(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((Path(__file__).parent / f"{name}.json").read_text(encoding="utf-8"))
    return data
