"""Running on PostgreSQL: ``--check`` reports a schema to upgrade without upgrading it, and
opens a current one, never printing its password; ``make backup`` (``scripts/backup.py``)
and ``scripts/pg-backup.sh`` dump the database in use, read from ``.env`` too, and
``scripts/pg-restore.sh`` carries a game into another database; ``scripts/forget.py``
erases there."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.rummy import preset
from bot.sessions import SessionManager
from bot.storage import PostgresStore
from bot.storage.inspection import pg_versions
from bot.storage.leases import Leases
from bot.storage.pg_migrate import bundled_pg_migrations
from scripts.forget import main as forget_main
from tests.app.test_launcher import TOKEN, run_launcher
from tests.postgres import Databases
from tests.sessions.conftest import CHANNEL, start_game

pytestmark = pytest.mark.postgres_only

ROOT = Path(__file__).resolve().parents[2]


def test_check_upgrades_no_shared_schema_and_hides_the_password(
    tmp_path: Path, pg_databases: Databases
) -> None:
    url = pg_databases.create()
    newest = bundled_pg_migrations()[-1].version
    try:
        fresh = run_launcher(tmp_path, "--check", DISCORD_TOKEN=TOKEN, DATABASE_URL=url)
        assert fresh.returncode == 0, fresh.stdout + fresh.stderr
        assert (
            f"is at schema version 0; the bot's next start upgrades it to {newest}"
        ) in fresh.stdout
        assert asyncio.run(pg_versions(url)) == (0, newest)  # reported, not done
        asyncio.run(migrated(url))
        current = run_launcher(tmp_path, "--check", DISCORD_TOKEN=TOKEN, DATABASE_URL=url)
    finally:
        pg_databases.drop(url)
    assert current.returncode == 0, current.stdout + current.stderr
    assert "opened; 0 unfinished games read back" in current.stdout
    password = url.split("@")[0].rsplit(":", 1)[1]
    for output in (fresh, current):
        assert password not in output.stdout + output.stderr
    assert not (tmp_path / "data").exists()  # no SQLite file, no lock file


async def migrated(url: str) -> None:
    await (await PostgresStore.open(url)).close()


def test_make_backup_dumps_the_postgresql_database_named_in_env(
    tmp_path: Path, pg_url: str
) -> None:
    """``DATABASE_URL`` only in ``.env``: ``scripts/backup.py`` (``make backup``) and
    ``scripts/pg-backup.sh`` both dump PostgreSQL, into a folder they make owner-only."""
    (tmp_path / ".env").write_text(f"DATABASE_URL={pg_url}\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    env["RUMMY_ENV_FILE"] = ".env"
    made = subprocess.run(
        [sys.executable, str(ROOT / "scripts/backup.py"), "backups/first.dump"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    shelled = subprocess.run(
        ["sh", str(ROOT / "scripts/pg-backup.sh"), "backups/second.dump"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    for done, name in ((made, "first.dump"), (shelled, "second.dump")):
        assert done.returncode == 0, done.stderr
        dump = tmp_path / "backups" / name
        assert f"dumped to {dump}" in done.stdout
        assert stat.S_IMODE(dump.stat().st_mode) == 0o600
        listed = subprocess.run(
            ["pg_restore", "--list", str(dump)], capture_output=True, text=True, check=False
        )
        assert "TABLE DATA public games" in listed.stdout, listed.stderr
        password = pg_url.split("@")[0].rsplit(":", 1)[1]
        assert password not in done.stdout + done.stderr
    assert stat.S_IMODE((tmp_path / "backups").stat().st_mode) == 0o700
    assert not (tmp_path / "data").exists()  # the unused SQLite file was never made


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
