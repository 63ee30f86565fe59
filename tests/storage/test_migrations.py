"""The schema is the same however a database got there, and a failed step changes nothing."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import Database, GameStatus, MigrationError
from bot.storage.migrations import Migration, bundled_migrations, schema_version
from bot.storage.models import to_db_time
from bot.storage.sql_repository import SqlRepository
from bot.values.clock import utc_now

pytestmark = pytest.mark.sqlite_only

MIGRATIONS = bundled_migrations()


async def schema(path: Path) -> tuple[int, list[tuple[str, str, str]]]:
    async with aiosqlite.connect(path) as conn:
        rows = await conn.execute_fetchall(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
        )
        return await schema_version(conn), [(row[0], row[1], row[2]) for row in rows]


async def test_migrations_are_numbered_from_one() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert MIGRATIONS[0].name == "initial"


@pytest.mark.parametrize("start", range(len(MIGRATIONS) + 1))
async def test_every_earlier_version_upgrades_to_the_same_schema(
    tmp_path: Path, start: int
) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    await (await Database.open(fresh)).close()

    stepwise = tmp_path / "stepwise.sqlite3"
    for version in range(start, len(MIGRATIONS) + 1):
        database = await Database.open(stepwise, upto=version)
        await database.close()
        assert (await schema(stepwise))[0] == version

    assert await schema(stepwise) == await schema(fresh)
    assert (await schema(fresh))[0] == len(MIGRATIONS)


async def test_opening_twice_applies_nothing_twice(db_path: Path) -> None:
    await (await Database.open(db_path)).close()
    before = await schema(db_path)
    await (await Database.open(db_path)).close()
    assert await schema(db_path) == before


async def test_a_failing_migration_leaves_the_previous_version(db_path: Path) -> None:
    broken = (
        *MIGRATIONS,
        Migration(
            len(MIGRATIONS) + 1,
            "broken",
            "CREATE TABLE half_done (x INTEGER); INSERT INTO no_such_table VALUES (1);",
        ),
    )
    with pytest.raises(aiosqlite.OperationalError, match="no_such_table"):
        await Database.open(db_path, migrations=broken)
    version, objects = await schema(db_path)
    assert version == len(MIGRATIONS)
    assert "half_done" not in {name for _, name, _ in objects}


async def test_a_newer_database_is_refused(db_path: Path) -> None:
    db_path.parent.mkdir()
    async with aiosqlite.connect(db_path) as conn:
        await conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(MigrationError, match="newer than this program"):
        await Database.open(db_path)


async def test_connection_settings(db: Database) -> None:
    async with db.transaction() as conn:
        pragmas = {}
        for name in ("journal_mode", "foreign_keys", "synchronous"):
            rows = await conn.execute_fetchall(f"PRAGMA {name}")
            pragmas[name] = next(iter(rows))[0]
    assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "synchronous": 2}


async def test_games_stored_before_lobbies_keep_every_row(db_path: Path) -> None:
    """The rebuild of ``games`` for lobbies keeps games, their seats, logs and league rows."""
    old = await Database.open(db_path, upto=1)
    async with old.transaction() as conn:
        for game_id, status in ((1, "active"), (2, "finished")):
            await conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, seed, status,"
                " created_at, finished_at, action_count, snapshot)"
                " VALUES (?, 5, ?, 7, '{\"name\": \"classic\"}', 3, ?, '2025-01-01T00:00:00+00:00',"
                " ?, 1, '{}')",
                (game_id, 10 + game_id, status, None if status == "active" else "2025-01-02"),
            )
            await conn.execute(
                "INSERT INTO seats VALUES (?, 0, '7', 'human', 7, 'Ann')", (game_id,)
            )
            await conn.execute(
                "INSERT INTO actions VALUES (?, 1, '{\"type\": \"draw\"}', '2025-01-01')",
                (game_id,),
            )
        await conn.execute("INSERT INTO standings VALUES (2, 0, 1, 50, 1)")
    await old.close()

    database = await Database.open(db_path)
    try:
        async with database.transaction() as conn:
            live = await SqlRepository(conn).live_games()
            finished = await SqlRepository(conn).load_game(2)
            log = await SqlRepository(conn).game_actions(1)
            standings = await conn.execute_fetchall("SELECT * FROM standings")
            problems = await conn.execute_fetchall("PRAGMA foreign_key_check")
            await conn.execute("DELETE FROM games WHERE id = 1")
            cascaded = await conn.execute_fetchall("SELECT count(*) FROM seats WHERE game_id = 1")
    finally:
        await database.close()
    assert [(r.id, r.status, r.seats[0].display_name) for r in live] == [
        (1, GameStatus.ACTIVE, "Ann")
    ]
    assert finished is not None
    assert finished.status is GameStatus.FINISHED
    assert log == [{"type": "draw"}]
    assert [tuple(r) for r in standings] == [(2, 0, 1, 50, 1)]
    assert list(problems) == []
    assert next(iter(cascaded))[0] == 0  # the references still point at the rebuilt table


async def test_a_running_deadline_keeps_its_time_left_through_the_upgrade(db_path: Path) -> None:
    """Stored as a moment before version 12, read as the time it had left after it."""
    old = await Database.open(db_path, upto=11)
    async with old.transaction() as conn:
        await conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, seed, status,"
            " created_at, action_count, snapshot, turn_timer)"
            " VALUES (1, 5, 11, 7, '{\"name\": \"classic\"}', 3, 'active',"
            " '2025-01-01T00:00:00+00:00', 0, '{}', 1)"
        )
        await conn.execute(
            "INSERT INTO seats (game_id, seat, player_id, kind, user_id,"
            " display_name) VALUES (1, 0, '7', 'human', 7, 'Ann')"
        )
        await conn.execute(
            "INSERT INTO turn_deadlines (game_id, turn, player, deadline, reminded)"
            " VALUES (1, 0, '7', ?, 1)",
            (to_db_time(utc_now() + timedelta(seconds=45)),),
        )
    await old.close()
    database = await Database.open(db_path)
    try:
        async with database.transaction() as conn:
            (record,) = await SqlRepository(conn).live_games()
    finally:
        await database.close()
    assert record.deadline is not None
    assert (record.deadline.turn, record.deadline.player, record.deadline.reminded) == (
        0,
        "7",
        True,
    )
    left = record.deadline.at - utc_now()
    assert timedelta(seconds=15) < left <= timedelta(seconds=45)
