"""Lobbies that close themselves: a lobby nobody joined, left or filled for
``Timing.lobby_idle`` minutes is called off, so an abandoned table never blocks its channel.

A :class:`LobbyWatch` belongs to one session. The deadline is computed from the stored time
of the lobby's last activity, so a restart waits only for what is left (and closes at once
a lobby that went idle while the bot was away). Like the turn timer, it never changes the
table itself: the closing goes through the session's :meth:`expire`, under its lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.sessions.events import Committed
from bot.sessions.timers import Timing
from bot.values.clock import utc_now


class IdleTable(Protocol):
    """What a lobby watch reads of its session, and the operation it acts through."""

    @property
    def game_id(self) -> int: ...
    @property
    def idle_since(self) -> datetime | None: ...
    def start_task(
        self, coro: Coroutine[Any, Any, Any], name: str | None = None
    ) -> asyncio.Task[Any]: ...
    async def expire(self, since: datetime) -> Committed | None: ...


class LobbyWatch:
    """Waits for one lobby's idle deadline (at most one wait; new activity replaces it)."""

    def __init__(self, table: IdleTable, timing: Timing) -> None:
        self._table = table
        self._timing = timing
        self._task: asyncio.Task[Any] | None = None
        self._since: datetime | None = None

    def deadline(self, since: datetime) -> datetime:
        """When a lobby last active at ``since`` closes."""
        return since + timedelta(seconds=self._timing.lobby_idle * self._timing.minute)

    def follow(self) -> None:
        """Wait from the lobby's last activity (called after every commit, under the
        session's lock); once it is dealt or closed, wait for nothing."""
        since = self._table.idle_since
        if since == self._since and self._task is not None and not self._task.done():
            return
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task, self._since = None, since
        if since is not None and self._timing.lobby_idle > 0:
            name = f"game-{self._table.game_id}-idle"
            self._task = self._table.start_task(self._wait(since), name=name)

    async def _wait(self, since: datetime) -> None:
        delay = (self.deadline(since) - utc_now()).total_seconds()
        if delay > 0:
            await asyncio.sleep(delay)
        await self._table.expire(since)
