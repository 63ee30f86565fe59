"""What ``--check`` reads of a database without changing it: SQLite's own verdict on its
pages, and how far a PostgreSQL schema is from this program's.

A check must see what a start would see, and must leave things as they are: it never
creates a database, and it never upgrades a schema that other processes may be using.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from bot.storage.errors import StorageFailure
from bot.storage.pg_migrate import bundled_pg_migrations, pg_schema_version

CONNECT_SECONDS = 10
"""How long a check waits for a PostgreSQL server to accept the connection."""


def sqlite_verdict(path: Path) -> str:
    """SQLite's ``PRAGMA quick_check`` of the file at ``path``, read-only: ``"ok"`` for a
    sound file, else what it found (a damaged page, a torn index)."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            found = [str(row[0]) for row in conn.execute("PRAGMA quick_check")]
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise StorageFailure(f"{type(error).__name__}: {error}") from error
    return "; ".join(found[:3]) if found else "no answer"


async def pg_versions(url: str) -> tuple[int, int]:
    """The schema version of the PostgreSQL database at ``url``, and this program's."""
    try:
        async with await psycopg.AsyncConnection.connect(
            url, autocommit=True, connect_timeout=CONNECT_SECONDS
        ) as conn:
            current = await pg_schema_version(conn)
    except psycopg.Error as error:
        raise StorageFailure(f"{type(error).__name__}: {error}") from error
    return current, len(bundled_pg_migrations())
