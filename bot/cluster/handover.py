"""What a process does when its leases change: the games of shards taken over are loaded
(turn timers from their stored deadlines, computer players caught up), those of shards lost
are dropped without a write, and the launcher is told to reconnect Discord with the new set.
"""

from __future__ import annotations

import asyncio
import logging

from bot.sessions import SessionManager

log = logging.getLogger(__name__)


class Handover:
    """The :class:`~bot.cluster.leases.ShardEvents` of a process: its sessions follow its
    leases. ``changed`` is set after each change, for the launcher's reconnect."""

    def __init__(self, sessions: SessionManager) -> None:
        self._sessions = sessions
        self.changed = asyncio.Event()

    async def shards_gained(self, shards: frozenset[int]) -> None:
        try:
            loaded = await self._sessions.load_shards(shards)
            log.info("shards %s taken over; %d unfinished games loaded", sorted(shards), loaded)
        finally:
            self.changed.set()

    async def shards_lost(self, shards: frozenset[int]) -> None:
        try:
            await self._sessions.unload_shards(shards)
        finally:
            self.changed.set()
