"""Faults of the environment at the storage seam, for tests and benchmarks of how sessions
pick up after them: the real store, whose writes can be refused for a while, or whose
answer to a commit can be lost, or whose writes are slow."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.storage import Database, PostgresStore, Repository, StorageFailure

WRITES = frozenset(
    {
        "append_action",
        "record_round",
        "finish_game",
        "set_deadline",
        "set_stand_in",
        "update_lobby",
        "start_game",
        "abandon_game",
    }
)


class FaultyStore:
    """The real store, with faults of the environment to switch on: the database refuses
    the next ``refuse_times`` writes, or every write until ``refuse_until`` (monotonic
    seconds); or it commits the next unit and the answer is lost (``lose_answers``).
    ``targets``: the writes that can be refused."""

    def __init__(self, inner: Database | PostgresStore) -> None:
        self.inner = inner
        self.targets = WRITES
        self.refuse_times = 0
        self.refuse_until = 0.0
        self.lose_answers = 0
        self.delay = 0.0
        """Seconds each target write waits first (a database busy with someone else)."""
        self.held: asyncio.Event | None = None
        """Set by the test when the target writes may go on (a database busy until then)."""
        self.refused = 0
        self.lost = 0

    def refuses(self) -> bool:
        if self.refuse_times > 0:
            self.refuse_times -= 1
        elif time.monotonic() >= self.refuse_until:
            return False
        self.refused += 1
        return True

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[Repository]:
        async with self.inner.unit() as repo:
            yield _Refusing(repo, self)
        if self.lose_answers > 0:
            self.lose_answers -= 1
            self.lost += 1
            raise StorageFailure("OperationalError: disk I/O error (after the commit)")

    async def purge(self) -> None:
        await self.inner.purge()

    async def close(self) -> None:
        await self.inner.close()


class _Refusing:
    """A unit's repository whose writes fail while its store refuses them."""

    def __init__(self, repo: Repository, store: FaultyStore) -> None:
        self._repo = repo
        self._store = store

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._repo, name)
        if name not in self._store.targets:
            return method

        async def write(*args: Any, **kwargs: Any) -> Any:
            if self._store.delay > 0:
                await asyncio.sleep(self._store.delay)
            if self._store.held is not None:
                await self._store.held.wait()
            if self._store.refuses():
                raise StorageFailure("OperationalError: database is locked")
            return await method(*args, **kwargs)

        return write
