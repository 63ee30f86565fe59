"""The schema is the same however a database got there, and a failed step changes nothing."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.storage import Database, MigrationError
from bot.storage.migrations import Migration, bundled_migrations, schema_version

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
