"""The SQL of forwarded clicks: a click received by one process for a game another process
owns, handed over through PostgreSQL (a row, and a NOTIFY on the owner's shard channel).

NOTIFY carries the interaction's id only (PostgreSQL refuses payloads of 8,000 bytes and
more; an interaction with its member and message is often larger). Whoever deletes the row
owns the click: the owner when it claims it in time, the receiver when it gives up. A
``DELETE … RETURNING`` cannot succeed twice, so a click is applied once or answered as
failed, never both.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Collection
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

LIVE_STATUSES = ("lobby", "active")
"""A game in one of these is kept in its owner's memory; the others are over."""


LISTENER_NAME = "rummy-forwarded-clicks"
"""The listening connection's ``application_name`` (seen in ``pg_stat_activity``)."""


@dataclass(frozen=True)
class GamePlace:
    guild_id: int
    holder: str | None
    """The live lease holder of the server's shard; None when nobody holds it now."""


def channel_of(shard: int) -> str:
    """The NOTIFY channel the owner of ``shard`` listens on."""
    return f"rummy_shard_{shard}"


class ForwardedClicks:
    """Queries on the shared database for forwarding; ``pool`` is the store's own and
    ``url`` the database's (the listening connection is opened apart from the pool)."""

    def __init__(self, pool: AsyncConnectionPool[Any], url: str) -> None:
        self.pool = pool
        self.url = url

    async def place_of(self, game_id: int, shard_count: int) -> GamePlace | None:
        """Where game ``game_id`` is played, while it is in a lobby or running (None once it
        is over, or for no such game): its server, and the process holding the lease of that
        server's shard now (None when the lease has run out). One query: a click waits on it.
        The shard is Discord's ``(guild_id >> 22) % shard_count``, as the fencing reads it."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT g.guild_id, l.owner FROM games AS g"
                " LEFT JOIN shard_leases AS l"
                " ON l.shard_id = (g.guild_id >> 22) %% %s AND l.expires_at > now()"
                " WHERE g.id = %s AND g.status = ANY(%s)",
                (shard_count, game_id, list(LIVE_STATUSES)),
            )
            row = await cur.fetchone()
        if row is None:
            return None
        return GamePlace(int(row[0]), None if row[1] is None else str(row[1]))

    async def forward(self, interaction_id: int, shard: int, payload: dict[str, Any]) -> bool:
        """Store the click for ``shard``'s owner and wake it, in one statement (its own
        transaction: the NOTIFY goes out at its commit, so the owner never looks before the
        row is there); False when this interaction was forwarded before (the key refuses it:
        a repeat is never handed on twice)."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "WITH stored AS (INSERT INTO forwarded_clicks (interaction_id, shard, payload)"
                " VALUES (%s, %s, %s) ON CONFLICT DO NOTHING RETURNING interaction_id)"
                " SELECT pg_notify(%s, CAST(interaction_id AS text)) FROM stored",
                (interaction_id, shard, json.dumps(payload), channel_of(shard)),
            )
            return len(await cur.fetchall()) == 1

    async def claim(self, interaction_id: int) -> dict[str, Any] | None:
        """Take the click out of the table: its payload for the one caller that got it."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "DELETE FROM forwarded_clicks WHERE interaction_id = %s RETURNING payload",
                (interaction_id,),
            )
            row = await cur.fetchone()
        return None if row is None else _payload(row[0])

    async def waiting(self, shards: Collection[int]) -> list[int]:
        """The ids of clicks waiting for ``shards``' owner (for one that missed a NOTIFY
        while it was reconnecting)."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT interaction_id FROM forwarded_clicks WHERE shard = ANY(%s)"
                " ORDER BY interaction_id",
                (sorted(shards),),
            )
            rows = await cur.fetchall()
        return [int(r[0]) for r in rows]

    async def prune(self, older_than_seconds: float) -> int:
        """Drop rows nobody claimed (a receiver that died before giving up): too old to
        answer, they must never be applied."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "DELETE FROM forwarded_clicks WHERE created_at < now() - make_interval(secs => %s)",
                (older_than_seconds,),
            )
        return int(cur.rowcount)

    def listener(self) -> ShardListener:
        return ShardListener(self.url)


class ShardListener:
    """A connection of its own that LISTENs on shards' channels (a pooled connection would
    be handed to other work between notifications). ``listen`` follows the shards held."""

    def __init__(self, url: str, name: str = LISTENER_NAME) -> None:
        self._url = url
        self._name = name
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._channels: set[int] = set()

    async def connect(self) -> None:
        await self.close()
        self._conn = await psycopg.AsyncConnection.connect(
            self._url, autocommit=True, application_name=self._name
        )
        self._channels = set()

    async def follow(self, shards: Collection[int]) -> None:
        """LISTEN on the channels of ``shards`` and on no others."""
        conn = self._connected()
        wanted = set(shards)
        for shard in sorted(wanted - self._channels):
            await conn.execute(f'LISTEN "{channel_of(int(shard))}"')
        for shard in sorted(self._channels - wanted):
            await conn.execute(f'UNLISTEN "{channel_of(int(shard))}"')
        self._channels = wanted

    async def payloads(self, timeout: float) -> AsyncGenerator[str]:
        """Every payload notified on the channels followed within ``timeout`` seconds."""
        conn = self._connected()
        async for note in conn.notifies(timeout=timeout):
            yield note.payload

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.closed:
            await asyncio.shield(conn.close())

    def _connected(self) -> psycopg.AsyncConnection[Any]:
        if self._conn is None or self._conn.closed:
            raise ConnectionError("the listening connection is closed")
        return self._conn


def _payload(value: Any) -> dict[str, Any]:
    data = json.loads(value) if isinstance(value, str | bytes) else value
    if not isinstance(data, dict):
        raise ValueError("a forwarded click's payload is not an object")
    return data
