"""The one SQLite connection of the bot, and the lock that gives each transaction to itself.

aiosqlite runs every call of a connection on one worker thread, so two coroutines sharing
the connection would interleave their statements inside one transaction. Every use of the
connection therefore goes through :meth:`Database.transaction` (or :meth:`Database.unit`,
its repository face), which holds an ``asyncio.Lock`` from ``BEGIN`` to
``COMMIT``/``ROLLBACK``. Reads go through it as well: a read must never see another
coroutine's uncommitted writes.

The database holds people's ids and names, so its folder is private to the bot's user
(0700) and its files are too (0600). SQLite gives the ``-wal`` and ``-shm`` files the mode
of the database file, so creating that file 0600 before SQLite opens it covers all three.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import stat
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.errors import StorageFailure
from bot.storage.migrations import Migration, migrate
from bot.storage.sql_repository import SqlRepository

log = logging.getLogger(__name__)

# WAL lets a reader (a backup, the sqlite3 shell) look while the bot writes. synchronous=FULL
# syncs the log at every commit, so an acknowledged action survives a power cut and not only
# a killed process; it is well within the commit budget (see benchmarks/bench_storage.py).
# secure_delete zeroes deleted rows instead of leaving them in free pages, so a forgotten
# person's data is really gone (not every SQLite build turns it on by default).
_PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
    "PRAGMA secure_delete = ON",
)

FOLDER_MODE = 0o700
FILE_MODE = 0o600
_SIDE_FILES = ("-wal", "-shm", "-journal")


def _private_files(path: Path) -> None:
    """Create the database's folder and file for the bot's user only, and tighten files an
    older version left readable to others."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(mode=FOLDER_MODE, parents=True)
    elif stat.S_IMODE(folder.stat().st_mode) & 0o077:
        # Tighten a folder that holds nothing but the database; never someone's home.
        others = [p for p in folder.iterdir() if not p.name.startswith(path.name)]
        if not others:
            folder.chmod(FOLDER_MODE)
        else:
            log.warning(
                "the database folder %s is readable by other users; keep the database in a"
                " folder of its own so it can be made private",
                folder,
            )
    fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
    os.close(fd)
    _tighten(path)


def _tighten(path: Path) -> None:
    """Make the database's files owner-only (the folder was seen to by :func:`_private_files`,
    which warns about it once)."""
    for file in (path, *(path.with_name(path.name + s) for s in _SIDE_FILES)):
        with contextlib.suppress(FileNotFoundError):
            if stat.S_IMODE(file.stat().st_mode) != FILE_MODE:
                file.chmod(FILE_MODE)


async def _to_the_end(work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` to its end even when the caller is cancelled meanwhile: the lock must not
    be handed on with a transaction half closed. A cancel that came meanwhile is raised after."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    task.result()


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
        if str(path).startswith(("postgresql:", "postgres:")):
            raise ValueError("a PostgreSQL URL is opened with open_store, not as a SQLite file")
        path = Path(path)
        if str(path) != ":memory:":
            _private_files(path)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            for pragma in _PRAGMAS:
                await conn.execute(pragma)
            await migrate(conn, migrations, upto)
            if str(path) != ":memory:":
                _tighten(path)  # the -wal and -shm files exist now
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

        For code inside ``bot/storage`` and its tests only; everyone else uses :meth:`unit`.
        ``BEGIN IMMEDIATE`` takes the write lock up front, so a transaction never fails half
        way because another process (a backup tool) started writing first.
        """
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException:
                await _to_the_end(self._settle())
                raise

    async def _settle(self) -> None:
        """Roll back what a failed or cancelled transaction left open.

        A cancelled ``await`` does not stop aiosqlite's worker thread: the ``BEGIN`` or
        ``COMMIT`` it waited for may still run after the cancel. The no-op call waits for
        every call queued before it (the thread runs them in order), so the rollback sees
        the connection as it really is; without it, a cancel during ``BEGIN`` left the
        transaction open and every later unit failed ("cannot start a transaction within a
        transaction")."""
        await self._conn.execute("SELECT 1")
        if self._conn.in_transaction:
            await self._conn.rollback()

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[SqlRepository]:
        """A unit of work: the repository, inside one transaction.

        A failure of the database itself (a full disk, a corrupt file, a constraint that
        only a bug can break) leaves as :class:`StorageFailure`, never as a driver type.
        """
        try:
            async with self.transaction() as conn:
                yield SqlRepository(conn)
        except sqlite3.Error as error:
            raise StorageFailure(f"{type(error).__name__}: {error}") from error

    async def purge(self) -> None:
        """Push every committed page into the database file and empty the write-ahead log,
        so deleted rows (zeroed in the file by ``secure_delete``) leave no copy in ``-wal``."""
        async with self._lock:
            rows = await self._conn.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        busy = next(iter(rows))[0]
        if busy:
            log.warning("the write-ahead log could not be emptied: another reader holds it")
