"""The one SQLite connection of the bot, and the lock that gives each transaction to itself.

aiosqlite runs every call of a connection on one worker thread, so two coroutines sharing
the connection would interleave their statements inside one transaction. Every use of the
connection therefore goes through :meth:`Database.transaction`, which holds an
``asyncio.Lock`` from ``BEGIN`` to ``COMMIT``/``ROLLBACK``. Reads go through it as well: a
read must never see another coroutine's uncommitted writes.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.migrations import Migration, migrate

# WAL lets a reader (a backup, the sqlite3 shell) look while the bot writes. synchronous=FULL
# syncs the log at every commit, so an acknowledged action survives a power cut and not only
# a killed process; it is well within the commit budget (see benchmarks/bench_storage.py).
_PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
)


class Database:
    """Open with :meth:`open` (which also migrates), close with :meth:`close`."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(
        cls,
        path: Path | str,
        migrations: tuple[Migration, ...] | None = None,
        upto: int | None = None,
    ) -> Database:
        """Connect, set the connection's pragmas and apply pending migrations.

        ``migrations`` and ``upto`` exist for tests of the migrations themselves.
        """
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            for pragma in _PRAGMAS:
                await conn.execute(pragma)
            await migrate(conn, migrations, upto)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path)

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, inside a transaction that commits when the block ends normally.

        ``BEGIN IMMEDIATE`` takes the write lock up front, so a transaction never fails half
        way because another process (a backup tool) started writing first.
        """
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    await self._conn.rollback()
                raise
