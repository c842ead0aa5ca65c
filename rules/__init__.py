"""Pure rules: dice, pools and every system's resolution.

Nothing here knows about Discord, SQLite or the clock, and every roll takes a
``random.Random`` so that a seed reproduces it exactly.
"""
