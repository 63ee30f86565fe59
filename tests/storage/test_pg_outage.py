"""A PostgreSQL server that goes away and comes back, played by a TCP relay between the
store and the real server: while it is away a unit of work fails after the store's short
wait for a connection (a move is refused in seconds, not after half a minute), and once it
is back the very next unit works."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.storage import PostgresStore, StorageFailure
from bot.storage.leases import Leases
from bot.storage.pg_connection import POOL_WAIT
from tests.waiting import PATIENCE

pytestmark = pytest.mark.postgres_only

STORE_WAIT = 1.0
"""The store's wait for a connection here: shorter than the bot's own, long enough for a
loaded machine to connect while the server is up."""


class Relay:
    """Forwards TCP connections to the server while up; down, it cuts every connection
    and refuses new ones (as a stopped server does)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.up = True
        self.links: set[asyncio.Task[None]] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.close()
            return
        task = asyncio.current_task()
        assert task is not None
        self.links.add(task)
        try:
            far_reader, far_writer = await asyncio.open_connection(*self.target)
            try:
                await asyncio.gather(_pipe(reader, far_writer), _pipe(far_reader, writer))
            finally:
                far_writer.close()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            writer.close()
            self.links.discard(task)

    async def down(self) -> None:
        self.up = False
        for task in list(self.links):
            task.cancel()
        await asyncio.gather(*self.links, return_exceptions=True)

    async def close(self) -> None:
        await self.down()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while data := await reader.read(65536):
        writer.write(data)
        await writer.drain()


@contextlib.asynccontextmanager
async def relayed(url: str) -> AsyncIterator[tuple[Relay, str]]:
    parts = urlsplit(url)
    relay = Relay(parts.hostname or "localhost", parts.port or 5432)
    port = await relay.start()
    netloc = parts.netloc.rsplit("@", 1)
    address = f"127.0.0.1:{port}"
    through = f"{netloc[0]}@{address}" if len(netloc) == 2 else address
    try:
        yield relay, urlunsplit(parts._replace(netloc=through))
    finally:
        await relay.close()


async def games(store: PostgresStore) -> int:
    async with store.unit() as repo:
        return len(await repo.active_games())


async def test_a_unit_fails_soon_while_the_server_is_away_and_works_once_it_is_back(
    pg_url: str,
) -> None:
    async with relayed(pg_url) as (relay, url):
        store = await PostgresStore.open(url, pool_wait=STORE_WAIT)
        try:
            assert await games(store) == 0
            await relay.down()
            with pytest.raises(StorageFailure) as refused:
                await asyncio.wait_for(games(store), PATIENCE)
            # The pool's own refusal names its wait: the store's, not the pool's 30 s.
            assert f"couldn't get a connection after {STORE_WAIT:.2f} sec" in str(refused.value)
            with pytest.raises(StorageFailure):  # away a while: the reconnections give up
                await asyncio.wait_for(games(store), PATIENCE)
            relay.up = True
            assert await asyncio.wait_for(games(store), PATIENCE) == 0  # the very next one
        finally:
            await store.close()


ROUND = 5.0
"""The time limit of one round of the shard leases at the default lease (15 s / 3)."""


async def test_the_shard_leases_are_read_at_the_first_round_once_the_server_is_back(
    pg_url: str,
) -> None:
    """Away longer than a pool keeps reconnecting one slot: once the server is back, the
    lease table's next round gets a connection within its own time limit (no reconnection
    backoff grown meanwhile to wait for), so the process holds its shards again at once."""
    async with relayed(pg_url) as (relay, url):
        leases = await Leases.open(url)
        try:
            assert await leases.holders() == []
            await relay.down()
            with pytest.raises((StorageFailure, TimeoutError)):
                await asyncio.wait_for(leases.holders(), 1.0)  # the pool starts reconnecting
            await asyncio.sleep(POOL_WAIT + 3)
            relay.up = True
            assert await asyncio.wait_for(leases.holders(), ROUND) == []
        finally:
            await leases.close()
