"""The process's memory once the bot has started: what the start made stays for the
process's life, so the garbage collector stops walking it.

A started bot holds about a hundred thousand objects the collector tracks (discord.py
and its command tree, pydantic's models, Babel's CLDR data, the catalogue, our modules), and
none of them is ever garbage. Every full collection walked them all: 40–80 ms during which
the event loop answered nobody, twice in a 200-table load, the largest part of its p99
(``bench/README.md``, the tenth session). ``gc.freeze`` moves them to a generation the
collector never visits (CPython's documented use: freeze once start-up is done); what play
makes afterwards is collected as before.
"""

from __future__ import annotations

import gc

from bot.i18n import load_locales
from rules.codec import build_all

# The collector's first threshold once start-up is frozen: a young collection after this many
# allocations more than frees, where CPython's default is 700. An interaction makes a few
# thousand short-lived objects, most freed by their counts before any collection sees them;
# at 700 a 200-table load ran ~260 young collections and ~23 of the middle generation a play,
# at 7,000 ~22 and one: the garbage collection's instructions on the event loop halved (0.115 →
# 0.058 M an interaction, bench/README.md, the eleventh session), each young collection a few
# milliseconds at most. 20,000 saved a little more but made each young one ~13 ms.
YOUNG_THRESHOLD = 7000


def settle() -> int:
    """Load what play will need and start-up did not (each language's CLDR data, the
    codecs' schemas), collect start-up's garbage so none of it is kept for ever, freeze what
    is left, and collect young objects less often. Returns how many objects are frozen.
    Called once, when the bot has logged in and set itself up; never in a process that
    starts many bots (a test worker), which would keep each test's garbage for ever."""
    load_locales()
    build_all()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return gc.get_freeze_count()
