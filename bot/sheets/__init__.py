"""Character sheets: the exchange format (``models``), reading and writing it (``io``) and
what a sheet gives a roll by name (``lookup``).

They live in ``bot/`` rather than ``rules/``: the format is a file players exchange and the
store keeps (a versioned JSON document), not a mechanic. The ranges it checks are the
books' and come from ``rules/`` constants where the rules already name them.
"""
