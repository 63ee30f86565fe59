"""The shard leases' SQL (PostgreSQL only): take a shard, keep it, give it back, and see
who holds what. The loop that calls these is :class:`bot.cluster.leases.LeaseKeeper`.

Every time is the database's own (``clock_timestamp()``), so the machines' clocks never have
to agree; a lease is live while ``expires_at`` is in the future. The table and the fencing
triggers that read it are in ``pg_migrations/0003_shard_leases.sql``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from bot.storage.errors import StorageError, StorageFailure
from bot.storage.pg_connection import POOL_WAIT

LEASE_LOST_SQLSTATE = "RLEAS"
"""The SQLSTATE of the fencing triggers' refusal (:class:`~bot.storage.errors.LeaseLost`)."""

RELEASED = "rummy_leases"
"""The channel a release is announced on (LISTEN/NOTIFY): standbys take the shards at once
instead of at their next round."""

LOCK_WAIT = "2s"
"""How long taking a shard over waits for the writes in flight of its last holder."""


class ShardCountMismatch(StorageError):
    """Live leases in the database were taken with another shard count: every process of a
    bot must run with the same ``SHARD_COUNT``."""


@dataclass(frozen=True, slots=True)
class Lease:
    shard_id: int
    shard_count: int
    owner: str
    generation: int
    expires_at: datetime
    live: bool
    """Whether the lease had not expired when it was read."""
    remaining: float
    """Seconds from the read to its expiry, by the database's clock (negative: expired)."""


def owner_url(url: str, owner: str) -> str:
    """``url`` whose every connection carries ``rummy.owner = owner``, the identity the
    fencing triggers compare with the lease's holder (libpq's ``options=-c …``, added to
    options the URL may have already)."""
    if any(c.isspace() or c == "\\" for c in owner):
        raise ValueError(f"an owner identity has no spaces or backslashes: {owner!r}")
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    setting = f"-c rummy.owner={owner}"
    for i, (key, value) in enumerate(query):
        if key == "options":
            query[i] = (key, f"{value} {setting}".strip())
            break
    else:
        query.append(("options", setting))
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote, safe="")))


class Leases:
    """The lease table, on a small pool of its own: renewals never wait behind the games'
    writes for a connection, and the leases can be released after the games' store closed.
    Every driver failure leaves as :class:`~bot.storage.errors.StorageFailure`."""

    def __init__(self, pool: AsyncConnectionPool[AsyncConnection[Any]], url: str) -> None:
        self._pool = pool
        self._url = url

    @classmethod
    async def open(cls, url: str) -> Leases:
        """Connect to the database at ``url`` (already migrated by the store)."""
        pool: AsyncConnectionPool[AsyncConnection[Any]] = AsyncConnectionPool(
            url,
            min_size=1,
            max_size=2,
            kwargs={"autocommit": True},
            check=AsyncConnectionPool.check_connection,
            # Back within seconds of the server: see POOL_WAIT.
            reconnect_timeout=POOL_WAIT,
            open=False,
            name="leases",
        )
        try:
            await pool.open(wait=True)
        except (psycopg.Error, PoolTimeout) as error:
            await pool.close()
            raise StorageFailure(f"{type(error).__name__}: {error}") from error
        return cls(pool, url)

    async def close(self) -> None:
        await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[AsyncConnection[Any]]:
        try:
            async with self._pool.connection() as conn:
                yield conn
        except (psycopg.Error, PoolTimeout, OSError) as error:
            raise StorageFailure(f"{type(error).__name__}: {error}") from error

    async def check_shard_count(self, shard_count: int) -> None:
        """Make the lease table agree with ``shard_count``: leases of another count that have all
        expired (every process stopped, then restarted with a new count) are cleared; a live one
        raises :class:`ShardCountMismatch`."""
        async with self._connection() as conn, conn.transaction():
            await conn.execute("LOCK TABLE shard_leases IN SHARE ROW EXCLUSIVE MODE")
            cursor = await conn.execute(
                "SELECT shard_count, owner FROM shard_leases"
                " WHERE shard_count <> %s AND expires_at > clock_timestamp() LIMIT 1",
                (shard_count,),
            )
            live = await cursor.fetchone()
            if live is not None:
                raise ShardCountMismatch(
                    f"shards are held with SHARD_COUNT={live[0]} by {live[1]}; every process of"
                    f" the bot needs the same count (this one has {shard_count})"
                )
            await conn.execute("DELETE FROM shard_leases WHERE shard_count <> %s", (shard_count,))

    async def acquire(
        self,
        shard_ids: Collection[int],
        shard_count: int,
        owner: str,
        ttl: float,
        departed: Collection[str] = (),
    ) -> dict[int, int]:
        """Take each of ``shard_ids`` that is free, whose lease expired or whose holder is one
        of ``departed`` (processes known to be dead), for ``ttl`` seconds; returns the shards
        taken and their generation (one more than the last holder's). A shard whose last
        holder still has a write in flight is taken once that write is done."""
        if not shard_ids:
            return {}
        async with self._connection() as conn, conn.transaction():
            await conn.execute(f"SET LOCAL lock_timeout = '{LOCK_WAIT}'")
            cursor = await conn.execute(
                "INSERT INTO shard_leases AS l"
                " (shard_id, shard_count, owner, generation, expires_at)"
                " SELECT s, %s, %s, 1, clock_timestamp() + make_interval(secs => %s)"
                " FROM unnest(%s::integer[]) AS s"
                " ON CONFLICT (shard_id) DO UPDATE SET owner = excluded.owner,"
                " shard_count = excluded.shard_count, generation = l.generation + 1,"
                " expires_at = excluded.expires_at"
                " WHERE l.expires_at <= clock_timestamp() OR l.owner = ANY(%s::text[])"
                " RETURNING shard_id, generation",
                (shard_count, owner, ttl, sorted(shard_ids), sorted(departed)),
            )
            taken = {int(row[0]): int(row[1]) for row in await cursor.fetchall()}
            if taken:
                await conn.execute(
                    "DELETE FROM shard_claims WHERE shard_id = ANY(%s)", (sorted(taken),)
                )
            return taken

    async def renew(self, shard_ids: Collection[int], owner: str, ttl: float) -> dict[int, int]:
        """Extend ``owner``'s leases of ``shard_ids`` by ``ttl`` seconds from now, each only while
        it is still ``owner``'s and live; returns the shards kept and their generation."""
        if not shard_ids:
            return {}
        async with self._connection() as conn:
            cursor = await conn.execute(
                "UPDATE shard_leases SET expires_at = clock_timestamp() + make_interval(secs => %s)"
                " WHERE shard_id = ANY(%s) AND owner = %s AND expires_at > clock_timestamp()"
                " RETURNING shard_id, generation",
                (ttl, sorted(shard_ids), owner),
            )
            return {int(row[0]): int(row[1]) for row in await cursor.fetchall()}

    async def release(self, shard_ids: Collection[int], owner: str) -> None:
        """Give ``owner``'s leases of ``shard_ids`` up now (a clean stop or a hand-back), so
        another process takes them at once; ``owner``'s claims go too."""
        async with self._connection() as conn, conn.transaction():
            await conn.execute(
                "UPDATE shard_leases SET expires_at = clock_timestamp()"
                " WHERE shard_id = ANY(%s) AND owner = %s AND expires_at > clock_timestamp()",
                (sorted(shard_ids), owner),
            )
            await conn.execute("DELETE FROM shard_claims WHERE owner = %s", (owner,))
            await conn.execute("SELECT pg_notify(%s, '')", (RELEASED,))

    async def listen_for_releases(self, heard: Callable[[], None]) -> None:
        """Call ``heard`` each time some process releases leases; runs until cancelled, on a
        connection of its own (a listening connection cannot go back to the pool)."""
        try:
            async with await AsyncConnection.connect(self._url, autocommit=True) as conn:
                await conn.execute(f"LISTEN {RELEASED}")
                async for _ in conn.notifies():
                    heard()
        except (psycopg.Error, OSError) as error:
            raise StorageFailure(f"{type(error).__name__}: {error}") from error

    async def holders(self) -> list[Lease]:
        """Every lease row, live or expired, by shard."""
        async with self._connection() as conn:
            cursor = await conn.execute(
                "SELECT shard_id, shard_count, owner, generation, expires_at,"
                " expires_at > clock_timestamp(),"
                " extract(epoch FROM expires_at - clock_timestamp())::float8"
                " FROM shard_leases ORDER BY shard_id"
            )
            return [Lease(*row) for row in await cursor.fetchall()]

    async def claim(self, shard_ids: Collection[int], owner: str) -> None:
        """``owner`` waits for ``shard_ids`` (its own shards, held by a process that took them
        over): the holder hands them back (:func:`claims`)."""
        if not shard_ids:
            return
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO shard_claims (shard_id, owner, claimed_at)"
                " SELECT s, %s, clock_timestamp() FROM unnest(%s::integer[]) AS s"
                " ON CONFLICT (shard_id) DO UPDATE SET owner = excluded.owner,"
                " claimed_at = excluded.claimed_at",
                (owner, sorted(shard_ids)),
            )

    async def claims(self, within: float) -> dict[int, str]:
        """The shards some process claimed in the last ``within`` seconds, and who claimed them."""
        async with self._connection() as conn:
            cursor = await conn.execute(
                "SELECT shard_id, owner FROM shard_claims"
                " WHERE claimed_at > clock_timestamp() - make_interval(secs => %s)",
                (within,),
            )
            return {int(row[0]): str(row[1]) for row in await cursor.fetchall()}
