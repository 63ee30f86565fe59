"""``scripts/forget.py``: the operator erases a person or a server, on a stopped bot's
database; the name and id leave the file and its write-ahead log."""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path

import pytest

from bot.infrastructure.instance import InstanceLock
from bot.rummy import preset
from bot.sessions import SessionManager
from scripts.forget import main

NAME = "Ottoline Vexhammer"
USER, GUILD = 712345678901234567, 812345678901234567


async def _lobby(path: Path) -> None:
    sessions = await SessionManager.open(path)
    try:
        await sessions.create_lobby(
            guild_id=GUILD, channel_id=5, host_id=USER, host_name=NAME, ruleset=preset("classic")
        )
    finally:
        await sessions.close()


def _found(path: Path, *needles: bytes) -> list[bytes]:
    files = [path, path.with_name(path.name + "-wal")]
    data = b"".join(f.read_bytes() for f in files if f.exists())
    return [n for n in needles if n in data]


def test_the_script_forgets_a_user(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rummy.sqlite3"
    asyncio.run(_lobby(path))
    needles = (NAME.encode(), str(USER).encode(), struct.pack(">q", USER))
    assert _found(path, *needles)
    assert main(["--user", str(USER), "--database", str(path)]) == 0
    assert "user 712345678901234567: 1 live games ended" in capsys.readouterr().out
    assert _found(path, *needles) == []


def test_the_script_forgets_a_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rummy.sqlite3"
    asyncio.run(_lobby(path))
    assert main(["--guild", str(GUILD), "--database", str(path)]) == 0
    assert "1 games and its league removed" in capsys.readouterr().out
    assert _found(path, NAME.encode(), struct.pack(">q", GUILD)) == []


def test_the_script_refuses_while_the_bot_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rummy.sqlite3"
    asyncio.run(_lobby(path))
    lock = InstanceLock.acquire(path)
    try:
        assert main(["--user", str(USER), "--database", str(path)]) == 2
    finally:
        lock.release()
    assert "stop the bot first" in capsys.readouterr().err
    assert _found(path, NAME.encode())
