"""Tests of ``cogs/donjon/odds.py``: Donjon's odds line under a test's card, and what it costs
the process: numpy is paid for by the first ``/probabilidad donjon`` table, not by every start
nor by every Donjon card."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cogs.donjon.odds import donjon_line

ROOT = Path(__file__).resolve().parents[3]

LOADS_THE_BOT = """
import importlib, sys
import bot.__main__
from bot.client import EXTENSIONS
for extension in EXTENSIONS:
    importlib.import_module(extension)
print("numpy" in sys.modules)
from cogs.donjon.odds import donjon_line
donjon_line("es", 5, 2, 4, 20, shown=True)
donjon_line("es", 40, 0, 40, 100, shown=True)
print("numpy" in sys.modules)
from rules.donjon import odds
odds.donjon_distribution(5, 4, 20)
print("numpy" in sys.modules)
"""


def test_starting_the_bot_and_drawing_donjon_cards_do_not_import_numpy() -> None:
    result = subprocess.run(
        [sys.executable, "-c", LOADS_THE_BOT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    started, carded, tabled = result.stdout.split()
    assert (started, carded, tabled) == ("False", "False", "True")


def test_the_line_with_the_bank() -> None:
    assert donjon_line("es", 5, 2, 4, 20, shown=True) == (
        "Probabilidad de ganar: 41,7\N{NO-BREAK SPACE}% sin dados guardados, "
        "56,5\N{NO-BREAK SPACE}% con los 2 que usas."
    )
    assert donjon_line("en", 5, 0, 4, 20, shown=True) == "Chance to win: 56.5%."
    assert donjon_line("es", 41, 0, 4, 20, shown=True) is None
