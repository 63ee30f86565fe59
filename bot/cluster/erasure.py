"""A person's erasure when several processes share one PostgreSQL.

The process that receives the request (``/rummy forget-me``) erases what it may: its own
shards' live games, through their sessions, and every game that is over, whatever its
server (history is in no process's memory, and the fencing lets it be anonymized). A
lobby or game in play on another process's shard is in that process's memory, and only it
may write it; so the receiver leaves a request per such shard (``erasure_requests``) and
NOTIFYs the shard's channel, and returns: the person is told their data is erased, and the
other servers' games end within a second or two.

Each process listens on the channels of the shards it holds, and on a request erases the
person as the receiver did, for its own shards (its sessions end the games and let go of
the person, then the store), and deletes the request. Requests of a shard nobody holds wait
in the table: a process sweeps the requests of every shard it gains (at start, on a
takeover), and sweeps again now and then in case a pass failed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from itertools import groupby

from bot.cluster.listening import ShardChannels, listen_on_held_shards
from bot.infrastructure.background import stop_tasks
from bot.sessions import SessionManager
from bot.storage.erasures import ErasureRequests, is_erasure
from bot.storage.postgres import PostgresStore
from bot.values.shards import Ownership

log = logging.getLogger(__name__)

SWEEP_EVERY = 30.0
"""Seconds between sweeps of the held shards' requests without a notification (a request
whose pass failed is tried again then)."""


class ErasureRelay:
    """Both sides for one process: :meth:`ask` (the session manager's
    :class:`~bot.sessions.manager.ErasureHandOff`) and the listening owner."""

    def __init__(
        self, requests: ErasureRequests, sessions: SessionManager, ownership: Ownership
    ) -> None:
        self.requests = requests
        self.sessions = sessions
        self.ownership = ownership
        self.carried_out = 0
        """Requests this process carried out."""
        self.listening = asyncio.Event()
        """Set while the listening connection follows the shards held."""
        self._task: asyncio.Task[None] | None = None
        self._asked = False
        self._swept = time.monotonic()

    async def ask(self, user_id: int, shards: frozenset[int]) -> None:
        await self.requests.ask(user_id, shards)

    def start(self) -> None:
        if self._task is None:
            channels = ShardChannels(
                "erasures", self.requests.listener, self._sweep_gained, self._heard, self._after
            )
            self._task = asyncio.get_running_loop().create_task(
                listen_on_held_shards(channels, self.ownership, self.listening), name="erasures"
            )

    async def close(self) -> None:
        task, self._task = self._task, None
        await stop_tasks(task)

    async def sweep(self, shards: frozenset[int]) -> int:
        """Carry out the requests waiting for ``shards`` (held by this process); returns how
        many. A request whose erasure fails stays, for a later sweep."""
        done = 0
        requests = sorted(await self.requests.pending(shards), key=lambda r: r.user_id)
        for user_id, group in groupby(requests, lambda r: r.user_id):
            try:
                report = await self.sessions.forget_here(user_id)
            except Exception:
                log.exception("the erasure of a person asked by another process failed")
                continue
            for request in group:
                await self.requests.done(request)
                done += 1
            log.info(
                "erased a person for another process: %d live games ended here",
                len(report.abandoned_games),
            )
        self.carried_out += done
        return done

    async def _sweep_gained(self, shards: frozenset[int]) -> None:
        await self.sweep(shards)

    async def _heard(self, payload: str) -> bool:
        """An erasure request ends the window: the shards are swept at once."""
        self._asked = self._asked or is_erasure(payload)
        return self._asked

    async def _after(self, held: frozenset[int]) -> None:
        if self._asked or time.monotonic() - self._swept > SWEEP_EVERY:
            self._asked, self._swept = False, time.monotonic()
            await self.sweep(held)


def erasure_relay_for(sessions: SessionManager) -> ErasureRelay | None:
    """The relay of a process on PostgreSQL, set as the sessions' hand-off; None on SQLite,
    where one process holds every game and erases them all itself."""
    store = sessions.store
    if not isinstance(store, PostgresStore):
        return None
    relay = ErasureRelay(ErasureRequests(store.pool, store.url), sessions, sessions.ownership)
    sessions.erasures = relay
    return relay
