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
    (a replay records nothing twice): add ``dice`` to the day's counts, in one statement
    however many faces came up (one row a face, the roll's own values shared). A private
    roll's are kept apart: only its roller's own statistics read them."""
    faces = tally(dice)
    if not faces:
        return
    shared: dict[str, object] = {
        "day": day,
        "channel": channel_id,
        "user": user_id,
        "system": system,
        "private": private,
    }
    await tx.execute(face_counts_statement(len(faces)), shared | face_counts_params(faces))


def face_counts_statement(rows: int) -> str:
    """The upsert of ``rows`` faces' counts, one ``VALUES`` row each (``tally`` makes every
    face appear once, as PostgreSQL requires of the rows one upsert touches)."""
    values = ", ".join(
        f"(:day, :channel, :user, :system, :sides{i}, :face{i}, :private, :count{i})" for i in range(rows)
    )
    return (
        "INSERT INTO dice_counts (day, channel_id, user_id, system, sides, face, private, count) "
        f"VALUES {values} "
        "ON CONFLICT (day, channel_id, user_id, system, sides, face, private) "
        "DO UPDATE SET count = dice_counts.count + excluded.count"
    )


def face_counts_params(faces: dict[tuple[int, int], int]) -> dict[str, int]:
    """Each face's size, face and count, numbered as :func:`face_counts_statement` names them."""
    params: dict[str, int] = {}
    for i, ((sides, face), count) in enumerate(faces.items()):
        params |= {f"sides{i}": sides, f"face{i}": face, f"count{i}": count}
    return params


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
