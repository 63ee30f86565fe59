"""PostgreSQL's numbered migrations (``pg_migrations/NNNN_name.sql``), applied in order and
recorded in the ``schema_migrations`` table.

Several processes may start together on one fresh database: the whole run holds a
session-level advisory lock, so one applies what is pending while the others wait and then
find nothing left to do. Each migration commits together with its row in
``schema_migrations``, so a failing one leaves the database at the version before it. A
database newer than the program is refused, like SQLite's.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

import psycopg

from bot.storage.migrations import Migration, MigrationError, numbered

# The advisory lock of the migration run: a fixed key of this program's own
# ("rummy" in ASCII); league and lease locks use keys of their own.
MIGRATION_LOCK = 0x72756D6D79


def bundled_pg_migrations() -> tuple[Migration, ...]:
    """The PostgreSQL migrations shipped in the package, numbered 1, 2, 3, … without gaps."""
    return numbered(resources.files("bot.storage").joinpath("pg_migrations"))


async def pg_schema_version(conn: psycopg.AsyncConnection[Any]) -> int:
    """The newest applied migration (0 on a database the bot never used)."""
    cursor = await conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
    row = await cursor.fetchone()
    if row is None or not row[0]:
        return 0
    cursor = await conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations")
    row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def pg_migrate(
    conn: psycopg.AsyncConnection[Any],
    migrations: Sequence[Migration] | None = None,
    upto: int | None = None,
) -> int:
    """Bring the schema to version ``upto`` (default: the newest); returns the version
    reached. ``conn`` is in autocommit mode; ``migrations`` and ``upto`` exist for tests."""
    migrations = bundled_pg_migrations() if migrations is None else tuple(migrations)
    target = len(migrations) if upto is None else upto
    await conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY,"
            " name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        current = await pg_schema_version(conn)
        if current > len(migrations):
            raise MigrationError(
                f"the database is at schema version {current}, newer than this program"
                f" ({len(migrations)}): upgrade the bot instead of using an older one"
            )
        for migration in migrations[current:target]:
            async with conn.transaction():
                await conn.execute(migration.sql.encode())
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )
        return await pg_schema_version(conn)
    finally:
        await conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
