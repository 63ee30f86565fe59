"""What a self-hoster installs from the repository agrees with the code: the systemd unit
stops restarting on the launcher's configuration status and writes only where the bot's
files go, and backups made where the README and docs/ say are never committed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from bot.__main__ import EXIT_CONFIG
from bot.cluster.identity import PROC

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "contrib" / "rummy-bot.service"


def service() -> dict[str, str]:
    """The unit's [Service] settings; a key given more than once (Environment=) keeps each
    value, one a line."""
    found: dict[str, str] = {}
    section = ""
    for line in UNIT.read_text("utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            found[key] = f"{found[key]}\n{value}" if key in found else value
    return found


def test_the_unit_stops_on_the_configuration_status_and_restarts_on_others() -> None:
    unit = service()
    assert unit["RestartPreventExitStatus"] == str(EXIT_CONFIG)
    assert unit["Restart"] == "on-failure"
    assert unit["ExecStart"] == f"{unit['WorkingDirectory']}/.venv/bin/python -m bot"
    assert unit["KillSignal"] == "SIGTERM"  # the launcher's clean stop


def test_the_unit_runs_as_its_own_user_and_keeps_the_database_in_its_state_folder() -> None:
    unit = service()
    assert unit["User"] not in ("", "root")
    state = f"/var/lib/{unit['StateDirectory']}/"
    assert f"DATABASE_PATH={state}rummy.sqlite3" in unit["Environment"]
    assert unit["StateDirectoryMode"] == "0700"
    assert unit["ProtectSystem"] == "strict"  # nothing else is writable
    assert unit["UMask"] == "0077"


def backup_examples() -> list[str]:
    """The backup files the README and the operations page tell people to write."""
    pages = (ROOT / "README.md", ROOT / "docs" / "operations.md", ROOT / "docs" / "postgresql.md")
    text = "\n".join(page.read_text("utf-8") for page in pages)
    return sorted(set(re.findall(r"\bbackups/[\w.-]+", text)))


def test_backups_next_to_the_code_are_ignored_by_git() -> None:
    examples = backup_examples()
    assert "backups/rummy-2026-12-04.sqlite3" in examples  # the README's make backup
    for path in (*examples, "data/rummy.sqlite3.lock", ".env"):
        ignored = subprocess.run(
            ["git", "check-ignore", "--no-index", "-q", path], cwd=ROOT, check=False
        )
        assert ignored.returncode == 0, path


def test_the_unit_lets_a_restarted_bot_see_that_its_predecessor_is_gone() -> None:
    """The quick same-machine takeover reads the boot id (``/proc/sys``) and the
    predecessor's ``/proc/<pid>``: the unit hides neither."""
    unit = service()
    assert unit.get("ProcSubset", "all") == "all"
    assert unit.get("ProtectProc", "default") in ("default", "invisible", "ptraceable")
    hidden = " ".join(unit.get(k, "") for k in ("InaccessiblePaths", "TemporaryFileSystem"))
    assert str(PROC) not in hidden


def test_the_unit_s_steps_need_no_sudo() -> None:
    """Minimal Debian has no sudo: the steps run as root, and as the bot's user by runuser."""
    text = UNIT.read_text("utf-8")
    assert "sudo" not in text
    assert "runuser -u rummy --" in text
