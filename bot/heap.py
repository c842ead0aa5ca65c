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


def settle() -> int:
    """Load what play will need and start-up did not (each language's CLDR data, the
    codecs' schemas), collect start-up's garbage so none of it is kept for ever, then
    freeze what is left. Returns how
    many objects are frozen. Called once, when the bot has logged in and set itself up;
    never in a process that starts many bots (a test worker), which would keep each test's
    garbage for ever."""
    load_locales()
    build_all()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
