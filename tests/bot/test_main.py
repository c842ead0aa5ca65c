"""``python -m bot`` refusing to start: once as a real process with a clean environment,
the other bad settings through the same ``main()`` in this process (the exit is the same
path, and a process start is a second of CPU)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import EXIT_SETTINGS, main
from tests.support.payloads import TOKEN

ROOT = Path(__file__).resolve().parents[2]
PREFIXES = ("DISCORD_", "TIRADA_", "LOG_")


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(PREFIXES)}
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


def main_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], **env: str
) -> tuple[int, str]:
    """``main()`` as ``python -m bot`` runs it, in a clean environment and an empty folder
    (no ``.env``): its exit status and what it wrote to stderr."""
    for name in os.environ:
        if name.startswith(PREFIXES):
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    status = main()
    return status, capsys.readouterr().err


def assert_one_token_line(stderr: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1
    assert "Falta DISCORD_TOKEN" in lines[0] and "DISCORD_TOKEN is missing" in lines[0]
    assert ".env.example" in lines[0]


def test_a_process_without_a_token_exits_2_with_one_line_in_both_languages(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert_one_token_line(result.stderr)


@pytest.mark.parametrize("token", ["", "not-a-token", "abc.def.ghi"])
def test_an_empty_or_malformed_token_exits_2_with_one_line_in_both_languages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], token: str
) -> None:
    status, stderr = main_in_process(tmp_path, monkeypatch, capsys, DISCORD_TOKEN=token)
    assert status == EXIT_SETTINGS == 2
    assert_one_token_line(stderr)


def test_other_bad_settings_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, stderr = main_in_process(
        tmp_path, monkeypatch, capsys, DISCORD_TOKEN=TOKEN, LOG_LEVEL="ruidoso", TIRADA_DEV_GUILD="x"
    )
    assert status == 2
    assert "LOG_LEVEL" in stderr and "TIRADA_DEV_GUILD" in stderr


def test_the_token_can_come_from_a_dotenv_file(tmp_path: Path) -> None:
    from bot.settings import Settings

    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nTIRADA_DB=datos/mesa.db\nLOG_LEVEL=debug\n")
    settings = Settings(_env_file=tmp_path / ".env")  # type: ignore[call-arg]
    assert settings.discord_token.get_secret_value() == TOKEN
    assert settings.tirada_db == Path("datos/mesa.db")
    assert settings.log_level == "DEBUG"
