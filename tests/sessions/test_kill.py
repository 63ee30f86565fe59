"""Every acknowledged action, and every lobby change, survives the process being killed
(SIGKILL) right after."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from bot.rummy import Game, Ruleset, action_from_json
from bot.sessions import SessionManager, SessionStatus, restore_game
from bot.storage import Database, PostgresStore, open_store
from bot.storage.migrations import schema_version
from bot.storage.pg_connection import PgConnection
from bot.storage.pg_migrate import pg_schema_version
from bot.storage.sql_repository import SqlRepository
from tests.sessions.conftest import engine_game
from tests.waiting import PATIENCE

ROOT = Path(__file__).resolve().parents[2]


def start(db_path: Path | str, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-W", "error", "-m", "tests.sessions.kill_helper", str(db_path), mode],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def read_line(stream: IO[str] | None) -> list[str]:
    assert stream is not None
    line = stream.readline()
    assert line, "the helper stopped before it was killed"
    return line.split(maxsplit=2)


def read_acks(proc: subprocess.Popen[str], count: int, step: bool) -> list[dict[str, Any]]:
    """Read ``count`` acknowledged actions; in step mode let the helper go on after each but
    the last, so the kill lands right after an acknowledgement."""
    word, *_ = read_line(proc.stdout)
    assert word == "ready"
    acked = []
    for number in range(count):
        word, _seq, action = read_line(proc.stdout)
        assert word == "ack"
        acked.append(json.loads(action))
        if step and number < count - 1:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
    return acked


def kill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=PATIENCE)
    assert proc.returncode == -signal.SIGKILL
    for stream in (proc.stdin, proc.stdout):
        assert stream is not None
        stream.close()


async def stored_game(db_path: Path | str) -> tuple[Game, Game]:
    """The game as start-up loads it, and a replay of its stored log."""
    database = await open_store(db_path)
    assert isinstance(database, (Database, PostgresStore))
    try:
        async with database.transaction() as conn:
            (record,) = await SqlRepository(conn).active_games()
            stored = await SqlRepository(conn).game_actions(record.id)
            log = [action_from_json(a) for a in stored]
            if isinstance(conn, PgConnection):
                assert await pg_schema_version(conn.raw) >= 1
            else:
                rows = await conn.execute_fetchall("PRAGMA integrity_check")
                assert [tuple(r) for r in rows] == [("ok",)]
                assert await schema_version(conn) >= 1
        loaded = restore_game(record, stored)
        replayed = Game.replay(Ruleset.from_json(record.ruleset), record.players, record.seed, log)
        return loaded, replayed
    finally:
        await database.close()


async def test_killed_right_after_an_acknowledgement(db_path: Path | str) -> None:
    acked: list[dict[str, Any]] = []
    for count in (17, 9):  # kill, start again on the same database, kill again
        proc = start(db_path, "step")
        try:
            acked += read_acks(proc, count, step=True)
        finally:
            kill(proc)
        loaded, replayed = await stored_game(db_path)
        assert list(loaded.log) == [action_from_json(a) for a in acked]
        assert loaded == replayed


async def test_killed_at_any_moment(db_path: Path | str) -> None:
    proc = start(db_path, "free")
    try:
        acked = read_acks(proc, 40, step=False)
    finally:
        kill(proc)
    loaded, replayed = await stored_game(db_path)
    # The helper may have committed more after its last acknowledgement was read, never less.
    assert list(loaded.log[: len(acked)]) == [action_from_json(a) for a in acked]
    assert loaded == replayed


async def test_a_lobby_survives_a_kill(db_path: Path | str) -> None:
    proc = start(db_path, "lobby")
    try:
        acked = read_acks(proc, 4, step=False)
    finally:
        kill(proc)
    last = acked[-1]
    assert last == {
        "host": 22,
        "seats": [["22", "Bob", None], ["cpu-1", "Computer 1", "hard"], ["33", "Cat", None]],
    }
    manager = await SessionManager.open(db_path)
    try:
        assert await manager.load_active() == 1
        lobby = manager.get(2)
        assert lobby is not None
        assert lobby.status is SessionStatus.LOBBY
        assert lobby.host_id == last["host"]
        assert [[s.player_id, s.display_name, s.level] for s in lobby.seats] == last["seats"]
        await lobby.start(22, moderator=False)
        assert engine_game(lobby).players == ("22", "cpu-1", "33")
    finally:
        await manager.close()
