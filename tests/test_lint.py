"""The tree stays ruff-clean and ruff-formatted: CI fails on either like on any other defect."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_leaves_the_tree_unchanged() -> None:
    """Formatting drift shows up as noise in every later diff: catch it where it starts."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_rules_stay_pure() -> None:
    """rules/ must not reach Discord, the database, the clock or the global RNG."""
    forbidden = (
        "import discord",
        "import aiosqlite",
        "from discord",
        "from aiosqlite",
        "datetime.now",
        "time.time",
    )
    for path in (ROOT / "rules").rglob("*.py"):
        text = path.read_text()
        for needle in forbidden:
            assert needle not in text, f"{path.name} uses {needle}"
        for line in text.splitlines():
            assert not line.strip().startswith("random."), f"{path.name} uses the global RNG: {line}"
