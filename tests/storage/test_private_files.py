"""What is stored is private to the bot's user: the database's folder and files, new or
left readable by an older version."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.storage import Database
from tests.sessions.conftest import start_game

pytestmark = pytest.mark.sqlite_only


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_the_database_is_private_to_the_bot(manager: SessionManager, db_path: Path) -> None:
    await start_game(manager)
    assert mode(db_path.parent) == 0o700
    files = sorted(db_path.parent.iterdir())
    assert [f.name for f in files] == [
        "rummy.sqlite3",
        "rummy.sqlite3-shm",
        "rummy.sqlite3-wal",
    ]
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}


async def test_an_older_readable_database_is_made_private(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    path = folder / "rummy.sqlite3"
    await (await Database.open(path)).close()
    folder.chmod(0o755)
    path.chmod(0o644)
    old_umask = os.umask(0o022)
    try:
        database = await Database.open(path)
    finally:
        os.umask(old_umask)
    try:
        assert mode(folder) == 0o700
        assert {f.name: mode(f) for f in folder.iterdir()} == {
            f.name: 0o600 for f in folder.iterdir()
        }
    finally:
        await database.close()


async def test_a_shared_folder_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("someone else's file")
    tmp_path.chmod(0o755)
    database = await Database.open(tmp_path / "rummy.sqlite3")
    await database.close()
    assert mode(tmp_path) == 0o755
    assert mode(tmp_path / "rummy.sqlite3") == 0o600
