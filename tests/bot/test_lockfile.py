"""One process per SQLite file (bot/lockfile.py)."""

from pathlib import Path

import pytest

from bot.lockfile import AlreadyRunning, hold, lock_path


def test_a_second_holder_is_refused_until_the_first_lets_go(tmp_path: Path) -> None:
    database = tmp_path / "datos" / "tirada.db"
    first = hold(database)
    with pytest.raises(AlreadyRunning) as refused:
        hold(database)
    assert refused.value.database == database
    first.close()
    hold(database).close()
    assert lock_path(database) == tmp_path / "datos" / "tirada.db.lock"


def test_another_file_in_the_same_folder_is_not_locked(tmp_path: Path) -> None:
    first = hold(tmp_path / "a.db")
    hold(tmp_path / "b.db").close()
    first.close()
