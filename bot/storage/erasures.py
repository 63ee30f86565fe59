"""The SQL of erasures handed between processes (PostgreSQL only): a person's live games on
shards the receiving process does not hold are ended by those shards' holders.

The receiver stores one row per such shard and NOTIFYs the shard's channel (the one
forwarded clicks use, ``rummy_shard_<n>``, with a payload of its own) in one transaction,
so the holder never looks before the row is there. The holder erases the person from its
games, then deletes the row; a row of a shard nobody holds waits for the process that takes
it. The table is in ``pg_migrations/0005_erasure_across_shards.sql``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg_pool import AsyncConnectionPool

from bot.storage.forwarded import ShardListener, channel_of

LISTENER_NAME = "rummy-erasures"
"""The listening connection's ``application_name`` (seen in ``pg_stat_activity``)."""

PAYLOAD_PREFIX = "erase:"
"""What an erasure's NOTIFY payload starts with (a forwarded click's is a bare number)."""


@dataclass(frozen=True, slots=True)
class ErasureRequest:
    user_id: int
    shard_id: int
    requested_at: datetime


def is_erasure(payload: str) -> bool:
    """Whether a payload notified on a shard's channel announces an erasure."""
    return payload.startswith(PAYLOAD_PREFIX)


class ErasureRequests:
    """The requests on the shared database; ``pool`` is the store's own and ``url`` the
    database's (the listening connection is opened apart from the pool)."""

    def __init__(self, pool: AsyncConnectionPool[Any], url: str) -> None:
        self.pool = pool
        self.url = url

    async def ask(self, user_id: int, shards: Collection[int]) -> None:
        """Ask the holders of ``shards`` to erase ``user_id`` from their live games, and wake
        them: rows and NOTIFYs go out together at the commit."""
        if not shards:
            return
        async with self.pool.connection() as conn, conn.transaction():
            for shard in sorted(shards):
                await conn.execute(
                    "INSERT INTO erasure_requests (user_id, shard_id) VALUES (%s, %s)"
                    " ON CONFLICT (user_id, shard_id)"
                    " DO UPDATE SET requested_at = excluded.requested_at",
                    (user_id, shard),
                )
                await conn.execute(
                    "SELECT pg_notify(%s, %s)",
                    (channel_of(shard), f"{PAYLOAD_PREFIX}{user_id}"),
                )

    async def pending(self, shards: Collection[int]) -> list[ErasureRequest]:
        """The requests waiting for the holder of ``shards``, oldest first."""
        if not shards:
            return []
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT user_id, shard_id, requested_at FROM erasure_requests"
                " WHERE shard_id = ANY(%s) ORDER BY requested_at, user_id, shard_id",
                (sorted(shards),),
            )
            rows = await cur.fetchall()
        return [ErasureRequest(int(r[0]), int(r[1]), r[2]) for r in rows]

    async def done(self, request: ErasureRequest) -> None:
        """``request`` was carried out (a request made again meanwhile stays, for another
        pass)."""
        async with self.pool.connection() as conn:
            await conn.execute(
                "DELETE FROM erasure_requests"
                " WHERE user_id = %s AND shard_id = %s AND requested_at = %s",
                (request.user_id, request.shard_id, request.requested_at),
            )

    def listener(self) -> ShardListener:
        return ShardListener(self.url, LISTENER_NAME)
