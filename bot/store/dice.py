"""Dice statistics (``/estadisticas``): face counts per day, table, player, system and size."""

from __future__ import annotations

from bot.store.base import Part
from bot.store.database import Transaction


async def count_dice(
    tx: Transaction,
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
    rows = [
        {"day": day, "channel": channel_id, "user": user_id, "system": system, "sides": s, "face": f}
        | {"private": private, "count": n}
        for (s, f), n in tally(dice).items()
    ]
    await tx.execute_many(
        "INSERT INTO dice_counts (day, channel_id, user_id, system, sides, face, private, count) "
        "VALUES (:day, :channel, :user, :system, :sides, :face, :private, :count) "
        "ON CONFLICT (day, channel_id, user_id, system, sides, face, private) "
        "DO UPDATE SET count = dice_counts.count + excluded.count",
        rows,
    )


def tally(dice: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], int]:
    """How many times each (size, face) came up."""
    faces: dict[tuple[int, int], int] = {}
    for die in dice:
        faces[die] = faces.get(die, 0) + 1
    return faces


class Dice(Part):
    async def dice_counts(
        self, since_day: str, user_id: int | None = None, channel_id: int | None = None
    ) -> dict[tuple[str, int], dict[int, int]]:
        """Face counts from ``since_day`` on, per (system, sides): one player's, one
        table's, or (neither given) every die the bot rolled. Private rolls count only in
        their roller's own (a table's or the bot's would tell them by difference)."""
        rows = await self._fetchall(
            "SELECT system, sides, face, sum(count) FROM dice_counts WHERE day >= :since "
            "AND (CAST(:user AS BIGINT) IS NULL OR user_id = :user) "
            "AND (CAST(:channel AS BIGINT) IS NULL OR channel_id = :channel) "
            "AND (CAST(:user AS BIGINT) IS NOT NULL OR NOT private) "
            "GROUP BY system, sides, face",
            {"since": since_day, "user": user_id, "channel": channel_id},
        )
        counts: dict[tuple[str, int], dict[int, int]] = {}
        for system, sides, face, count in rows:
            counts.setdefault((system, sides), {})[face] = int(count)
        return counts
