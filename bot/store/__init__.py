"""The store: the only package that speaks SQL. SQLite by default; PostgreSQL when
``TIRADA_DB`` is a URL (``postgres``, with the same interface and guarantees).

The bot types against :class:`Store`, a protocol (``bot.store.protocol``) the type checker
holds every implementation to. There is one: :class:`SqlStore` (``bot.store.sql``), written once against the
narrow database interface of ``bot.store.database``, whose two adapters are
``bot.store.sqlite`` (one aiosqlite connection) and ``bot.store.postgres`` (an asyncpg
pool, advisory locks, LISTEN/NOTIFY). Pool changes are conditional UPDATEs, each with an
append-only ledger row, and the whole operation is recorded under its interaction id so a
replay returns the first answer and changes nothing.

Split by concern: ``schema`` (migrations, ``meta``), ``tables``, ``pools`` (operations and
the ledger), ``records`` (records and reveals), ``retention``, ``saved`` (saved rolls),
``session`` (what the chronicle reads), ``dice`` (dice statistics), ``sheets`` and
``context`` (one interaction's reads in one round trip). ``SqlStore`` is all of them.
"""

from __future__ import annotations

from bot.store.connection import Clock, DatabaseReplaced
from bot.store.pools import POOL_MAX
from bot.store.protocol import Store
from bot.store.retention import Pruned, Retention
from bot.store.schema import MIGRATIONS
from bot.store.sql import SqlStore

__all__ = [
    "MIGRATIONS",
    "POOL_MAX",
    "Clock",
    "DatabaseReplaced",
    "Pruned",
    "Retention",
    "SqlStore",
    "Store",
]
