"""Numbered SQL migrations, applied in order and recorded in ``PRAGMA user_version``.

Each file ``migrations/NNNN_name.sql`` runs inside one transaction together with the
version bump, so a failing migration leaves the database exactly at the version before it.
The version lives in the database header, which keeps the recorded version and the schema
in the same atomic write.

Foreign keys are off while a migration runs (SQLite's own procedure for rebuilding a table:
with them on, dropping the old table would cascade into every row that refers to it) and the
whole database is checked for dangling references before the commit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

import aiosqlite

_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")


class MigrationError(RuntimeError):
    """The migration files or the database's recorded version make no sense together."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations() -> tuple[Migration, ...]:
    """The migrations shipped in the package, checked to be numbered 1, 2, 3, … without gaps."""
    return numbered(resources.files("bot.storage").joinpath("migrations"))


def numbered(folder: Traversable) -> tuple[Migration, ...]:
    """The ``NNNN_name.sql`` files of ``folder`` in order, checked to be numbered 1, 2, 3, …
    without gaps (SQLite's and PostgreSQL's folders alike)."""
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1, 2, 3, … without gaps: {versions}")
    return tuple(found)


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def migrate(
    conn: aiosqlite.Connection,
    migrations: Sequence[Migration] | None = None,
    upto: int | None = None,
) -> int:
    """Bring the schema to version ``upto`` (default: the newest); returns the version reached.

    The connection must be in autocommit mode (``isolation_level=None``) and not inside a
    transaction: every migration opens and commits its own.
    """
    migrations = bundled_migrations() if migrations is None else tuple(migrations)
    target = len(migrations) if upto is None else upto
    current = await schema_version(conn)
    if current > len(migrations):
        raise MigrationError(
            f"the database is at schema version {current}, newer than this program"
            f" ({len(migrations)}): upgrade the bot instead of using an older one"
        )
    pending = migrations[current:target]
    if not pending:
        return current
    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        for migration in pending:
            script = (
                f"BEGIN IMMEDIATE;\n{migration.sql}\n;PRAGMA user_version = {migration.version};"
            )
            try:
                await conn.executescript(script)
                dangling = await conn.execute_fetchall("PRAGMA foreign_key_check")
                if dangling:
                    raise MigrationError(
                        f"migration {migration.version} ({migration.name}) leaves"
                        f" {len(list(dangling))} rows referring to nothing"
                    )
                await conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.rollback()
                raise
    finally:
        await conn.execute("PRAGMA foreign_keys = ON")
    return await schema_version(conn)
