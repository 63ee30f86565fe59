"""The PostgreSQL store: the same repository as SQLite's, on a pool of connections.

Chosen by :func:`bot.storage.open_store` for a ``postgresql://`` URL. One unit of work is
one pooled connection inside one transaction (PostgreSQL's default, read committed); units
run side by side, unlike SQLite's one connection and one lock. What that changes:

- a conditional write that waits for another transaction's row re-reads it first, so two
  writers of one game still end in :class:`~bot.storage.errors.GameChanged` for the second;
- league writes take a per-server advisory lock for the rest of their transaction (the
  dialect's ``league_lock``), so two games of one server finishing together are serialized;
- the connection options of the URL (``options=-c name%3Dvalue``) reach every pooled
  connection, which the cluster's fencing relies on.

Sessions keep the time zone UTC, so stored times come back as UTC ``datetime`` values.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from bot.storage.errors import LeaseLost, StorageError, StorageFailure
from bot.storage.leases import LEASE_LOST_SQLSTATE
from bot.storage.migrations import Migration
from bot.storage.pg_connection import POOL_WAIT, PgConnection
from bot.storage.pg_migrate import pg_migrate
from bot.storage.sql_repository import SqlRepository

URL_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


async def _utc(conn: psycopg.AsyncConnection[Any]) -> None:
    await conn.execute("SET TIME ZONE 'UTC'")


class PostgresStore:
    """Open with :meth:`open` (which also migrates), close with :meth:`close`."""

    def __init__(self, pool: AsyncConnectionPool[Any], url: str) -> None:
        self.pool = pool
        self.url = url

    @classmethod
    async def open(
        cls,
        url: str,
        migrations: Sequence[Migration] | None = None,
        upto: int | None = None,
        *,
        max_size: int = 10,
        pool_wait: float = POOL_WAIT,
    ) -> PostgresStore:
        """Connect a pool to ``url`` and apply pending migrations (``migrations`` and
        ``upto`` exist for tests of the migrations themselves; ``pool_wait`` for tests of an
        outage, which need not wait the bot's own :data:`POOL_WAIT`)."""
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                await pg_migrate(conn, migrations, upto)
        except psycopg.Error as error:
            raise StorageFailure(f"{type(error).__name__}: {error}") from error
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs={"autocommit": True},
            configure=_utc,
            # One round trip more per unit, so a server restart costs no failed move.
            check=AsyncConnectionPool.check_connection,
            timeout=pool_wait,
            reconnect_timeout=pool_wait,
            open=False,
            name="store",
        )
        await pool.open(wait=True)
        return cls(pool, url)

    async def close(self) -> None:
        await self.pool.close()

    async def __aenter__(self) -> PostgresStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """A pooled connection inside a transaction that commits when the block ends
        normally. For code inside ``bot/storage`` and its tests only; everyone else uses
        :meth:`unit`. A connection a cancel left mid-statement is discarded by the pool."""
        async with self.pool.connection() as conn, conn.transaction():
            yield PgConnection(conn)

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[SqlRepository]:
        """A unit of work: the repository, inside one transaction. The driver's failures
        leave as :class:`StorageFailure`; :class:`DuplicateLiveGame` and
        :class:`GameChanged` as on SQLite; a game write the fencing refused (this process no
        longer holds the shard) as :class:`LeaseLost`."""
        try:
            async with self.transaction() as conn:
                yield SqlRepository(conn)
        except StorageError:
            raise
        except psycopg.Error as error:
            if error.sqlstate == LEASE_LOST_SQLSTATE:
                raise LeaseLost(error.diag.message_primary or str(error)) from error
            raise StorageFailure(f"{type(error).__name__}: {error}") from error

    async def purge(self) -> None:
        """Let PostgreSQL reclaim deleted rows now rather than when autovacuum comes by:
        ``VACUUM`` marks their space free for reuse (their bytes stay in the data files until
        overwritten). What it cannot do: rows already written to the write-ahead log, to
        archived WAL, to base backups and to replicas stay there until those age out or are
        rotated; deleting a person's data on PostgreSQL is complete only then."""
        async with self.pool.connection() as conn:
            await conn.execute("VACUUM")
