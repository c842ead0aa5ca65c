"""Dice statistics (``/estadisticas``): face counts per day, table, player, system and size."""

from __future__ import annotations

import sqlite3

from bot.store.connection import Connection


def count_dice(
    db: sqlite3.Connection,
    day: str,
    channel_id: int,
    user_id: int,
    system: str,
    dice: tuple[tuple[int, int], ...],
    *,
    private: bool = False,
) -> None:
    """Inside the transaction of the roll (or the change, or the reveal) that showed them
    (a replay records nothing twice): add ``dice`` to the day's counts. A private roll's
    are kept apart: only its roller's own statistics read them."""
    db.executemany(
        "INSERT INTO dice_counts (day, channel_id, user_id, system, sides, face, private, count) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (day, channel_id, user_id, system, sides, face, private) "
        "DO UPDATE SET count = count + excluded.count",
        [(day, channel_id, user_id, system, s, f, private, n) for (s, f), n in tally(dice).items()],
    )


def tally(dice: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], int]:
    """How many times each (size, face) came up."""
    faces: dict[tuple[int, int], int] = {}
    for die in dice:
        faces[die] = faces.get(die, 0) + 1
    return faces


class Dice(Connection):
    async def dice_counts(
        self, since_day: str, user_id: int | None = None, channel_id: int | None = None
    ) -> dict[tuple[str, int], dict[int, int]]:
        """Face counts from ``since_day`` on, per (system, sides): one player's, one
        table's, or (neither given) every die the bot rolled. Private rolls count only in
        their roller's own (a table's or the bot's would tell them by difference)."""
        rows = await self._fetchall(
            "SELECT system, sides, face, sum(count) FROM dice_counts WHERE day >= :since "
            "AND (:user IS NULL OR user_id = :user) AND (:channel IS NULL OR channel_id = :channel) "
            "AND (:user IS NOT NULL OR NOT private) "
            "GROUP BY system, sides, face",
            {"since": since_day, "user": user_id, "channel": channel_id},
        )
        counts: dict[tuple[str, int], dict[int, int]] = {}
        for system, sides, face, count in rows:
            counts.setdefault((system, sides), {})[face] = int(count)
        return counts
