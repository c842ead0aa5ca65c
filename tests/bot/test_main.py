"""``python -m bot`` refusing to start: run as a real process with a clean environment."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.payloads import TOKEN

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TIRADA_", "LOG_"))}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("token", [None, "", "not-a-token", "abc.def.ghi"])
def test_missing_or_malformed_token_exits_2_with_one_line_in_both_languages(
    tmp_path: Path, token: str | None
) -> None:
    result = run_bot(tmp_path, **({} if token is None else {"DISCORD_TOKEN": token}))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "Falta DISCORD_TOKEN" in lines[0] and "DISCORD_TOKEN is missing" in lines[0]
    assert ".env.example" in lines[0]


def test_other_bad_settings_are_named(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, LOG_LEVEL="ruidoso", TIRADA_DEV_GUILD="x")
    assert result.returncode == 2
    assert "LOG_LEVEL" in result.stderr and "TIRADA_DEV_GUILD" in result.stderr


def test_the_token_can_come_from_a_dotenv_file(tmp_path: Path) -> None:
    from bot.settings import Settings

    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nTIRADA_DB=datos/mesa.db\nLOG_LEVEL=debug\n")
    settings = Settings(_env_file=tmp_path / ".env")  # type: ignore[call-arg]
    assert settings.discord_token.get_secret_value() == TOKEN
    assert settings.tirada_db == Path("datos/mesa.db")
    assert settings.log_level == "DEBUG"
