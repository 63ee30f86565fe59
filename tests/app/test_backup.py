"""``scripts/backup.py``: a consistent copy of a live WAL database, made without stopping
the bot, that never leaves a half-written or world-readable file behind."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.infrastructure.settings import DEFAULT_DATABASE_PATH
from bot.storage import Database
from scripts.backup import BackupError, backup, database_path, main

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "backup.py"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """A database in WAL mode whose writer is still connected, with its commits still in
    the ``-wal`` file (no checkpoint), the state a running bot leaves it in."""
    conn = sqlite3.connect(tmp_path / "live.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE moves (n INTEGER)")
    conn.executemany("INSERT INTO moves VALUES (?)", [(n,) for n in range(500)])
    yield conn
    conn.close()


def rows(path: Path) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        return [n for (n,) in conn.execute("SELECT n FROM moves ORDER BY n")]
    finally:
        conn.close()


def test_commits_still_in_the_wal_are_copied_and_an_open_transaction_is_not(
    live: sqlite3.Connection, tmp_path: Path
) -> None:
    source = tmp_path / "live.sqlite3"
    assert Path(f"{source}-wal").stat().st_size > 0  # the commits are not in the main file yet
    live.execute("BEGIN IMMEDIATE")  # the bot is in the middle of a write
    live.execute("INSERT INTO moves VALUES (-1)")

    size = backup(source, tmp_path / "copy.sqlite3")

    live.execute("COMMIT")  # the writer was never blocked
    assert rows(tmp_path / "copy.sqlite3") == list(range(500))
    assert size == (tmp_path / "copy.sqlite3").stat().st_size


def test_the_copy_is_private_and_replaces_the_old_one_whole(
    live: sqlite3.Connection, tmp_path: Path
) -> None:
    dest = tmp_path / "copy.sqlite3"
    dest.write_bytes(b"an older backup")
    dest.chmod(0o644)

    backup(tmp_path / "live.sqlite3", dest)

    assert rows(dest) == list(range(500))
    assert stat.S_IMODE(dest.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir() if "copy" in p.name) == ["copy.sqlite3"]


def test_the_bots_own_database_backs_up(tmp_path: Path) -> None:
    async def create() -> None:
        async with await Database.open(tmp_path / "data" / "rummy.sqlite3"):
            pass

    asyncio.run(create())
    dest = tmp_path / "rummy-backup.sqlite3"
    backup(tmp_path / "data" / "rummy.sqlite3", dest)
    conn = sqlite3.connect(dest)
    try:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert tables, "the copy holds the schema"


def test_nothing_is_created_without_a_database(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="no database"):
        backup(tmp_path / "missing.sqlite3", tmp_path / "copy.sqlite3")
    assert list(tmp_path.iterdir()) == []


def test_the_database_is_never_its_own_backup(live: sqlite3.Connection, tmp_path: Path) -> None:
    source = tmp_path / "live.sqlite3"
    with pytest.raises(BackupError, match="another file"):
        backup(source, tmp_path / "." / "live.sqlite3")
    assert rows(source) == list(range(500))


def test_the_database_path_is_found_like_the_launcher_finds_it(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    assert database_path({}, [env_file]) == Path.cwd() / DEFAULT_DATABASE_PATH
    env_file.write_text("DATABASE_PATH=from-file.sqlite3\n", encoding="utf-8")
    assert database_path({}, [env_file]) == tmp_path / "from-file.sqlite3"
    assert database_path({"DATABASE_PATH": "~/env.sqlite3"}, [env_file]) == (
        Path.home() / "env.sqlite3"
    )


def test_the_command_copies_the_configured_database(
    live: sqlite3.Connection, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_PATH"}
    env["DATABASE_PATH"] = "live.sqlite3"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "copy.sqlite3"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "copy.sqlite3" in done.stdout
    assert rows(tmp_path / "copy.sqlite3") == list(range(500))


def test_the_command_says_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["--database", str(tmp_path / "nothing.sqlite3"), str(tmp_path / "b.sqlite3")])
    assert status == 2
    assert "there is no database at" in capsys.readouterr().err
    assert not (tmp_path / "b.sqlite3").exists()


def test_a_backup_into_a_folder_not_made_yet_makes_it_private(
    live: sqlite3.Connection, tmp_path: Path
) -> None:
    """``make backup DEST=backups/rummy.sqlite3`` in a fresh clone: no backups/ folder yet."""
    dest = tmp_path / "backups" / "daily" / "rummy.sqlite3"
    backup(tmp_path / "live.sqlite3", dest)
    assert rows(dest) == list(range(500))
    assert stat.S_IMODE(dest.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "backups" / "daily").stat().st_mode) == 0o700
