"""The schema, its migrations and the ``meta`` table."""

from __future__ import annotations

import logging

from bot.store.base import Part
from bot.store.database import Transaction

log = logging.getLogger(__name__)

# The pools a sheet owned when migration 7 was written (bot/sheets/live.py ``POOLS``): a
# migration is history, so it names them as they were then.
SHEET_POOLS_THEN = "('ficha_pg', 'ficha_pg_temp', 'ficha_heridas', 'ficha_provisiones', 'ficha_riqueza')"
# The CHECK migration 1 wrote on ``tables.system``, which migration 8 takes away (as the
# text of a SQL string: its quotes doubled).
SYSTEMS_CHECK_THEN = "CHECK (system IN (''donjon'', ''dune'', ''dnd5e'', ''mediana''))"


MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE tables (
            channel_id    INTEGER PRIMARY KEY,
            guild_id      INTEGER,
            system        TEXT CHECK (system IN ('donjon', 'dune', 'dnd5e', 'mediana')),
            gm_id         INTEGER,
            gm_channel_id INTEGER,
            donjon_level  INTEGER NOT NULL DEFAULT 0 CHECK (donjon_level BETWEEN 0 AND 100),
            settings      TEXT NOT NULL DEFAULT '{}',
            created_at    TEXT NOT NULL
        )""",
        """CREATE TABLE pools (
            channel_id INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
            pool       TEXT NOT NULL CHECK (length(pool) BETWEEN 1 AND 40),
            owner_id   INTEGER NOT NULL DEFAULT 0,
            value      INTEGER NOT NULL CHECK (value BETWEEN 0 AND 1000000),
            applied    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (channel_id, pool, owner_id)
        )""",
        """CREATE TABLE ledger (
            id             INTEGER PRIMARY KEY AUTOINCREMENT,
            channel_id     INTEGER NOT NULL,
            interaction_id INTEGER NOT NULL,
            actor_id       INTEGER NOT NULL,
            pool           TEXT NOT NULL,
            owner_id       INTEGER NOT NULL DEFAULT 0,
            delta          INTEGER NOT NULL CHECK (delta <> 0),
            value_after    INTEGER NOT NULL CHECK (value_after >= 0),
            reason         TEXT NOT NULL,
            message_id     INTEGER,
            created_at     TEXT NOT NULL,
            UNIQUE (interaction_id, channel_id, pool, owner_id)
        )""",
        "CREATE INDEX ledger_by_channel ON ledger (channel_id, id)",
        """CREATE TABLE operations (
            interaction_id INTEGER NOT NULL,
            step           INTEGER NOT NULL DEFAULT 0,
            channel_id     INTEGER NOT NULL,
            outcome        TEXT NOT NULL,
            created_at     TEXT NOT NULL,
            PRIMARY KEY (interaction_id, step)
        )""",
        """CREATE TABLE rolls (
            id             INTEGER PRIMARY KEY AUTOINCREMENT,
            channel_id     INTEGER NOT NULL,
            interaction_id INTEGER NOT NULL UNIQUE,
            user_id        INTEGER NOT NULL,
            kind           TEXT NOT NULL,
            data           TEXT NOT NULL,
            version        INTEGER NOT NULL DEFAULT 0,
            message_id     INTEGER,
            created_at     TEXT NOT NULL
        )""",
        "CREATE INDEX rolls_by_channel ON rolls (channel_id, kind, id)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    (
        # The GM's side: undo (a compensating row names the row it reverts, once), reset
        # (rolls retired, never deleted), the GM channel lookup, secret rolls revealed once,
        # and each pool's cap remembered so an undo respects it.
        "ALTER TABLE ledger ADD COLUMN undoes INTEGER REFERENCES ledger (id)",
        "CREATE UNIQUE INDEX ledger_undone ON ledger (undoes) WHERE undoes IS NOT NULL",
        "ALTER TABLE rolls ADD COLUMN retired INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE pools ADD COLUMN cap INTEGER",
        "CREATE INDEX tables_by_gm_channel ON tables (gm_channel_id) WHERE gm_channel_id IS NOT NULL",
        """CREATE TABLE reveals (
            message_id INTEGER PRIMARY KEY,
            roll_id    INTEGER NOT NULL,
            actor_id   INTEGER NOT NULL,
            created_at TEXT NOT NULL
        )""",
    ),
    (
        # A secret roll's message (GM channel or ephemeral) is no link for the history until
        # it is revealed; the partial index finds those few messages per history row.
        "ALTER TABLE rolls ADD COLUMN secret INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX rolls_secret_message ON rolls (message_id) WHERE secret",
    ),
    (
        # Issue 21. Saved rolls (bot/store/saved.py): a player's own (scope 0, owner the
        # player) or a table's (scope its channel, owner 0); ``kind`` is the roll kind whose
        # repeater plays it, ``data`` what that repeater reads.
        """CREATE TABLE saved_rolls (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            scope      INTEGER NOT NULL,
            owner_id   INTEGER NOT NULL,
            creator_id INTEGER NOT NULL,
            name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
            kind       TEXT NOT NULL,
            data       TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (scope, owner_id, name)
        )""",
        # Dice statistics (bot/store/dice.py): how often each face came up, per day, table,
        # player, system and die size. Bounded by the faces there are, not by the rolls.
        """CREATE TABLE dice_counts (
            day        TEXT NOT NULL,
            channel_id INTEGER NOT NULL,
            user_id    INTEGER NOT NULL,
            system     TEXT NOT NULL,
            sides      INTEGER NOT NULL,
            face       INTEGER NOT NULL,
            count      INTEGER NOT NULL CHECK (count > 0),
            PRIMARY KEY (day, channel_id, user_id, system, sides, face)
        )""",
        "CREATE INDEX dice_counts_by_user ON dice_counts (user_id, day)",
        "CREATE INDEX dice_counts_by_channel ON dice_counts (channel_id, day)",
    ),
    (
        # The table holds every record buttons come back to (rolls, tasks, trackers, sheets,
        # grants), not only rolls: renamed, data and ids kept. SQLite cannot rename an
        # index, so the two indexes are made again under their new names. An operation's
        # recorded outcome names the record it made as ``record_id`` from now on.
        "ALTER TABLE rolls RENAME TO records",
        "DROP INDEX rolls_by_channel",
        "CREATE INDEX records_by_channel ON records (channel_id, kind, id)",
        "DROP INDEX rolls_secret_message",
        "CREATE INDEX records_secret_message ON records (message_id) WHERE secret",
        "UPDATE operations SET outcome = json_set(json_remove(outcome, '$.roll_id'), '$.record_id', "
        "json_extract(outcome, '$.roll_id')) WHERE json_extract(outcome, '$.kind') = 'applied'",
    ),
    (
        # Character sheets (/ficha): per player per table, one active; the GM's NPCs. The
        # numbers play changes live in ledger pools owned by the sheet's id.
        """CREATE TABLE sheets (
            id             INTEGER PRIMARY KEY AUTOINCREMENT,
            channel_id     INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
            owner_id       INTEGER NOT NULL,
            npc            INTEGER NOT NULL DEFAULT 0,
            name           TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            folded         TEXT NOT NULL,
            system         TEXT NOT NULL,
            data           TEXT NOT NULL CHECK (length(data) <= 65536),
            active         INTEGER NOT NULL DEFAULT 0,
            version        INTEGER NOT NULL DEFAULT 0,
            interaction_id INTEGER NOT NULL UNIQUE,
            created_at     TEXT NOT NULL,
            UNIQUE (channel_id, owner_id, npc, folded)
        )""",
        "CREATE UNIQUE INDEX sheets_active ON sheets (channel_id, owner_id) WHERE active AND NOT npc",
    ),
    (
        # Issue 28, hidden stays hidden. A private roll's dice are counted apart (only its
        # roller's statistics read them): a key column, so SQLite builds the table again.
        """CREATE TABLE dice_counts_private (
            day        TEXT NOT NULL,
            channel_id INTEGER NOT NULL,
            user_id    INTEGER NOT NULL,
            system     TEXT NOT NULL,
            sides      INTEGER NOT NULL,
            face       INTEGER NOT NULL,
            count      INTEGER NOT NULL CHECK (count > 0),
            private    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (day, channel_id, user_id, system, sides, face, private)
        )""",
        "INSERT INTO dice_counts_private SELECT *, 0 FROM dice_counts",
        "DROP TABLE dice_counts",
        "ALTER TABLE dice_counts_private RENAME TO dice_counts",
        "CREATE INDEX dice_counts_by_user ON dice_counts (user_id, day)",
        "CREATE INDEX dice_counts_by_channel ON dice_counts (channel_id, day)",
        # A ledger row that tells an NPC sheet's number (the GM's secret) says so itself,
        # written with the row: hiding it needs no sheet, which may since be deleted. The
        # rows already written are marked for the NPC sheets still there.
        "ALTER TABLE ledger ADD COLUMN gm_only INTEGER NOT NULL DEFAULT 0",
        f"UPDATE ledger SET gm_only = 1 WHERE pool IN {SHEET_POOLS_THEN} AND EXISTS "
        "(SELECT 1 FROM sheets s WHERE s.id = ledger.owner_id "
        "AND s.channel_id = ledger.channel_id AND s.npc)",
    ),
    (
        # Issue 30, a system registers itself: the registry (bot/systems.py) says which
        # systems there are, so the schema names none. SQLite cannot drop a CHECK without
        # building the table again, which would cascade to every pool and sheet; removing a
        # CHECK changes nothing on disk, so the table's definition is edited in place (the
        # procedure SQLite's "ALTER TABLE" page gives for it) and the schema read again.
        # Donjon's level moves to the table's settings, beside its die (TableSettings).
        "PRAGMA writable_schema = ON",
        f"UPDATE sqlite_schema SET sql = replace(sql, ' {SYSTEMS_CHECK_THEN}', '') "
        "WHERE type = 'table' AND name = 'tables'",
        "PRAGMA writable_schema = RESET",
        "UPDATE tables SET settings = json_set(settings, '$.donjon_level', donjon_level)",
        "ALTER TABLE tables DROP COLUMN donjon_level",
    ),
)


# The same versions as MIGRATIONS above, one for one, in PostgreSQL's words (its dialect,
# bot/store/postgres.py): version N here makes the tables and columns SQLite's version N
# makes (tests/bot/test_store.py compares the two schemas column by column). A new
# migration is written twice, here and above. The differences are the dialect's: bigint
# for ids, identity columns, boolean, jsonb (read and written as JSON text, like SQLite's).
POSTGRES_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE tables (
            channel_id    bigint PRIMARY KEY,
            guild_id      bigint,
            system        text CHECK (system IN ('donjon', 'dune', 'dnd5e', 'mediana')),
            gm_id         bigint,
            gm_channel_id bigint,
            donjon_level  integer NOT NULL DEFAULT 0 CHECK (donjon_level BETWEEN 0 AND 100),
            settings      jsonb NOT NULL DEFAULT '{}',
            created_at    text NOT NULL
        )""",
        """CREATE TABLE pools (
            channel_id bigint NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
            pool       text NOT NULL CHECK (length(pool) BETWEEN 1 AND 40),
            owner_id   bigint NOT NULL DEFAULT 0,
            value      integer NOT NULL CHECK (value BETWEEN 0 AND 1000000),
            applied    integer NOT NULL DEFAULT 0,
            PRIMARY KEY (channel_id, pool, owner_id)
        )""",
        """CREATE TABLE ledger (
            id             bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            channel_id     bigint NOT NULL,
            interaction_id bigint NOT NULL,
            actor_id       bigint NOT NULL,
            pool           text NOT NULL,
            owner_id       bigint NOT NULL DEFAULT 0,
            delta          integer NOT NULL CHECK (delta <> 0),
            value_after    integer NOT NULL CHECK (value_after >= 0),
            reason         text NOT NULL,
            message_id     bigint,
            created_at     text NOT NULL,
            UNIQUE (interaction_id, channel_id, pool, owner_id)
        )""",
        "CREATE INDEX ledger_by_channel ON ledger (channel_id, id)",
        """CREATE TABLE operations (
            interaction_id bigint NOT NULL,
            step           integer NOT NULL DEFAULT 0,
            channel_id     bigint NOT NULL,
            outcome        text NOT NULL,
            created_at     text NOT NULL,
            PRIMARY KEY (interaction_id, step)
        )""",
        """CREATE TABLE rolls (
            id             bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            channel_id     bigint NOT NULL,
            interaction_id bigint NOT NULL UNIQUE,
            user_id        bigint NOT NULL,
            kind           text NOT NULL,
            data           jsonb NOT NULL,
            version        integer NOT NULL DEFAULT 0,
            message_id     bigint,
            created_at     text NOT NULL
        )""",
        "CREATE INDEX rolls_by_channel ON rolls (channel_id, kind, id)",
        "CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)",
    ),
    (
        "ALTER TABLE ledger ADD COLUMN undoes bigint REFERENCES ledger (id)",
        "CREATE UNIQUE INDEX ledger_undone ON ledger (undoes) WHERE undoes IS NOT NULL",
        "ALTER TABLE rolls ADD COLUMN retired boolean NOT NULL DEFAULT false",
        "ALTER TABLE pools ADD COLUMN cap integer",
        "CREATE INDEX tables_by_gm_channel ON tables (gm_channel_id) WHERE gm_channel_id IS NOT NULL",
        """CREATE TABLE reveals (
            message_id bigint PRIMARY KEY,
            roll_id    bigint NOT NULL,
            actor_id   bigint NOT NULL,
            created_at text NOT NULL
        )""",
    ),
    (
        "ALTER TABLE rolls ADD COLUMN secret boolean NOT NULL DEFAULT false",
        "CREATE INDEX rolls_secret_message ON rolls (message_id) WHERE secret",
    ),
    (
        """CREATE TABLE saved_rolls (
            id         bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            scope      bigint NOT NULL,
            owner_id   bigint NOT NULL,
            creator_id bigint NOT NULL,
            name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
            kind       text NOT NULL,
            data       jsonb NOT NULL,
            created_at text NOT NULL,
            UNIQUE (scope, owner_id, name)
        )""",
        """CREATE TABLE dice_counts (
            day        text NOT NULL,
            channel_id bigint NOT NULL,
            user_id    bigint NOT NULL,
            system     text NOT NULL,
            sides      integer NOT NULL,
            face       integer NOT NULL,
            count      bigint NOT NULL CHECK (count > 0),
            PRIMARY KEY (day, channel_id, user_id, system, sides, face)
        )""",
        "CREATE INDEX dice_counts_by_user ON dice_counts (user_id, day)",
        "CREATE INDEX dice_counts_by_channel ON dice_counts (channel_id, day)",
    ),
    (
        "ALTER TABLE rolls RENAME TO records",
        "ALTER INDEX rolls_by_channel RENAME TO records_by_channel",
        "ALTER INDEX rolls_secret_message RENAME TO records_secret_message",
        "UPDATE operations SET outcome = ((outcome::jsonb - 'roll_id') "
        "|| jsonb_build_object('record_id', outcome::jsonb -> 'roll_id'))::text "
        "WHERE outcome::jsonb ->> 'kind' = 'applied'",
    ),
    (
        # Character sheets (/ficha), as SQLite's migration 6.
        """CREATE TABLE sheets (
            id             bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            channel_id     bigint NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
            owner_id       bigint NOT NULL,
            npc            boolean NOT NULL DEFAULT false,
            name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            folded         text NOT NULL,
            system         text NOT NULL,
            data           text NOT NULL CHECK (length(data) <= 65536),
            active         boolean NOT NULL DEFAULT false,
            version        integer NOT NULL DEFAULT 0,
            interaction_id bigint NOT NULL UNIQUE,
            created_at     text NOT NULL,
            UNIQUE (channel_id, owner_id, npc, folded)
        )""",
        "CREATE UNIQUE INDEX sheets_active ON sheets (channel_id, owner_id) WHERE active AND NOT npc",
    ),
    (
        "ALTER TABLE dice_counts ADD COLUMN private boolean NOT NULL DEFAULT false",
        "ALTER TABLE dice_counts DROP CONSTRAINT dice_counts_pkey",
        "ALTER TABLE dice_counts ADD PRIMARY KEY (day, channel_id, user_id, system, sides, face, private)",
        "ALTER TABLE ledger ADD COLUMN gm_only boolean NOT NULL DEFAULT false",
        f"UPDATE ledger SET gm_only = true WHERE pool IN {SHEET_POOLS_THEN} AND EXISTS "
        "(SELECT 1 FROM sheets s WHERE s.id = ledger.owner_id "
        "AND s.channel_id = ledger.channel_id AND s.npc)",
    ),
    (
        # As SQLite's migration 8: the CHECK PostgreSQL named after its column goes, and
        # Donjon's level moves to the table's settings.
        "ALTER TABLE tables DROP CONSTRAINT tables_system_check",
        "UPDATE tables SET settings = settings || jsonb_build_object('donjon_level', donjon_level)",
        "ALTER TABLE tables DROP COLUMN donjon_level",
    ),
)

# The version the schema is at: SQLite keeps it in PRAGMA user_version, PostgreSQL here.
VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)"


# Written or replaced, one key of ``meta``.
SET_META = (
    "INSERT INTO meta (key, value) VALUES (:key, :value) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)
# The advisory lock key migrations run under (any constant no table's channel id can be).
MIGRATION_LOCK = -20


class Schema(Part):
    """The schema's version and migrations, and the bot's own key-value settings (``meta``)."""

    async def schema_version(self) -> int:
        return int(await self._fetchvalue(self.db.dialect.read_version))

    async def migrate(self) -> None:
        """Bring the schema up to date in one write transaction that reads the version
        inside it, under the migrations' lock: a second process starting at the same
        moment waits, then finds nothing left to do."""
        dialect = self.db.dialect

        async def migrate(tx: Transaction) -> list[int]:
            # The versions applied are returned, not kept outside: a transaction may be run
            # again from its start (SQLite's, moved off the event loop), and only the run
            # that commits tells.
            applied = []
            for statement in dialect.version_setup:
                await tx.execute(statement)
            current = int(await tx.fetch_value(dialect.read_version))
            for version, statements in enumerate(dialect.migrations, start=1):
                if version <= current:
                    continue
                for statement in (*statements, *dialect.write_version(version)):
                    await tx.execute(statement)
                applied.append(version)
            return applied

        for version in await self._transact(migrate, lock=MIGRATION_LOCK):
            log.info("database migrated", extra={"schema_version": version})

    async def get_meta(self, key: str) -> str | None:
        value = await self._fetchvalue("SELECT value FROM meta WHERE key = :key", {"key": key})
        return None if value is None else str(value)

    async def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        rows = await self._fetchall(
            "SELECT key, value FROM meta WHERE substr(key, 1, length(CAST(:p AS TEXT))) = :p", {"p": prefix}
        )
        return {r[0]: r[1] for r in rows}

    async def delete_meta(self, key: str) -> None:
        await self._transact(lambda tx: tx.execute("DELETE FROM meta WHERE key = :key", {"key": key}))

    async def set_meta(self, key: str, value: str) -> None:
        await self._transact(lambda tx: tx.execute(SET_META, {"key": key, "value": value}))
