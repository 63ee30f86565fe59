"""Running on PostgreSQL: ``--check`` opens and upgrades it without printing its password,
``scripts/pg-backup.sh`` / ``scripts/pg-restore.sh`` carry a game into another database,
and ``scripts/forget.py`` erases there."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.rummy import preset
from bot.sessions import SessionManager
from bot.storage import PostgresStore
from bot.storage.leases import Leases
from bot.storage.pg_migrate import bundled_pg_migrations
from scripts.forget import main as forget_main
from tests.app.test_launcher import TOKEN, run_launcher
from tests.postgres import Databases
from tests.sessions.conftest import CHANNEL, start_game

pytestmark = pytest.mark.postgres_only

ROOT = Path(__file__).resolve().parents[2]


def test_check_opens_postgresql_and_hides_the_password(
    tmp_path: Path, pg_databases: Databases
) -> None:
    url = pg_databases.create()
    try:
        checked = run_launcher(tmp_path, "--check", DISCORD_TOKEN=TOKEN, DATABASE_URL=url)
    finally:
        pg_databases.drop(url)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    newest = bundled_pg_migrations()[-1].version
    assert f"opened; schema at version {newest}" in checked.stdout
    password = url.split("@")[0].rsplit(":", 1)[1]
    assert f":{password}@" not in checked.stdout + checked.stderr
    assert not (tmp_path / "data").exists()  # no SQLite file, no lock file


def test_a_game_survives_backup_and_restore(
    tmp_path: Path, pg_url: str, pg_databases: Databases
) -> None:
    async def play() -> int:
        manager = await SessionManager.open(pg_url)
        try:
            return (await start_game(manager)).game_id
        finally:
            await manager.close()

    game_id = asyncio.run(play())
    dump = tmp_path / "rummy.dump"
    env = {**os.environ, "DATABASE_URL": pg_url}
    backed = subprocess.run(
        ["sh", str(ROOT / "scripts/pg-backup.sh"), str(dump)], env=env, capture_output=True
    )
    assert backed.returncode == 0, backed.stderr
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600
    target = pg_databases.create()
    try:
        restored = subprocess.run(
            ["sh", str(ROOT / "scripts/pg-restore.sh"), str(dump), target], capture_output=True
        )
        assert restored.returncode == 0, restored.stderr

        async def find() -> tuple[int, int] | None:
            store = await PostgresStore.open(target)
            try:
                async with store.unit() as repo:
                    record = await repo.live_game_in_channel(CHANNEL)
                    return None if record is None else (record.id, len(record.seats))
            finally:
                await store.close()

        assert asyncio.run(find()) == (game_id, 2)
    finally:
        pg_databases.drop(target)


def test_the_forget_script_erases_on_postgresql(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    user, name = 712345678901234567, "Ottoline Vexhammer"

    async def lobby() -> None:
        manager = await SessionManager.open(pg_url)
        try:
            await manager.create_lobby(
                guild_id=1, channel_id=5, host_id=user, host_name=name, ruleset=preset("classic")
            )
        finally:
            await manager.close()

    async def traces() -> int:
        store = await PostgresStore.open(pg_url)
        try:
            async with store.transaction() as conn:
                rows = await conn.execute_fetchall(
                    "SELECT count(*) FROM seats WHERE user_id = ? OR display_name = ?",
                    (user, name),
                )
                return int(rows[0][0])
        finally:
            await store.close()

    asyncio.run(lobby())
    assert asyncio.run(traces()) == 1
    monkeypatch.setenv("RUMMY_ENV_FILE", "")
    monkeypatch.setenv("DATABASE_URL", pg_url)
    assert forget_main(["--user", str(user)]) == 0
    assert f"user {user}: 1 live games ended" in capsys.readouterr().out
    assert asyncio.run(traces()) == 0


def test_the_forget_script_ends_live_games_once_the_bots_are_stopped(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bots that ran leave their leases behind, which fence live games: the script takes
    every shard for itself while it erases, which it can only once no bot holds one."""
    user = 712345678901234567

    async def lobby_and_a_bot() -> None:
        manager = await SessionManager.open(pg_url)
        try:
            await manager.create_lobby(
                guild_id=1 << 22,
                channel_id=5,
                host_id=user,
                host_name="O",
                ruleset=preset("classic"),
            )
        finally:
            await manager.close()
        async with leases() as held:
            assert await held.acquire({0, 1}, 2, "bot", 60) == {0: 1, 1: 1}

    async def bot_stopped() -> None:
        async with leases() as held:
            await held.release({0, 1}, "bot")

    @contextlib.asynccontextmanager
    async def leases() -> AsyncIterator[Leases]:
        held = await Leases.open(pg_url)
        try:
            yield held
        finally:
            await held.close()

    async def live() -> int:
        manager = await SessionManager.open(pg_url)
        try:
            async with manager.store.unit() as repo:
                return len(await repo.live_games())
        finally:
            await manager.close()

    monkeypatch.setenv("RUMMY_ENV_FILE", "")
    monkeypatch.setenv("DATABASE_URL", pg_url)
    asyncio.run(lobby_and_a_bot())
    assert forget_main(["--user", str(user)]) == 2  # a bot holds shards: nothing changes
    assert "stop every bot process first" in capsys.readouterr().err
    assert asyncio.run(live()) == 1
    asyncio.run(bot_stopped())
    assert forget_main(["--user", str(user)]) == 0
    assert f"user {user}: 1 live games ended" in capsys.readouterr().out
    assert asyncio.run(live()) == 0
