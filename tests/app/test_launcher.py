"""The launcher as a self-hoster meets it: a missing token stops it with one clear sentence,
before any file is created."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_launcher(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH")}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_without_a_token_the_launcher_says_so_and_creates_nothing(tmp_path: Path) -> None:
    result = run_launcher(tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert ".env.example" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_bad_setting_is_named(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=LOUD\n", encoding="utf-8")
    result = run_launcher(tmp_path)
    assert result.returncode == 2
    assert "LOG_LEVEL" in result.stderr
    assert not (tmp_path / "data").exists()
